import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import type { ButlerCar } from '../../src/domain/butler';
import { addDays, todayInKorea } from '../../src/domain/dates';
import { expect, test } from './fixtures';
import { apiAs, newUser, sandboxKey, waitForSite } from './users';
import { won } from '../../src/domain/money';

test.beforeAll(async ({ request }) => waitForSite(request));


async function fleet(request: APIRequestContext): Promise<ButlerCar[]> {
  return (await (await request.get('/api/butlers/cars')).json()).data.cars;
}

const card = (page: Page, car: ButlerCar) => page.locator(`[data-fleet-car][data-car-id="${car.id}"]`);

/** Opens a card's calendar and pages forward until `day` is in the grid. */
async function showDay(cardEl: Locator, day: string) {
  await cardEl.getByRole('button', { name: '예약 현황 보기' }).click();
  for (let i = 0; i < 8 && !(await cardEl.locator(`[data-day="${day}"]`).count()); i++) await cardEl.getByRole('button', { name: '다음 달' }).click();
  return cardEl.locator(`[data-day="${day}"]`);
}

test('a card per butler car: fee per hour (overtime fee, else 10% of the butler fee), 8-hour basis, seats from the sub-model', async ({ page, request }) => {
  const cars = await fleet(request);
  await page.goto('/fleet');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('의전 차량 및 요금');
  await expect(page.locator('[data-fleet-car]')).toHaveCount(cars.length);
  for (const car of cars) {
    const el = card(page, car);
    await expect(el.getByRole('heading', { level: 2 })).toHaveText(car.model.name);
    await expect(el.getByTestId('fleet-fee')).toHaveText(won(car.butler_overtime_fee ?? car.butler_fee / 10));
    await expect(el.getByTestId('fleet-basis')).toHaveText('8시간');
    await expect(el.getByTestId('fleet-seats')).toHaveText(`${car.sub_model?.match(/(\d+)인/)?.[1] ?? 4}인`);
    await expect(el.getByRole('link', { name: '예약하기' })).toHaveAttribute('href', `/butler/request?carId=${car.id}`);
  }
  // Ghost has no overtime fee in the seed: 10% of 1,800,000.
  const ghost = cars.find((c) => c.butler_overtime_fee === null)!;
  await expect(card(page, ghost).getByTestId('fleet-fee')).toHaveText(won(Math.floor(ghost.butler_fee * 0.1)));
  const cullinan = cars.find((c) => c.sub_model?.includes('5인'))!;
  await expect(card(page, cullinan).getByTestId('fleet-seats')).toHaveText('5인');
});

test('two columns from 768 px, one below; images swipe with arrows; no horizontal overflow', { tag: '@both-viewports' }, async ({ page, request, isMobile }) => {
  const [first] = await fleet(request);
  await page.goto('/fleet');
  const cards = page.locator('[data-fleet-car]');
  const a = (await cards.nth(0).boundingBox())!;
  const b = (await cards.nth(1).boundingBox())!;
  expect(Math.round(a.y) === Math.round(b.y)).toBe(!isMobile);
  const el = card(page, first);
  await expect(el.locator('[data-gallery-count]')).toHaveText(`1 / ${first.images.length}`);
  await el.getByRole('button', { name: /다음 이미지/ }).click();
  await expect(el.locator('[data-gallery-count]')).toHaveText(`2 / ${first.images.length}`);
  // Two quick clicks: the second steps on from where the first is scrolling to (2 → 1 → last).
  await el.getByRole('button', { name: /이전 이미지/ }).click();
  await el.getByRole('button', { name: /이전 이미지/ }).click();
  await expect(el.locator('[data-gallery-count]')).toHaveText(`${first.images.length} / ${first.images.length}`);
  // Once the arrows' scroll has settled, a swipe takes over: the count follows the images in view.
  const track = el.locator('[data-gallery-track]');
  await expect.poll(() => track.evaluate((t) => Math.round(t.scrollLeft / t.clientWidth))).toBe(first.images.length - 1);
  await track.dispatchEvent('pointerdown');
  await track.evaluate((t) => t.scrollTo({ left: 0 }));
  await expect(el.locator('[data-gallery-count]')).toHaveText(`1 / ${first.images.length}`);
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
});

