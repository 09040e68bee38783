import type { Browser, BrowserContext } from '@playwright/test';
import { koreaDate, koreaTime } from '../../src/domain/dates';
import type { ButlerSubscriptionView } from '../../src/domain/butler';
import { driverWithAccount, placeButler } from './butler-users';
import { expect, test } from './fixtures';
import { apiAs, hydrated, loginAs, newStaff, newUser, waitForSite } from './users';

/**
 * One chauffeured day in three contexts (issue 50): the customer's phone (390 px), the driver's
 * phone (390 px) and the console (1280 px). Staff dispatch the booked airport trip, change its
 * flight number and add a stop on the 배차 card (the preview says the price stays), and write to
 * both in the trip's thread; the driver sees the change on /driver, answers and taps through the
 * day; the customer sees the new flight, the thread and the finished trip, and rates it with a
 * comment that staff read under 기사. No test clock (tests
 * share the server): the trip starts within the hour, so 출발 is allowed now.
 */

const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, locale: 'ko-KR', timezoneId: 'Asia/Seoul' };

test.beforeAll(async ({ request }) => waitForSite(request));

async function context(browser: Browser, baseURL: string | undefined, phone: boolean): Promise<BrowserContext> {
  const c = await browser.newContext(phone ? { ...PHONE, baseURL } : { baseURL, viewport: { width: 1280, height: 900 }, locale: 'ko-KR', timezoneId: 'Asia/Seoul' });
  // As the fixtures do for every page: nothing leaves this machine.
  await c.route(/^https?:\/\/(?!localhost|127\.0\.0\.1)/, (route) => route.abort());
  return c;
}


