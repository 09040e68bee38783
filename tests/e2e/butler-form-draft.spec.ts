import type { APIRequestContext, Page } from '@playwright/test';
import type { ButlerCar } from '../../src/domain/butler';
import { prefillToSearch } from '../../src/domain/butler-prefill';
import { addDays, todayInKorea } from '../../src/domain/dates';
import { placeButler } from './butler-users';
import { expect, test } from './fixtures';
import { mockPostcode } from './mocks/postcode';
import { apiAs, loginAs, newUser, nextAlert, signupUser, waitForSite } from './users';
import { won } from '../../src/domain/money';

/**
 * The reservation form keeps what the user typed (session storage, butlerReservationForm)
 * across a reload, the login round trip and a refused card, until the booking succeeds or
 * 입력 초기화; inputs are clamped visibly; errors wait for a touch or a submit; the loser of a
 * race for a day is told nothing was charged. Runs in the desktop and the mobile project.
 */

test.beforeAll(async ({ request }) => waitForSite(request));

const DRAFT_KEY = 'butlerReservationForm';
const REQUIRED = '필수 값을 모두 입력해주세요.';

async function fleet(request: APIRequestContext): Promise<ButlerCar[]> {
  return (await (await request.get('/api/butlers/cars')).json()).data.cars;
}

/** A car for this test and project: each test and project takes its own, so parallel runs rarely meet. */
function carFor(cars: ButlerCar[], slot: number, isMobile: boolean): ButlerCar {
  return cars[(slot * 2 + (isMobile ? 1 : 0)) % cars.length];
}

/** A day 20–170 days ahead that the car has free. */
function freeDay(car: ButlerCar, after?: string): string {
  let day = addDays(todayInKorea(new Date()), 20 + Math.floor(Math.random() * 150));
  while (car.butler_reservated_dates.includes(day) || day === after) day = addDays(day, 1);
  return day;
}

/** Opens the form and waits until it has hydrated and chosen its opening state (the start time is filled in then). */
async function open(page: Page, path = '/butler/request') {
  await page.goto(path);
  await expect(page.getByLabel('출발 시간')).toHaveValue(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/);
}

async function pickCar(page: Page, car: ButlerCar) {
  await page.getByTestId('car-picker').click();
  await page.getByTestId('car-options').locator(`#car-option-${car.id}`).click();
  await expect(page.getByTestId('car-picker')).toContainText(car.model.name);
}

async function pickAddress(page: Page, field: string, title: string, address: string) {
  await page.getByLabel(field, { exact: true }).click();
  const dialog = page.getByRole('dialog', { name: title });
  await dialog.getByRole('button', { name: new RegExp(address) }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByLabel(field, { exact: true })).toHaveValue(address);
}

interface Trip {
  car: ButlerCar;
  day: string;
  driver: '남성' | '여성';
}

/** Everything but the coupon and points, typed by hand. */
async function fillTrip(page: Page, { car, day, driver }: Trip) {
  await pickCar(page, car);
  await page.getByLabel('출발 시간').fill(`${day}T10:00`);
  await expect(page.getByLabel('도착 시간 (선택)')).toHaveValue(`${day}T18:00`);
  await page.getByLabel('도착 시간 (선택)').fill(`${day}T20:30`);
  await pickAddress(page, '출발지', '출발지 주소 검색', '서울 강남구 테헤란로 152');
  await pickAddress(page, '도착지', '도착지 주소 검색', '인천 중구 공항로 272');
  await page.getByRole('button', { name: '+ 경유지 추가' }).click();
  await pickAddress(page, '경유지 1', '경유지 주소 검색', '서울 중구 세종대로 110');
  await page.getByLabel('경유지 1 시간').fill(`${day}T12:00`);
  await page.getByLabel('탑승 인원').fill('3');
  await page.getByLabel('이용 목적').fill('비즈니스 미팅');
  await page.getByLabel(driver, { exact: true }).check();
  await page.getByLabel('메모').fill('VIP 2명, 짐 많음');
}

