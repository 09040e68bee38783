import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Page } from '@playwright/test';
import type { ButlerCar, ButlerRequestView } from '../../src/domain/butler';
import { prefillFromSearch, prefillToSearch } from '../../src/domain/butler-prefill';
import { addDays, todayInKorea } from '../../src/domain/dates';
import { expect, test } from './fixtures';
import { blockPostcode, mockPostcode } from './mocks/postcode';
import { apiAs, loginAs, newUser, nextAlert, waitForSite } from './users';
import { won } from '../../src/domain/money';

test.beforeAll(async ({ request }) => waitForSite(request));

const POSTCODE_DOWN = '주소 검색을 불러오지 못했습니다. 주소를 직접 입력해주세요.';

async function fleet(request: APIRequestContext): Promise<ButlerCar[]> {
  return (await (await request.get('/api/butlers/cars')).json()).data.cars;
}

/** A day 30–170 days ahead that the car has free (other specs book nearer days). */
function freeDay(car: ButlerCar): string {
  let day = addDays(todayInKorea(new Date()), 30 + Math.floor(Math.random() * 140));
  while (car.butler_reservated_dates.includes(day)) day = addDays(day, 1);
  return day;
}

async function requests(request: APIRequestContext, token: string): Promise<ButlerRequestView[]> {
  return (await apiAs(request, token, 'GET', '/butlers/requests')).body.data.butler_requests;
}

/** Picks an address in the (stand-in) postcode modal opened by a read-only field. */
async function pickAddress(page: Page, field: string, title: string, address: string) {
  await page.getByLabel(field, { exact: true }).click();
  const dialog = page.getByRole('dialog', { name: title });
  await dialog.getByRole('button', { name: new RegExp(address) }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByLabel(field, { exact: true })).toHaveValue(address);
}

/** Opens the form with every required value given through the prefill query (the fleet's and the chat's contract). */
async function openPrefilled(page: Page, car: ButlerCar, day: string) {
  const q = prefillToSearch({ carId: car.id, date: day, time: '14:00', origin: '서울 중구 세종대로 110', destination: '인천 중구 공항로 272', waypoints: ['서울 강남구 테헤란로 152'], passengers: 3, purpose: '공항 픽업', memo: '생수 준비 부탁드립니다' });
  await page.goto(`/butler/request?${q}`);
  await expect(page.getByLabel('출발 시간')).toHaveValue(`${day}T14:00`);
  return q;
}

