import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import type { ButlerCar, ButlerRequestView } from '../../src/domain/butler';
import { prefillToSearch } from '../../src/domain/butler-prefill';
import { addDays, todayInKorea } from '../../src/domain/dates';
import { POSTCODE_TIMEOUT_MS } from '../../src/islands/butler/postcode-script';
import { butlerRequests, placeButler } from './butler-users';
import { expect, test } from './fixtures';
import { blockPostcode, hangPostcode, mockPostcode } from './mocks/postcode';
import { apiAs, hydrated, loginAs, newUser, waitForSite } from './users';

/**
 * Issue 21: a booking never waits on the postcode script. While it loads: a spinner; when it
 * fails or hangs past POSTCODE_TIMEOUT_MS: a message and a text input; 직접 입력 all along.
 */

test.beforeAll(async ({ request }) => waitForSite(request));

const UNAVAILABLE = '주소 검색을 불러오지 못했습니다. 주소를 직접 입력해주세요.';
const LOADING = '주소 검색을 불러오는 중입니다...';

async function fleet(request: APIRequestContext): Promise<ButlerCar[]> {
  return (await (await request.get('/api/butlers/cars')).json()).data.cars;
}

/** A random car on a random day 30–170 days ahead that it has free (tests run in parallel on one database). */
async function freeCarAndDay(request: APIRequestContext): Promise<{ car: ButlerCar; day: string }> {
  const cars = await fleet(request);
  const car = cars[Math.floor(Math.random() * cars.length)];
  let day = addDays(todayInKorea(new Date()), 30 + Math.floor(Math.random() * 140));
  while (car.butler_reservated_dates.includes(day)) day = addDays(day, 1);
  return { car, day };
}

/** The request form with a car and a start but no address. */
async function openForm(page: Page, car: ButlerCar, day: string) {
  await page.goto(`/butler/request?${prefillToSearch({ carId: car.id, date: day, time: '14:00' })}`);
  await expect(page.getByLabel('출발 시간')).toHaveValue(`${day}T14:00`);
  // The preselected car needs the fleet fetched by the hydrated form.
  await expect(page.getByTestId('car-picker')).toContainText(car.model.name);
}

const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });

/** The open dialog is in its fallback: the message, then typing; Enter or 입력 완료 fills the field. */
async function typeInFallback(page: Page, dialog: Locator, fieldOf: Locator, address: string, how: 'enter' | 'button') {
  await expect(dialog.getByRole('alert')).toHaveText(UNAVAILABLE);
  await expect(dialog.getByRole('status')).toBeHidden();
  const input = dialog.getByLabel('주소 직접 입력');
  await expect(input).toBeFocused();
  await expect(dialog.getByRole('button', { name: '입력 완료' })).toBeDisabled();
  await input.fill(`  ${address}  `);
  if (how === 'enter') await input.press('Enter');
  else await dialog.getByRole('button', { name: '입력 완료' }).click();
  await expect(dialog).toBeHidden();
  await expect(fieldOf).toHaveValue(address);
}

async function requests(request: APIRequestContext, token: string): Promise<ButlerRequestView[]> {
  return (await apiAs(request, token, 'GET', '/butlers/requests')).body.data.butler_requests;
}

