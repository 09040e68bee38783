import type { APIRequestContext, Browser, BrowserContext, Page } from '@playwright/test';
import { dotDate, koreaDate, koreaTime } from '../../src/domain/dates';
import type { ButlerCancelPreview, ButlerRequestView, ButlerSubscriptionView } from '../../src/domain/butler';
import { withParticle } from '../../src/domain/korean';
import { won } from '../../src/domain/money';
import { tripChargeRows } from '../../src/domain/waiting';
import { E2E_ADMIN_TOKEN } from '../../playwright.config';
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

const ADMIN = { authorization: `Bearer ${E2E_ADMIN_TOKEN}` };
const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, locale: 'ko-KR', timezoneId: 'Asia/Seoul' };

test.beforeAll(async ({ request }) => waitForSite(request));

async function context(browser: Browser, baseURL: string | undefined, phone: boolean): Promise<BrowserContext> {
  const c = await browser.newContext(phone ? { ...PHONE, baseURL } : { baseURL, viewport: { width: 1280, height: 900 }, locale: 'ko-KR', timezoneId: 'Asia/Seoul' });
  // As the fixtures do for every page: nothing leaves this machine.
  await c.route(/^https?:\/\/(?!localhost|127\.0\.0\.1)/, (route) => route.abort());
  return c;
}

/** The page's layout width: the contexts are really 390 px (phones) and 1280 px (the console). */
const width = (p: Page) => p.evaluate(() => window.innerWidth);

/** A start `minutes` from now, on the next 5 minutes. */
function soon(minutes: number): Date {
  const at = new Date(Date.now() + minutes * 60_000);
  at.setUTCMinutes(Math.ceil(at.getUTCMinutes() / 5) * 5, 0, 0);
  return at;
}

/** A staff member's console at 1280 px, on the 배차 board of `day`. */
async function dispatchBoard(browser: Browser, baseURL: string | undefined, request: APIRequestContext, day: string) {
  const staff = await newStaff(request);
  const office = await context(browser, baseURL, false);
  const s = await office.newPage();
  await loginAs(s, staff.access_token);
  await s.goto('/admin#dispatch');
  await hydrated(s, 'AdminConsole');
  expect(await width(s)).toBe(1280);
  await s.getByRole('navigation', { name: '관리 메뉴' }).getByRole('button', { name: '배차' }).click();
  await s.getByLabel('날짜').fill(day);
  return { office, s };
}

/** The customer rates the finished trip with a comment (on `c`); staff read it with its trip under 기사 (on `s`). */
async function rateAndRead(c: Page, s: Page, r: { driver: string; requestId: number; score: number; word: string; comment: string }) {
  const rating = c.getByRole('form', { name: '운행 평가' });
  await rating.locator('label').filter({ has: c.getByRole('radio', { name: `${r.score}점 ${r.word}` }) }).click();
  await rating.getByLabel('후기 (선택)').fill(r.comment);
  await rating.getByRole('button', { name: '평가 보내기' }).click();
  await expect(c.getByTestId('rating-given')).toContainText(`${r.score}점 · ${r.word}`);
  await s.goto('/admin#drivers');
  await hydrated(s, 'AdminConsole');
  const review = s.getByTestId('trip-reviews').getByRole('listitem').filter({ hasText: `${r.driver} 기사` });
  await expect(review).toContainText(`${r.score}점 · 요청 #${r.requestId}`);
  await expect(review).toContainText(r.comment);
}

/** The sandbox outbox messages of `event` sent to `to`. */
async function sent(request: APIRequestContext, to: string, event: string): Promise<{ event: string; text: string; channel: string }[]> {
  const messages = (await (await request.get(`/api/sandbox/outbox?to=${encodeURIComponent(to)}`)).json()).data.messages as { event: string; text: string; channel: string }[];
  return messages.filter((m) => m.event === event);
}

