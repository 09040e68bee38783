import { randomBytes, randomInt } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import { addDays, todayInKorea } from '../../src/domain/dates';
import { won } from '../../src/domain/money';
import type { Driver } from '../../src/domain/dispatch';
import { carOptionPrices, defaultPlan, type CarOptionPrices } from '../../src/domain/subscription-price';
import type { Car } from '../../src/domain/car';
import { E2E_ADMIN_TOKEN } from '../../playwright.config';
import { expect, test } from './fixtures';
import { apiAs, hydrated, loginAs, newStaff, newUser, nextAlert, orderableCar, sandboxKey, waitForSite } from './users';

/**
 * Issue 49, the parts of a subscription's life where one person's choice reaches the next (the
 * whole life is subscription-life.spec.ts; this spec walks what it lacks, to keep that one's time):
 * the customer changes the 탁송 address and window on /my, staff find that choice on the board and
 * the schedule dialog starts from it; a swap keeps the 선납금 credit and says so in its quote; after
 * the swap the return names the car actually out; the fuel is computed from the four records.
 */

const ADMIN = { authorization: `Bearer ${E2E_ADMIN_TOKEN}` };
const PREPAYMENT = 3_000_000;

test.beforeAll(async ({ request }) => waitForSite(request));

async function rosterDriver(request: APIRequestContext): Promise<Driver> {
  const res = await request.post('/api/admin/drivers', { headers: ADMIN, data: { name: `변경${randomBytes(2).toString('hex')}`, phone: `010${randomInt(10_000_000, 99_999_999)}`, gender: 'male' } });
  expect(res.status()).toBe(201);
  return (await res.json()).data.driver as Driver;
}

async function openBoardWeek(page: Page) {
  await page.goto('/admin');
  await page.goto('/admin#dispatch');
  await hydrated(page, 'AdminConsole');
  await page.getByRole('group', { name: '기간' }).getByRole('button', { name: '주' }).click();
}

const escapeRe = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

async function recordOnBoard(page: Page, subscriptionId: number, label: string, km: number, fuel: number) {
  const board = page.getByRole('region', { name: '탁송·반납' });
  const card = board.getByRole('article', { name: new RegExp(`^${escapeRe(label)}( \\(.+\\))? #\\d+$`) }).filter({ hasText: `구독 #${subscriptionId} ` });
  await card.getByRole('button', { name: /기록$/ }).click();
  const record = page.getByRole('dialog', { name: new RegExp(`^${escapeRe(label)}( \\(.+\\))? 기록$`) });
  await record.getByLabel('주행거리 (km)').fill(String(km));
  await record.getByLabel('연료(충전) 잔량 (%)').fill(String(fuel));
  await record.getByRole('button', { name: '기록 저장' }).click();
  await expect(board.getByRole('status')).toContainText(`구독 #${subscriptionId}의 ${label}`);
}