async function expectTrip(page: Page, { car, day, driver }: Trip) {
  await expect(page.getByTestId('car-picker')).toContainText(car.model.name);
  await expect(page.getByLabel('출발 시간')).toHaveValue(`${day}T10:00`);
  await expect(page.getByLabel('도착 시간 (선택)')).toHaveValue(`${day}T20:30`);
  await expect(page.getByLabel('출발지', { exact: true })).toHaveValue('서울 강남구 테헤란로 152');
  await expect(page.getByLabel('도착지', { exact: true })).toHaveValue('인천 중구 공항로 272');
  await expect(page.getByTestId('waypoint-row')).toHaveCount(1);
  await expect(page.getByLabel('경유지 1', { exact: true })).toHaveValue('서울 중구 세종대로 110');
  await expect(page.getByLabel('경유지 1 시간')).toHaveValue(`${day}T12:00`);
  await expect(page.getByLabel('탑승 인원')).toHaveValue('3');
  await expect(page.getByLabel('이용 목적')).toHaveValue('비즈니스 미팅');
  await expect(page.getByLabel(driver, { exact: true })).toBeChecked();
  await expect(page.getByLabel('메모')).toHaveValue('VIP 2명, 짐 많음');
}

/** The coupon BUTLER50 and 30,000 points. */
async function fillDiscounts(page: Page) {
  await page.getByRole('button', { name: '쿠폰 선택 안 함' }).click();
  await page.getByTestId('coupon-options').getByRole('option', { name: /의전 5만원 할인/ }).click();
  await page.getByLabel('사용할 포인트').fill('30000');
}

async function expectDiscounts(page: Page, car: ButlerCar) {
  const rate = car.butler_overtime_fee ?? Math.floor(car.butler_fee / 10);
  await expect(page.getByTestId('fee-coupon')).toHaveText(`-${won(50_000)}`);
  await expect(page.getByLabel('사용할 포인트')).toHaveValue('30000');
  await expect(page.getByTestId('fee-points')).toHaveText(`-${won(30_000)}`);
  await expect(page.getByTestId('fee-final')).toHaveText(won(car.butler_fee + 3 * rate - 80_000));
}

const savedDraft = (page: Page) => page.evaluate((k) => sessionStorage.getItem(k), DRAFT_KEY);

/** Every browser alert of the page from now on (accepted). */
function alertsOf(page: Page): string[] {
  const seen: string[] = [];
  page.on('dialog', (d) => {
    seen.push(d.message());
    void d.accept();
  });
  return seen;
}

test('a reload keeps every field, end time, waypoint times, driver, coupon and points included; 입력 초기화 clears it', async ({ page, request, isMobile }) => {
  const car = carFor(await fleet(request), 0, isMobile);
  const trip: Trip = { car, day: freeDay(car), driver: '여성' };
  const user = await newUser(request, { points: 100_000, coupons: ['BUTLER50'] });
  await loginAs(page, user.token);
  await mockPostcode(page);
  await open(page);
  await expect(page.getByTestId('point-balance')).toHaveText('100,000 P');

  await fillTrip(page, trip);
  await fillDiscounts(page);
  await expectDiscounts(page, car);
  expect(JSON.parse((await savedDraft(page))!).form).toMatchObject({ carId: car.id, end: `${trip.day}T20:30`, driver: 'female', points: '30000' });

  await page.reload();
  await expectTrip(page, trip);
  await expectDiscounts(page, car);
  await expect(page.getByText(REQUIRED)).toBeHidden();
  await expect(page.getByRole('button', { name: '예약 요청하기' })).toBeEnabled();

  // 입력 초기화 asks first; 취소 keeps everything.
  await page.getByRole('button', { name: '입력 초기화' }).click();
  const confirm = page.getByRole('dialog', { name: '입력 초기화' });
  await confirm.getByRole('button', { name: '취소' }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByLabel('메모')).toHaveValue('VIP 2명, 짐 많음');
  await page.getByRole('button', { name: '입력 초기화' }).click();
  await confirm.getByRole('button', { name: '초기화' }).click();

  const tomorrow = addDays(todayInKorea(new Date()), 1);
  const expectFresh = async () => {
    await expect(page.getByTestId('car-picker')).toContainText('차량을 선택해주세요');
    await expect(page.getByLabel('출발 시간')).toHaveValue(`${tomorrow}T09:00`);
    await expect(page.getByLabel('도착 시간 (선택)')).toHaveValue(`${tomorrow}T17:00`);
    await expect(page.getByLabel('출발지', { exact: true })).toHaveValue('');
    await expect(page.getByTestId('waypoint-row')).toHaveCount(0);
    await expect(page.getByLabel('탑승 인원')).toHaveValue('1');
    await expect(page.getByLabel('메모')).toHaveValue('');
    await expect(page.getByLabel('상관없음', { exact: true })).toBeChecked();
    await expect(page.getByLabel('사용할 포인트')).toHaveValue('');
    await expect(page.getByText(REQUIRED)).toBeHidden();
  };
  await expectFresh();
  expect(await savedDraft(page)).toBeNull();
  await page.reload();
  await expectFresh();
});