test('a whole reservation: keyboard car choice, times, postcode addresses, waypoints, extras, coupon, points, card sandbox, completion; a reload creates nothing more', async ({ page, request, isMobile }) => {
  // The longest walk of the suite (every field, flight box, refund rules, card sandbox): more than the default on a busy machine.
  test.setTimeout(90_000);
  const cars = await fleet(request);
  const index = isMobile ? 1 : 0;
  const car = cars[index];
  const rate = car.butler_overtime_fee ?? Math.floor(car.butler_fee / 10);
  const day = freeDay(car);
  const tomorrow = addDays(todayInKorea(new Date()), 1);
  const user = await newUser(request, { points: 100_000, coupons: ['BUTLER50', 'BUTLERVIP', 'WELCOME10'] });
  await loginAs(page, user.token);
  await mockPostcode(page);
  await page.goto('/butler/request');

  // Defaults: tomorrow 09:00 to 17:00; required values missing, said only after a touch or a submit.
  await expect(page.getByLabel('출발 시간')).toHaveValue(`${tomorrow}T09:00`);
  await expect(page.getByLabel('도착 시간 (선택)')).toHaveValue(`${tomorrow}T17:00`);
  await expect(page.getByText('필수 값을 모두 입력해주세요.')).toBeHidden();
  const submit = page.getByRole('button', { name: '예약 요청하기' });
  await expect(submit).toBeDisabled();

  // The car dropdown, by keyboard: ArrowDown opens, arrows move, Escape closes unchanged, Enter chooses.
  const picker = page.getByTestId('car-picker');
  await picker.focus();
  await page.keyboard.press('ArrowDown');
  const options = page.getByTestId('car-options');
  await expect(options).toBeVisible();
  await expect(options).toHaveCSS('max-height', '300px');
  await expect(options.getByRole('option')).toHaveCount(cars.length);
  await expect(options.getByRole('option').first()).toContainText(`${cars[0].model.brand.name}${cars[0].model.name}${cars[0].sub_model}${won(cars[0].butler_fee)}~`);
  await page.keyboard.press('End');
  await page.keyboard.press('Escape');
  await expect(options).toBeHidden();
  await expect(picker).toBeFocused();
  await expect(picker).toContainText('차량을 선택해주세요');
  await page.keyboard.press('ArrowDown');
  for (let i = 0; i < index; i++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(options).toBeHidden();
  await expect(picker).toContainText(`${car.model.name}`);
  await expect(picker).toContainText(won(car.butler_fee) + '~');

  // A new start moves the end to start + 8 h; a later end is 2.5 h over = 3 overtime hours.
  await page.getByLabel('출발 시간').fill(`${day}T10:00`);
  await expect(page.getByLabel('도착 시간 (선택)')).toHaveValue(`${day}T18:00`);
  await page.getByLabel('도착 시간 (선택)').fill(`${day}T20:30`);

  await pickAddress(page, '출발지', '출발지 주소 검색', '서울 강남구 테헤란로 152');
  // The arrival field opens from the keyboard too.
  await page.getByLabel('도착지', { exact: true }).focus();
  await page.keyboard.press('Enter');
  await page.getByRole('dialog', { name: '도착지 주소 검색' }).getByRole('button', { name: /인천 중구 공항로 272/ }).click();
  await expect(page.getByLabel('도착지', { exact: true })).toHaveValue('인천 중구 공항로 272');

  await page.getByRole('button', { name: '+ 경유지 추가' }).click();
  await page.getByRole('button', { name: '+ 경유지 추가' }).click();
  await expect(page.getByTestId('waypoint-row')).toHaveCount(2);
  await pickAddress(page, '경유지 1', '경유지 주소 검색', '서울 중구 세종대로 110');
  await page.getByLabel('경유지 1 시간').fill(`${day}T12:00`);
  await page.getByRole('button', { name: '경유지 2 삭제' }).click();
  await expect(page.getByTestId('waypoint-row')).toHaveCount(1);

  // Passengers 1–20: the box shows the count used, with a note.
  const passengers = page.getByLabel('탑승 인원');
  await passengers.fill('25');
  await passengers.blur();
  await expect(passengers).toHaveValue('20');
  await expect(page.getByText('최대 20명까지 가능합니다.')).toBeVisible();
  await passengers.fill('3');
  await page.getByLabel('이용 목적').fill('비즈니스 미팅');
  await page.getByLabel('여성').check();
  await page.getByLabel('메모').fill('VIP 2명, 짐 많음');
  // The flight of an airport pickup: a wrong one is flagged on leaving the box, a right one is written as airlines print it.
  const flight = page.getByLabel('항공편명 (공항 픽업 시, 선택)');
  await flight.fill('대한항공');
  await flight.blur();
  await expect(page.locator('#flight-error')).toHaveText('항공편명은 항공사 코드 2자리와 숫자 1~4자리로 입력해주세요. (예: KE123, OZ1085, 7C1101)');
  await expect(flight).toHaveAttribute('aria-invalid', 'true');
  await flight.fill('ke 123');
  await flight.blur();
  await expect(flight).toHaveValue('KE123');
  await expect(flight).not.toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText('필수 값을 모두 입력해주세요.')).toBeHidden();
  await expect(submit).toBeEnabled();
  // The refund rules are on the form before paying (the policy the server refunds by).
  const formRules = page.getByRole('region', { name: '취소·환불 규정' }).first();
  await expect(formRules).toContainText('이용 시작 24시간 전까지 취소하면 결제 금액 전액을 환불합니다.');
  await expect(formRules).toContainText('결제 금액의 50%를 환불합니다.');

  // Coupons: BUTLER ones that admit the base fee (BUTLERVIP needs 1,000,000–2,000,000), never the subscription's.
  await page.getByRole('button', { name: '쿠폰 선택 안 함' }).click();
  const coupons = page.getByTestId('coupon-options');
  await expect(coupons.getByRole('option')).toHaveCount(car.butler_fee >= 1_000_000 ? 3 : 2);
  await expect(coupons).not.toContainText('웰컴');
  await coupons.getByRole('option', { name: /의전 5만원 할인/ }).click();

  // Points: digits, the 만원 hint, +1만 / -1만 / 전액.
  const points = page.getByLabel('사용할 포인트');
  await expect(page.getByTestId('point-balance')).toHaveText('100,000 P');
  await points.fill('15000');
  await expect(page.getByText('만원 단위로 입력해주세요')).toBeVisible();
  await page.getByRole('button', { name: '+1만' }).click();
  await expect(points).toHaveValue('20000');
  await page.getByRole('button', { name: '-1만' }).click();
  await expect(points).toHaveValue('10000');
  await page.getByRole('button', { name: '전액' }).click();
  await expect(points).toHaveValue('100000');
  await points.fill('30000');
  await expect(page.getByText('만원 단위로 입력해주세요')).toBeHidden();

  const total = car.butler_fee + 3 * rate;
  const final = total - 50_000 - 30_000;
  await expect(page.getByTestId('fee-base')).toHaveText(won(car.butler_fee));
  await expect(page.getByTestId('fee-summary')).toContainText(`초과 요금 (3시간 × ${won(rate)})`);
  await expect(page.getByTestId('fee-overtime')).toHaveText(won(3 * rate));
  await expect(page.getByTestId('fee-coupon')).toHaveText(`-${won(50_000)}`);
  await expect(page.getByTestId('fee-points')).toHaveText(`-${won(30_000)}`);
  await expect(page.getByTestId('fee-final')).toHaveText(won(final));

  // The card dialog: cancel, then agree.
  await submit.click();
  const cardDialog = page.getByRole('dialog', { name: '정기결제(카드 등록)' });
  await expect(cardDialog).toContainText(won(final));
  // …and in the card dialog, before agreeing to pay.
  await expect(cardDialog.getByRole('region', { name: '취소·환불 규정' })).toContainText('결제 금액의 50%를 환불합니다.');
  await cardDialog.getByRole('button', { name: '취소' }).click();
  await expect(cardDialog).toBeHidden();
  await submit.click();
  await cardDialog.getByRole('button', { name: '동의하고 진행' }).click();
  await expect(page.getByText('테스트 환경 · 실제 결제가 아닙니다')).toBeVisible();
  expect(JSON.parse((await page.evaluate(() => sessionStorage.getItem('butlerReservationDraft')))!).payload).toMatchObject({ car_id: car.id, point_amount: 30_000 });

  let returnUrl = '';
  const back = page.waitForURL((u) => (u.searchParams.has('billingKey') ? ((returnUrl = u.href), true) : false));
  await page.getByRole('button', { name: /승인/ }).click();
  await back;
  const done = page.getByRole('dialog', { name: '신청이 완료되었습니다' });
  // The spec's sentence stays; the line above it says the card was charged.
  await expect(done).toContainText('입금 확인 후 담당자가 연락드릴 예정입니다.');
  await expect(done.getByTestId('charged-sentence')).toHaveText(/^등록하신 카드로 [\d,]+원이 결제되었습니다\.$/);
  await expect(page).not.toHaveURL(/billingKey=/);
  const billingKey = new URL(returnUrl).searchParams.get('billingKey')!;

  const [made] = await requests(request, user.token);
  expect(await requests(request, user.token)).toHaveLength(1);
  expect(made.car.id).toBe(car.id);
  expect(made.flight_number).toBe('KE123');
  expect(new Date(made.start_at).toISOString()).toBe(new Date(`${day}T10:00:00+09:00`).toISOString());
  expect(new Date(made.end_at!).toISOString()).toBe(new Date(`${day}T20:30:00+09:00`).toISOString());
  expect(made).toMatchObject({ start_location: '서울 강남구 테헤란로 152', end_location: '인천 중구 공항로 272', passenger_count: 3, purpose: '비즈니스 미팅', memo: 'VIP 2명, 짐 많음', driver_preference: 'female', point_used: 30_000, overtime_hours: 3, final_price: final });
  expect(made.coupon?.coupon.code).toBe('BUTLER50');
  expect(made.way_points.map((w) => [w.address, new Date(w.scheduled_time!).toISOString()])).toEqual([['서울 중구 세종대로 110', new Date(`${day}T12:00:00+09:00`).toISOString()]]);
  expect(await page.evaluate((k) => [sessionStorage.getItem('butlerReservationDraft'), sessionStorage.getItem(`butlerReservationSubmitted:${k}`)], billingKey)).toEqual([null, 'done']);

  // The same return again shows the completion and creates nothing.
  await page.goto(returnUrl);
  await expect(page.getByRole('dialog', { name: '신청이 완료되었습니다' })).toBeVisible();
  expect(await requests(request, user.token)).toHaveLength(1);
  expect((await apiAs(request, user.token, 'GET', '/accounts')).body.data.point).toBe(70_000);
  await page.getByRole('dialog', { name: '신청이 완료되었습니다' }).getByRole('button', { name: '확인' }).click();
  await expect(page).toHaveURL(/\/my\/?$/);
});