test('a changed 탁송 address reaches the board, a swap keeps the 선납금 credit, the return names the car out, the fuel comes from the records', async ({ page, request, browser }) => {
  test.slow();
  const today = todayInKorea(new Date());
  const start = addDays(today, 5);
  const { id: carId } = await orderableCar(request);
  // Staff let this car take a 선납금 (the seed's cars take none).
  const car = (await (await request.get(`/api/subscriptions/cars/${carId}`)).json()).data.car as Car;
  const prices: CarOptionPrices = { ...carOptionPrices(car), prepayment_max: 3_000_000 };
  expect((await request.patch(`/api/admin/cars/${carId}`, { headers: ADMIN, data: { option_prices: prices } })).status()).toBe(200);
  const user = await newUser(request);
  const options = { mileage_km: defaultPlan(prices).km, driver_age: 'AGE_26', extra_drivers: 0, handover: 'DELIVERY', delivery_address: '서울 중구 세종대로 110', delivery_window: 'MORNING', prepayment: PREPAYMENT };
  const ordered = await apiAs(request, user.token, 'POST', `/subscriptions/cars/${carId}/request`, { month: 12, start_date: start, options, billing_key: await sandboxKey(request) });
  expect(ordered.status, JSON.stringify(ordered.body)).toBe(201);
  const requestId = ordered.body.data.subscription_request.id as number;
  const credit = ordered.body.data.subscription_request.options.quote.prepayment_credit as number;
  expect(credit).toBe(PREPAYMENT / 12);
  expect((await request.post(`/api/admin/subscription-requests/${requestId}/confirm`, { headers: ADMIN, data: { start_date: start } })).status()).toBe(201);
  const subscriptionId = ((await apiAs(request, user.token, 'GET', '/subscriptions')).body.data.subscriptions as { id: number; request: { id: number } }[]).find((s) => s.request.id === requestId)!.id;

  // 1. The customer moves the 탁송 to another address and the afternoon, on /my.
  await loginAs(page, user.token);
  await page.goto('/my/subscriptions');
  await hydrated(page, 'SubscriptionList');
  const item = page.getByTestId('subscription-item');
  await item.getByRole('button', { name: '탁송 정보 변경' }).click();
  const change = item.getByTestId('delivery-change');
  await change.getByLabel('탁송 주소').fill('서울 강남구 테헤란로 152');
  await change.getByLabel('탁송 시간대').selectOption('AFTERNOON');
  await change.getByRole('button', { name: '변경 저장' }).click();
  await expect(change.getByTestId('delivery-change-saved')).toHaveText('탁송 정보가 변경되었습니다.');

  // 2. Staff see that choice on the board; the schedule dialog starts from it (the start day, 13:00~16:00, the new address).
  const staff = await newStaff(request);
  const driver = await rosterDriver(request);
  const staffContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const console_ = await staffContext.newPage();
  console_.on('dialog', (d) => void d.accept());
  await loginAs(console_, staff.access_token);
  await openBoardWeek(console_);
  const board = console_.getByRole('region', { name: '탁송·반납' });
  const waiting = board.getByTestId('open-handover').filter({ hasText: `구독 #${subscriptionId} ` });
  await expect(waiting.getByTestId('open-handover-choice')).toHaveText('탁송 희망: 오후 13:00~16:00 · 서울 강남구 테헤란로 152');
  await expect(waiting.getByTestId('customer-phone')).toHaveAttribute('href', /^tel:\d+$/);
  await waiting.getByRole('button', { name: `구독 #${subscriptionId} 탁송(인도) 일정 잡기` }).click();
  const dialog = console_.getByRole('dialog', { name: '탁송(인도) 일정' });
  await expect(dialog.getByLabel('날짜')).toHaveValue(start);
  await expect(dialog.getByLabel('시작')).toHaveValue('13:00');
  await expect(dialog.getByLabel('종료')).toHaveValue('16:00');
  await expect(dialog.getByLabel('장소 (선택)')).toHaveValue('서울 강남구 테헤란로 152');
  await dialog.getByLabel('담당 기사').selectOption(String(driver.id));
  await dialog.getByRole('button', { name: '일정 저장' }).click();
  await expect(board.getByRole('status')).toContainText(`구독 #${subscriptionId}의 탁송(인도) 일정을 ${start.replace(/-/g, '.')} 13:00~16:00, ${driver.name} 기사로 잡았습니다.`);
  // Delivered today, 80% in the tank (the start moves to today).
  await recordOnBoard(console_, subscriptionId, '탁송(인도)', 20_000, 80);

  // 3. 차량 교체 in three days: the quote keeps the 선납금 credit on the new fee, and says so.
  const target = await orderableCar(request);
  const swapDay = addDays(today, 3);
  const quote = (await apiAs(request, user.token, 'GET', `/subscriptions/${subscriptionId}/swap?date=${swapDay}&car_id=${target.id}`)).body.data.quote as { new_fee: number; base_fee: number; option_extras: number; prepayment_credit: number };
  expect(quote.prepayment_credit).toBe(credit);
  expect(quote.new_fee).toBe(quote.base_fee + quote.option_extras - credit);
  await page.reload();
  await hydrated(page, 'SubscriptionList');
  await item.getByRole('button', { name: '차량 교체' }).click();
  const swap = item.getByTestId('swap');
  await swap.locator('input[type="date"]').fill(swapDay);
  await swap.locator(`input[type="radio"][value="${target.id}"]`).check();
  await expect(swap.getByTestId('swap-credit')).toHaveText(`선납금 차감 월 ${won(credit)} 유지 (12개월 차까지)`);
  await swap.getByLabel(`변경된 월 구독료 ${won(quote.new_fee)}에 동의합니다`).check();
  const asked = nextAlert(page);
  await swap.getByRole('button', { name: /교체 확정/ }).click();
  expect(await asked).toContain(`새 월 구독료: `);
  await expect(item.getByTestId('swap-done')).toContainText(`${swapDay}에`);

  // 4. The pair on the board: the old car back at 70% (10% down), the new one out full.
  await openBoardWeek(console_);
  await board.getByRole('button', { name: `구독 #${subscriptionId} 차량 교체 일정 잡기` }).click();
  const pair = console_.getByRole('dialog', { name: '차량 교체 일정 (반납·인도)' });
  await pair.getByLabel('담당 기사').selectOption(String(driver.id));
  await pair.getByLabel('시작').fill('17:00');
  await pair.getByLabel('종료').fill('18:00');
  await pair.getByRole('button', { name: '일정 저장' }).click();
  await expect(board.getByRole('status')).toContainText(`구독 #${subscriptionId}의 차량 교체(반납·인도) 일정을`);
  await recordOnBoard(console_, subscriptionId, '교체 반납', 20_300, 70);
  await recordOnBoard(console_, subscriptionId, '교체 인도', 5_000, 100);

  // 5. The subscription's return names the car actually out (the new one's plate), then comes back at 97%.
  const returnDay = addDays(swapDay, 1);
  const booked = await request.post(`/api/admin/subscriptions/${subscriptionId}/handovers`, { headers: ADMIN, data: { kind: 'RETURN', driver_id: driver.id, date: returnDay, window_start: '10:00', window_end: '11:00', address: null } });
  expect(booked.status()).toBe(201);
  const listed = (await (await request.get(`/api/admin/handovers?from=${today}&days=7`, { headers: ADMIN })).json()).data.handovers as { id: number; kind: string; subscription_id: number; swap: { plate: string | null } | null; plate: string | null; car: string }[];
  const mine = listed.filter((h) => h.subscription_id === subscriptionId);
  const newCar = mine.find((h) => h.swap && h.kind === 'DELIVERY')!;
  const ret = mine.find((h) => !h.swap && h.kind === 'RETURN')!;
  expect([ret.car, ret.plate]).toEqual([newCar.car, newCar.swap!.plate]);
  await openBoardWeek(console_);
  const returnCard = board.getByRole('article', { name: `반납 #${ret.id}` });
  if (ret.plate) await expect(returnCard).toContainText(`${ret.car} (${ret.plate})`);
  await expect(returnCard.getByRole('button', { name: `반납 #${ret.id} 기록` })).toHaveText('반납 기록');
  await recordOnBoard(console_, subscriptionId, '반납', 5_100, 97);

  // 6. The fuel is the records' arithmetic: 80 → 70 on the old car, 100 → 97 on the new one.
  const settlement = (await (await request.get(`/api/admin/subscriptions/${subscriptionId}/settlement`, { headers: ADMIN })).json()).data.settlement as { fuel_shortfall_percent: number; fuel_arithmetic: string };
  expect(settlement.fuel_shortfall_percent).toBe(13);
  expect(settlement.fuel_arithmetic).toMatch(/인도 80% → 교체 반납 70% \(10%\) \+ .+교체 인도 100% → 반납 97% \(3%\)$/);
  await staffContext.close();
});
