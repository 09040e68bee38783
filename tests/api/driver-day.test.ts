import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayInKorea } from '../../src/domain/dates';
import { insertButlerCar, insertModel, upsertBrand } from '../../src/api/seed/factories';
import { auditLog, butlerRequests, jobs, notificationMessages, payments, sandboxPayments, tripPositions } from '../../src/api/db/schema';
import { TEST_ADMIN_TOKEN } from '../../src/api/env';
import { issueSandboxBillingKey } from '../../src/api/billing/sandbox-provider';
import { POSITION_KEEP_MINUTES } from '../../src/domain/driver-day';
import { apiTools, createTestContext, customer, newPerson, type TestContext } from './helpers';

/**
 * The day of a chauffeured trip: staff invite a roster driver (single use, expiring), the driver
 * signs in and sees only their own trips, taps 출발 → 도착 → 탑승 → 운행 종료 strictly in order
 * (each once per trip and stage, so a retried or offline-kept tap records nothing twice),
 * 운행 종료 charges the overtime once, 출발 sends the customer's 알림톡, staff correct times
 * (audited), and the shared position is kept only for the trip.
 */

let ctx: TestContext;
let modelId: number;
const ADMIN = TEST_ADMIN_TOKEN;

beforeAll(async () => {
  ctx = await createTestContext();
  const brand = await upsertBrand(ctx.database.db, { name: '마이바흐', slug: 'maybach-driver-day' });
  modelId = (await insertModel(ctx.database.db, { brandId: brand.id, name: 'S680' })).id;
});
afterAll(() => ctx.close());
afterEach(() => setClock(null));

const { admin: staff, setClock, runJobs } = apiTools(() => ctx);
const at = (days: number, time: string) => `${addDays(todayInKorea(new Date()), days)}T${time}:00+09:00`;
const tap = (token: string, id: number, stage: string, json: unknown = {}) => ctx.call('POST', `/driver/trips/${id}/stages/${stage}`, { token, json });

let seq = 0;
async function newDriver() {
  seq += 1;
  const res = await staff('POST', '/admin/drivers', { name: `김기사${seq}`, phone: `010-7777-${String(2000 + seq)}`, gender: 'male' });
  expect(res.status).toBe(201);
  return res.body.data.driver as { id: number; name: string; phone: string };
}

/** The code in the newest invite message sent to `to` (the link /driver?invite=CODE). */
async function inviteCodeSentTo(to: string): Promise<string> {
  await runJobs();
  const rows = await ctx.database.db.select().from(notificationMessages).where(and(eq(notificationMessages.event, 'driver.invited'), eq(notificationMessages.to, to)));
  const last = rows.sort((a, b) => b.id - a.id)[0];
  expect(last, `no invite to ${to}`).toBeTruthy();
  return /\/driver\?invite=([\w-]+)/.exec(last.text)![1];
}

