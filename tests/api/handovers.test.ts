import { randomBytes } from 'node:crypto';
import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertButlerCar, insertModel, insertTestCar, insertUser, upsertBrand } from '../../src/api/seed/factories';
import { openSession } from '../../src/api/accounts/sessions';
import { auditLog, butlerRequests, jobs, subscriptionHandovers, subscriptionRequests, subscriptions } from '../../src/api/db/schema';
import { issueSandboxBillingKey } from '../../src/api/billing/sandbox-provider';
import { handoverReadings } from '../../src/api/dispatch/handover-readings';
import { chargeInstant } from '../../src/domain/payments';
import { fillTemplate, kakaoText } from '../../src/api/notifications/template';
import handoverScheduled from '../../src/api/notifications/templates/subscription-handover-scheduled';
import handoverRecorded from '../../src/api/notifications/templates/subscription-handover-recorded';
import { anotherPlate, apiTools, createTestContext, customer, type TestContext } from './helpers';

/**
 * 탁송·반납 (issue 39): scheduling on the dispatch board without double-booking a driver against
 * butler trips (both ways, and two schedules at once), the handover record moving the first day
 * while billing allows, the customer's view and acknowledgement, strangers refused, retries.
 */
let ctx: TestContext;
let carId: number;
let butlerModelId: number;
const korean = /[가-힣]/;

beforeAll(async () => {
  ctx = await createTestContext();
  ({ car: { id: carId } } = await insertTestCar(ctx.database.db, { fees: { subscription_fee_1: 900_000, subscription_fee_3: 800_000, subscription_fee_12: 555_000 } }));
  const brand = await upsertBrand(ctx.database.db, { name: '벤틀리', slug: 'bentley-handover' });
  butlerModelId = (await insertModel(ctx.database.db, { brandId: brand.id, name: '플라잉스퍼' })).id;
});
afterAll(() => ctx.close());

const { admin: staff, setClock } = apiTools(() => ctx);

/** A confirmed 12-month subscription starting on `start` (the clock set to that morning). */
async function subscription(start: string) {
  await setClock(`${start}T08:00:00+09:00`);
  const { user, token } = await customer(ctx);
  const req = await ctx.call('POST', `/subscriptions/cars/${await anotherPlate(ctx, carId)}/request`, { token, json: { month: 12, billing_key: issueSandboxBillingKey(ctx.config) } });
  expect(req.status, JSON.stringify(req.body)).toBe(201);
  const confirmed = await staff('POST', `/admin/subscription-requests/${req.body.data.subscription_request.id}/confirm`, { start_date: start });
  expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(201);
  return { user, token, subscriptionId: confirmed.body.data.subscription.id };
}

let seq = 0;
async function newDriver() {
  seq += 1;
  const res = await staff('POST', '/admin/drivers', { name: `탁송기사${seq}`, phone: `010-7777-${String(1000 + seq)}`, gender: 'male' });
  expect(res.status).toBe(201);
  return res.body.data.driver as { id: number; name: string };
}

/** A confirmed butler trip written to the database on a car of its own. */
async function butlerTrip(userId: number, start: string, end: string) {
  const car = await insertButlerCar(ctx.database.db, butlerModelId, { subModel: 'V8', licensePlate: `34나 ${5000 + ++seq}` });
  const [row] = await ctx.database.db
    .insert(butlerRequests)
    .values({
      userId, butlerCarId: car.id, startAt: new Date(start), endAt: new Date(end), startLocation: '서울 중구 세종대로 110', endLocation: '김포공항',
      billingKey: `test-${randomBytes(8).toString('hex')}`, billingProvider: 'sandbox', baseFee: 700_000, finalPrice: 700_000, status: 'CONFIRMED',
    })
    .returning();
  return row.id;
}

const schedule = (subscriptionId: number, body: Record<string, unknown>) => staff('POST', `/admin/subscriptions/${subscriptionId}/handovers`, body);
const notifyJobs = (type: string, handoverId: number) =>
  ctx.database.db.select().from(jobs).where(and(eq(jobs.kind, 'notify'), like(jobs.key, `notify:${type}:${handoverId}%`)));