test('a car and day from the fleet or the chat are preselected; visitors must log in to submit and come back to what they typed', async ({ page, request }) => {
  const cars = await fleet(request);
  const car = cars[2];
  const day = freeDay(car);
  const q = await openPrefilled(page, car, day);
  await expect(page.getByTestId('car-picker')).toContainText(car.model.name);
  await expect(page.getByLabel('도착 시간 (선택)')).toHaveValue(`${day}T22:00`);
  await expect(page.getByLabel('출발지', { exact: true })).toHaveValue('서울 중구 세종대로 110');
  await expect(page.getByLabel('도착지', { exact: true })).toHaveValue('인천 중구 공항로 272');
  await expect(page.getByLabel('경유지 1', { exact: true })).toHaveValue('서울 강남구 테헤란로 152');
  await expect(page.getByLabel('탑승 인원')).toHaveValue('3');
  await expect(page.getByLabel('이용 목적')).toHaveValue('공항 픽업');
  await expect(page.getByLabel('메모')).toHaveValue('생수 준비 부탁드립니다');
  await expect(page.getByText('로그인하면 쿠폰과 포인트를 사용할 수 있습니다.')).toBeVisible();
  await expect(page.getByTestId('fee-final')).toHaveText(won(car.butler_fee));

  const alert = nextAlert(page);
  await page.getByRole('button', { name: '예약 요청하기' }).click();
  expect(await alert).toBe('로그인이 필요합니다.');
  await expect(page).toHaveURL(/\/login\/?$/);
  // The way back is the page as opened; what was typed waits in the tab's draft, made from that link (tests/e2e/butler-form-draft.spec.ts logs in).
  expect(await page.evaluate(() => localStorage.getItem('redirectAfterLogin'))).toBe(`/butler/request?${prefillToSearch(prefillFromSearch(q))}`);
  const draft = JSON.parse((await page.evaluate(() => sessionStorage.getItem('butlerReservationForm')))!);
  expect(draft.source).toBe(prefillToSearch(prefillFromSearch(q)));
  expect(draft.form).toMatchObject({ carId: car.id, start: `${day}T14:00`, end: `${day}T22:00`, startLocation: '서울 중구 세종대로 110', passengers: '3', memo: '생수 준비 부탁드립니다' });
});

