import type { APIRequestContext, Page } from '@playwright/test';
import { overtimeRate, type ButlerRequestView } from '../../src/domain/butler';
import { won } from '../../src/domain/money';
import { DEFAULT_WAITING_POLICY, tripCharge } from '../../src/domain/waiting';
import { E2E_ADMIN_TOKEN } from '../../playwright.config';
import { butlerCars, confirmButler, placeButler } from './butler-users';
import { expect, test } from './fixtures';
import { apiAs, loginAs, newUser, waitForSite } from './users';

/**
 * Waiting and the charge after a trip, as the customer reads them at 390 px (issue 50): the rule on
 * /fleet, the form and the terms; on the trip page, what the charge is made of (예약 · 실제 이용 ·
 * 대기 · 선결제 · 추가 청구 = 초과 x시간 × 요금 + 대기 …). No test clock (it is shared by every spec):
 * the first trip is a real one, recorded by staff as ten hours that have passed (overtime, no
 * waiting: 도착 → 탑승 needs the driver's taps on a day that has come, tests/api/butler-waiting.test.ts
 * charges those); the airport wait of the second is the same booking's answer with the breakdown
 * the server stores for an 80-minute wait (tripCharge, the server's own function) stood in.
 */

const ADMIN = { authorization: `Bearer ${E2E_ADMIN_TOKEN}` };
const PHONE = { width: 390, height: 844 };

test.beforeAll(async ({ request }) => waitForSite(request));

/** A confirmed 09:00–17:00 booking whose trip staff recorded as ten hours that ended a minute ago (2 h over, charged). */
async function finishedTrip(request: APIRequestContext) {
  const car = (await butlerCars(request))[0];
  const user = await newUser(request);
  const booked = await placeButler(request, user.token, { carIds: [car.id] });
  await confirmButler(request, booked.id);
  const now = Date.now();
  const res = await request.post(`/api/admin/butler-requests/${booked.id}/trip`, {
    headers: ADMIN,
    data: { actual_start_at: new Date(now - 10 * 3_600_000).toISOString(), actual_end_at: new Date(now - 60_000).toISOString() },
  });
  expect(res.status()).toBe(200);
  return { user, id: booked.id, car };
}

const noSideScroll = async (page: Page) => expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);

test('the waiting rule on /fleet, the reservation form and the terms', async ({ page }) => {
  await page.setViewportSize(PHONE);
  await page.goto('/fleet');
  const fleet = page.getByTestId('waiting-rules');
  await expect(fleet.getByRole('heading', { name: '대기 시간 규정' })).toBeVisible();
  await expect(fleet).toContainText('공항 픽업(항공편명을 입력했거나 픽업 장소가 공항인 예약)은 60분, 그 외에는 15분까지 무료로 기다립니다.');
  await expect(fleet).toContainText('시작된 30분마다');
  await noSideScroll(page);

  await page.goto('/terms');
  await expect(page.getByTestId('billing-rules').getByTestId('waiting-rules')).toContainText('초과 이용 요금과 함께 예약한 카드로 한 번에 결제');

  await page.goto('/butler/request');
  await expect(page.getByTestId('waiting-rules')).toContainText('60분');
  await expect(page.getByTestId('waiting-rules')).toContainText('15분까지 무료로 기다립니다');
});

test("the customer's trip page says what the charge after the trip is made of", async ({ page, request }) => {
  await page.setViewportSize(PHONE);
  const { user, id, car } = await finishedTrip(request);
  const rate = overtimeRate(car);
  const mine = (await apiAs(request, user.token, 'GET', `/butlers/requests/${id}`)).body.data.butler_request as ButlerRequestView;
  expect(mine.trip_charge).toMatchObject({ booked_hours: 8, used_hours: 10, overtime_hours: 2, waiting_minutes: 0, amount: 2 * rate });

  await loginAs(page, user.token);
  await page.goto(`/butler/request/${id}`);
  const breakdown = page.getByTestId('trip-charge');
  await expect(breakdown.getByRole('heading', { name: '운행 후 정산' })).toBeVisible();
  const row = (label: string) => breakdown.locator('dt', { hasText: new RegExp(`^${label}$`) }).locator('xpath=following-sibling::dd[1]');
  await expect(row('예약')).toHaveText('8시간');
  await expect(row('실제 이용')).toContainText('시작된 시간 기준 10시간');
  await expect(row('대기')).toHaveText('0분 (무료 15분 이내)');
  await expect(row('선결제')).toHaveText(`${won(mine.final_price)} (8시간)`);
  await expect(row('추가 청구')).toHaveText(`${won(2 * rate)} = 초과 2시간 × ${won(rate)}`);
  await expect(breakdown.getByTestId('trip-charge-sentence')).toHaveText('선결제한 8시간을 넘은 2시간이 청구됩니다. (결제 완료)');
  const pay = page.getByRole('region', { name: '결제 정보' }).locator('dt', { hasText: /^운행 후 초과 이용 요금$/ }).locator('xpath=following-sibling::dd[1]');
  await expect(pay).toHaveText(`${won(2 * rate)} · 결제 완료`);
  await noSideScroll(page);

  // The same booking after an airport pickup where the driver waited 80 minutes: the breakdown the
  // server stores for it (tripCharge) stood in for the stored one.
  const start = Date.parse(mine.start_at);
  const waited = tripCharge({
    car,
    booking: { start_at: mine.start_at, end_at: mine.end_at, flight_number: 'KE123', start_location: '인천국제공항 제1여객터미널', final_price: mine.final_price, point_used: mine.point_used, coupon: null },
    actual: { arrived: start + 10 * 60_000, boarded: start + 90 * 60_000, ended: start + 90 * 60_000 + 8.5 * 3_600_000 },
    policy: DEFAULT_WAITING_POLICY,
  });
  expect(waited).toMatchObject({ overtime_hours: 1, waiting_minutes: 80, waiting_steps: 1 });
  await page.route('**/api/butlers/requests', async (route) => {
    const res = await route.fetch();
    const body = await res.json();
    for (const r of body.data.butler_requests as ButlerRequestView[]) {
      if (r.id === id) Object.assign(r, { flight_number: 'KE123', trip_charge: waited, overtime_payment: { ...r.overtime_payment!, amount: waited.amount } });
    }
    await route.fulfill({ response: res, json: body });
  });
  await page.reload();
  await expect(row('대기')).toHaveText('80분 (공항 무료 60분 제외 20분)');
  await expect(row('추가 청구')).toHaveText(`${won(waited.amount)} = 초과 1시간 × ${won(rate)} + 대기 30분 단위 1회 × ${won(Math.floor(rate / 2))}`);
  await expect(breakdown.getByTestId('trip-charge-sentence')).toHaveText('선결제한 8시간을 넘은 1시간과 무료 대기 시간을 넘은 20분이 청구됩니다. (결제 완료)');
  await expect(page.getByRole('region', { name: '결제 정보' }).locator('dt', { hasText: /^운행 후 초과 이용·대기 요금$/ })).toBeVisible();
  await noSideScroll(page);
});