test('a visitor who fills the form, submits and logs in comes back to the same form; a new chat link then takes precedence', async ({ page, request, isMobile }) => {
  const car = carFor(await fleet(request), 1, isMobile);
  const trip: Trip = { car, day: freeDay(car), driver: '남성' };
  const account = await signupUser(request);
  await mockPostcode(page);
  await open(page);
  await expect(page.getByText('로그인하면 쿠폰과 포인트를 사용할 수 있습니다.')).toBeVisible();
  await fillTrip(page, trip);

  const alert = nextAlert(page);
  await page.getByRole('button', { name: '예약 요청하기' }).click();
  expect(await alert).toBe('로그인이 필요합니다.');
  await expect(page).toHaveURL(/\/login\/?$/);
  // The login button is enabled once the form has hydrated (typing before would be lost).
  await expect(page.getByRole('button', { name: '로그인', exact: true })).toBeEnabled();
  await page.getByLabel('이메일').fill(account.person.email);
  await page.getByLabel('비밀번호').fill(account.person.password);
  await page.getByRole('button', { name: '로그인', exact: true }).click();

  await expect(page).toHaveURL(/\/butler\/request\/?$/);
  await expectTrip(page, trip);
  // Logged in now: coupons and points are offered, nothing else moved.
  await expect(page.getByTestId('point-balance')).toBeVisible();
  await expect(page.getByText(REQUIRED)).toBeHidden();

  // A link from the chat assistant wins over the old draft where it says something.
  const other = carFor(await fleet(request), 2, isMobile);
  const chatDay = freeDay(other, trip.day);
  await open(page, `/butler/request?${prefillToSearch({ carId: other.id, date: chatDay, time: '14:00', origin: '서울 중구 세종대로 110', destination: '인천 중구 공항로 272', passengers: 5, purpose: '공항 픽업' })}`);
  await expect(page.getByTestId('car-picker')).toContainText(other.model.name);
  await expect(page.getByLabel('출발 시간')).toHaveValue(`${chatDay}T14:00`);
  await expect(page.getByLabel('출발지', { exact: true })).toHaveValue('서울 중구 세종대로 110');
  await expect(page.getByLabel('탑승 인원')).toHaveValue('5');
  await expect(page.getByLabel('이용 목적')).toHaveValue('공항 픽업');
  // A reload of that link keeps the user's own edits.
  await page.getByLabel('메모').fill('챗봇 예약 후 수정');
  await page.reload();
  await expect(page.getByLabel('메모')).toHaveValue('챗봇 예약 후 수정');
  await expect(page.getByLabel('출발 시간')).toHaveValue(`${chatDay}T14:00`);
});

