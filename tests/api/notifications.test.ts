import { spawn } from 'node:child_process';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/api/app';
import { insertButlerCar, insertModel, insertTestCar, insertUser, upsertBrand } from '../../src/api/seed/factories';
import { jobs, notificationMessages, payments, users } from '../../src/api/db/schema';
import { TEST_ADMIN_TOKEN, testConfig, type Config } from '../../src/api/env';
import { createClock } from '../../src/api/jobs/clock';
import { createJobRunner } from '../../src/api/job-handlers';
import { claimDue } from '../../src/api/jobs/queue';
import type { Channel, NotificationChannels, OutgoingMessage } from '../../src/api/notifications/channels';
import { emit, type NotificationEvent } from '../../src/api/notifications/events';
import { NOTIFY_SEND_JOB } from '../../src/api/notifications/outbox';
import { unsubscribeToken } from '../../src/api/notifications/unsubscribe';
import { createPaymentProvider } from '../../src/api/billing/providers';
import { issueSandboxBillingKey } from '../../src/api/billing/sandbox-provider';
import { openSession } from '../../src/api/accounts/sessions';
import { anotherPlate, apiTools, callOf, createTestContext, persistentDatabase, type TestContext } from './helpers';
import { addDays, koreaInstant, todayInKorea } from '../../src/domain/dates';
import { unassignedAlertAt } from '../../src/domain/dispatch';

/**
 * The notification outbox: events become one message per channel and recipient, sent once
 * whatever runs them (twice, two runners, a runner that dies mid-send, a flaky provider);
 * marketing only with consent, revocable without a login; the sandbox outbox for scripts.
 */

const ADMIN = TEST_ADMIN_TOKEN;
const STAFF_EMAIL = 'ops@luxe.test';
const STAFF_PHONE = '01090001234';
const NOTIFY = { staffEmails: [STAFF_EMAIL], staffPhones: [STAFF_PHONE], contactPhone: '02-6952-0808' };

/** A channel that records what it was given and can fail its next n sends. */
function fakeChannel(provider: string) {
  const sent: OutgoingMessage[] = [];
  let failures = 0;
  const channel: Channel & { sent: OutgoingMessage[]; failNext: (n: number) => void; calls: number } = {
    provider,
    sent,
    calls: 0,
    failNext: (n) => void (failures = n),
    send(m) {
      channel.calls++;
      if (failures > 0) {
        failures--;
        return Promise.reject(new Error('provider down'));
      }
      sent.push(m);
      return Promise.resolve({ id: `${provider}-${m.id}` });
    },
  };
  return channel;
}

let ctx: TestContext;
let config: Config;
let app: ReturnType<typeof createApp>;
const clock = createClock();
const email = fakeChannel('fake-mail');
const kakao = fakeChannel('fake-kakao');
const channels: NotificationChannels = { email, kakao };
let carId: number;
let butlerCarId: number;

beforeAll(async () => {
  ctx = await createTestContext({ notifications: NOTIFY });
  config = ctx.config;
  app = createApp({ db: ctx.database.db, config, clock, notificationChannels: channels });
  ({ car: { id: carId } } = await insertTestCar(ctx.database.db, { fees: { subscription_fee_3: 700_000, subscription_fee_12: 555_000 } }));
  const brand = await upsertBrand(ctx.database.db, { name: '롤스로이스', slug: 'rolls-notify' });
  const model = await insertModel(ctx.database.db, { brandId: brand.id, name: '고스트' });
  ({ id: butlerCarId } = await insertButlerCar(ctx.database.db, model.id, { butlerFee: 800_000 }));
});
afterAll(() => ctx.close());

/** Calls this file's app (its own notification channels), as from the site's host. */
const call = callOf(() => app, { host: 'localhost' });

const { card, runJobs } = apiTools(() => ({ call, config }));
const rowsOf = (keys: string[]) => ctx.database.db.select().from(notificationMessages).where(inArray(notificationMessages.key, keys));
const sentIds = () => [...email.sent, ...kakao.sent].map((m) => m.id);

async function newCustomer(overrides: Partial<typeof users.$inferInsert> = {}) {
  const user = await insertUser(ctx.database.db, overrides);
  return { user, token: (await openSession(ctx.database.db, config, user.id)).access_token };
}

/** Every row went out exactly once (no id twice among the fakes' sends). */
function expectSentOnce(rows: { id: number; status: string }[]) {
  const ids = sentIds();
  for (const r of rows) {
    expect(r.status).toBe('SENT');
    expect(ids.filter((id) => id === r.id)).toHaveLength(1);
  }
}