test('the postcode script fails to load: the message, addresses typed by hand, and the booking goes through the card step', async ({ page, request }) => {
  const { car, day } = await freeCarAndDay(request);
  const user = await newUser(request);
  await loginAs(page, user.token);
  await blockPostcode(page);
  await openForm(page, car, day);
  const submit = page.getByRole('button', { name: '예약 요청하기' });

  await field(page, '출발지').click();
  const start = page.getByRole('dialog', { name: '출발지 주소 검색' });
  await expect(start.getByLabel('주소 직접 입력')).toBeVisible();
  const { violations } = await new AxeBuilder({ page }).include('dialog[open]').analyze();
  expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
  await typeInFallback(page, start, field(page, '출발지'), '서울 중구 세종대로 110 시청 본관', 'button');

  // From the keyboard as well; the failure is known now, so the message comes at once.
  await field(page, '도착지').focus();
  await page.keyboard.press('Enter');
  const end = page.getByRole('dialog', { name: '도착지 주소 검색' });
  await expect(end.getByRole('alert')).toHaveText(UNAVAILABLE, { timeout: 2_000 });
  await typeInFallback(page, end, field(page, '도착지'), '인천 중구 공항로 272 제1여객터미널', 'enter');

  await page.getByRole('button', { name: '+ 경유지 추가' }).click();
  await field(page, '경유지 1').click();
  await typeInFallback(page, page.getByRole('dialog', { name: '경유지 주소 검색' }), field(page, '경유지 1'), '서울 강남구 테헤란로 152', 'enter');

  // Closing without typing keeps what the field had.
  await field(page, '출발지').click();
  await start.getByRole('button', { name: '닫기' }).click();
  await expect(start).toBeHidden();
  await expect(field(page, '출발지')).toHaveValue('서울 중구 세종대로 110 시청 본관');

  await submit.click();
  await page.getByRole('dialog', { name: '정기결제(카드 등록)' }).getByRole('button', { name: '동의하고 진행' }).click();
  await expect(page.getByText('테스트 환경 · 실제 결제가 아닙니다')).toBeVisible();
  await page.getByRole('button', { name: /승인/ }).click();
  await expect(page.getByRole('dialog', { name: '신청이 완료되었습니다' })).toBeVisible();

  const [made] = await requests(request, user.token);
  expect(made).toMatchObject({ start_location: '서울 중구 세종대로 110 시청 본관', end_location: '인천 중구 공항로 272 제1여객터미널' });
  expect(made.car.id).toBe(car.id);
  expect(made.way_points.map((w) => w.address)).toEqual(['서울 강남구 테헤란로 152']);
});

test('the postcode script hangs: a spinner, 직접 입력 at once, the message after the timeout, then typing; the card step opens', async ({ page, request }) => {
  const { car, day } = await freeCarAndDay(request);
  const user = await newUser(request);
  await loginAs(page, user.token);
  await hangPostcode(page);
  await openForm(page, car, day);

  // 직접 입력 does not wait for the spinner.
  await field(page, '출발지').click();
  const start = page.getByRole('dialog', { name: '출발지 주소 검색' });
  await expect(start.getByRole('status')).toHaveText(LOADING);
  await start.getByRole('button', { name: '직접 입력' }).click();
  await expect(start.getByRole('status')).toBeHidden();
  await expect(start.getByRole('alert')).toBeHidden();
  const input = start.getByLabel('주소 직접 입력');
  await expect(input).toBeFocused();
  await input.fill('서울 중구 세종대로 110');
  await input.press('Enter');
  await expect(start).toBeHidden();
  await expect(field(page, '출발지')).toHaveValue('서울 중구 세종대로 110');

  // Waiting: the spinner stays until the timeout, then the message and the input.
  const opened = Date.now();
  await field(page, '도착지').click();
  const end = page.getByRole('dialog', { name: '도착지 주소 검색' });
  await expect(end.getByRole('status')).toHaveText(LOADING);
  await expect(end.getByRole('alert')).toHaveText(UNAVAILABLE, { timeout: POSTCODE_TIMEOUT_MS + 5_000 });
  expect(Date.now() - opened).toBeGreaterThanOrEqual(POSTCODE_TIMEOUT_MS - 250);
  await typeInFallback(page, end, field(page, '도착지'), '인천 중구 공항로 272', 'button');

  // Once timed out, the next open does not make the user wait again.
  await field(page, '출발지').click();
  await expect(start.getByRole('alert')).toHaveText(UNAVAILABLE, { timeout: 2_000 });
  await start.getByRole('button', { name: '닫기' }).click();

  await page.getByRole('button', { name: '예약 요청하기' }).click();
  await expect(page.getByRole('dialog', { name: '정기결제(카드 등록)' })).toBeVisible();
  await page.getByRole('dialog', { name: '정기결제(카드 등록)' }).getByRole('button', { name: '동의하고 진행' }).click();
  await expect(page.getByText('테스트 환경 · 실제 결제가 아닙니다')).toBeVisible();
  expect(JSON.parse((await page.evaluate(() => sessionStorage.getItem('butlerReservationDraft')))!).payload).toMatchObject({
    car_id: car.id,
    start_location: '서울 중구 세종대로 110',
    end_location: '인천 중구 공항로 272',
  });
});