test('a day of one airport trip: staff dispatch and change the flight, the driver is told and taps through, the customer follows', async ({ browser, baseURL, request }) => {
  test.setTimeout(180_000);
  const driver = await driverWithAccount(request, '하루기사');
  const customer = await newUser(request);
  const start = new Date(Date.now() + 40 * 60_000);
  start.setUTCMinutes(Math.ceil(start.getUTCMinutes() / 5) * 5, 0, 0);
  const booking = await placeButler(request, customer.token, { day: koreaDate(start), start: koreaTime(start), end: '', start_location: '인천 중구 공항로 272', end_location: '서울 중구 세종대로 110', extra: { flight_number: 'KE123' } });

  // The console at 1280 px: 기사 배정 on the 배차 board.
  const staff = await newStaff(request);
  const office = await context(browser, baseURL, false);
  const s = await office.newPage();
  await loginAs(s, staff.access_token);
  await s.goto('/admin#dispatch');
  await hydrated(s, 'AdminConsole');
  await s.getByRole('navigation', { name: '관리 메뉴' }).getByRole('button', { name: '배차' }).click();
  await s.getByLabel('날짜').fill(booking.day);
  const card = s.getByRole('article', { name: `운행 #${booking.id}`, exact: true });
  await card.getByRole('button', { name: `#${booking.id} 기사 배정` }).click();
  const dialog = s.getByRole('dialog', { name: `#${booking.id} 기사 배정` });
  await dialog.getByRole('radio', { name: new RegExp(driver.name) }).check();
  await dialog.getByRole('button', { name: '배정', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(card).toContainText(driver.name);

  // 운행 변경: the new flight and a stop; the preview says what changes and that the price stays.
  await card.getByRole('button', { name: `#${booking.id} 운행 변경` }).click();
  const form = card.getByRole('form', { name: `#${booking.id} 운행 변경` });
  await expect(form.getByLabel('항공편')).toHaveValue('KE123');
  await form.getByLabel('항공편').fill('oz1085');
  await form.getByRole('button', { name: '경유지 추가' }).click();
  await form.getByLabel('경유지 1 주소').fill('서울 종로구 사직로 161');
  await form.getByLabel('변경 사유').fill('고객 요청: 항공편 변경');
  await form.getByRole('button', { name: '변경 내용 확인' }).click();
  const preview = form.getByTestId('trip-change-preview');
  await expect(preview).toContainText('항공편: KE123 → OZ1085');
  await expect(preview).toContainText('경유지: 없음 → 서울 종로구 사직로 161');
  await expect(preview).toContainText('요금 변동 없음');
  await form.getByRole('button', { name: '변경 저장' }).click();
  await expect(s.getByRole('status').filter({ hasText: '운행을 변경하고' })).toHaveText(`#${booking.id} 운행을 변경하고 기사와 고객에게 알렸습니다.`);
  await expect(preview).toHaveCount(0);
  await expect(card.getByTestId('trip-flight')).toHaveText('OZ1085');

  // The trip's thread in the console: staff write to both sides as LUXE 고객센터.
  await card.getByRole('button', { name: `#${booking.id} 메시지` }).click();
  const staffThread = card.getByTestId(`staff-trip-${booking.id}-messages-thread`);
  await expect(staffThread).toContainText('아직 메시지가 없습니다.');
  await staffThread.getByLabel('고객과 기사님에게 보낼 메시지').fill('항공편이 OZ1085로 바뀌었습니다. 입국장 B에서 만나주세요.');
  await staffThread.getByRole('button', { name: '보내기' }).click();
  await expect(staffThread.getByTestId('trip-message')).toHaveCount(1);

  // The driver's phone: the change as an 알림, the new flight on the card, the staff message; he answers and taps through.
  const driverPhone = await context(browser, baseURL, true);
  const d = await driverPhone.newPage();
  await loginAs(d, driver.token);
  await d.goto('/driver');
  await hydrated(d, 'DriverApp');
  const changed = d.getByTestId('driver-notice').filter({ hasText: `운행 변경 · 예약 #${booking.id}` });
  await expect(changed).toHaveCount(1);
  await expect(changed).toContainText('항공편: KE123 → OZ1085');
  const trip = d.locator(`[data-testid="driver-trip"][data-trip-id="${booking.id}"]`);
  await expect(trip.getByTestId('driver-trip-flight')).toContainText(`OZ1085 · 픽업 ${koreaTime(start)}`);
  await expect(trip).toContainText('서울 종로구 사직로 161');
  const driverThread = trip.getByTestId(`trip-${booking.id}-messages-thread`);
  await expect(driverThread.getByTestId('trip-message').first()).toContainText('입국장 B에서 만나주세요.');
  await expect(driverThread.getByTestId('trip-message').first()).toContainText('LUXE 고객센터');
  await driverThread.getByLabel('고객에게 보낼 메시지').fill('입국장 B에서 이름 피켓을 들고 있겠습니다.');
  await driverThread.getByRole('button', { name: '보내기' }).click();
  await expect(driverThread.getByTestId('trip-message')).toHaveCount(2);
  const button = trip.getByTestId('stage-button');
  for (const [tap, stage] of [['출발', '기사 출발'], ['도착', '기사 도착'], ['탑승', '운행 중'], ['운행 종료', '운행 완료']] as const) {
    await expect(button).toHaveText(tap);
    await button.click();
    await expect(trip.getByTestId('driver-trip-stage')).toHaveText(stage);
  }
  expect(await d.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);

  // The customer's phone: the new flight, the thread with both messages, and the finished trip.
  const subs = (await apiAs(request, customer.token, 'GET', '/butlers')).body.data.butlers as ButlerSubscriptionView[];
  const sub = subs.find((x) => x.request.id === booking.id)!;
  const customerPhone = await context(browser, baseURL, true);
  const c = await customerPhone.newPage();
  await loginAs(c, customer.token);
  await c.goto(`/butler/subscribe/${sub.id}`);
  await hydrated(c, 'ButlerDetail');
  await expect(c.getByTestId('trip-stage').locator('[aria-current="step"]')).toHaveText('운행 완료');
  await expect(c.locator('main')).toContainText('OZ1085');
  const thread = c.getByTestId('detail-messages-thread');
  await expect(thread.getByTestId('trip-message')).toHaveCount(2);
  await expect(thread.getByTestId('trip-message').nth(0)).toHaveAttribute('data-sender', 'staff');
  await expect(thread.getByTestId('trip-message').nth(1)).toContainText('이름 피켓을 들고 있겠습니다.');
  await expect(c.locator('main')).not.toContainText(driver.phone);
  expect(await c.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);

  // Staff read the driver's answer in the console's thread (its poll, or on reopening).
  await card.getByRole('button', { name: `#${booking.id} 메시지` }).click();
  await card.getByRole('button', { name: `#${booking.id} 메시지` }).click();
  await expect(card.getByTestId(`staff-trip-${booking.id}-messages-thread`).getByTestId('trip-message')).toHaveCount(2);

  // The customer rates the finished trip with a comment; staff read it with its trip under 기사.
  const rating = c.getByRole('form', { name: '운행 평가' });
  await rating.locator('label').filter({ has: c.getByRole('radio', { name: '2점 불만족' }) }).click();
  await rating.getByLabel('후기 (선택)').fill('입국장에서 10분을 기다렸어요.');
  await rating.getByRole('button', { name: '평가 보내기' }).click();
  await expect(c.getByTestId('rating-given')).toContainText('2점 · 불만족');
  await s.goto('/admin#drivers');
  await hydrated(s, 'AdminConsole');
  const review = s.getByTestId('trip-reviews').getByRole('listitem').filter({ hasText: `${driver.name} 기사` });
  await expect(review).toContainText(`2점 · 요청 #${booking.id}`);
  await expect(review).toContainText('입국장에서 10분을 기다렸어요.');

  // Each side was told of the change once.
  const me = (await apiAs(request, customer.token, 'GET', '/accounts')).body.data as { email: string };
  await expect
    .poll(async () => ((await (await request.get(`/api/sandbox/outbox?to=${encodeURIComponent(me.email)}`)).json()).data.messages as { event: string }[]).filter((m) => m.event === 'butler.trip_changed').length, { timeout: 30_000 })
    .toBe(1);
  await expect
    .poll(async () => ((await (await request.get(`/api/sandbox/outbox?to=${driver.phone}`)).json()).data.messages as { event: string }[]).filter((m) => m.event === 'driver.trip_changed').length, { timeout: 30_000 })
    .toBe(1);
  for (const ctx of [office, driverPhone, customerPhone]) await ctx.close();
});