describe('an order in, messages out', () => {
  it('a paid subscription request: 신청 접수 and 결제 완료 to the customer by email and KakaoTalk, and the staff are told; a second run sends nothing more', async () => {
    const { user, token } = await newCustomer();
    const res = await call('POST', `/subscriptions/cars/${await anotherPlate(ctx, carId)}/request`, { token, json: { month: 12, billing_key: card() } });
    expect(res.status).toBe(201);
    const id = res.body.data.subscription_request.id;
    await runJobs();
    const keys = [`subscription.requested:${id}`, `payment.succeeded:subreq-${id}`, `staff.subscription_requested:${id}`];
    const rows = await rowsOf(keys);
    const summary = rows.map((r) => [r.event, r.channel, r.to]).sort();
    expect(summary).toEqual(
      [
        ['payment.succeeded', 'email', user.email],
        ['payment.succeeded', 'kakao', user.mobile],
        ['staff.subscription_requested', 'email', STAFF_EMAIL],
        ['staff.subscription_requested', 'kakao', STAFF_PHONE],
        ['subscription.requested', 'email', user.email],
        ['subscription.requested', 'kakao', user.mobile],
      ].sort(),
    );
    expectSentOnce(rows);
    const received = rows.find((r) => r.event === 'subscription.requested' && r.channel === 'email')!;
    expect(received.subject).toBe(`[LUXE] 구독 신청 접수 (#${id})`);
    expect(received.text).toContain('555,000원');
    expect(received.text).toContain(`http://localhost:${config.port}/subscribe/request/${id}`);
    expect(received.html).toContain('신청 내역 보기');
    const paid = rows.find((r) => r.event === 'payment.succeeded' && r.channel === 'kakao')!;
    expect(paid.subject).toContain('결제 완료');
    expect(paid.text).toContain('555,000원');
    expect(paid.text).toContain(`/api/sandbox/receipts/subreq-${id}`);
    expect(paid.provider).toBe('fake-kakao');

    const before = sentIds().length;
    await runJobs();
    await runJobs();
    expect(await rowsOf(keys)).toHaveLength(6);
    expect(sentIds().length).toBe(before);
  });

  it('a declined card: 결제 실패 with the reason and how to fix it, and no 신청 접수', async () => {
    const { user, token } = await newCustomer();
    const res = await call('POST', `/subscriptions/cars/${await anotherPlate(ctx, carId)}/request`, { token, json: { month: 12, billing_key: card('decline-limit') } });
    expect(res.status).toBe(422);
    await runJobs();
    const rows = await ctx.database.db.select().from(notificationMessages).where(eq(notificationMessages.userId, user.id));
    expect(rows.map((r) => [r.event, r.channel]).sort()).toEqual([['payment.failed', 'email'], ['payment.failed', 'kakao']]);
    expect(rows[0].text).toContain('카드 한도가 초과되었습니다');
    expect(rows[0].text).toContain('다른 카드로 다시 신청해주세요');
  });
});