describe('scheduling a delivery or a return', () => {
  it('creates one live delivery (a retry changes nothing), reschedules it audited, tells the customer, shows it on the board', async () => {
    const { subscriptionId } = await subscription('2029-03-10');
    const driver = await newDriver();
    const body = { kind: 'DELIVERY', driver_id: driver.id, date: '2029-03-10', window_start: '10:00', window_end: '12:00', address: '서울 강남구 테헤란로 152' };
    const first = await schedule(subscriptionId, body);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body.data.handover).toMatchObject({ kind: 'DELIVERY', status: 'SCHEDULED', scheduled_date: '2029-03-10', window_start: '10:00', window_end: '12:00', driver: { id: driver.id, name: driver.name }, record: null });
    const id = first.body.data.handover.id;
    // A double click or a retried request: the same row, no second message.
    const [again, twice] = await Promise.all([schedule(subscriptionId, body), schedule(subscriptionId, body)]);
    for (const r of [again, twice]) {
      expect(r.status).toBe(200);
      expect(r.body.data.handover.id).toBe(id);
    }
    expect(await ctx.database.db.select().from(subscriptionHandovers).where(eq(subscriptionHandovers.subscriptionId, subscriptionId))).toHaveLength(1);
    expect(await notifyJobs('subscription.handover_scheduled', id)).toHaveLength(1);

    const moved = await schedule(subscriptionId, { ...body, date: '2029-03-11', window_start: '14:00', window_end: '15:30' });
    expect(moved.status).toBe(200);
    expect(moved.body.data.handover).toMatchObject({ id, scheduled_date: '2029-03-11', window_start: '14:00', window_end: '15:30' });
    const audit = await ctx.database.db.select().from(auditLog).where(and(eq(auditLog.entity, 'subscription_handover'), eq(auditLog.entityId, String(id)))).orderBy(auditLog.id);
    expect(audit.map((a) => a.action)).toEqual(['create', 'update']);
    expect(audit[1].before).toMatchObject({ scheduled_date: '2029-03-10' });
    expect(audit[1].after).toMatchObject({ scheduled_date: '2029-03-11' });
    expect(await notifyJobs('subscription.handover_scheduled', id)).toHaveLength(2);

    const board = await staff('GET', '/admin/handovers?from=2029-03-09&days=7');
    expect(board.status).toBe(200);
    const onBoard = board.body.data.handovers.find((h: { id: number }) => h.id === id);
    expect(onBoard).toMatchObject({ subscription_id: subscriptionId, customer: { name: '홍길동' }, driver: { name: driver.name } });
    expect(board.body.data.open.find((o: { subscription_id: number }) => o.subscription_id === subscriptionId)).toBeUndefined();
  });

  it('refuses bad input in Korean (400/422), unknown subscriptions (404), and anyone but staff (401/403)', async () => {
    const { subscriptionId, token } = await subscription('2029-04-01');
    const driver = await newDriver();
    const good = { kind: 'DELIVERY', driver_id: driver.id, date: '2029-04-01', window_start: '10:00', window_end: '12:00' };
    for (const bad of [{ ...good, kind: 'PICKUP' }, { ...good, date: '2029-02-30' }, { ...good, window_start: '25:00' }, { ...good, driver_id: 'x' }]) {
      const res = await schedule(subscriptionId, bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body.message).toMatch(korean);
    }
    for (const bad of [{ ...good, window_end: '09:00' }, { ...good, window_end: '10:10' }, { ...good, window_end: '23:00' }]) {
      const res = await schedule(subscriptionId, bad);
      expect(res.status, JSON.stringify(bad)).toBe(422);
      expect(res.body.message).toMatch(korean);
    }
    expect((await schedule(999_999, good)).status).toBe(404);
    expect((await schedule(subscriptionId, { ...good, driver_id: 999_999 })).status).toBe(404);
    expect((await ctx.call('POST', `/admin/subscriptions/${subscriptionId}/handovers`, { json: good })).status).toBeGreaterThanOrEqual(401);
    expect((await ctx.call('POST', `/admin/subscriptions/${subscriptionId}/handovers`, { json: good, token })).status).toBe(403);
    expect((await ctx.call('GET', '/admin/handovers', { token })).status).toBe(403);
    expect((await ctx.call('POST', '/admin/handovers/1/record', { json: { odometer_km: 1, fuel_percent: 1 }, token })).status).toBe(403);
  });
});

