import { randomBytes, randomInt } from 'node:crypto';
import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Browser, BrowserContext, Locator, Page } from '@playwright/test';
import { koreaDate, koreaTime } from '../../src/domain/dates';
import type { DriverTripsAnswer } from '../../src/domain/driver-day';
import type { ButlerSubscriptionView } from '../../src/domain/butler';
import { E2E_ADMIN_TOKEN } from '../../playwright.config';
import { placeButler } from './butler-users';
import { expect, test } from './fixtures';
import { stubKakaoMaps } from './mocks/kakao-maps';
import { apiAs, hydrated, loginAs, newStaff, newUser, waitForSite } from './users';

/**
 * The day of a chauffeured trip with two phones at 390 px: staff dispatch a driver and invite
 * him (the link is in the sandbox outbox), the driver signs up from it and taps 출발 → 도착 →
 * 탑승 → 운행 종료 (도착 made offline and sent when back), sharing a faked position; the
 * customer's trip page follows the stage and the position, and the 출발 알림톡 is in the outbox.
 * No test clock (tests share the server): the trip starts within the hour, so 출발 is allowed now.
 */

const ADMIN = { authorization: `Bearer ${E2E_ADMIN_TOKEN}` };
const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, locale: 'ko-KR', timezoneId: 'Asia/Seoul' };
const SEOUL_STATION = { latitude: 37.5547, longitude: 126.9707 };

test.beforeAll(async ({ request }) => waitForSite(request));

async function phone(browser: Browser, baseURL: string | undefined, extra: Parameters<Browser['newContext']>[0] = {}): Promise<BrowserContext> {
  const context = await browser.newContext({ ...PHONE, baseURL, ...extra });
  // As the fixtures do for every page: nothing leaves this machine.
  await context.route(/^https?:\/\/(?!localhost|127\.0\.0\.1)/, (route) => route.abort());
  return context;
}

/** The newest sandbox outbox message of `event` to `to` (polled: the job loop sends it within seconds). */
async function outboxMessage(request: APIRequestContext, to: string, event: string): Promise<{ text: string; subject: string; channel: string }> {
  let found: { text: string; subject: string; channel: string } | undefined;
  await expect
    .poll(async () => {
      const res = await request.get(`/api/sandbox/outbox?to=${encodeURIComponent(to)}`);
      const messages = (await res.json()).data.messages as { event: string; text: string; subject: string; channel: string }[];
      found = messages.find((m) => m.event === event);
      return Boolean(found);
    }, { timeout: 30_000 })
    .toBe(true);
  return found!;
}