test('the postcode script works: the search picks, 직접 입력 types, and 주소 검색으로 돌아가기 returns to the search', async ({ page }) => {
  await mockPostcode(page);
  await page.goto('/butler/request');
  await hydrated(page);

  await field(page, '출발지').click();
  const start = page.getByRole('dialog', { name: '출발지 주소 검색' });
  await start.getByRole('button', { name: /서울 강남구 테헤란로 152/ }).click();
  await expect(start).toBeHidden();
  await expect(field(page, '출발지')).toHaveValue('서울 강남구 테헤란로 152');

  await field(page, '도착지').click();
  const end = page.getByRole('dialog', { name: '도착지 주소 검색' });
  await expect(end.getByRole('button', { name: /인천 중구 공항로 272/ })).toBeVisible();
  await end.getByRole('button', { name: '직접 입력' }).click();
  await expect(end.getByRole('button', { name: /인천 중구 공항로 272/ })).toBeHidden();
  await end.getByLabel('주소 직접 입력').fill('아무 주소');
  await end.getByRole('button', { name: '주소 검색으로 돌아가기' }).click();
  await expect(end.getByLabel('주소 직접 입력')).toBeHidden();
  await end.getByRole('button', { name: '직접 입력' }).click();
  await end.getByLabel('주소 직접 입력').fill('경기 고양시 일산동구 중앙로 1036 (킨텍스)');
  await end.getByRole('button', { name: '입력 완료' }).click();
  await expect(end).toBeHidden();
  await expect(field(page, '도착지')).toHaveValue('경기 고양시 일산동구 중앙로 1036 (킨텍스)');
  // No failure was shown on the way.
  await expect(page.getByText(UNAVAILABLE)).toHaveCount(0);

  // The next open starts on the search again.
  await field(page, '도착지').click();
  await expect(end.getByRole('button', { name: /서울 중구 세종대로 110/ })).toBeVisible();
  await expect(end.getByLabel('주소 직접 입력')).toBeHidden();
});

test('editing a butler request with the postcode script down: the typed address starts from the current one; Enter does not save the edit', async ({ page, request }) => {
  const user = await newUser(request);
  const r = await placeButler(request, user.token, { start_location: '서울 중구 세종대로 110' });
  await blockPostcode(page);
  await loginAs(page, user.token);
  let puts = 0;
  page.on('request', (req) => {
    if (req.method() === 'PUT' && req.url().includes(`/api/butlers/requests/${r.id}`)) puts++;
  });
  await page.goto(`/butler/request/${r.id}?edit=1`);
  const form = page.getByRole('form', { name: '요청 수정' });
  await expect(form).toBeVisible();

  await form.getByLabel('출발지', { exact: true }).click();
  const dialog = page.getByRole('dialog', { name: '출발지 주소 검색' });
  await expect(dialog.getByRole('alert')).toHaveText(UNAVAILABLE);
  const input = dialog.getByLabel('주소 직접 입력');
  await expect(input).toHaveValue('서울 중구 세종대로 110');
  await input.fill('서울 중구 세종대로 110 서울시청 3층');
  await input.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(form.getByLabel('출발지', { exact: true })).toHaveValue('서울 중구 세종대로 110 서울시청 3층');
  await expect(form).toBeVisible();
  expect(puts).toBe(0);

  await form.getByRole('button', { name: '저장하기' }).click();
  await expect(page.getByRole('status')).toHaveText('요청이 성공적으로 수정되었습니다.');
  const [saved] = (await butlerRequests(request, user.token)).filter((x) => x.id === r.id);
  expect(saved.start_location).toBe('서울 중구 세종대로 110 서울시청 3층');
});
