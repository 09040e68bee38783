import { koreaDate, koreaTime } from '../../src/domain/dates';
import { E2E_ADMIN_TOKEN } from '../../playwright.config';
import { driverWithAccount, placeButler } from './butler-users';
import { expect, test } from './fixtures';
import { apiAs, hydrated, loginAs, newUser, waitForSite } from './users';

/**
 * The wait at the pickup on the driver's phone (390 px): after 도착, the active trip shows 대기 N분
 * and the free time left, then the minutes beyond it, moving each minute — counted from the
 * server's 도착 and the server's time, not the phone's clock, which is set three hours wrong here.
 * The e2e server's clock is shared, so the booking (with its recorded 출발 and 도착) is moved back
 * by the fixture POST /admin/test-trip-earlier until its pickup was 12 minutes ago.
 */

const ADMIN = { authorization: `Bearer ${E2E_ADMIN_TOKEN}` };

test.beforeAll(async ({ request }) => waitForSite(request));

test('the driver waiting at the pickup sees 대기 N분 and the free time left, then the overtime, each minute by the server’s time', { tag: '@phone' }, async ({ page, request }) => {
  const driver = await driverWithAccount(request, '대기기사');
  const customer = await newUser(request);
  const start = new Date(Date.now() + 40 * 60_000);
  start.setUTCMinutes(Math.ceil(start.getUTCMinutes() / 5) * 5, 0, 0);
  // Not an airport (no flight, a city pickup): 15 free minutes.
  const booking = await placeButler(request, customer.token, { day: koreaDate(start), start: koreaTime(start), end: '', start_location: '서울 중구 세종대로 110', end_location: '서울 강남구 테헤란로 152' });
  expect((await request.post(`/api/admin/butler-requests/${booking.id}/assign`, { headers: ADMIN, data: { driver_id: driver.id } })).status()).toBe(200);
  for (const stage of ['departed', 'arrived']) expect((await apiAs(request, driver.token, 'POST', `/driver/trips/${booking.id}/stages/${stage}`, {})).status).toBe(201);
  // The pickup moved back to between 12 and 13 minutes ago (and 도착 with it, before it: the wait counts from the pickup).
  const minutes = Math.ceil((start.getTime() - Date.now()) / 60_000) + 12;
  expect((await request.post('/api/admin/test-trip-earlier', { headers: ADMIN, data: { butler_request_id: booking.id, minutes } })).status()).toBe(200);

  // The phone's clock is three hours ahead: a wait counted by it would read over three hours.
  const phoneClock = Date.now() + 3 * 3_600_000;
  const installed = Date.now();
  await page.clock.install({ time: phoneClock });
  await loginAs(page, driver.token);
  await page.goto('/driver');
  await hydrated(page, 'DriverApp');
  expect(await page.evaluate(() => window.innerWidth)).toBe(390);
  const card = page.locator(`[data-testid="driver-trip"][data-trip-id="${booking.id}"]`);
  const waiting = card.getByTestId('driver-waiting');
  await expect(waiting).toContainText('일반 픽업 무료 대기 15분');
  // Time stands still on the phone from here; each minute is then one step of its clock.
  await page.clock.pauseAt(phoneClock + (Date.now() - installed) + 1_000);
  const text = card.getByTestId('driver-waiting-text');
  const shown = Number(/^대기 (\d+)분/.exec(await text.innerText())?.[1]);
  expect([12, 13]).toContain(shown);
  await expect(text).toHaveText(`대기 ${shown}분 · 무료 대기 ${15 - shown}분 남음`);

  await page.clock.runFor(60_000);
  await expect(text).toHaveText(`대기 ${shown + 1}분 · 무료 대기 ${14 - shown}분 남음`);
  await page.clock.runFor((16 - shown - 1) * 60_000);
  await expect(text).toHaveText('대기 16분 · 무료 대기 15분을 1분 넘었습니다 (30분 단위 1회 청구)');

  // 탑승 ends the wait on the phone at once (the tap still on its way counts).
  await card.getByTestId('stage-button').click();
  await expect(waiting).toHaveCount(0);
  await expect(card.getByTestId('stage-boarded')).not.toContainText('-');
});