test('a refused card keeps the whole form, across a reload too; the next card books it and the draft is gone', async ({ page, request, isMobile }) => {
  const car = carFor(await fleet(request), 3, isMobile);
  const trip: Trip = { car, day: freeDay(car), driver: '여성' };
  const user = await newUser(request, { points: 100_000, coupons: ['BUTLER50'] });
  await loginAs(page, user.token);
  await mockPostcode(page);
  await open(page);
  await fillTrip(page, trip);
  await fillDiscounts(page);
  await expectDiscounts(page, car);

  const submit = page.getByRole('button', { name: '예약 요청하기' });
  const cardDialog = page.getByRole('dialog', { name: '정기결제(카드 등록)' });
  await submit.click();
  await cardDialog.getByRole('button', { name: '동의하고 진행' }).click();
  const alert = nextAlert(page);
  await page.getByRole('button', { name: /실패/ }).click();
  expect(await alert).toBe('정기결제 등록 실패: 테스트 결제창에서 카드 등록이 거절되었습니다.');
  await expect(page).toHaveURL(/\/butler\/request\/?$/);
  await expectTrip(page, trip);
  await expectDiscounts(page, car);
  await page.reload();
  await expectTrip(page, trip);
  await expectDiscounts(page, car);
  expect((await apiAs(request, user.token, 'GET', '/butlers/requests')).body.data.butler_requests).toHaveLength(0);

  await submit.click();
  await cardDialog.getByRole('button', { name: '동의하고 진행' }).click();
  await page.getByRole('button', { name: /승인/ }).click();
  await expect(page.getByRole('dialog', { name: '신청이 완료되었습니다' })).toBeVisible();
  const [made] = (await apiAs(request, user.token, 'GET', '/butlers/requests')).body.data.butler_requests;
  expect(made).toMatchObject({ driver_preference: 'female', point_used: 30_000, passenger_count: 3 });
  expect(new Date(made.end_at).toISOString()).toBe(new Date(`${trip.day}T20:30:00+09:00`).toISOString());
  expect(await savedDraft(page)).toBeNull();
  expect(await page.evaluate(() => sessionStorage.getItem('butlerReservationDraft'))).toBeNull();

  // A new visit starts fresh.
  await open(page);
  await expect(page.getByTestId('car-picker')).toContainText('차량을 선택해주세요');
  await expect(page.getByLabel('메모')).toHaveValue('');
  await expect(page.getByLabel('출발 시간')).toHaveValue(`${addDays(todayInKorea(new Date()), 1)}T09:00`);
});

test('inputs are clamped visibly: 25 passengers shows 20, points above the usable limit show the limit', async ({ page, request, isMobile }) => {
  const car = carFor(await fleet(request), 4, isMobile);
  const user = await newUser(request, { points: 50_000 });
  await loginAs(page, user.token);
  await open(page, `/butler/request?${prefillToSearch({ carId: car.id, date: freeDay(car), origin: '서울 중구 세종대로 110', destination: '인천 중구 공항로 272' })}`);
  await expect(page.getByTestId('point-balance')).toHaveText('50,000 P');

  const passengers = page.getByLabel('탑승 인원');
  await passengers.fill('');
  await passengers.pressSequentially('25');
  await expect(passengers).toHaveValue('20');
  await expect(page.getByTestId('passengers-note')).toHaveText('최대 20명까지 가능합니다.');
  await passengers.fill('0');
  await expect(passengers).toHaveValue('1');
  await expect(page.getByTestId('passengers-note')).toHaveText('최소 1명부터 가능합니다.');
  await passengers.fill('7');
  await expect(page.getByTestId('passengers-note')).toBeHidden();
  await passengers.fill('');
  await passengers.blur();
  await expect(passengers).toHaveValue('1');

  const points = page.getByLabel('사용할 포인트');
  await points.fill('9999999');
  await expect(points).toHaveValue('50000');
  await expect(page.getByTestId('points-note')).toHaveText('최대 50,000 P까지 사용할 수 있습니다.');
  await expect(page.getByTestId('fee-points')).toHaveText(`-${won(50_000)}`);
  await points.fill('20000');
  await expect(page.getByTestId('points-note')).toBeHidden();
  await expect(page.getByTestId('fee-points')).toHaveText(`-${won(20_000)}`);

  // What the box shows is what is booked with.
  await page.getByLabel('탑승 인원').fill('25');
  await page.reload();
  await expect(page.getByLabel('탑승 인원')).toHaveValue('20');
  await expect(points).toHaveValue('20000');
});