test('an unknown car from a link is not preselected and blocks the submit', async ({ page }) => {
  await page.goto(`/butler/request?${prefillToSearch({ carId: 99_999, origin: '서울 중구 세종대로 110', destination: '인천 중구 공항로 272' })}`);
  await expect(page.getByLabel('출발지', { exact: true })).toHaveValue('서울 중구 세종대로 110');
  await expect(page.getByTestId('car-picker')).toContainText('차량을 선택해주세요');
  // No error on arrival; the button is disabled (aria-disabled, still operable) and a press says what is missing.
  await expect(page.getByText('필수 값을 모두 입력해주세요.')).toBeHidden();
  const submit = page.getByRole('button', { name: '예약 요청하기' });
  await expect(submit).toBeDisabled();
  await submit.click({ force: true });
  await expect(page.getByRole('alert')).toContainText('필수 값을 모두 입력해주세요.');
  await expect(page.getByRole('alert')).toContainText('입력이 필요한 항목: 차량');
  await expect(page.getByRole('dialog', { name: '정기결제(카드 등록)' })).toBeHidden();
});

test('a start in the past is refused before the card step', async ({ page, request }) => {
  const [car] = await fleet(request);
  const user = await newUser(request);
  await loginAs(page, user.token);
  await openPrefilled(page, car, freeDay(car));
  const yesterday = addDays(todayInKorea(new Date()), -1);
  await page.getByLabel('출발 시간').fill(`${yesterday}T09:00`);
  await expect(page.getByTestId('trip-problems')).toContainText('출발 시간은 현재 시각 이후로 선택해주세요.');
  await page.getByRole('button', { name: '예약 요청하기' }).click();
  await expect(page.getByRole('alert')).toHaveText('출발 시간은 현재 시각 이후로 선택해주세요.');
  await expect(page.getByRole('dialog', { name: '정기결제(카드 등록)' })).toBeHidden();
});