describe('every event: one message per channel and recipient', () => {
  it('renders each event type in Korean with an absolute link, once per channel, and a repeat of the key writes nothing', async () => {
    const db = ctx.database.db;
    // With the night-time consent: the marketing message goes whatever the hour this runs (the hold: advertising.test.ts).
    const { user, token } = await newCustomer({ marketingConsent: true, marketingNightConsent: true });
    const order = await call('POST', `/subscriptions/cars/${await anotherPlate(ctx, carId)}/request`, { token, json: { month: 3, billing_key: card() } });
    const requestId = order.body.data.subscription_request.id;
    const confirmed = await call('POST', `/admin/subscription-requests/${requestId}/confirm`, { token: ADMIN, json: { start_date: '2031-05-20' } });
    expect(confirmed.status).toBe(201);
    const subscriptionId = confirmed.body.data.subscription.id;
    const start = new Date(Date.now() + 5 * 86_400_000).toISOString();
    const booking = await call('POST', `/butlers/cars/${butlerCarId}/request`, { token, json: { start_at: start, end_at: null, start_location: '청담동 101', end_location: '인천공항', way_point_requests: [], passenger_count: 2, billing_key: card() } });
    expect(booking.status).toBe(201);
    const butlerRequestId = booking.body.data.butler_request.id;
    const paymentId = `subreq-${requestId}`;
    await runJobs();

    const userId = user.id;
    const events: NotificationEvent[] = [
      { type: 'subscription.requested', userId, requestId },
      { type: 'subscription.confirmed', userId, subscriptionId },
      { type: 'subscription.cancelled', userId, requestId },
      { type: 'subscription.charge_upcoming', userId, subscriptionId, month: 2, chargeDate: '2031-06-20', amount: 700_000 },
      { type: 'butler.requested', userId, butlerRequestId },
      { type: 'butler.confirmed', userId, butlerRequestId },
      { type: 'butler.cancelled', userId, butlerRequestId },
      { type: 'payment.succeeded', userId, paymentId },
      { type: 'payment.failed', userId, paymentId, reason: '잔액이 부족합니다.', retryDate: '2031-06-21' },
      { type: 'payment.refunded', userId, paymentId, amount: 100_000 },
      { type: 'staff.subscription_requested', requestId },
      { type: 'staff.butler_requested', butlerRequestId },
      { type: 'staff.chat_handoff', sessionKey: 'abc123', summary: '상담원 연결해 주세요', contact: '비회원', booking: '날짜 2031-06-01' },
      { type: 'staff.subscription_overdue', subscriptionId },
      { type: 'marketing.announcement', userId, campaign: 'all-events', title: '봄 시즌 혜택', body: '신규 차량 입고 소식을 전해 드립니다.' },
      { type: 'subscription.early_exit', userId, subscriptionId, exitDate: '2031-06-01', remainingMonths: 2, monthlyFee: 700_000, percent: 20, fee: 280_000 },
      { type: 'subscription.mileage_settled', userId, subscriptionId, paymentId: null, drivenKm: 4_000, allowanceKm: 5_000, monthlyKm: 2_500, months: 2, overageKm: 0, perKm: 200, amount: 0 },
      {
        type: 'subscription.settled', userId, subscriptionId, total: 230_000, deposit: 500_000, fromDeposit: 230_000, toCharge: 0, toRefund: 270_000,
        lines: [{ label: '초과 주행 요금', amount: 100_000, detail: '초과 주행 요금 100,000원' }, { label: '손상: 앞범퍼 긁힘', amount: 130_000, detail: '수리 견적 130,000원' }],
        summary: '보증금 500,000원 − 정산 합계 230,000원 = 보증금 환불 270,000원',
      },
    ];
    const key = (e: NotificationEvent) => `all-events:${e.type}`;
    await db.transaction(async (tx) => {
      for (const e of events) await emit(tx, key(e), e, clock.now());
    });
    await runJobs();
    // The same keys again (a retried transaction): nothing new.
    await db.transaction(async (tx) => {
      for (const e of events) expect(await emit(tx as never, key(e), e, clock.now())).toBe(false);
    });
    await runJobs();

    for (const e of events) {
      const rows = await rowsOf([key(e)]);
      const expected = e.type.startsWith('staff.')
        ? [['email', STAFF_EMAIL], ['kakao', STAFF_PHONE]]
        : e.type === 'marketing.announcement'
          ? [['email', user.email]]
          : [['email', user.email], ['kakao', user.mobile]];
      expect(rows.map((r) => [r.channel, r.to]).sort(), e.type).toEqual(expected.sort());
      expectSentOnce(rows);
      for (const r of rows) {
        expect(r.text, e.type).not.toContain('#{');
        expect(r.subject, e.type).toMatch(/^(\[LUXE( 운영)?\]|\(광고\)) .*[가-힣]/);
        expect(r.text, e.type).toMatch(/https?:\/\/localhost:\d+\//);
        expect(r.userId, e.type).toBe(e.type.startsWith('staff.') ? null : user.id);
      }
    }
    // 중도 해지: the return day and the fee's arithmetic, on both channels.
    for (const r of await rowsOf([key(events[15])])) {
      expect(r.text).toContain('남은 2개월 × 월 700,000원 × 20% = 280,000원');
      expect(r.text).toContain('2031.06.01');
    }
    // 주행거리 정산 under the allowance: the arithmetic and no charge, on both channels.
    for (const r of await rowsOf([key(events[16])])) {
      expect(r.text).toContain('주행 4,000km − 약정 5,000km → 초과 주행 없음 (0원)');
      expect(r.text).toContain('추가 요금은 없습니다');
    }
    // 반납 정산: the lines, the arithmetic and the refund, on both channels.
    for (const r of await rowsOf([key(events[17])])) {
      expect(r.text).toContain('손상: 앞범퍼 긁힘 130,000원 (수리 견적 130,000원)');
      expect(r.text).toContain('보증금 500,000원 − 정산 합계 230,000원 = 보증금 환불 270,000원');
      expect(r.text).toContain('남은 보증금 270,000원을 첫 결제 카드로 환불했습니다.');
    }
    // A declined order: the reason and another card; a declined month: the retry day and the card change.
    const declined = (await rowsOf([key(events[8])])).find((r) => r.channel === 'email')!;
    expect(declined.text).toContain('잔액이 부족합니다.');
    expect(declined.text).toContain('다른 카드로 다시 신청해주세요');
    expect(declined.text).not.toContain('다시 결제를 시도합니다');
    await db.insert(payments).values({
      id: `sub-${subscriptionId}-m2`, userId, purpose: 'SUBSCRIPTION_MONTH', refType: 'subscription', refId: subscriptionId, month: 2, orderName: `LUXE 구독 #${subscriptionId} 2개월 차 요금`,
      amount: 700_000, status: 'FAILED', provider: 'sandbox', billingKey: 'k', failureReason: '잔액이 부족합니다.', requestedAt: new Date(), failedAt: new Date(),
    });
    await db.transaction((tx) => emit(tx as never, 'all-events:month-failed', { type: 'payment.failed', userId, paymentId: `sub-${subscriptionId}-m2`, reason: '잔액이 부족합니다.', retryDate: '2031-06-21' }, clock.now()));
    await runJobs();
    const month = (await rowsOf(['all-events:month-failed'])).find((r) => r.channel === 'email')!;
    expect(month.text).toContain('2031.06.21에 같은 카드로 다시 결제를 시도합니다.');
    expect(month.text).toContain('카드 변경 후 결제: http://localhost:4321/my/subscriptions');
    const upcoming = (await rowsOf([key(events[3])])).find((r) => r.channel === 'kakao')!;
    expect(upcoming.text).toContain('700,000원');
    expect(upcoming.text).toContain('2031.06.20');
    const staffButler = (await rowsOf([key(events[11])])).find((r) => r.channel === 'email')!;
    expect(staffButler.text).toContain('청담동 101');
    expect(staffButler.text).toContain('롤스로이스 고스트');
  });
});

describe('the butler reminder the day before', () => {
  const book = async (token: string, startMs: number, location = '청담동 101') => {
    const res = await call('POST', `/butlers/cars/${butlerCarId}/request`, { token, json: { start_at: new Date(startMs).toISOString(), end_at: null, start_location: location, end_location: '인천공항', way_point_requests: [], passenger_count: 2, billing_key: card() } });
    expect(res.status).toBe(201);
    return res.body.data.butler_request.id;
  };
  const reminderJob = async (id: number) => (await ctx.database.db.select().from(jobs).where(eq(jobs.key, `notify:butler.reminder:${id}`)))[0];
  let driverSeq = 0;
  /** A roster driver assigned to the trip (assigning confirms a pending booking). */
  const assignDriver = async (id: number) => {
    driverSeq += 1;
    const driver = (await call('POST', '/admin/drivers', { token: ADMIN, json: { name: `알림기사${driverSeq}`, phone: `010-5555-${String(1000 + driverSeq)}`, gender: 'male' } })).body.data.driver as { id: number; name: string };
    expect((await call('POST', `/admin/butler-requests/${id}/assign`, { token: ADMIN, json: { driver_id: driver.id } })).status).toBe(200);
    return driver;
  };

  it('is scheduled at start − 24 h when booked, held while no driver is assigned, then goes with time, pickup address, car and driver, once', async () => {
    clock.reset();
    const { user, token } = await newCustomer();
    const startMs = Date.now() + 40 * 86_400_000;
    const id = await book(token, startMs, '서울 강남구 도산대로 442');
    expect((await reminderJob(id)).runAt.getTime()).toBe(startMs - 86_400_000);
    expect((await call('POST', `/admin/butler-requests/${id}/confirm`, { token: ADMIN })).status).toBe(201);
    await runJobs();
    expect(await rowsOf([`butler.reminder:${id}`])).toEqual([]);
    clock.set(new Date(startMs - 86_400_000 + 60_000));
    await runJobs();
    // No driver yet: "기사님이 … 도착합니다" would name nobody, so it waits (issue 50).
    expect(await rowsOf([`butler.reminder:${id}`])).toEqual([]);
    const driver = await assignDriver(id);
    // Asked again every 30 minutes: the next ask finds the driver.
    clock.set(new Date(startMs - 86_400_000 + 32 * 60_000));
    await runJobs();
    const rows = await rowsOf([`butler.reminder:${id}`]);
    expect(rows[0].text).toContain(driver.name);
    expect(rows.map((r) => [r.channel, r.to]).sort()).toEqual([['email', user.email], ['kakao', user.mobile]].sort());
    expectSentOnce(rows);
    expect(rows[0].text).toContain('서울 강남구 도산대로 442');
    expect(rows[0].text).toContain('롤스로이스 고스트');
    expect(rows[0].subject).toContain('내일 의전 일정');
    clock.reset();
  });

  it('an edit that moves the trip moves the reminder; a booking less than a day ahead gets none', async () => {
    clock.reset();
    const { token } = await newCustomer();
    const startMs = Date.now() + 50 * 86_400_000;
    const id = await book(token, startMs);
    const moved = startMs + 3 * 86_400_000;
    const edit = await call('PUT', `/butlers/requests/${id}`, { token, json: { start_at: new Date(moved).toISOString(), start_location: '청담동 101', end_location: '인천공항' } });
    expect(edit.status).toBe(200);
    expect((await reminderJob(id)).runAt.getTime()).toBe(moved - 86_400_000);
    const soon = await book(token, Date.now() + 58 * 86_400_000);
    clock.set(new Date(Date.now() + 60 * 86_400_000));
    const late = await book(token, Date.now() + 60 * 86_400_000 + 10 * 3600_000);
    expect(await reminderJob(soon)).toBeDefined();
    expect(await reminderJob(late)).toBeUndefined();
    clock.reset();
  });

  it('a booking cancelled after the reminder was written is not sent (SKIPPED at send time)', async () => {
    clock.reset();
    const { token } = await newCustomer();
    const startMs = Date.now() + 70 * 86_400_000;
    const id = await book(token, startMs);
    await assignDriver(id);
    clock.set(new Date(startMs - 86_400_000 + 60_000));
    // Only the rendering runs (a runner that takes the notify jobs, not the sends).
    const render = createJobRunner({ db: ctx.database.db, payments: createPaymentProvider(ctx.database.db, config), clock, log: () => {}, config, channels }, 'render-only');
    await render(['notify']);
    const written = await rowsOf([`butler.reminder:${id}`]);
    expect(written.map((r) => r.status)).toEqual(['PENDING', 'PENDING']);
    expect((await call('DELETE', `/butlers/requests/${id}`, { token })).status).toBe(200);
    await runJobs();
    const rows = await rowsOf([`butler.reminder:${id}`]);
    expect(rows.map((r) => r.status)).toEqual(['SKIPPED', 'SKIPPED']);
    expect(sentIds().filter((s) => rows.some((r) => r.id === s))).toEqual([]);
    // The cancellation itself is told.
    expect((await rowsOf([`butler.cancelled:${id}`])).map((r) => r.status)).toEqual(['SENT', 'SENT']);
    clock.reset();
  });
});

describe('a trip with no driver', () => {
  it('alerts staff the evening before and the morning of, each once; an assigned driver stops the next alert', async () => {
    clock.reset();
    const { token } = await newCustomer();
    const day = addDays(todayInKorea(new Date()), 80);
    const start = koreaInstant(day, '10:00')!;
    const res = await call('POST', `/butlers/cars/${butlerCarId}/request`, { token, json: { start_at: start.toISOString(), end_at: null, start_location: '서울 성동구 왕십리로 83', end_location: '인천공항', way_point_requests: [], passenger_count: 1, billing_key: card() } });
    expect(res.status).toBe(201);
    const id = res.body.data.butler_request.id;
    const eve = unassignedAlertAt(start, 'eve');
    expect(eve.toISOString()).toBe(koreaInstant(addDays(day, -1), '17:00')!.toISOString());
    clock.set(new Date(eve.getTime() + 60_000));
    await runJobs();
    await runJobs();
    const told = await rowsOf([`staff.butler_unassigned:${id}:eve`]);
    expect(told.map((r) => r.to).sort()).toEqual([STAFF_EMAIL, STAFF_PHONE].sort());
    expectSentOnce(told);
    expect(told[0].text).toContain('내일 의전 운행에 배정된 기사가 없습니다');
    expect(told[0].text).toContain('서울 성동구 왕십리로 83');
    // Assigned that evening: the morning's alert is dropped.
    const driver = (await call('POST', '/admin/drivers', { token: ADMIN, json: { name: '새벽기사', phone: '010-5555-9001', gender: 'male' } })).body.data.driver as { id: number };
    expect((await call('POST', `/admin/butler-requests/${id}/assign`, { token: ADMIN, json: { driver_id: driver.id } })).status).toBe(200);
    clock.set(new Date(unassignedAlertAt(start, 'day').getTime() + 60_000));
    await runJobs();
    expect((await rowsOf([`staff.butler_unassigned:${id}:day`])).filter((r) => r.status === 'SENT')).toEqual([]);
    clock.reset();
  });
});

describe('sent once, whatever runs the jobs', () => {
  it('two runners at once (two replicas) send every message once', async () => {
    const keys: string[] = [];
    for (let i = 0; i < 8; i++) {
      const { token } = await newCustomer();
      const res = await call('POST', `/subscriptions/cars/${await anotherPlate(ctx, carId)}/request`, { token, json: { month: 12, billing_key: card() } });
      const id = res.body.data.subscription_request.id;
      keys.push(`subscription.requested:${id}`, `payment.succeeded:subreq-${id}`, `staff.subscription_requested:${id}`);
    }
    const replica = await ctx.openReplica();
    const runner = (db: typeof ctx.database.db, name: string) => createJobRunner({ db, payments: createPaymentProvider(db, config), clock, log: () => {}, config, channels }, name, 4);
    await Promise.all([runner(ctx.database.db, 'replica-a')(), runner(replica.db, 'replica-b')(), runner(ctx.database.db, 'replica-c')()]);
    await replica.close();
    const rows = await rowsOf(keys);
    expect(rows).toHaveLength(8 * 6);
    expectSentOnce(rows);
  });

  it('a runner that died after claiming a send (its lease runs out) loses nothing: another sends it once', async () => {
    const db = ctx.database.db;
    await db.transaction((tx) => emit(tx as never, 'lease-test', { type: 'staff.chat_handoff', sessionKey: 'lease', summary: '상담원 연결', contact: '비회원' }, clock.now()));
    const render = createJobRunner({ db, payments: createPaymentProvider(db, config), clock, log: () => {}, config, channels }, 'render-only');
    await render(['notify']);
    // A worker takes the send jobs and dies before sending (no finish, no fail).
    const claimed = await claimDue(db, { now: clock.now(), worker: 'doomed', limit: 100, leaseMs: 300, kinds: [NOTIFY_SEND_JOB] });
    expect(claimed.length).toBeGreaterThanOrEqual(2);
    await runJobs();
    let rows = await rowsOf(['lease-test']);
    expect(rows.map((r) => r.status)).toEqual(['PENDING', 'PENDING']);
    await new Promise((r) => setTimeout(r, 400));
    await runJobs();
    await runJobs();
    rows = await rowsOf(['lease-test']);
    expectSentOnce(rows);
    // A worker that died after sending and marking the row, before the queue recorded the job done: the rerun sends nothing.
    await db.update(jobs).set({ status: 'queued', finishedAt: null }).where(inArray(jobs.key, rows.map((r) => `${NOTIFY_SEND_JOB}:${r.id}`)));
    await runJobs();
    expectSentOnce(await rowsOf(['lease-test']));
  });

  it('a provider that fails three times, then succeeds: sent once, after backoff, with its attempts recorded', async () => {
    const db = ctx.database.db;
    clock.set(new Date('2033-01-01T09:00:00+09:00'));
    // Everything else due by then goes first, so the failures below are this message's.
    await runJobs();
    await db.transaction((tx) => emit(tx as never, 'flaky-test', { type: 'staff.chat_handoff', sessionKey: 'flaky', summary: '상담원 연결', contact: '비회원' }, clock.now()));
    const calls = email.calls;
    email.failNext(3);
    await runJobs();
    const row = async () => (await rowsOf(['flaky-test'])).find((r) => r.channel === 'email')!;
    expect(await row()).toMatchObject({ status: 'PENDING', attempts: 1, lastError: 'provider down' });
    // Not before its backoff (30 s, then 2 min, then 8 min).
    await runJobs();
    expect((await row()).attempts).toBe(1);
    for (const [ms, attempts] of [[31_000, 2], [121_000, 3], [481_000, 4]] as const) {
      clock.set(new Date(clock.now().getTime() + ms));
      await runJobs();
      expect((await row()).attempts).toBe(attempts);
    }
    const done = await row();
    expect(done).toMatchObject({ status: 'SENT', attempts: 4, lastError: null, provider: 'fake-mail' });
    expect(email.calls - calls).toBe(4);
    expectSentOnce([done]);
    clock.reset();
  });

  it('kill -9 while the provider is sending, then a restart: every message goes out once', async () => {
    const store = await persistentDatabase();
    let database = await store.open();
    const cfg = testConfig({ notifications: NOTIFY });
    const first = createApp({ db: database.db, config: cfg });
    const user = await insertUser(database.db);
    const { access_token } = await openSession(database.db, cfg, user.id);
    const { car } = await insertTestCar(database.db, { fees: { subscription_fee_12: 600_000 } });
    const order = await first.request(`/subscriptions/cars/${car.id}/request`, { method: 'POST', headers: { authorization: `Bearer ${access_token}`, 'content-type': 'application/json' }, body: JSON.stringify({ month: 12, billing_key: issueSandboxBillingKey(cfg, 'approve') }) });
    expect(order.status).toBe(201);
    await database.close();

    // A replica renders the events and is killed while its provider is sending (the send never finished).
    const child = spawn(process.execPath, ['--import', 'tsx', 'tests/api/fixtures/notify-child.ts'], { env: { ...process.env, ...store.env }, stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => d.toString().includes('sending') && resolve());
      child.on('exit', (code) => reject(new Error(`the child ended early (${code})`)));
    });
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));

    database = await store.open();
    const written = await database.db.select().from(notificationMessages);
    // The message whose send was in flight: tried once, not sent.
    expect(written.some((r) => r.status === 'PENDING' && r.attempts === 1)).toBe(true);
    expect(written.some((r) => r.status === 'SENT')).toBe(false);
    // The dead replica's lease (1 s in the child) runs out; a restarted replica sends everything, once.
    await new Promise((r) => setTimeout(r, 1_200));
    const mail = fakeChannel('after-restart-mail');
    const talk = fakeChannel('after-restart-kakao');
    const restarted = createJobRunner({ db: database.db, payments: createPaymentProvider(database.db, cfg), clock: createClock(), log: () => {}, config: cfg, channels: { email: mail, kakao: talk } }, 'restarted');
    await restarted();
    await restarted();
    const rows = await database.db.select().from(notificationMessages);
    expect(rows).toHaveLength(6);
    expect(rows.every((r) => r.status === 'SENT')).toBe(true);
    const ids = [...mail.sent, ...talk.sent].map((m) => m.id).sort();
    expect(ids).toEqual(rows.map((r) => r.id).sort());
    await database.close();
    await store.drop();
  }, 180_000);
});