test('the calendar shows 42 days; past days and days reserved after the build cannot be chosen; Reserve carries the car and day', async ({ page, request, isMobile }) => {
  const cars = await fleet(request);
  const car = cars[isMobile ? 1 : 0];
  const today = todayInKorea(new Date());
  // Reserve a free day through the API now: the pre-rendered page cannot know it, the refresh on load must.
  const user = await newUser(request);
  let booked = '';
  for (let d = 3 + Math.floor(Math.random() * 20); !booked; d++) {
    const day = addDays(today, d);
    if (car.butler_reservated_dates.includes(day)) continue;
    const res = await apiAs(request, user.token, 'POST', `/butlers/cars/${car.id}/request`, {
      start_at: `${day}T10:00:00+09:00`, end_at: null, start_location: '서울 중구 세종대로 110', end_location: '인천 중구 공항로 272', passenger_count: 1, billing_key: await sandboxKey(request),
    });
    if (res.status === 201) booked = day;
    else expect(res.status, JSON.stringify(res.body)).toBe(409);
  }

  await page.goto('/fleet');
  const el = card(page, car);
  await expect(page.locator('[data-fleet]')).toHaveAttribute('data-refreshed', 'true');
  await expect(el.locator('[data-calendar]')).toBeHidden();
  await el.getByRole('button', { name: '예약 현황 보기' }).click();
  await expect(el.getByRole('button', { name: '예약 현황 닫기' })).toHaveAttribute('aria-expanded', 'true');
  const days = el.locator('[data-day]');
  await expect(days).toHaveCount(42);
  await expect(el.getByRole('button', { name: '이전 달' })).toBeDisabled();
  const past = el.locator('[data-day][data-past]');
  const pastCount = await past.count();
  for (let i = 0; i < pastCount; i++) await expect(past.nth(i)).toBeDisabled();
  if (today.slice(8) !== '01') await expect(el.locator(`[data-day="${addDays(today, -1)}"]`)).toBeDisabled();
  // Today can be chosen unless another test has booked this car for it (as a run crossing midnight in Korea can).
  const bookedNow = (await fleet(request)).find((c) => c.id === car.id)!.butler_reservated_dates;
  if (bookedNow.includes(today)) await expect(el.locator(`[data-day="${today}"]`)).toHaveAttribute('data-reserved', '');
  else await expect(el.locator(`[data-day="${today}"]`)).toBeEnabled();
  await el.getByRole('button', { name: '예약 현황 닫기' }).click();

  const reserved = await showDay(el, booked);
  await expect(reserved).toBeDisabled();
  await expect(reserved).toHaveAttribute('data-reserved', '');
  await expect(reserved).toHaveAttribute('aria-label', /예약 마감$/);
  for (const day of car.butler_reservated_dates.filter((d) => d >= today)) {
    const cell = el.locator(`[data-day="${day}"]`);
    if (await cell.count()) await expect(cell).toBeDisabled();
  }

  // A free day is chosen and travels to the form.
  let free = addDays(booked, 1);
  while (car.butler_reservated_dates.includes(free)) free = addDays(free, 1);
  const cell = el.locator(`[data-day="${free}"]`);
  if (!(await cell.count())) await el.getByRole('button', { name: '다음 달' }).click();
  await el.locator(`[data-day="${free}"]`).click();
  await expect(el.locator(`[data-day="${free}"]`)).toHaveAttribute('aria-pressed', 'true');
  await expect(el.locator('[data-selected-date]')).toHaveText(`선택한 날짜: ${free}`);
  await expect(el.getByRole('link', { name: '예약하기' })).toHaveAttribute('href', `/butler/request?carId=${car.id}&date=${free}`);
  await el.getByRole('link', { name: '예약하기' }).click();
  await expect(page).toHaveURL(new RegExp(`/butler/request/?\\?carId=${car.id}&date=${free}$`));
  await expect(page.getByTestId('car-picker')).toContainText(car.model.name);
  await expect(page.getByLabel('출발 시간')).toHaveValue(`${free}T09:00`);
});

test("차량 목록을 불러오지 못했습니다 (the spec's 'Failed to load car list') when the fleet cannot be refreshed", async ({ page }) => {
  await page.route('**/api/butlers/cars', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ code: 1500, message: '서버 오류' }) }));
  await page.goto('/fleet');
  await expect(page.getByRole('alert')).toHaveText('차량 목록을 불러오지 못했습니다.');
});

test('no serious axe violation with a calendar open', async ({ page, request }) => {
  const [car] = await fleet(request);
  await page.goto('/fleet');
  await card(page, car).getByRole('button', { name: '예약 현황 보기' }).click();
  await page.waitForLoadState('networkidle');
  const { violations } = await new AxeBuilder({ page }).analyze();
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`)).toEqual([]);
});