/** No serious or critical axe violation in the page's main content. */
async function noSeriousAxe(page: Page) {
  const { violations } = await new AxeBuilder({ page }).include('main').analyze();
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`)).toEqual([]);
}

/** At least 44 × 44 px (one thumb on a 390 px phone). */
async function thumbSized(target: Locator) {
  const box = await target.boundingBox();
  expect(box, 'visible target').not.toBeNull();
  expect(box!.height).toBeGreaterThanOrEqual(44);
  expect(box!.width).toBeGreaterThanOrEqual(44);
}

test('a whole trip on two phones: dispatch, invite, the driver taps through (one tap offline), the customer follows stage and position', async ({ browser, baseURL, request }) => {
  test.setTimeout(180_000);

  // A trip starting within the hour (open end), booked and paid by the customer.
  const customer = await newUser(request);
  const start = new Date(Date.now() + 40 * 60_000);
  start.setUTCMinutes(Math.ceil(start.getUTCMinutes() / 5) * 5, 0, 0);
  const booking = await placeButler(request, customer.token, {
    day: koreaDate(start), start: koreaTime(start), end: '',
    way_point_requests: [{ address: '서울 종로구 사직로 161', scheduled_time: null }],
    extra: { flight_number: 'OZ1085' },
  });

  // Staff: a driver on the roster, dispatched (assigning confirms the booking), and invited by email.
  const name = `기사${randomBytes(2).toString('hex')}`;
  const driverRes = await request.post('/api/admin/drivers', { headers: ADMIN, data: { name, phone: `010${randomInt(10_000_000, 99_999_999)}`, gender: 'male' } });
  expect(driverRes.status()).toBe(201);
  const driver = (await driverRes.json()).data.driver as { id: number };
  expect((await request.post(`/api/admin/butler-requests/${booking.id}/assign`, { headers: ADMIN, data: { driver_id: driver.id } })).status()).toBe(200);
  const email = `driver-${randomBytes(4).toString('hex')}@example.com`;
  expect((await request.post(`/api/admin/drivers/${driver.id}/invite`, { headers: ADMIN, data: { channel: 'email', email } })).status()).toBe(201);
  const invite = await outboxMessage(request, email, 'driver.invited');
  const link = new URL(/https?:\/\/\S+\/driver\?invite=[\w-]+/.exec(invite.text)![0]);

  // The driver's phone: the invite link signs him up, then today's trip with its places and the first button.
  const driverPhone = await phone(browser, baseURL, { geolocation: SEOUL_STATION, permissions: ['geolocation'] });
  const d = await driverPhone.newPage();
  await d.goto(`${link.pathname}${link.search}`);
  await expect(d.getByRole('heading', { name: '기사 계정 만들기' })).toBeVisible();
  await d.getByLabel('비밀번호 (6자 이상)').fill('driver123');
  // Both 위치정보 consents are optional and unchecked; this driver gives them, so his position is shared.
  const consents = d.getByTestId('location-consents');
  await expect(consents.getByRole('checkbox')).toHaveCount(2);
  for (const box of await consents.getByRole('checkbox').all()) await expect(box).not.toBeChecked();
  await consents.getByRole('checkbox').nth(1).check();
  for (const box of await consents.getByRole('checkbox').all()) await expect(box).toBeChecked();
  await d.getByRole('button', { name: '계정 만들기' }).click();
  const card = d.locator(`[data-testid="driver-trip"][data-trip-id="${booking.id}"]`);
  await expect(card).toBeVisible();
  await expect(card).toContainText('서울 중구 세종대로 110');
  await expect(card).toContainText('서울 종로구 사직로 161');
  await expect(card).toContainText('인천 중구 공항로 272');
  await expect(card).toContainText(/010-\*{4}-\d{4}/);
  // The airport pickup's flight, and the passenger's name as a sign to hold up at arrivals.
  await expect(card.getByTestId('driver-trip-flight')).toContainText(`OZ1085 · 픽업 ${koreaTime(start)}`);
  await card.getByRole('button', { name: '이름 피켓 보기' }).click();
  const sign = d.getByRole('dialog', { name: '이름 피켓' });
  await expect(sign).toContainText('님');
  await sign.getByRole('button', { name: '닫기' }).click();
  await expect(sign).toHaveCount(0);
  await expect(card.getByRole('link', { name: /픽업 지도 열기/ })).toHaveAttribute('href', /^https:\/\/map\.kakao\.com\/link\/search\//);
  const button = card.getByTestId('stage-button');
  await expect(button).toHaveText('출발');
  await thumbSized(button);
  await thumbSized(card.getByRole('link', { name: /픽업 지도 열기/ }));
  expect(await d.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
  await expect(d.locator('meta[name="robots"][content="noindex"]')).toHaveCount(1);
  await noSeriousAxe(d);

  // 출발: the stage moves, the position is shared, and the customer hears of it.
  await button.click();
  await expect(card.getByTestId('driver-trip-stage')).toHaveText('기사 출발');
  await expect(d.getByTestId('position-status')).toContainText('위치 공유 중');
  const me = (await apiAs(request, customer.token, 'GET', '/accounts')).body.data as { email: string };
  const departed = await outboxMessage(request, me.email, 'butler.driver_departed');
  expect(departed.subject).toContain('기사님이 출발했습니다');
  expect(departed.text).toContain(name);
  const tripPath = new URL(/https?:\/\/\S+\/butler\/subscribe\/\d+/.exec(departed.text)![0]).pathname;

  // The customer's phone: the trip page from the message shows 기사 출발 and the driver's position.
  const customerPhone = await phone(browser, baseURL);
  const c = await customerPhone.newPage();
  await stubKakaoMaps(c);
  await loginAs(c, customer.token);
  await c.goto(tripPath);
  const current = c.getByTestId('trip-stage').locator('[aria-current="step"]');
  await expect(current).toHaveText('기사 출발');
  // Said in words: the nearest landmark, how long ago (by the server's clock), and a rough ETA to the
  // pickup (its address geocoded by the map SDK's stand-in to 청담, about 23 minutes from 서울역).
  await expect(c.getByTestId('live-place')).toHaveText('서울역 앞');
  await expect(c.getByTestId('live-ago')).toContainText(/(방금|\d+초 전) 공유/);
  await expect(c.getByTestId('live-eta')).toContainText(/^픽업 장소까지 약 2\d분/);
  await expect(c.getByTestId('live-map')).toBeVisible();
  await noSeriousAxe(c);

  // 도착 without a connection: kept on the phone, sent when back online, recorded once.
  await driverPhone.setOffline(true);
  await button.click();
  await expect(card.getByTestId('stage-arrived')).toContainText('전송 대기');
  await expect(d.getByTestId('offline-notice')).toBeVisible();
  expect(await d.evaluate(() => localStorage.getItem('driverPendingTaps'))).toContain('"arrived"');
  await driverPhone.setOffline(false);
  await expect(card.getByTestId('driver-trip-stage')).toHaveText('기사 도착');
  await expect(card.getByTestId('stage-arrived')).not.toContainText('전송 대기');
  expect(await d.evaluate(() => localStorage.getItem('driverPendingTaps'))).toBeNull();
  await c.reload();
  await expect(current).toHaveText('기사 도착');

  // 탑승 → 운행 종료.
  await expect(button).toHaveText('탑승');
  await button.click();
  await expect(card.getByTestId('driver-trip-stage')).toHaveText('운행 중');
  await expect(button).toHaveText('운행 종료');
  await button.click();
  await expect(card.getByTestId('driver-trip-stage')).toHaveText('운행 완료');
  await expect(card.getByTestId('stage-button')).toHaveCount(0);

  // The API holds one record per stage, in order; the customer sees the trip done, the recorded times and no overtime.
  const login = await request.post('/api/accounts/login', { data: { email, password: 'driver123' } });
  const trips = (await apiAs(request, (await login.json()).data.access_token, 'GET', '/driver/trips')).body.data as DriverTripsAnswer;
  const times = trips.trips.find((t) => t.id === booking.id)!.times;
  expect(Object.values(times).every(Boolean)).toBe(true);
  expect([times.departed!, times.arrived!, times.boarded!, times.ended!].map((t) => Date.parse(t))).toEqual([times.departed!, times.arrived!, times.boarded!, times.ended!].map((t) => Date.parse(t)).sort((a, b) => a - b));
  await c.reload();
  await expect(current).toHaveText('운행 완료');
  await expect(c.getByTestId('trip-record')).toContainText('기사 출발');
  await expect(c.getByTestId('trip-overtime')).toContainText('없음');
  await expect(c.getByTestId('live-position')).toHaveCount(0);
  const subs = (await apiAs(request, customer.token, 'GET', '/butlers')).body.data.butlers as ButlerSubscriptionView[];
  expect(subs.find((s) => s.request.id === booking.id)?.request.stage).toBe('COMPLETED');

  // Staff correct the recorded 출발 on the 배차 card, with a reason (audited).
  const staff = await newStaff(request);
  const office = await browser.newContext({ baseURL, locale: 'ko-KR', timezoneId: 'Asia/Seoul' });
  const s = await office.newPage();
  await loginAs(s, staff.access_token);
  await s.goto('/admin#dispatch');
  await hydrated(s, 'AdminConsole');
  await s.getByLabel('날짜').fill(booking.day);
  const boardCard = s.getByRole('article', { name: `운행 #${booking.id}`, exact: true });
  await expect(boardCard.getByTestId('trip-times')).toContainText(`출발 ${koreaTime(times.departed!)}`);
  await boardCard.getByRole('button', { name: `#${booking.id} 시각 정정` }).click();
  const fix = boardCard.getByRole('form', { name: `#${booking.id} 운행 기록 정정` });
  const earlier = new Date(Date.parse(times.departed!) - 10 * 60_000);
  await fix.getByLabel('출발').fill(`${koreaDate(earlier)}T${koreaTime(earlier)}`);
  await fix.getByLabel('정정 사유').fill('기사 요청: 출발 버튼을 늦게 누름');
  await fix.getByRole('button', { name: '정정 저장' }).click();
  await expect(s.getByRole('status').filter({ hasText: '운행 기록을 정정했습니다' })).toHaveText(`#${booking.id} 운행 기록을 정정했습니다.`);
  await expect(boardCard.getByTestId('trip-times')).toContainText(`출발 ${koreaTime(earlier)}`);

  await driverPhone.close();
  await customerPhone.close();
  await office.close();
});
