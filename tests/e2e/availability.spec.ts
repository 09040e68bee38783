import { addDays, addMonths, todayInKorea } from '../../src/domain/dates';
import { expect, test } from './fixtures';
import { hydrated, loginAs, newUser, orderableCar, placeRequest, waitForSite } from './users';

/** Issue 38: the static pages say what is true now (a small live read), and the order page picks a free start. */

test.beforeAll(async ({ request }) => waitForSite(request));

const dot = (d: string) => d.replaceAll('-', '.');

test('a held car: its page says from when it can be subscribed, and the order page starts on that day', async ({ page, request }) => {
  const car = await orderableCar(request);
  await page.goto(`/car/${car.id}`);
  await expect(page.getByTestId('car-availability')).toHaveText('구독 가능');

  const holder = await newUser(request);
  await placeRequest(request, holder.token, car.id, { month: 12 });
  const free = addMonths(addDays(todayInKorea(new Date()), 1), 12);
  await page.reload();
  await expect(page.getByTestId('car-availability')).toHaveText(`${dot(free)}부터 구독 가능`);

  const user = await newUser(request);
  await loginAs(page, user.token);
  await page.goto(`/inquire?month=12&carId=${car.id}`);
  await expect(page.getByTestId('order-availability')).toHaveText(`${dot(free)}부터 구독 가능`);
  await expect(page.getByTestId('order-start-date')).toHaveValue(free);
});

test('home cards and garage cards show the live line', async ({ page }) => {
  await page.route('**/api/subscriptions/availability?*', async (route) => {
    const ids = new URL(route.request().url()).searchParams.get('ids')!.split(',').map(Number);
    await route.fulfill({ json: { code: 0, message: 'ok', data: { availability: ids.map((id) => ({ car_id: id, available_from: '2031-03-01', text: '2031.03.01부터 구독 가능' })) } } });
  });
  await page.goto('/');
  await expect(page.locator('[data-car-card] [data-availability]').first()).toHaveText('2031.03.01부터 구독 가능');
  await page.goto('/garage');
  await expect(page.locator('[data-availability-live]').first()).toHaveText('2031.03.01부터 구독 가능');
});

/** Issue 49: the line is judged for the start and term the customer is looking at. */
const TERMS = [1, 3, 6, 12, 24, 36, 48, 60, 72, 84, 96];
async function termsOf(request: import('@playwright/test').APIRequestContext, carId: number) {
  const detail = (await (await request.get(`/api/subscriptions/cars/${carId}`)).json()).data.car;
  return TERMS.filter((t) => detail[`subscription_fee_${t}`] !== null);
}

test('a car held 12 months from a few days away: the car page, home and garage say from when, not 구독 가능', async ({ page, request }) => {
  const car = await orderableCar(request);
  const terms = await termsOf(request, car.id);
  const holdStart = addDays(todayInKorea(new Date()), 5);
  await placeRequest(request, (await newUser(request)).token, car.id, { month: 12, start_date: holdStart });
  const free = addMonths(holdStart, 12);

  await page.goto(`/car/${car.id}`);
  await page.getByLabel('구독 기간').fill(String(terms.indexOf(12)));
  await expect(page.getByTestId('selected-month')).toHaveText('12개월');
  // No offered term fits before the hold: from when the 12-month term fits, no shorter-term note.
  await expect(page.getByTestId('car-availability')).toHaveText(`${dot(free)}부터 구독 가능`);
  await expect(page.getByTestId('car-availability')).toHaveClass(/text-danger/);

  // The home and garage cards ask with no term or the months filter's: the same date (no term fits now).
  for (const q of ['', '&month=12']) {
    const answered = await (await request.get(`/api/subscriptions/availability?ids=${car.id}${q}`)).json();
    expect(answered.data.availability[0], q).toMatchObject({ free: false, text: `${dot(free)}부터 구독 가능` });
  }
});