test('a refused card registration alerts the provider message, keeps the form and creates nothing', async ({ page, request }) => {
  const cars = await fleet(request);
  const car = cars[3];
  const user = await newUser(request, { points: 50_000 });
  await loginAs(page, user.token);
  const day = freeDay(car);
  await openPrefilled(page, car, day);
  await page.getByLabel('사용할 포인트').fill('50000');
  await page.getByRole('button', { name: '예약 요청하기' }).click();
  await page.getByRole('dialog', { name: '정기결제(카드 등록)' }).getByRole('button', { name: '동의하고 진행' }).click();
  const alert = nextAlert(page);
  await page.getByRole('button', { name: /실패/ }).click();
  expect(await alert).toBe('정기결제 등록 실패: 테스트 결제창에서 카드 등록이 거절되었습니다.');
  await expect(page).toHaveURL(/\/butler\/request\/?$/);
  await expect(page.getByLabel('출발 시간')).toHaveValue(`${day}T14:00`);
  await expect(page.getByLabel('출발지', { exact: true })).toHaveValue('서울 중구 세종대로 110');
  await expect(page.getByLabel('사용할 포인트')).toHaveValue('50000');
  expect(await requests(request, user.token)).toHaveLength(0);
});

test('a refusal after the card is registered shows 결제 완료 후 예약 처리에 실패했습니다. and the server message', async ({ page, request }) => {
  const cars = await fleet(request);
  const user = await newUser(request);
  await loginAs(page, user.token);
  await page.route('**/api/butlers/cars/*/request', (route) =>
    route.fulfill({ status: 409, contentType: 'application/json', body: JSON.stringify({ code: 1109, message: '선택한 날짜에 이미 예약된 차량입니다.', errors: {} }) }),
  );
  await openPrefilled(page, cars[4], freeDay(cars[4]));
  await page.getByRole('button', { name: '예약 요청하기' }).click();
  await page.getByRole('dialog', { name: '정기결제(카드 등록)' }).getByRole('button', { name: '동의하고 진행' }).click();
  const alert = nextAlert(page);
  await page.getByRole('button', { name: /승인/ }).click();
  expect(await alert).toBe('결제 완료 후 예약 처리에 실패했습니다.');
  await expect(page.getByRole('alert').filter({ hasText: '예약 요청에 실패했습니다.' })).toHaveText('예약 요청에 실패했습니다. 선택한 날짜에 이미 예약된 차량입니다.');
  await expect(page.getByRole('dialog', { name: '신청이 완료되었습니다' })).toBeHidden();
});

test.describe('postcode service down', () => {
  // react-daum-postcode logs the failed script load itself (console.error of the load Event).
  test.use({ allowConsoleErrors: [/^Event$/] });
  test('the address modal says the service is unavailable', async ({ page }) => {
    await blockPostcode(page);
    await page.goto('/butler/request');
    await expect(page.getByLabel('출발 시간')).toHaveValue(/T09:00$/);
    await expect(page.getByText('필수 값을 모두 입력해주세요.')).toBeHidden();
    await page.getByLabel('출발지', { exact: true }).click();
    const dialog = page.getByRole('dialog', { name: '출발지 주소 검색' });
    await expect(dialog.getByRole('alert')).toHaveText(POSTCODE_DOWN);
    await dialog.getByRole('button', { name: '닫기' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByLabel('출발지', { exact: true })).toHaveValue('');
  });
});

test('the form has no horizontal overflow and no serious axe violation, with the address modal open too', async ({ page, request }) => {
  const [car] = await fleet(request);
  await mockPostcode(page);
  await openPrefilled(page, car, freeDay(car));
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
  const axe = async () => {
    const { violations } = await new AxeBuilder({ page }).analyze();
    return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
  };
  expect(await axe()).toEqual([]);
  await page.getByLabel('도착지', { exact: true }).click();
  await expect(page.getByRole('dialog', { name: '도착지 주소 검색' }).getByRole('button', { name: /공항로/ })).toBeVisible();
  expect(await axe()).toEqual([]);
});
