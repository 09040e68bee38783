import { and, eq, like } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayInKorea } from '../../src/domain/dates';
import { insertButlerCar, insertModel, upsertBrand } from '../../src/api/seed/factories';
import { auditLog, butlerRequests, butlerWaypoints, jobs, notificationMessages } from '../../src/api/db/schema';
import { issueSandboxBillingKey } from '../../src/api/billing/sandbox-provider';
import { apiTools, createTestContext, customer, type TestContext } from './helpers';
import { driverAccount } from './driver-helpers';

/**
 * Drivers are told (issue 50): an assignment, a reassignment away, a change of time or address and
 * a cancellation each reach the driver once (알림톡, SMS fallback) and are listed under 알림 on
 * /driver, their own only; the driver sees the coming 8 days and their past trips with records;
 * staff move a pickup for a late flight, refused when it breaks the driver's board, and both the
 * driver and the customer are told.
 */

let ctx: TestContext;
let modelId: number;

beforeAll(async () => {
  ctx = await createTestContext();
  const brand = await upsertBrand(ctx.database.db, { name: '벤틀리', slug: 'bentley-driver-notices' });
  modelId = (await insertModel(ctx.database.db, { brandId: brand.id, name: 'Flying Spur' })).id;
});
afterAll(() => ctx.close());
afterEach(() => setClock(null));

const { admin: staff, setClock, runJobs } = apiTools(() => ctx);
const at = (days: number, time: string) => `${addDays(todayInKorea(new Date()), days)}T${time}:00+09:00`;