describe('marketing only with consent, revocable without a login', () => {
  it('consent off: no marketing message; consent on: email only, marked (광고), with an unsubscribe link that works without login', async () => {
    const db = ctx.database.db;
    const off = await newCustomer({ marketingConsent: false });
    const on = await newCustomer({ marketingConsent: true, marketingNightConsent: true });
    const send = (campaign: string) => call('POST', '/admin/notifications/marketing', { token: ADMIN, json: { campaign, title: '가을 시승 이벤트', body: '신형 모델을 먼저 만나보세요.', path: '/garage' } });
    expect((await send('autumn-2033')).status).toBe(202);
    expect((await call('POST', '/admin/notifications/marketing', { token: on.token, json: { campaign: 'x', title: 't', body: 'b' } })).status).toBe(403);
    await runJobs();
    const mine = (userId: number) => db.select().from(notificationMessages).where(and(eq(notificationMessages.userId, userId), eq(notificationMessages.event, 'marketing.announcement')));
    expect(await mine(off.user.id)).toEqual([]);
    const [message] = await mine(on.user.id);
    expect(message).toMatchObject({ channel: 'email', to: on.user.email, status: 'SENT' });
    expect(message.subject).toBe('(광고) [LUXE] 가을 시승 이벤트');
    const link = /(http:\/\/localhost:\d+\/api\/notifications\/unsubscribe\?token=\S+)/.exec(message.text)![1];
    expect(message.html).toContain('수신 거부');
    expect(email.sent.find((m) => m.id === message.id)!.meta.unsubscribeUrl).toBe(link);
    expect(new URL(link).pathname).toBe('/api/notifications/unsubscribe');
    const path = `/notifications/unsubscribe${new URL(link).search}` as const;

    // The link, without a login: a Korean page with the site's CSP and a button; the button withdraws consent.
    const pageRes = await call('GET', path, { headers: { accept: 'text/html' } });
    expect(pageRes.status).toBe(200);
    expect(pageRes.body).toContain('수신 거부하기');
    expect(pageRes.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    const done = await call('POST', path, { headers: { accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded' } });
    expect(done.status).toBe(200);
    expect(done.body).toContain('수신 거부가 완료되었습니다');
    expect((await db.select().from(users).where(eq(users.id, on.user.id)))[0].marketingConsent).toBe(false);
    expect((await call('GET', path)).body.data).toEqual({ marketing_consent: false });

    expect((await send('winter-2033')).status).toBe(202);
    await runJobs();
    expect(await mine(on.user.id)).toHaveLength(1);
    // An event emitted for a customer without consent (whatever emitted it) writes no message.
    await db.transaction((tx) => emit(tx as never, 'direct-marketing', { type: 'marketing.announcement', userId: off.user.id, campaign: 'direct', title: '혜택', body: '안내' }, clock.now()));
    await runJobs();
    expect(await rowsOf(['direct-marketing'])).toEqual([]);
    expect((await ctx.database.db.select().from(jobs).where(eq(jobs.key, 'notify:direct-marketing')))[0].status).toBe('done');
  });

  it('a forged or another user\'s token is refused and changes nothing', async () => {
    const victim = await newCustomer({ marketingConsent: true });
    const attacker = await newCustomer({ marketingConsent: true });
    const theirs = unsubscribeToken(config.jwtSecret, attacker.user.id);
    const forged = `${victim.user.id}.${theirs.split('.')[1]}`;
    for (const token of [forged, unsubscribeToken('another-secret-another-secret-xx', victim.user.id), 'abc', `${victim.user.id}.`]) {
      const res = await call('POST', `/notifications/unsubscribe?token=${encodeURIComponent(token)}`);
      expect([400, 403]).toContain(res.status);
      expect(res.body.message).toMatch(/수신 거부 링크가 올바르지 않/);
    }
    const html = await call('GET', `/notifications/unsubscribe?token=${encodeURIComponent(forged)}`, { headers: { accept: 'text/html' } });
    expect(html.status).toBe(403);
    expect(html.body).toContain('링크를 확인할 수 없습니다');
    expect((await call('POST', '/notifications/unsubscribe')).status).toBe(400);
    expect((await ctx.database.db.select().from(users).where(eq(users.id, victim.user.id)))[0].marketingConsent).toBe(true);
  });

  it('consent withdrawn in my page after the message was written: it is not sent', async () => {
    const db = ctx.database.db;
    const c = await newCustomer({ marketingConsent: true });
    expect((await call('POST', '/admin/notifications/marketing', { token: ADMIN, json: { campaign: 'late-revoke', title: '혜택 안내', body: '이번 달 혜택입니다.' } })).status).toBe(202);
    const render = createJobRunner({ db, payments: createPaymentProvider(db, config), clock, log: () => {}, config, channels }, 'render-only');
    await render(['notify']);
    expect((await call('PUT', '/accounts', { token: c.token, json: { marketing_consent: false } })).status).toBe(200);
    await runJobs();
    const rows = await db.select().from(notificationMessages).where(and(eq(notificationMessages.userId, c.user.id), eq(notificationMessages.key, `marketing.announcement:late-revoke:${c.user.id}`)));
    expect(rows.map((r) => r.status)).toEqual(['SKIPPED']);
  });
});

describe('chat hand-off', () => {
  it('asking for a person tells the staff (once per visitor in a while) and the answer says so', async () => {
    clock.set(new Date('2034-01-01T10:05:00+09:00'));
    const ask = (message: string, ip: string) => call('POST', '/services/gpt/1', { json: { message, carId: 0, state: { 출발지: '청담' } }, headers: { accept: 'application/json', 'x-forwarded-for': ip } });
    const res = await ask('상담원 연결해 주세요', '10.9.9.1');
    expect(res.status).toBe(200);
    expect(res.body.data.message_text).toMatch(/^상담원 연결을 요청했습니다/);
    await ask('상담원이랑 통화하고 싶어요', '10.9.9.1');
    const plain = await ask('내일 오전 9시 청담에서 인천공항까지', '10.9.9.2');
    expect(plain.body.data.message_text).not.toContain('상담원 연결');
    await runJobs();
    const rows = await ctx.database.db.select().from(notificationMessages).where(eq(notificationMessages.event, 'staff.chat_handoff'));
    const handoffs = rows.filter((r) => r.key.startsWith('staff.chat_handoff:'));
    expect(handoffs.map((r) => [r.channel, r.to]).sort()).toEqual([['email', STAFF_EMAIL], ['kakao', STAFF_PHONE]].sort());
    expect(handoffs[0].text).toContain('상담원 연결해 주세요');
    expect(handoffs[0].text).toContain('출발지 청담');
    clock.reset();
  });
});

describe('the sandbox outbox', () => {
  it('GET /sandbox/outbox?to= answers the messages to that address (the default app: no provider, the sandbox takes them); the page lists them', async () => {
    const { user, token } = await newCustomer();
    const order = await ctx.call('POST', `/subscriptions/cars/${await anotherPlate(ctx, carId)}/request`, { token, json: { month: 12, billing_key: card() } });
    expect(order.status).toBe(201);
    await ctx.call('POST', '/admin/billing/run', { token: ADMIN });
    const res = await ctx.call('GET', `/sandbox/outbox?to=${encodeURIComponent(user.email!.toUpperCase())}`);
    expect(res.status).toBe(200);
    const { messages } = res.body.data;
    expect(messages.map((m: { event: string }) => m.event).sort()).toEqual(['payment.succeeded', 'subscription.requested']);
    for (const m of messages) {
      expect(Object.keys(m)).toEqual(expect.arrayContaining(['event', 'channel', 'to', 'subject', 'text', 'created_at']));
      expect(m).toMatchObject({ channel: 'email', to: user.email, status: 'SENT', provider: 'sandbox' });
      expect(Number.isNaN(Date.parse(m.created_at))).toBe(false);
    }
    expect(messages.map((m: { subject: string }) => m.subject).join(' ')).toMatch(/신청 접수.*결제 완료|결제 완료.*신청 접수/);
    const kakaoRes = await ctx.call('GET', `/sandbox/outbox?to=${user.mobile}`);
    expect(kakaoRes.body.data.messages.every((m: { channel: string }) => m.channel === 'kakao')).toBe(true);
    expect(kakaoRes.body.data.messages).toHaveLength(2);

    const page = await ctx.app.request(`/sandbox/outbox/page?to=${encodeURIComponent(user.email!)}`, { headers: { host: 'localhost' } });
    expect(page.status).toBe(200);
    const text = await page.text();
    expect(text).toContain('알림 발신함');
    expect(text).toContain('구독 신청 접수');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");

    for (const bad of ['limit=abc', 'limit=0', 'limit=1e2', `to=${'a'.repeat(300)}`, 'to=%00']) {
      const r = await ctx.call('GET', `/sandbox/outbox?${bad}`);
      expect(r.status, bad).toBe(400);
      expect(r.body.message).toMatch(/[가-힣]/);
    }
  });

  it('is 404 while the sandbox is off', async () => {
    const off = createApp({ db: ctx.database.db, config: testConfig({ notifications: NOTIFY, sandbox: false }) });
    for (const path of ['/sandbox/outbox', '/sandbox/outbox?to=a@b.c', '/sandbox/outbox/page']) {
      const res = await off.request(path, { headers: { host: 'localhost' } });
      expect(res.status, path).toBe(404);
      expect((await res.json()).code).toBeGreaterThan(0);
    }
  });
});