describe('one driver, never a butler trip and a handover at once', () => {
  it('refuses a handover over the driver\'s butler trip, and a butler assignment over the driver\'s handover (Korean 409)', async () => {
    const { user, subscriptionId } = await subscription('2029-05-02');
    const other = await subscription('2029-05-02');
    const driver = await newDriver();
    const tripId = await butlerTrip(user.id, '2029-05-03T10:00:00+09:00', '2029-05-03T14:00:00+09:00');
    expect((await staff('POST', `/admin/butler-requests/${tripId}/assign`, { driver_id: driver.id })).status).toBe(200);

    const clash = await schedule(subscriptionId, { kind: 'DELIVERY', driver_id: driver.id, date: '2029-05-03', window_start: '11:00', window_end: '12:00' });
    expect(clash.status).toBe(409);
    expect(clash.body.message).toBe('해당 기사는 같은 시간대에 의전 운행이 배정되어 있습니다.');
    // Right after the trip, inside the buffer: too close.
    const close = await schedule(subscriptionId, { kind: 'DELIVERY', driver_id: driver.id, date: '2029-05-03', window_start: '14:00', window_end: '15:00' });
    expect(close.status).toBe(409);
    expect(close.body.message).toMatch(/간격/);
    const free = await schedule(subscriptionId, { kind: 'DELIVERY', driver_id: driver.id, date: '2029-05-03', window_start: '17:00', window_end: '18:00' });
    expect(free.status).toBe(201);
    // The driver's 운행표 of the day lists the trip and the delivery.
    const sheet = await staff('GET', `/admin/dispatch/run-sheet?driver_id=${driver.id}&date=2029-05-03`);
    expect(sheet.body.data.trips.map((t: { id: number }) => t.id)).toEqual([tripId]);
    expect(sheet.body.data.handovers).toEqual([expect.objectContaining({ id: free.body.data.handover.id, kind: 'DELIVERY', window_start: '17:00' })]);

    // The reverse: a trip at the handover's time cannot take this driver, and proposals leave them out.
    const later = await butlerTrip(user.id, '2029-05-03T16:30:00+09:00', '2029-05-03T19:00:00+09:00');
    const refused = await staff('POST', `/admin/butler-requests/${later}/assign`, { driver_id: driver.id });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('해당 기사는 같은 시간대에 차량 탁송·반납 일정이 있습니다.');
    const proposals = (await staff('GET', `/admin/butler-requests/${later}/driver-proposals`)).body.data.drivers as { id: number }[];
    expect(proposals.map((d) => d.id)).not.toContain(driver.id);

    // Two handovers of one driver at once on two subscriptions: exactly one is booked.
    const second = await newDriver();
    const [a, b] = await Promise.all([
      schedule(subscriptionId, { kind: 'RETURN', driver_id: second.id, date: '2029-06-01', window_start: '10:00', window_end: '11:00' }),
      schedule(other.subscriptionId, { kind: 'DELIVERY', driver_id: second.id, date: '2029-06-01', window_start: '10:30', window_end: '11:30' }),
    ]);
    expect([a.status, b.status].sort()).toEqual([201, 409]);

    // A butler assignment and a handover of one driver at the same time, side by side: exactly one wins.
    const third = await newDriver();
    const racing = await butlerTrip(user.id, '2029-06-02T10:00:00+09:00', '2029-06-02T12:00:00+09:00');
    const [trip, handover] = await Promise.all([
      staff('POST', `/admin/butler-requests/${racing}/assign`, { driver_id: third.id }),
      schedule(other.subscriptionId, { kind: 'RETURN', driver_id: third.id, date: '2029-06-02', window_start: '11:00', window_end: '12:00' }),
    ]);
    expect([trip.status, handover.status].filter((s) => s === 409)).toHaveLength(1);
    expect([trip.status, handover.status].filter((s) => s === 200 || s === 201)).toHaveLength(1);
  });
});