/** A paid booking of 09:00–17:00 on day `d` with a flight and a waypoint at 10:00 (unassigned). */
/** Numbers each test car's plate. */
let seq = 0;
async function booking(d: number, start = '09:00', end = '17:00', stop = '12:00') {
  const car = await insertButlerCar(ctx.database.db, modelId, { butlerFee: 800_000, butlerOvertimeFee: 100_000, licensePlate: `56다 ${7000 + ++seq}` });
  const owner = await customer(ctx);
  const res = await ctx.call('POST', `/butlers/cars/${car.id}/request`, {
    token: owner.token,
    json: {
      start_at: at(d, start), end_at: at(d, end), start_location: '인천 중구 공항로 272', end_location: '서울 강남구 테헤란로 152', passenger_count: 1,
      way_point_requests: [{ address: '서울 중구 세종대로 110', scheduled_time: at(d, stop) }], flight_number: 'KE123', billing_key: issueSandboxBillingKey(ctx.config),
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id: res.body.data.butler_request.id, owner };
}

/** The messages of `event` about trip `id` sent to `to` (after running the jobs). */
async function sent(event: string, id: number, to?: string) {
  await runJobs();
  const rows = await ctx.database.db.select().from(notificationMessages).where(eq(notificationMessages.event, event));
  return rows.filter((m) => m.text.includes(`#${id}`) && (to === undefined || m.to === to));
}

describe('the driver is told of every assignment and change, once', () => {
  it('an assignment sends one 알림톡 even when repeated, and shows as an unread 알림 that the page marks read', async () => {
    const a = await driverAccount(ctx);
    const { id } = await booking(5);
    expect((await staff('POST', `/admin/butler-requests/${id}/assign`, { driver_id: a.driver.id })).status).toBe(200);
    // The same assignment again (a retried request) changes nothing and tells nobody again.
    expect((await staff('POST', `/admin/butler-requests/${id}/assign`, { driver_id: a.driver.id })).status).toBe(200);
    const told = await sent('driver.trip_assigned', id, a.phone);
    expect(told).toHaveLength(1);
    expect(told[0].channel).toBe('kakao');
    expect(told[0].text).toContain('새 운행이 배정되었습니다');
    expect(told[0].text).toContain('KE123');
    expect(await sent('driver.trip_assigned', id)).toHaveLength(1);

    const list = (await ctx.call('GET', '/driver/notices', { token: a.token })).body.data;
    expect(list.unread).toBe(1);
    expect(list.notices).toEqual([expect.objectContaining({ kind: 'assigned', title: '새 운행 배정', trip_id: id, read: false })]);
    const read = await ctx.call('POST', '/driver/notices/read', { token: a.token, json: { up_to_id: list.notices[0].id } });
    expect(read.body.data.marked).toBe(1);
    const after = (await ctx.call('GET', '/driver/notices', { token: a.token })).body.data;
    expect(after.unread).toBe(0);
    expect(after.notices[0].read).toBe(true);
    expect((await ctx.call('POST', '/driver/notices/read', { token: a.token, json: { up_to_id: 'x' } })).status).toBe(400);
  });

  it('a reassignment tells both drivers; a stranger driver sees none of another’s notices nor their trips', async () => {
    const a = await driverAccount(ctx);
    const b = await driverAccount(ctx);
    const stranger = await driverAccount(ctx);
    const { id } = await booking(6);
    expect((await staff('POST', `/admin/butler-requests/${id}/assign`, { driver_id: a.driver.id })).status).toBe(200);
    expect((await staff('POST', `/admin/butler-requests/${id}/assign`, { driver_id: b.driver.id })).status).toBe(200);
    expect(await sent('driver.trip_assigned', id, a.phone)).toHaveLength(1);
    expect(await sent('driver.trip_assigned', id, b.phone)).toHaveLength(1);
    const away = await sent('driver.trip_unassigned', id, a.phone);
    expect(away).toHaveLength(1);
    expect(away[0].text).toContain('배정이 해제되었습니다');
    expect(await sent('driver.trip_unassigned', id, b.phone)).toHaveLength(0);

    const aNotices = (await ctx.call('GET', '/driver/notices', { token: a.token })).body.data.notices;
    expect(aNotices.map((n: { kind: string }) => n.kind)).toEqual(['unassigned', 'assigned']);
    const bNotices = (await ctx.call('GET', '/driver/notices', { token: b.token })).body.data.notices;
    expect(bNotices.map((n: { kind: string }) => n.kind)).toEqual(['assigned']);

    // The stranger: no notices, and marking another's ids read touches nothing of theirs.
    expect((await ctx.call('GET', '/driver/notices', { token: stranger.token })).body.data).toEqual({ notices: [], unread: 0 });
    expect((await ctx.call('POST', '/driver/notices/read', { token: stranger.token, json: { up_to_id: bNotices[0].id } })).body.data.marked).toBe(0);
    expect((await ctx.call('GET', '/driver/notices', { token: b.token })).body.data.unread).toBe(1);
    expect((await ctx.call('GET', '/driver/trips', { token: stranger.token })).body.data.trips).toEqual([]);
    expect((await ctx.call('GET', '/driver/trips/past', { token: stranger.token })).body.data.trips).toEqual([]);
    // A customer is not a driver.
    const { token: customerToken } = await customer(ctx);
    expect((await ctx.call('GET', '/driver/notices', { token: customerToken })).status).toBe(403);
    expect((await ctx.call('GET', '/driver/notices')).status).toBe(401);
  });

  it('a cancellation is one notice and one message', async () => {
    const a = await driverAccount(ctx);
    const { id, owner } = await booking(9);
    expect((await staff('POST', `/admin/butler-requests/${id}/assign`, { driver_id: a.driver.id })).status).toBe(200);
    expect((await ctx.call('DELETE', `/butlers/requests/${id}`, { token: owner.token })).status).toBe(200);
    expect(await sent('driver.trip_cancelled', id, a.phone)).toHaveLength(1);
    const kinds = (await ctx.call('GET', '/driver/notices', { token: a.token })).body.data.notices.map((n: { kind: string }) => n.kind);
    expect(kinds).toEqual(['cancelled', 'assigned']);
  });
});

describe('the coming days and the past trips', () => {
  it('lists trips of the next 7 days (not the 8th day after), and past trips with their records, paged', async () => {
    const a = await driverAccount(ctx);
    const near = await booking(3);
    const week = await booking(7);
    const far = await booking(8);
    for (const t of [near, week, far]) expect((await staff('POST', `/admin/butler-requests/${t.id}/assign`, { driver_id: a.driver.id })).status).toBe(200);
    const ids = (await ctx.call('GET', '/driver/trips', { token: a.token })).body.data.trips.map((t: { id: number }) => t.id);
    expect(ids).toEqual([near.id, week.id]);

    // Later: the near trip is run and rated; it is in 지난 운행 with its record.
    await setClock(`${addDays(todayInKorea(new Date()), 3)}T08:00:00+09:00`);
    for (const stage of ['departed', 'arrived', 'boarded']) expect((await ctx.call('POST', `/driver/trips/${near.id}/stages/${stage}`, { token: a.token, json: {} })).status).toBe(201);
    await setClock(`${addDays(todayInKorea(new Date()), 3)}T16:30:00+09:00`);
    expect((await ctx.call('POST', `/driver/trips/${near.id}/stages/ended`, { token: a.token, json: {} })).status).toBe(201);
    expect((await ctx.call('POST', `/butlers/requests/${near.id}/rating`, { token: near.owner.token, json: { score: 5 } })).status).toBe(201);
    const past = (await ctx.call('GET', '/driver/trips/past', { token: a.token })).body.data;
    expect(past).toMatchObject({ page: 1, has_more: false });
    expect(past.trips).toEqual([expect.objectContaining({ id: near.id, used_hours: 8.5, rating: 5 })]);
    expect(past.trips[0].times.arrived).toBeTruthy();
    expect((await ctx.call('GET', '/driver/trips/past?page=0', { token: a.token })).status).toBe(400);
  });
});

describe('staff move a pickup for a late flight', () => {
  it('moves the trip by +30 min, tells the driver (before → after) and the customer once, and audits it', async () => {
    const a = await driverAccount(ctx);
    const { id, owner } = await booking(10);
    expect((await staff('POST', `/admin/butler-requests/${id}/assign`, { driver_id: a.driver.id })).status).toBe(200);
    const body = { start_at: at(10, '09:30'), cause: 'flight_delay', reason: 'KE123 30분 지연' };
    const res = await staff('PATCH', `/admin/butler-requests/${id}/pickup`, body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.changed).toBe(true);
    expect(res.body.data.trip.start_at).toBe(new Date(at(10, '09:30')).toISOString());
    expect(res.body.data.trip.end_at).toBe(new Date(at(10, '17:30')).toISOString());
    const [w] = await ctx.database.db.select().from(butlerWaypoints).where(eq(butlerWaypoints.butlerRequestId, id));
    expect(w.scheduledTime?.toISOString()).toBe(new Date(at(10, '12:30')).toISOString());
    // Sent again (a retry): nothing left to change, nothing sent again.
    expect((await staff('PATCH', `/admin/butler-requests/${id}/pickup`, body)).body.data.changed).toBe(false);

    const driverTold = await sent('driver.trip_changed', id, a.phone);
    expect(driverTold).toHaveLength(1);
    expect(driverTold[0].text).toMatch(/픽업 시각 \S+ 09:00 → \S+ 09:30/);
    const customerTold = await sent('butler.trip_changed', id);
    expect(customerTold.map((m) => m.channel).sort(), JSON.stringify(customerTold.map((m) => [m.channel, m.to, m.status]))).toEqual(['email', 'kakao']);
    expect(customerTold[0].text).toContain('항공편 지연으로 픽업 시각이 09:30으로 변경되었습니다.');
    const notice = (await ctx.call('GET', '/driver/notices', { token: a.token })).body.data.notices[0];
    expect(notice).toMatchObject({ kind: 'changed', changes: [expect.objectContaining({ field: 'start_at', label: '픽업 시각' }), expect.objectContaining({ field: 'way_points', before: '서울 중구 세종대로 110(12:00)', after: '서울 중구 세종대로 110(12:30)' })] });
    const audit = await ctx.database.db.select().from(auditLog).where(and(eq(auditLog.action, 'change_pickup'), eq(auditLog.entityId, String(id))));
    expect(audit).toHaveLength(1);
    // The reminder moved with the trip.
    const [reminder] = await ctx.database.db.select().from(jobs).where(eq(jobs.key, `notify:butler.reminder:${id}`));
    expect(reminder.runAt.toISOString()).toBe(new Date(new Date(at(10, '09:30')).getTime() - 24 * 3600_000).toISOString());
    // An address change is another change, told once more.
    expect((await staff('PATCH', `/admin/butler-requests/${id}/pickup`, { start_location: '인천 중구 공항로 271 제2터미널', reason: '터미널 변경' })).status).toBe(200);
    expect(await sent('driver.trip_changed', id, a.phone)).toHaveLength(2);
    expect(owner).toBeTruthy();
  });

  it('refuses a move that breaks the driver’s board, another day, a bad body or a stranger; nobody is told', async () => {
    const a = await driverAccount(ctx);
    const first = await booking(12, '09:00', '12:00', '10:30');
    const second = await booking(12, '13:30', '17:00', '15:00');
    for (const t of [first, second]) expect((await staff('POST', `/admin/butler-requests/${t.id}/assign`, { driver_id: a.driver.id })).status).toBe(200);
    const late = await staff('PATCH', `/admin/butler-requests/${first.id}/pickup`, { start_at: at(12, '10:00'), cause: 'flight_delay', reason: '지연' });
    expect(late.status).toBe(409);
    expect(late.body.message).toContain('간격이 60분보다 짧습니다');
    const [row] = await ctx.database.db.select().from(butlerRequests).where(eq(butlerRequests.id, first.id));
    expect(row.startAt.toISOString()).toBe(new Date(at(12, '09:00')).toISOString());
    expect(await sent('driver.trip_changed', first.id)).toHaveLength(0);
    expect(await sent('butler.trip_changed', first.id)).toHaveLength(0);

    expect((await staff('PATCH', `/admin/butler-requests/${first.id}/pickup`, { start_at: at(13, '09:00'), reason: '다음 날' })).status).toBe(422);
    const noReason = await staff('PATCH', `/admin/butler-requests/${first.id}/pickup`, { start_at: at(12, '08:30') });
    expect(noReason.status).toBe(400);
    expect(noReason.body.errors.reason).toEqual(['사유는 문자열이어야 합니다.']);
    expect((await staff('PATCH', `/admin/butler-requests/${first.id}/pickup`, { reason: '없음' })).status).toBe(400);
    expect((await staff('PATCH', `/admin/butler-requests/${first.id}/pickup`, { start_at: 'soon', reason: 'x' })).status).toBe(400);
    expect((await ctx.call('PATCH', `/admin/butler-requests/${first.id}/pickup`, { token: a.token, json: { start_at: at(12, '08:30'), reason: 'x' } })).status).toBe(403);
    expect((await ctx.call('PATCH', `/admin/butler-requests/${first.id}/pickup`, { token: first.owner.token, json: { start_at: at(12, '08:30'), reason: 'x' } })).status).toBe(403);
    expect(await ctx.database.db.select().from(jobs).where(like(jobs.key, `notify:driver.trip_changed:${first.id}:%`))).toHaveLength(0);
  });
});