/** A roster driver with an account (invited by email, accepted): their access token. */
async function driverAccount() {
  const driver = await newDriver();
  const email = newPerson('driver').email;
  expect((await staff('POST', `/admin/drivers/${driver.id}/invite`, { channel: 'email', email })).status).toBe(201);
  const code = await inviteCodeSentTo(email);
  // With both 위치정보 consents, so the live position is shared (tests/api/location-*.test.ts: without them).
  const res = await ctx.call('POST', '/driver/invites/accept', { json: { code, password: 'driver123', location_terms: true, location_third_party: true } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { driver, email, token: res.body.data.access_token };
}

/** A paid, confirmed booking of 09:00–17:00 on day `d` (800,000원 for 8 h, 100,000원 an hour over), assigned to `driverId`. */
async function trip(d: number, driverId: number) {
  const car = await insertButlerCar(ctx.database.db, modelId, { butlerFee: 800_000, butlerOvertimeFee: 100_000, licensePlate: `34나 ${5600 + ++seq}` });
  const owner = await customer(ctx);
  const res = await ctx.call('POST', `/butlers/cars/${car.id}/request`, {
    token: owner.token,
    json: {
      start_at: at(d, '09:00'), end_at: at(d, '17:00'), start_location: '서울 강남구 테헤란로 152', end_location: '인천 중구 공항로 272', passenger_count: 2,
      way_point_requests: [{ address: '서울 중구 세종대로 110', scheduled_time: at(d, '10:00') }], purpose: '공항 픽업', memo: '유아 카시트 1개', flight_number: 'ke 123',
      billing_key: issueSandboxBillingKey(ctx.config),
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const id = res.body.data.butler_request.id;
  expect((await staff('POST', `/admin/butler-requests/${id}/assign`, { driver_id: driverId })).status).toBe(200);
  return { id, owner, car };
}

describe('driver invites', () => {
  it('are staff-only, single use, expire, and a newer invite voids the older', async () => {
    const driver = await newDriver();
    const { token: customerToken } = await customer(ctx);
    expect((await ctx.call('POST', `/admin/drivers/${driver.id}/invite`, { token: customerToken, json: { channel: 'phone' } })).status).toBe(403);

    // By 알림톡 to the roster's number; the link is in the sandbox outbox like any message.
    const res = await staff('POST', `/admin/drivers/${driver.id}/invite`, { channel: 'phone' });
    expect(res.status).toBe(201);
    expect(res.body.data.invite).toMatchObject({ channel: 'phone', address: driver.phone.replace(/\D/g, '') });
    const code = await inviteCodeSentTo(driver.phone.replace(/\D/g, ''));
    expect((await ctx.call('GET', `/driver/invites/${code}`)).body.data.invite).toMatchObject({ driver_name: driver.name, channel: 'phone', email: null });

    // A phone invite asks for the email to sign in with.
    const noEmail = await ctx.call('POST', '/driver/invites/accept', { json: { code, password: 'driver123' } });
    expect(noEmail.status).toBe(422);
    expect(noEmail.body.message).toBe('로그인에 쓸 이메일을 입력해주세요.');
    const email = newPerson('driver').email;
    const accepted = await ctx.call('POST', '/driver/invites/accept', { json: { code, email, password: 'driver123' } });
    expect(accepted.status).toBe(201);
    // Used once: the same code again is refused, and the account signs in like any other.
    const again = await ctx.call('POST', '/driver/invites/accept', { json: { code, email: newPerson('x').email, password: 'driver123' } });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('이미 사용된 초대 링크입니다. 만든 계정으로 로그인해주세요.');
    const login = await ctx.call('POST', '/accounts/login', { json: { email, password: 'driver123' } });
    expect(login.status).toBe(200);
    expect((await ctx.call('GET', '/driver/trips', { token: login.body.data.access_token })).status).toBe(200);
    // A driver with an account is not invited again.
    expect((await staff('POST', `/admin/drivers/${driver.id}/invite`, { channel: 'phone' })).status).toBe(409);
    expect(await ctx.database.db.select().from(auditLog).where(and(eq(auditLog.entity, 'driver'), eq(auditLog.entityId, String(driver.id)), eq(auditLog.action, 'invite')))).toHaveLength(1);

    // Expiry (72 h) and a newer invite voiding the older one.
    const other = await newDriver();
    const mail = newPerson('driver').email;
    await staff('POST', `/admin/drivers/${other.id}/invite`, { channel: 'email', email: mail });
    const first = await inviteCodeSentTo(mail);
    await staff('POST', `/admin/drivers/${other.id}/invite`, { channel: 'email', email: mail });
    const second = await inviteCodeSentTo(mail);
    expect(second).not.toBe(first);
    expect((await ctx.call('POST', '/driver/invites/accept', { json: { code: first, password: 'driver123' } })).body.message).toBe('초대 링크가 만료되었습니다. 직원에게 새 초대를 요청해주세요.');
    await setClock(new Date(Date.now() + 73 * 3600_000).toISOString());
    const late = await ctx.call('POST', '/driver/invites/accept', { json: { code: second, password: 'driver123' } });
    expect(late.status).toBe(409);
    expect(late.body.message).toBe('초대 링크가 만료되었습니다. 직원에게 새 초대를 요청해주세요.');
    expect((await ctx.call('POST', '/driver/invites/accept', { json: { code: 'made-up-code', password: 'driver123' } })).status).toBe(404);
  });
});

describe("the driver's trips", () => {
  it('a driver sees only their own; customers, other drivers and strangers are refused', async () => {
    const a = await driverAccount();
    const b = await driverAccount();
    const mine = await trip(1, a.driver.id);
    const theirs = await trip(1, b.driver.id);
    const res = await ctx.call('GET', '/driver/trips', { token: a.token });
    expect(res.status).toBe(200);
    const trips = res.body.data.trips as { id: number }[];
    expect(trips.map((t) => t.id)).toEqual([mine.id]);
    expect(res.body.data.trips[0]).toMatchObject({
      start_location: '서울 강남구 테헤란로 152', end_location: '인천 중구 공항로 272', purpose: '공항 픽업', memo: '유아 카시트 1개', passenger_count: 2,
      way_points: [{ address: '서울 중구 세종대로 110', scheduled_time: new Date(at(1, '10:00')).toISOString() }],
      passenger: { name: '홍길동', phone_masked: expect.stringMatching(/^010-\*{4}-\d{4}$/) }, next_stage: 'departed', stage: 'DISPATCHED',
      // The flight of the airport pickup reaches the driver's phone too (issue 50), as airlines print it.
      flight_number: 'KE123',
    });
    // The server's time and the waiting rule the charge applies: the phone counts a wait from them, not from its own clock.
    await setClock('2031-03-04T10:00:00+09:00');
    const timed = await ctx.call('GET', '/driver/trips', { token: a.token });
    expect(Date.parse(timed.body.data.now) - Date.parse('2031-03-04T10:00:00+09:00')).toBeGreaterThanOrEqual(0);
    expect(Date.parse(timed.body.data.now) - Date.parse('2031-03-04T10:00:00+09:00')).toBeLessThan(60_000);
    expect(timed.body.data.waiting_policy).toEqual({ airport_free_minutes: 60, free_minutes: 15, step_minutes: 30 });
    await setClock(null);
    // Another driver's trip, a customer (even the trip's own), a staff token and no token.
    expect((await tap(a.token, theirs.id, 'departed')).status).toBe(403);
    expect((await tap(mine.owner.token, mine.id, 'departed')).status).toBe(403);
    expect((await ctx.call('GET', '/driver/trips', { token: mine.owner.token })).status).toBe(403);
    expect((await ctx.call('GET', '/driver/trips')).status).toBe(401);
    expect((await tap(ADMIN, mine.id, 'departed')).status).toBe(401);
    expect((await tap(a.token, 999_999, 'departed')).status).toBe(404);
    // A driver account is not staff.
    expect((await ctx.call('GET', '/admin/dispatch', { token: a.token })).status).toBe(403);
    expect(await ctx.database.db.select().from(butlerRequests).where(eq(butlerRequests.id, mine.id)).then((r) => r[0].departedAt)).toBeNull();
  });

  it('records 출발 → 도착 → 탑승 → 운행 종료 in order, once each; overtime is charged once after the end; 출발 tells the customer', async () => {
    const { driver, token } = await driverAccount();
    const { id, owner, car } = await trip(2, driver.id);
    await setClock(at(2, '07:00'));
    // Out of order: 409 in Korean, nothing recorded.
    const early = await tap(token, id, 'arrived');
    expect(early.status).toBe(409);
    expect(early.body.message).toBe('출발을 먼저 눌러주세요. 출발 → 도착 → 탑승 → 운행 종료 순서로 기록합니다.');
    expect((await tap(token, id, 'ended')).body.message).toBe('탑승을 먼저 눌러주세요. 출발 → 도착 → 탑승 → 운행 종료 순서로 기록합니다.');
    expect((await tap(token, id, 'nope')).status).toBe(400);

    // The business clock runs on from the time set: the tap carries its own time.
    const departed = await tap(token, id, 'departed', { tapped_at: at(2, '07:00') });
    expect(departed.status).toBe(201);
    expect(departed.body.data).toMatchObject({ recorded: true, trip: { stage: 'DEPARTED', next_stage: 'arrived', times: { departed: new Date(at(2, '07:00')).toISOString() } } });
    // The same tap again (a retry): the same record, 200, nothing new.
    await setClock(at(2, '07:05'));
    const twice = await tap(token, id, 'departed');
    expect(twice.status).toBe(200);
    expect(twice.body.data.recorded).toBe(false);
    expect(twice.body.data.trip.times).toEqual(departed.body.data.trip.times);

    // The customer's 알림톡 (and email): driver, plate and the trip page.
    await runJobs();
    const sent = await ctx.database.db.select().from(notificationMessages).where(eq(notificationMessages.key, `butler.driver_departed:${id}`));
    expect(sent.map((m) => m.channel).sort()).toEqual(['email', 'kakao']);
    const kakao = sent.find((m) => m.channel === 'kakao')!;
    expect(kakao.to).toBe(owner.user.mobile);
    expect(kakao.text).toContain('기사님이 출발했습니다');
    expect(kakao.text).toContain(driver.name);
    expect(kakao.text).toContain(car.licensePlate!);
    expect(kakao.text).toMatch(/\/butler\/subscribe\/\d+/);
    const view = async () => (await ctx.call('GET', `/butlers/requests/${id}`, { token: owner.token })).body.data.butler_request;
    expect((await view()).stage).toBe('DEPARTED');

    // 도착 sent later with its own tap time (kept offline): recorded at that time.
    await setClock(at(2, '08:50'));
    expect((await tap(token, id, 'arrived', { tapped_at: at(2, '08:45') })).body.data.trip.times.arrived).toBe(new Date(at(2, '08:45')).toISOString());
    expect((await view()).stage).toBe('ARRIVED');
    await setClock(at(2, '09:10'));
    expect((await tap(token, id, 'boarded', { tapped_at: at(2, '09:10') })).status).toBe(201);
    expect((await view()).stage).toBe('IN_PROGRESS');
    // The staff board shows the same stage.
    const board = await staff('GET', `/admin/dispatch?from=${addDays(todayInKorea(new Date()), 2)}`);
    expect(board.body.data.trips.find((t: { id: number }) => t.id === id)).toMatchObject({ stage: 'IN_PROGRESS', departed_at: new Date(at(2, '07:00')).toISOString() });

    // 운행 종료 at 19:40: 10 h 30 from 탑승 → 3 started hours over → 300,000원, charged once.
    await setClock(at(2, '19:40'));
    const end = { tapped_at: at(2, '19:40') };
    const [end1, end2] = await Promise.all([tap(token, id, 'ended', end), tap(token, id, 'ended', end)]);
    expect([end1.status, end2.status].sort()).toEqual([200, 201]);
    expect(end1.body.data.overtime).toEqual({ amount: 300_000, hours: 3 });
    expect(end2.body.data.overtime).toEqual({ amount: 300_000, hours: 3 });
    const end3 = await tap(token, id, 'ended');
    expect(end3.status).toBe(200);
    const overtime = await ctx.database.db.select().from(payments).where(and(eq(payments.refId, id), eq(payments.purpose, 'BUTLER_OVERTIME')));
    expect(overtime.map((p) => [p.id, p.status, p.amount])).toEqual([[`butler-${id}-overtime`, 'PAID', 300_000]]);
    expect(await ctx.database.db.select().from(sandboxPayments).where(eq(sandboxPayments.paymentId, `butler-${id}-overtime`))).toHaveLength(1);
    const done = await view();
    expect(done).toMatchObject({ stage: 'COMPLETED', trip_record: { overtime_hours: 3, ended_at: new Date(at(2, '19:40')).toISOString() }, overtime_payment: { status: 'PAID', amount: 300_000 } });
    // Staff recording the trip again cannot charge a second time.
    expect((await staff('POST', `/admin/butler-requests/${id}/trip`, { actual_start_at: at(2, '09:00'), actual_end_at: at(2, '19:00') })).status).toBe(409);
  });

  it('staff correct recorded times with a reason (audited); order is kept and charged times stay', async () => {
    const { driver, token } = await driverAccount();
    const { id, owner } = await trip(3, driver.id);
    await setClock(at(3, '08:00'));
    await tap(token, id, 'departed');
    await setClock(at(3, '08:40'));
    await tap(token, id, 'arrived');
    const path = `/admin/butler-requests/${id}/stages` as const;
    expect((await ctx.call('PATCH', path, { token: owner.token, json: { arrived_at: at(3, '08:30'), reason: '도착 시각 정정' } })).status).toBe(403);
    expect((await ctx.call('PATCH', path, { token, json: { arrived_at: at(3, '08:30'), reason: '도착 시각 정정' } })).status).toBe(403);
    const backwards = await staff('PATCH', path, { arrived_at: at(3, '07:30'), reason: '정정' });
    expect(backwards.status).toBe(422);
    expect(backwards.body.message).toBe('도착 시각은 출발 시각 이후여야 합니다.');
    expect((await staff('PATCH', path, { boarded_at: at(3, '09:30'), reason: '정정' })).status).toBe(422);
    expect((await staff('PATCH', path, { arrived_at: at(3, '08:30') })).status).toBe(400);
    const fixed = await staff('PATCH', path, { arrived_at: at(3, '08:30'), reason: '기사 요청: 도착 시각 정정' });
    expect(fixed.status).toBe(200);
    expect(fixed.body.data.times.arrived).toBe(new Date(at(3, '08:30')).toISOString());
    const audits = await ctx.database.db.select().from(auditLog).where(and(eq(auditLog.entity, 'butler_request'), eq(auditLog.entityId, String(id)), eq(auditLog.action, 'correct_stages')));
    expect(audits).toHaveLength(1);
    expect(audits[0].after).toMatchObject({ arrived: new Date(at(3, '08:30')).toISOString(), reason: '기사 요청: 도착 시각 정정' });

    // Staff record 탑승 and 운행 종료 for the driver: the overtime is charged; after it those times are locked.
    await setClock(at(3, '20:00'));
    const ended = await staff('PATCH', path, { boarded_at: at(3, '09:00'), ended_at: at(3, '18:30'), reason: '기사 휴대폰 방전' });
    expect(ended.status).toBe(200);
    expect(ended.body.data.overtime).toMatchObject({ amount: 200_000, hours: 2, payment: { status: 'PAID' } });
    const locked = await staff('PATCH', path, { ended_at: at(3, '19:30'), reason: '정정' });
    expect(locked.status).toBe(409);
    expect((await tap(token, id, 'ended')).status).toBe(200);
    expect(await ctx.database.db.select().from(payments).where(and(eq(payments.refId, id), eq(payments.purpose, 'BUTLER_OVERTIME')))).toHaveLength(1);
  });
});

describe('live position', () => {
  it('is shared only during the active trip, shown to its customer only, and deleted after the end plus the keep time', async () => {
    const { driver, token } = await driverAccount();
    const { id, owner } = await trip(4, driver.id);
    const stranger = await customer(ctx);
    const post = (json: unknown) => ctx.call('POST', `/driver/trips/${id}/position`, { token, json });
    await setClock(at(4, '08:00'));
    expect((await post({ lat: 37.5, lng: 127.03 })).status).toBe(409);
    await tap(token, id, 'departed');
    expect((await post({ lat: 37.5, lng: 127.03, accuracy: 12 })).status).toBe(200);
    expect((await post({ lat: 91, lng: 127 })).status).toBe(400);
    expect((await ctx.call('POST', `/driver/trips/${id}/position`, { token: owner.token, json: { lat: 37, lng: 127 } })).status).toBe(403);
    await setClock(at(4, '08:01'));
    expect((await post({ lat: 37.51, lng: 127.04 })).status).toBe(200);
    expect(await ctx.database.db.select().from(tripPositions).where(eq(tripPositions.butlerRequestId, id))).toHaveLength(1);
    const seen = await ctx.call('GET', `/butlers/requests/${id}/position`, { token: owner.token });
    expect(seen.body.data.position).toEqual({ lat: 37.51, lng: 127.04, accuracy: null, recorded_at: expect.any(String) });
    // Recorded on the business clock (set to 08:01, running on since).
    expect(seen.body.data.position!.recorded_at.slice(0, 16)).toBe(new Date(at(4, '08:01')).toISOString().slice(0, 16));
    // The answer carries the business clock's now, so the page's "N초 전" does not follow the phone's clock.
    expect(seen.body.data.now.slice(0, 16)).toBe(new Date(at(4, '08:01')).toISOString().slice(0, 16));
    expect((await ctx.call('GET', `/butlers/requests/${id}/position`, { token: stranger.token })).status).toBe(404);

    await setClock(at(4, '08:30'));
    await tap(token, id, 'arrived');
    await tap(token, id, 'boarded');
    await setClock(at(4, '16:00'));
    await tap(token, id, 'ended');
    expect((await ctx.call('GET', `/butlers/requests/${id}/position`, { token: owner.token })).body.data.position).toBeNull();
    expect((await post({ lat: 37.5, lng: 127 })).status).toBe(409);
    // Kept until the keep time after the end, then the job deletes it.
    await runJobs();
    expect(await ctx.database.db.select().from(tripPositions).where(eq(tripPositions.butlerRequestId, id))).toHaveLength(1);
    await setClock(new Date(new Date(at(4, '16:00')).getTime() + (POSITION_KEEP_MINUTES + 1) * 60_000).toISOString());
    await runJobs();
    expect(await ctx.database.db.select().from(tripPositions).where(eq(tripPositions.butlerRequestId, id))).toHaveLength(0);
    expect(await ctx.database.db.select().from(jobs).where(eq(jobs.key, `trip-positions.purge:${id}`))).toHaveLength(1);
  });

  it('of a trip cancelled on the way is deleted within the keep time too', async () => {
    const { driver, token } = await driverAccount();
    const { id } = await trip(5, driver.id);
    await setClock(at(5, '08:00'));
    await tap(token, id, 'departed');
    expect((await ctx.call('POST', `/driver/trips/${id}/position`, { token, json: { lat: 37.5, lng: 127 } })).status).toBe(200);
    expect((await staff('POST', `/admin/butler-requests/${id}/cancel`)).status).toBe(200);
    await setClock(at(5, '09:01'));
    await runJobs();
    expect(await ctx.database.db.select().from(tripPositions).where(eq(tripPositions.butlerRequestId, id))).toHaveLength(0);
  });
});