test('a hold some months away: the chosen term says from when and the longest term that fits now', async ({ page, request }) => {
  const car = await orderableCar(request);
  const terms = await termsOf(request, car.id);
  const tomorrow = addDays(todayInKorea(new Date()), 1);
  // A hold of the car's shortest term 7 months away: a term up to 7 months fits from tomorrow, 12 does not.
  const shortest = terms[0];
  const holdStart = addMonths(tomorrow, 7);
  await placeRequest(request, (await newUser(request)).token, car.id, { month: shortest, start_date: holdStart });
  const longest = [...terms].reverse().find((t) => addMonths(tomorrow, t) <= holdStart)!;
  expect(longest, 'the car offers a term that fits before the hold').toBeLessThan(12);
  const next = addMonths(holdStart, shortest);

  await page.goto(`/car/${car.id}`);
  await page.getByLabel('구독 기간').fill(String(terms.indexOf(12)));
  await expect(page.getByTestId('selected-month')).toHaveText('12개월');
  await expect(page.getByTestId('car-availability')).toHaveText(`${dot(next)}부터 구독 가능 · 지금 시작하면 최대 ${longest}개월 구독 가능`);
  await page.getByLabel('구독 기간').fill(String(terms.indexOf(longest)));
  await expect(page.getByTestId('car-availability')).toHaveText('구독 가능');
  // The home card, with no term, says the longest term now.
  const home = await (await request.get(`/api/subscriptions/availability?ids=${car.id}`)).json();
  expect(home.data.availability[0]).toMatchObject({ free: true, text: `최대 ${longest}개월 구독 가능` });
});

test('the order page checks the chosen start and term before the card window opens', async ({ page, request }) => {
  const car = await orderableCar(request);
  const user = await newUser(request);
  await loginAs(page, user.token);
  await page.goto(`/inquire?month=12&carId=${car.id}`);
  const tomorrow = addDays(todayInKorea(new Date()), 1);
  await expect(page.getByTestId('order-start-date')).toHaveValue(tomorrow);
  await expect(page.getByTestId('order-availability')).toHaveText('구독 가능');
  await page.getByLabel('전체 동의').check();

  // Meanwhile another customer takes 12 months from a few days away.
  const holdStart = addDays(todayInKorea(new Date()), 4);
  await placeRequest(request, (await newUser(request)).token, car.id, { month: 12, start_date: holdStart });
  const free = addMonths(holdStart, 12);

  await page.getByRole('button', { name: '신청하기' }).click();
  await page.getByRole('dialog', { name: '주문 확인' }).getByRole('button', { name: '다음' }).click();
  const line = page.getByTestId('order-availability');
  await expect(line).toHaveText(`선택하신 시작일(${dot(tomorrow)})부터는 12개월 구독을 할 수 없습니다. ${dot(free)}부터 구독 가능`);
  await expect(line).toHaveAttribute('role', 'alert');
  // No card window, no 구독 가능 under the refusal, and nothing ordered.
  await expect(page.getByText('테스트 환경 · 실제 결제가 아닙니다')).toHaveCount(0);
  await expect(page.getByText('구독 가능', { exact: true })).toHaveCount(0);
  await expect(page.getByRole('button', { name: '신청하기' })).toBeDisabled();

  // The start the line names fits: the refusal goes and 신청하기 comes back.
  await page.getByTestId('order-start-date').fill(free);
  await expect(line).toHaveText('구독 가능');
  await expect(page.getByRole('button', { name: '신청하기' })).toBeEnabled();
});

test('the garage under a 12-month filter shows the 12-month fee as the from-price, not the lowest fee', async ({ page, request }) => {
  const data = (await (await request.get('/api/subscriptions/garages?month=12')).json()).data as { cars: Record<string, number | null>[] };
  await page.goto('/garage?month=12');
  await hydrated(page, 'GarageBrowser');
  const grid = page.getByTestId('garage-grid');
  await expect(grid.locator('[data-car-id]').first()).toBeVisible();
  const shown = await grid.locator('[data-car-id]').evaluateAll((els) => els.map((e) => [Number(e.getAttribute('data-car-id')), e.querySelector('[data-testid="garage-card-fee"]')?.textContent ?? '']));
  const byId = new Map(data.cars.map((c) => [c.id, c]));
  // At least one shown car whose 12-month fee is not its lowest fee (a longer term is cheaper).
  const differing = shown.filter(([id]) => byId.has(id as number) && byId.get(id as number)!.subscription_fee_12 !== byId.get(id as number)!.subscription_fee_minimum);
  expect(differing.length).toBeGreaterThan(0);
  for (const [id, text] of differing) expect(text).toBe(`${(byId.get(id as number)!.subscription_fee_12 as number).toLocaleString('ko-KR')}원/월~`);
});