test('a day of one airport trip: staff dispatch and change the flight, the driver is told and taps through, the customer follows', async ({ browser, baseURL, request }) => {
  test.setTimeout(180_000);
  const driver = await driverWithAccount(request, '하루기사');
  const customer = await newUser(request);
  const start = soon(40);
  const booking = await placeButler(request, customer.token, { day: koreaDate(start), start: koreaTime(start), end: '', start_location: '인천 중구 공항로 272', end_location: '서울 중구 세종대로 110', extra: { flight_number: 'KE123' } });

  // The console at 1280 px: 기사 배정 on the 배차 board.
  const { office, s } = await dispatchBoard(browser, baseURL, request, booking.day);
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
  expect(await width(d)).toBe(390);
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
  expect(await width(c)).toBe(390);
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
  await rateAndRead(c, s, { driver: driver.name, requestId: booking.id, score: 2, word: '불만족', comment: '입국장에서 10분을 기다렸어요.' });

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

/**
 * The second day (issue 50's "Done means"): a late flight, an airport wait, overtime, a rating with
 * a comment and a cancellation, in the same three contexts. Staff move the pickup 30 minutes for
 * the late flight (driver and customer told once each); the driver taps 출발, and the day then
 * has to have passed: the e2e server's business clock is shared by every spec running at once, so
 * the booking is moved back instead (POST /admin/test-trip-earlier) until its day ended minutes
 * ago, and the driver's phone taps 도착, 탑승 and 운행 종료 at their times of that day by its own clock (page.clock.setFixedTime), as
 * taps kept on the phone reach the server: 75 minutes of waiting from the pickup (60 free at an
 * airport) and 9 hours used against the 8 booked, charged once after the trip. The customer reads
 * 예약 · 실제 이용 · 대기 · 선결제 · 추가 청구 on the page and in the payment message, rates the trip
 * with a comment staff read, and cancels a second booking (within 24 h: 50%) from /my after the
 * refund preview; its driver is told.
 */
test('a late flight, the wait, overtime, a rating and a cancellation: staff, driver and customer through a long airport day', async ({ browser, baseURL, request }) => {
  test.setTimeout(240_000);
  const driver = await driverWithAccount(request, '긴하루');
  const customer = await newUser(request);
  const me = (await apiAs(request, customer.token, 'GET', '/accounts')).body.data as { email: string; name: string; mobile: string };
  // Within the next two hours, and where +30 minutes stays on its Korean day (a move into another day is refused).
  let start = soon(40);
  if (koreaDate(start) !== koreaDate(new Date(start.getTime() + 30 * 60_000))) start = new Date(start.getTime() + 60 * 60_000);
  const airport = await placeButler(request, customer.token, { day: koreaDate(start), start: koreaTime(start), end: '', start_location: '인천 중구 공항로 272', end_location: '서울 중구 세종대로 110', extra: { flight_number: 'KE901' } });
  const tomorrow = soon(20 * 60);
  const second = await placeButler(request, customer.token, { day: koreaDate(tomorrow), start: koreaTime(tomorrow), end: '', start_location: '서울 중구 세종대로 110', end_location: '인천 중구 공항로 272' });
  for (const b of [airport, second]) expect((await request.post(`/api/admin/butler-requests/${b.id}/assign`, { headers: ADMIN, data: { driver_id: driver.id } })).status()).toBe(200);

  // The console at 1280 px: KE901 is late, so staff move the pickup 30 minutes on the 배차 board.
  const { office, s } = await dispatchBoard(browser, baseURL, request, airport.day);
  const card = s.getByRole('article', { name: `운행 #${airport.id}`, exact: true });
  await card.getByRole('button', { name: `#${airport.id} 픽업 변경` }).click();
  const move = s.getByRole('form', { name: `#${airport.id} 픽업 시각 변경` });
  await expect(move).toContainText(`현재 픽업 ${koreaTime(start)} · 항공편 KE901`);
  await move.getByRole('button', { name: '+30분' }).click();
  const pickup = new Date(start.getTime() + 30 * 60_000);
  await expect(move.getByLabel('새 픽업 시각')).toHaveValue(koreaTime(pickup));
  await expect(move.getByLabel('변경 사유')).toHaveValue('KE901 항공편 지연');
  await move.getByRole('button', { name: '픽업 변경 저장' }).click();
  await expect(s.getByRole('status').filter({ hasText: '픽업 시각을' })).toHaveText(`#${airport.id} 픽업 시각을 ${withParticle(koreaTime(pickup), '으로/로')} 옮기고 기사와 고객에게 알렸습니다.`);

  // The customer's phone: the new pickup on the booking, and one message saying why.
  const subs = (await apiAs(request, customer.token, 'GET', '/butlers')).body.data.butlers as ButlerSubscriptionView[];
  const subOf = (id: number) => subs.find((x) => x.request.id === id)!;
  const customerPhone = await context(browser, baseURL, true);
  const c = await customerPhone.newPage();
  await loginAs(c, customer.token);
  await c.goto(`/butler/subscribe/${subOf(airport.id).id}`);
  await hydrated(c, 'ButlerDetail');
  expect(await width(c)).toBe(390);
  await expect(c.getByRole('region', { name: '운행 정보' })).toContainText(`${dotDate(koreaDate(pickup))} ${koreaTime(pickup)}`);
  await expect.poll(async () => (await sent(request, me.email, 'butler.trip_changed')).map((m) => m.text.includes(`항공편 지연으로 픽업 시각이 ${withParticle(koreaTime(pickup), '으로/로')} 변경되었습니다.`)), { timeout: 30_000 }).toEqual([true]);

  // The driver's phone: the change as one 알림, the flight with the new pickup; 출발.
  const driverPhone = await context(browser, baseURL, true);
  const d = await driverPhone.newPage();
  await loginAs(d, driver.token);
  await d.goto('/driver');
  await hydrated(d, 'DriverApp');
  expect(await width(d)).toBe(390);
  const changed = d.getByTestId('driver-notice').filter({ hasText: `운행 변경 · 예약 #${airport.id}` });
  await expect(changed).toHaveCount(1);
  await expect(changed).toContainText(new RegExp(`픽업 시각: .*${koreaTime(start)} → .*${koreaTime(pickup)}`));
  const trip = d.locator(`[data-testid="driver-trip"][data-trip-id="${airport.id}"]`);
  await expect(trip.getByTestId('driver-trip-flight')).toContainText(`KE901 · 픽업 ${koreaTime(pickup)}`);
  // The passenger's number stays masked on the driver's phone (they reach each other in the trip's thread).
  expect(me.mobile).toMatch(/^010\d{8}$/);
  await expect(d.locator('main')).not.toContainText(me.mobile);
  await expect(d.locator('main')).not.toContainText(me.mobile.replace(/^(\d{3})(\d{4})(\d{4})$/, '$1-$2-$3'));
  await expect(trip.getByTestId(`trip-${airport.id}-messages-thread`)).toBeVisible();
  const button = trip.getByTestId('stage-button');
  await expect(button).toHaveText('출발');
  await button.click();
  await expect(trip.getByTestId('driver-trip-stage')).toHaveText('기사 출발');
  await expect.poll(async () => (await sent(request, driver.phone, 'driver.trip_changed')).length, { timeout: 30_000 }).toBe(1);

  // The day passes: the booking (and its 출발) moved back so that its 9 h 20 min (5 min early, 75
  // min of waiting, 9 h on board) ended 10 minutes ago; the phone's clock at each tap of that day.
  const earlier = Math.ceil((pickup.getTime() - Date.now()) / 60_000) + 75 + 9 * 60 + 10;
  const moved = await request.post('/api/admin/test-trip-earlier', { headers: ADMIN, data: { butler_request_id: airport.id, minutes: earlier } });
  expect(moved.status()).toBe(200);
  const bookedPickup = pickup.getTime() - earlier * 60_000;
  const arrived = bookedPickup - 5 * 60_000;
  const boarded = bookedPickup + 75 * 60_000;
  const ended = boarded + 9 * 3_600_000;
  await d.clock.setFixedTime(arrived);
  await d.reload();
  await hydrated(d, 'DriverApp');
  await expect(button).toHaveText('도착');
  await button.click();
  await expect(trip.getByTestId('driver-trip-stage')).toHaveText('기사 도착');
  // At arrivals: the passenger's name, large, on the phone.
  await trip.getByRole('button', { name: '이름 피켓 보기' }).click();
  await expect(d.getByRole('dialog', { name: '이름 피켓' })).toContainText(me.name);
  await d.getByRole('dialog', { name: '이름 피켓' }).getByRole('button', { name: '닫기' }).click();
  await d.clock.setFixedTime(boarded);
  await expect(button).toHaveText('탑승');
  await button.click();
  await expect(trip.getByTestId('driver-trip-stage')).toHaveText('운행 중');
  await d.clock.setFixedTime(ended);
  await expect(button).toHaveText('운행 종료');
  await button.click();
  // Recorded as tapped, charged once: 9 h used of 8 booked, 75 minutes of waiting of which 15 beyond the airport's free hour.
  let mine: ButlerRequestView | undefined;
  await expect
    .poll(async () => {
      mine = (await apiAs(request, customer.token, 'GET', `/butlers/requests/${airport.id}`)).body.data.butler_request as ButlerRequestView;
      return mine.overtime_payment?.status ?? null;
    }, { timeout: 30_000 })
    .toBe('PAID');
  const charge = mine!.trip_charge!;
  expect(charge).toMatchObject({ booked_hours: 8, used_hours: 9, overtime_hours: 1, airport: true, waiting_minutes: 75, free_minutes: 60, waiting_steps: 1 });
  expect(charge.amount).toBe(charge.overtime_amount + charge.waiting_amount);
  expect(mine!.overtime_payment!.amount).toBe(charge.amount);
  await d.getByRole('button', { name: '지난 운행 보기' }).click();
  await expect(d.getByTestId('driver-past-trip').filter({ hasText: `#${airport.id}` })).toContainText(
    `도착 ${koreaTime(new Date(arrived))} · 탑승 ${koreaTime(new Date(boarded))} · 종료 ${koreaTime(new Date(ended))} · 이용 9시간`,
  );

  // The customer's page and message: what the charge is made of.
  await c.reload();
  await hydrated(c, 'ButlerDetail');
  await expect(c.getByTestId('trip-stage').locator('[aria-current="step"]')).toHaveText('운행 완료');
  // The trip's thread is there for the customer too, and the driver's number is on neither side's page.
  await expect(c.getByTestId('detail-messages-thread')).toBeVisible();
  await expect(c.locator('main')).not.toContainText(driver.phone);
  await expect(c.locator('main')).not.toContainText(driver.phone.replace(/^(\d{3})(\d{4})(\d{4})$/, '$1-$2-$3'));
  const breakdown = c.getByTestId('trip-charge');
  const row = (label: string) => breakdown.locator('dt', { hasText: new RegExp(`^${label}$`) }).locator('xpath=following-sibling::dd[1]');
  await expect(row('예약')).toHaveText('8시간');
  await expect(row('대기')).toHaveText('75분 (공항 무료 60분 제외 15분)');
  await expect(row('선결제')).toHaveText(`${won(charge.prepaid)} (8시간)`);
  for (const r of tripChargeRows(charge)) await expect(row(r.label)).toHaveText(r.value);
  await expect(breakdown.getByTestId('trip-charge-sentence')).toHaveText('선결제한 8시간을 넘은 1시간과 무료 대기 시간을 넘은 15분이 청구됩니다. (결제 완료)');
  expect(await c.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
  let paid: { text: string }[] = [];
  await expect.poll(async () => (paid = (await sent(request, me.email, 'payment.succeeded')).filter((m) => m.text.includes(`#${airport.id}`) && m.text.includes('추가 청구'))).length, { timeout: 30_000 }).toBe(1);
  for (const r of tripChargeRows(charge)) expect(paid[0].text).toContain(r.value);

  // A rating with a comment; staff read it with its trip under 기사.
  await rateAndRead(c, s, { driver: driver.name, requestId: airport.id, score: 4, word: '만족', comment: '늦은 비행기를 한 시간 넘게 기다려주셨어요.' });

  // The second booking, cancelled by the customer from /my: within 24 h of its start, half back, as the preview says first.
  const preview = (await apiAs(request, customer.token, 'GET', `/butlers/requests/${second.id}/cancel-preview`)).body.data as ButlerCancelPreview;
  expect(preview.refund_percent).toBe(50);
  await c.goto('/my');
  await c.getByRole('region', { name: '의전 구독' }).locator(`a[href="/butler/subscribe/${subOf(second.id).id}"]`).click();
  await hydrated(c, 'ButlerDetail');
  await expect(c.getByRole('region', { name: '요청 정보' })).toContainText(`#${second.id}`);
  let question = '';
  c.once('dialog', (q) => {
    question = q.message();
    void q.accept();
  });
  await c.getByRole('button', { name: '요청 취소' }).click();
  await expect(c.getByRole('status')).toHaveText('요청이 취소되었습니다.');
  expect(question).toContain(`지금 취소하면 결제 금액 ${won(preview.paid_amount)} 중 ${won(preview.refund_amount)}(50%)을 환불합니다.`);
  expect(question).toContain('[취소·환불 규정]');
  await expect
    .poll(async () => ((await apiAs(request, customer.token, 'GET', '/payments')).body.data.payments as { id: string; refunded_amount: number }[]).find((p) => p.id === `butler-${second.id}`)?.refunded_amount)
    .toBe(preview.refund_amount);

  // Its driver is told: one 알림 on /driver and the trip among the cancelled ones.
  await d.reload();
  await hydrated(d, 'DriverApp');
  await expect(d.getByTestId('driver-notice').filter({ hasText: `운행 취소 · 예약 #${second.id}` })).toHaveCount(1);
  await expect(d.getByTestId('driver-cancelled')).toContainText(`(#${second.id}) · 출발하지 않으셔도 됩니다.`);
  await expect.poll(async () => (await sent(request, driver.phone, 'driver.trip_cancelled')).length, { timeout: 30_000 }).toBe(1);
  expect(await d.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
  for (const ctx of [office, driverPhone, customerPhone]) await ctx.close();
});