test('a fresh form shows no error; a touch or a submit does, and names what is missing', async ({ page, request, isMobile }) => {
  const car = carFor(await fleet(request), 5, isMobile);
  await mockPostcode(page);
  await open(page);
  const submit = page.getByRole('button', { name: '예약 요청하기' });
  await expect(page.getByLabel('출발 시간')).toHaveValue(`${addDays(todayInKorea(new Date()), 1)}T09:00`);
  await expect(page.getByText(REQUIRED)).toBeHidden();
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(submit).toBeDisabled();

  // A submit (the button stays operable, aria-disabled) says what is missing and goes to the first of it.
  await submit.click({ force: true });
  const missing = page.getByTestId('missing-required');
  await expect(missing).toHaveRole('alert');
  await expect(missing).toContainText(REQUIRED);
  await expect(missing).toContainText('입력이 필요한 항목: 차량, 출발지, 도착지');
  await expect(page.getByTestId('car-picker')).toBeFocused();
  await pickCar(page, car);
  await expect(missing).toContainText('입력이 필요한 항목: 출발지, 도착지');

  // A fresh form again (no draft): a touch of one field shows the message.
  await page.evaluate(() => sessionStorage.clear());
  await open(page);
  await expect(page.getByText(REQUIRED)).toBeHidden();
  await page.getByLabel('이용 목적').fill('웨딩');
  await expect(page.getByTestId('missing-required')).toContainText(REQUIRED);
  await expect(page.getByTestId('missing-required')).toHaveRole('status');
});

test('the loser of a race for the day is told it was just taken, that nothing was charged, and is offered other days and cars', async ({ page, request, isMobile }) => {
  const car = carFor(await fleet(request), 6, isMobile);
  const day = freeDay(car);
  const user = await newUser(request, { points: 20_000 });
  await loginAs(page, user.token);
  await open(page, `/butler/request?${prefillToSearch({ carId: car.id, date: day, time: '10:00', origin: '서울 중구 세종대로 110', destination: '인천 중구 공항로 272' })}`);
  await page.getByLabel('사용할 포인트').fill('20000');
  await page.getByLabel('남성', { exact: true }).check();
  await expect(page.getByTestId('fee-points')).toHaveText(`-${won(20_000)}`);

  // Someone else books the car that day while this form is open.
  const rival = await newUser(request);
  const theirs = await placeButler(request, rival.token, { day, carIds: [car.id], start: '15:00', end: '20:00' });
  expect(theirs.day).toBe(day);

  const alerts = alertsOf(page);
  await page.getByRole('button', { name: '예약 요청하기' }).click();
  await page.getByRole('dialog', { name: '정기결제(카드 등록)' }).getByRole('button', { name: '동의하고 진행' }).click();
  await page.getByRole('button', { name: /승인/ }).click();

  const notice = page.getByTestId('day-taken');
  await expect(notice).toBeVisible();
  await expect(notice).toContainText('방금 다른 고객이 선택하신 날짜를 먼저 예약했습니다.');
  await expect(notice).toContainText('결제되지 않았습니다');
  await expect(notice).not.toContainText('결제 완료');
  await expect(notice.getByRole('link', { name: '차량별 예약 현황 보기' })).toHaveAttribute('href', '/fleet');
  await expect(page.getByRole('dialog', { name: '신청이 완료되었습니다' })).toBeHidden();
  expect(alerts).toEqual([]);
  // Nothing was booked or spent; the form is as it was, and now knows the day is taken.
  expect((await apiAs(request, user.token, 'GET', '/butlers/requests')).body.data.butler_requests).toHaveLength(0);
  expect((await apiAs(request, user.token, 'GET', '/accounts')).body.data.point).toBe(20_000);
  await expect(page.getByLabel('출발 시간')).toHaveValue(`${day}T10:00`);
  await expect(page.getByLabel('남성', { exact: true })).toBeChecked();
  await expect(page.getByTestId('trip-problems')).toContainText(`선택한 날짜에 이미 예약된 차량입니다. (${day})`);

  // 날짜 변경하기 goes to the start time; another day clears the notice.
  await notice.getByRole('button', { name: '날짜 변경하기' }).click();
  await expect(page.getByLabel('출발 시간')).toBeFocused();
  const next = freeDay(car, day);
  await page.getByLabel('출발 시간').fill(`${next}T10:00`);
  await expect(notice).toBeHidden();
  await expect(page.getByTestId('trip-problems')).toBeHidden();
});