describe('the handover record and the customer', () => {
  it('records the delivery on another day: the dates follow it and month 2 is charged from the new day; the customer acknowledges', async () => {
    const { token, user, subscriptionId } = await subscription('2029-07-10');
    const driver = await newDriver();
    const scheduled = await schedule(subscriptionId, { kind: 'DELIVERY', driver_id: driver.id, date: '2029-07-12', window_start: '10:00', window_end: '12:00' });
    const id = scheduled.body.data.handover.id;

    // The customer sees the schedule with the driver's name (not the phone); a stranger sees none of it.
    const mine = await ctx.call('GET', '/handovers', { token });
    expect(mine.status).toBe(200);
    expect(mine.body.data.handovers).toEqual([expect.objectContaining({ id, subscription_id: subscriptionId, scheduled_date: '2029-07-12', driver: { id: driver.id, name: driver.name, phone: '' } })]);
    const stranger = await customer(ctx);
    expect((await ctx.call('GET', '/handovers', { token: stranger.token })).body.data.handovers).toEqual([]);
    expect((await ctx.call('GET', '/handovers')).status).toBe(401);
    // Nothing to acknowledge before the record.
    expect((await ctx.call('POST', `/handovers/${id}/acknowledge`, { token, json: { name: '홍길동' } })).status).toBe(409);

    await setClock('2029-07-12T11:00:00+09:00');
    const record = { odometer_km: 12_345, fuel_percent: 90, notes: '앞 범퍼 작은 흠집 확인' };
    const recorded = await staff('POST', `/admin/handovers/${id}/record`, record);
    expect(recorded.status, JSON.stringify(recorded.body)).toBe(200);
    expect(recorded.body.data.handover).toMatchObject({ status: 'DONE', record: { odometer_km: 12_345, fuel_percent: 90, notes: '앞 범퍼 작은 흠집 확인', actual_date: '2029-07-12' } });
    expect(recorded.body.data.dates).toMatchObject({ start_date: '2029-07-12', end_date: '2030-07-11', moved: true });
    const [sub] = await ctx.database.db.select().from(subscriptions).where(eq(subscriptions.id, subscriptionId));
    expect(sub).toMatchObject({ startDate: '2029-07-12', endDate: '2030-07-11' });
    const [request] = await ctx.database.db.select().from(subscriptionRequests).where(eq(subscriptionRequests.id, sub.requestId));
    expect(request).toMatchObject({ startDate: '2029-07-12', endDate: '2030-07-11' });
    const month2 = await ctx.database.db.select().from(jobs).where(eq(jobs.key, `charge:sub:${subscriptionId}:m2`));
    expect(month2).toHaveLength(1);
    expect(month2[0].runAt.toISOString()).toBe(chargeInstant('2029-08-12').toISOString());
    expect(await notifyJobs('subscription.handover_recorded', id)).toHaveLength(1);
    // The messages: the day, window and driver; then the readings, both leading to my subscriptions.
    const event = { userId: user.id, subscriptionId, handoverId: id };
    const sched = await handoverScheduled.load(ctx.database.db, { type: 'subscription.handover_scheduled', ...event }, new Date());
    const rec = await handoverRecorded.load(ctx.database.db, { type: 'subscription.handover_recorded', ...event }, new Date());
    if (!('vars' in sched) || !('vars' in rec)) throw new Error('handover messages skipped');
    const schedText = kakaoText(fillTemplate(handoverScheduled, sched.vars, 'https://luxe.example'));
    expect(schedText).toContain('2029.07.12');
    expect(schedText).toContain('10:00 ~ 12:00');
    expect(schedText).toContain(driver.name);
    expect(schedText).toContain('https://luxe.example/my/subscriptions');
    const recText = kakaoText(fillTemplate(handoverRecorded, rec.vars, 'https://luxe.example'));
    expect(recText).toContain('12,345km');
    expect(recText).toContain('90%');
    expect(recText).toContain('https://luxe.example/my/subscriptions');

    // The same record again (a retry) answers the first; a different one is refused; the dates do not move twice.
    await setClock('2029-07-13T09:00:00+09:00');
    const retry = await staff('POST', `/admin/handovers/${id}/record`, record);
    expect(retry.status).toBe(200);
    expect(retry.body.data.handover.record!.recorded_at).toBe(recorded.body.data.handover.record!.recorded_at);
    expect((await staff('POST', `/admin/handovers/${id}/record`, { ...record, odometer_km: 12_400 })).status).toBe(409);
    expect((await ctx.database.db.select().from(subscriptions).where(eq(subscriptions.id, subscriptionId)))[0].startDate).toBe('2029-07-12');
    expect(await notifyJobs('subscription.handover_recorded', id)).toHaveLength(1);
    // A recorded delivery cannot be rescheduled or called off.
    expect((await schedule(subscriptionId, { kind: 'DELIVERY', driver_id: driver.id, date: '2029-07-20', window_start: '10:00', window_end: '12:00' })).status).toBe(409);
    expect((await staff('DELETE', `/admin/handovers/${id}`)).status).toBe(409);

    // The readings other code (mileage) reads.
    const readings = await handoverReadings(ctx.database.db, subscriptionId);
    expect(readings.delivery).toMatchObject({ odometer_km: 12_345, fuel_percent: 90, actual_date: '2029-07-12' });
    expect(readings.return).toBeNull();

    // Strangers: another customer's acknowledgement is a 404, and changes nothing.
    const stolen = await ctx.call('POST', `/handovers/${id}/acknowledge`, { token: stranger.token, json: { name: '홍길동' } });
    expect(stolen.status).toBe(404);
    expect((await ctx.call('POST', `/handovers/${id}/acknowledge`, { json: { name: '홍길동' } })).status).toBe(401);
    // The wrong name, an empty one: refused in Korean.
    const wrong = await ctx.call('POST', `/handovers/${id}/acknowledge`, { token, json: { name: '김철수' } });
    expect(wrong.status).toBe(422);
    expect(wrong.body.message).toMatch(korean);
    expect((await ctx.call('POST', `/handovers/${id}/acknowledge`, { token, json: { name: ' ' } })).status).toBe(400);
    expect((await ctx.database.db.select().from(subscriptionHandovers).where(eq(subscriptionHandovers.id, id)))[0].acknowledgedAt).toBeNull();

    const ack = await ctx.call('POST', `/handovers/${id}/acknowledge`, { token, json: { name: '홍 길동' } });
    expect(ack.status).toBe(200);
    expect(ack.body.data.handover).toMatchObject({ acknowledged_name: '홍 길동', record: { odometer_km: 12_345, recorded_by: '' } });
    // The customer's list shows the record, but not which staff account made it.
    expect((await ctx.call('GET', '/handovers', { token })).body.data.handovers[0].record).toMatchObject({ odometer_km: 12_345, recorded_by: '' });
    expect(ack.body.data.handover.acknowledged_at).toBeTruthy();
    const ackAgain = await ctx.call('POST', `/handovers/${id}/acknowledge`, { token, json: { name: '홍길동' } });
    expect(ackAgain.status).toBe(200);
    expect(ackAgain.body.data.handover.acknowledged_at).toBe(ack.body.data.handover.acknowledged_at);
    const customerAudit = await ctx.database.db.select().from(auditLog).where(and(eq(auditLog.entity, 'subscription_handover'), eq(auditLog.entityId, String(id)), eq(auditLog.action, 'confirm')));
    expect(customerAudit).toHaveLength(1);
    expect(customerAudit[0].actorUserId).toBe(user.id);
  });

  it('keeps the dates when month 2 was already charged, and says why; a return record never moves them', async () => {
    const { subscriptionId } = await subscription('2029-09-01');
    const driver = await newDriver();
    const id = (await schedule(subscriptionId, { kind: 'DELIVERY', driver_id: driver.id, date: '2029-09-03', window_start: '09:00', window_end: '10:00' })).body.data.handover.id;
    await ctx.database.db.update(subscriptions).set({ paidMonths: 2 }).where(eq(subscriptions.id, subscriptionId));
    await setClock('2029-09-03T09:30:00+09:00');
    const recorded = await staff('POST', `/admin/handovers/${id}/record`, { odometer_km: 100, fuel_percent: 100 });
    expect(recorded.status).toBe(200);
    expect(recorded.body.data.dates).toMatchObject({ start_date: '2029-09-01', moved: false });
    expect(recorded.body.data.dates.reason).toMatch(/2개월 차/);

    const ret = (await schedule(subscriptionId, { kind: 'RETURN', driver_id: driver.id, date: '2030-08-31', window_start: '15:00', window_end: '16:00' })).body.data.handover.id;
    await setClock('2030-08-30T15:30:00+09:00');
    const back = await staff('POST', `/admin/handovers/${ret}/record`, { odometer_km: 15_100, fuel_percent: 40, notes: null });
    expect(back.body.data.dates).toMatchObject({ start_date: '2029-09-01', moved: false, reason: null });
    expect(await handoverReadings(ctx.database.db, subscriptionId)).toMatchObject({ delivery: { odometer_km: 100 }, return: { odometer_km: 15_100, fuel_percent: 40 } });
    // The records are the mileage's readings at delivery and return (15,000 km driven, inside 12
    // months of the plan); nothing is charged until staff run 반납 정산.
    const odometer = await staff('GET', `/admin/subscriptions/${subscriptionId}/odometer`);
    expect(odometer.body.data.readings.map((r: { source: string; km: number; read_on: string }) => [r.source, r.km, r.read_on])).toEqual([['HANDOVER', 100, '2029-09-03'], ['RETURN', 15_100, '2030-08-30']]);
    expect(odometer.body.data.settlement).toMatchObject({ result: { driven_km: 15_000, overage_km: 0, amount: 0 }, payment: null });
    const preview = await staff('GET', `/admin/subscriptions/${subscriptionId}/settlement`);
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);

    // Bad records: Korean 400s.
    for (const bad of [{ odometer_km: -1, fuel_percent: 1 }, { odometer_km: 1, fuel_percent: 101 }, { odometer_km: 1.5, fuel_percent: 1 }, { fuel_percent: 1 }]) {
      const res = await staff('POST', `/admin/handovers/${ret}/record`, bad);
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(korean);
    }
    expect((await staff('POST', '/admin/handovers/999999/record', { odometer_km: 1, fuel_percent: 1 })).status).toBe(404);
  });

  it('after 해지 a delivery is refused, but the delivered car\'s return can be booked and is listed as needed', async () => {
    const { subscriptionId } = await subscription('2029-10-01');
    const driver = await newDriver();
    const id = (await schedule(subscriptionId, { kind: 'DELIVERY', driver_id: driver.id, date: '2029-10-01', window_start: '09:00', window_end: '10:00' })).body.data.handover.id;
    await setClock('2029-10-01T09:30:00+09:00');
    expect((await staff('POST', `/admin/handovers/${id}/record`, { odometer_km: 50, fuel_percent: 100 })).status).toBe(200);
    expect((await staff('PATCH', `/admin/subscriptions/${subscriptionId}`, { is_active: false })).status).toBe(200);
    const open = (await staff('GET', '/admin/handovers')).body.data.open as { subscription_id: number; missing: string[] }[];
    expect(open.find((o) => o.subscription_id === subscriptionId)?.missing).toEqual(['RETURN']);
    expect((await staff('DELETE', `/admin/handovers/${id}`)).status).toBe(409);
    const ret = await schedule(subscriptionId, { kind: 'RETURN', driver_id: driver.id, date: '2029-10-05', window_start: '09:00', window_end: '10:00' });
    expect(ret.status).toBe(201);
    // A new delivery on an ended subscription: refused in Korean.
    const [sub2] = [await subscription('2029-10-02')];
    expect((await staff('PATCH', `/admin/subscriptions/${sub2.subscriptionId}`, { is_active: false })).status).toBe(200);
    const refused = await schedule(sub2.subscriptionId, { kind: 'DELIVERY', driver_id: driver.id, date: '2029-10-03', window_start: '09:00', window_end: '10:00' });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('해지된 구독은 탁송 일정을 잡을 수 없습니다.');
    expect((await staff('GET', '/admin/handovers')).body.data.open.find((o: { subscription_id: number }) => o.subscription_id === sub2.subscriptionId)).toBeUndefined();
  });

  it('the assigned driver records it from /driver; another driver is refused (403), a customer too', async () => {
    const { token: customerToken, subscriptionId } = await subscription('2029-11-01');
    const driver = await newDriver();
    const other = await newDriver();
    const account = async (driverId: number) => {
      const u = await insertUser(ctx.database.db, { role: 'driver', driverId });
      return (await openSession(ctx.database.db, ctx.config, u.id)).access_token;
    };
    const [mine, theirs] = [await account(driver.id), await account(other.id)];
    const id = (await schedule(subscriptionId, { kind: 'DELIVERY', driver_id: driver.id, date: '2029-11-01', window_start: '10:00', window_end: '11:00', address: '서울 서초구 반포대로 58' })).body.data.handover.id;
    await setClock('2029-11-01T09:00:00+09:00');
    const list = await ctx.call('GET', '/driver/handovers', { token: mine });
    expect(list.status).toBe(200);
    expect(list.body.data.handovers).toEqual([expect.objectContaining({ id, address: '서울 서초구 반포대로 58', customer: { name: '홍길동', mobile: null } })]);
    expect((await ctx.call('GET', '/driver/handovers', { token: theirs })).body.data.handovers).toEqual([]);
    expect((await ctx.call('GET', '/driver/handovers', { token: customerToken })).status).toBe(403);

    const record = { odometer_km: 8, fuel_percent: 100, notes: '새 차' };
    expect((await ctx.call('POST', `/driver/handovers/${id}/record`, { token: theirs, json: record })).status).toBe(403);
    expect((await ctx.call('POST', `/driver/handovers/${id}/record`, { token: customerToken, json: record })).status).toBe(403);
    const done = await ctx.call('POST', `/driver/handovers/${id}/record`, { token: mine, json: record });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.data.handover.record).toMatchObject({ odometer_km: 8, recorded_by: `driver:${driver.name}` });
    expect((await ctx.call('POST', `/driver/handovers/${id}/record`, { token: mine, json: record })).status).toBe(200);
  });
});
