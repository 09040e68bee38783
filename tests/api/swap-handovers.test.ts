import { randomBytes } from 'node:crypto';
import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertButlerCar, insertModel, insertTestCar, insertUser, upsertBrand } from '../../src/api/seed/factories';
import { openSession } from '../../src/api/accounts/sessions';
import { auditLog, butlerRequests, cars, jobs, odometerReadings, payments, subscriptionHandovers, subscriptions } from '../../src/api/db/schema';
import { TEST_ADMIN_TOKEN } from '../../src/api/env';
import { issueSandboxBillingKey } from '../../src/api/billing/sandbox-provider';
import { fillTemplate, kakaoText } from '../../src/api/notifications/template';
import handoverScheduled from '../../src/api/notifications/templates/subscription-handover-scheduled';
import handoverRecorded from '../../src/api/notifications/templates/subscription-handover-recorded';
import { defaultOptionPrices } from '../../src/domain/subscription-price';
import { anotherPlate, apiTools, createTestContext, customer, type TestContext } from './helpers';
import { insertConfirmedSwap } from './swap-fixtures';

/**
 * 차량 교체, the operations side (docs/decisions/handover.md and mileage.md, Swaps): a CONFIRMED swap
 * waits on the board; staff schedule its pair (the old car's return and the new car's delivery) in
 * one call with one driver and one window on the swap day, never over the driver's butler trips;
 * repeats and two replicas make one pair; both move and are called off together; the records read
 * each car's odometer (SWAP_OUT/SWAP_IN) without moving the subscription's days; the mileage is
 * per car and the settlement charges the summed overage once.
 */
let ctx: TestContext;
let carId: number;
let newCarId: number;
let butlerModelId: number;
const ADMIN = TEST_ADMIN_TOKEN;
const PER_KM = 200;
const korean = /[가-힣]/;

beforeAll(async () => {
  ctx = await createTestContext();
  const fees = { subscription_fee_1: 900_000, subscription_fee_3: 800_000, subscription_fee_12: 555_000 };
  ({ car: { id: carId } } = await insertTestCar(ctx.database.db, { fees }));
  ({ car: { id: newCarId } } = await insertTestCar(ctx.database.db, { fees }));
  // No deposit: the settlement's overage goes to the card (one charge to count); 200원 a km over the 2,500km plan.
  const prices = { ...defaultOptionPrices({ subscription_fee_minimum: 555_000 }), overage_per_km: PER_KM, deposit: null };
  await ctx.database.db.update(cars).set({ optionPrices: prices, licensePlate: '12가 3456' }).where(eq(cars.id, carId));
  await ctx.database.db.update(cars).set({ optionPrices: prices, licensePlate: '78나 9012' }).where(eq(cars.id, newCarId));
  const brand = await upsertBrand(ctx.database.db, { name: '벤틀리', slug: 'bentley-swap' });
  butlerModelId = (await insertModel(ctx.database.db, { brandId: brand.id, name: '플라잉스퍼' })).id;
});
afterAll(() => ctx.close());

const { admin: staff, setClock } = apiTools(() => ctx);
const pairUrl = (subscriptionId: number, swapId: number) => `/admin/subscriptions/${subscriptionId}/swaps/${swapId}/handovers` as const;
const schedulePair = (subscriptionId: number, swapId: number, body: Record<string, unknown>) => staff('POST', pairUrl(subscriptionId, swapId), body);

/** A confirmed 12-month subscription starting on `start` on a copy of the old car (the clock set to that morning). */
async function subscription(start: string) {
  await setClock(`${start}T08:00:00+09:00`);
  const { user, token } = await customer(ctx);
  const orderCar = await anotherPlate(ctx, carId);
  const req = await ctx.call('POST', `/subscriptions/cars/${orderCar}/request`, { token, json: { month: 12, billing_key: issueSandboxBillingKey(ctx.config) } });
  expect(req.status, JSON.stringify(req.body)).toBe(201);
  const confirmed = await staff('POST', `/admin/subscription-requests/${req.body.data.subscription_request.id}/confirm`, { start_date: start });
  expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(201);
  return { user, token, orderCar, subscriptionId: confirmed.body.data.subscription.id };
}

/** A subscription with a CONFIRMED swap to a copy of the new car on `swapDate`. */
async function swapped(start: string, swapDate: string) {
  const s = await subscription(start);
  const toCar = await anotherPlate(ctx, newCarId);
  const swap = await insertConfirmedSwap(ctx.database.db, { subscriptionId: s.subscriptionId, toCarId: toCar, swapDate });
  return { ...s, toCar, swapId: swap.id };
}

let seq = 0;
async function newDriver() {
  seq += 1;
  const res = await staff('POST', '/admin/drivers', { name: `교체기사${seq}`, phone: `010-6666-${String(1000 + seq)}`, gender: 'male' });
  expect(res.status).toBe(201);
  return res.body.data.driver as { id: number; name: string };
}
const driverToken = async (driverId: number) => (await openSession(ctx.database.db, ctx.config, (await insertUser(ctx.database.db, { role: 'driver', driverId })).id)).access_token;

async function butlerTrip(userId: number, start: string, end: string) {
  const car = await insertButlerCar(ctx.database.db, butlerModelId, { subModel: 'V8', licensePlate: `56다 ${7000 + ++seq}` });
  const [row] = await ctx.database.db
    .insert(butlerRequests)
    .values({
      userId, butlerCarId: car.id, startAt: new Date(start), endAt: new Date(end), startLocation: '서울 중구 세종대로 110', endLocation: '김포공항',
      billingKey: `test-${randomBytes(8).toString('hex')}`, billingProvider: 'sandbox', baseFee: 700_000, finalPrice: 700_000, status: 'CONFIRMED',
    })
    .returning();
  return row.id;
}

const pairRows = (swapId: number) => ctx.database.db.select().from(subscriptionHandovers).where(eq(subscriptionHandovers.swapId, swapId)).orderBy(subscriptionHandovers.id);
const readingsOf = (subscriptionId: number) => ctx.database.db.select().from(odometerReadings).where(eq(odometerReadings.subscriptionId, subscriptionId)).orderBy(odometerReadings.id);

describe('scheduling a swap\'s pair', () => {
  it('waits on the board, then one call makes both rows (one driver, one window, the swap day); repeats and two replicas make one pair', async () => {
    const { subscriptionId, swapId, orderCar, toCar } = await swapped('2034-01-10', '2034-03-05');
    const driver = await newDriver();
    const board = await staff('GET', '/admin/handovers?from=2034-03-01&days=7');
    expect(board.status).toBe(200);
    const waiting = board.body.data.open_swaps.find((o: { swap_id: number }) => o.swap_id === swapId);
    expect(waiting).toMatchObject({ subscription_id: subscriptionId, swap_date: '2034-03-05', customer: { name: '홍길동' }, from_car: { id: orderCar, plate: '12가 3456' }, to_car: { id: toCar, plate: '78나 9012' } });

    const body = { driver_id: driver.id, window_start: '10:00', window_end: '12:00', address: '서울 강남구 테헤란로 152' };
    // A retry and the other replica at the same moment: one pair.
    const replica = await ctx.openReplicaApp();
    const other = replica.app;
    const viaOther = () => other.request(pairUrl(subscriptionId, swapId), { method: 'POST', headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const [a, b, c] = await Promise.all([schedulePair(subscriptionId, swapId, body), viaOther(), schedulePair(subscriptionId, swapId, body)]);
    const statuses = [a.status, b.status, c.status].sort();
    expect(statuses).toEqual([200, 200, 201]);
    const created = [a, c].find((r) => r.status === 201) ?? a;
    const rows = await pairRows(swapId);
    expect(rows.map((r) => [r.kind, r.status, r.driverId, r.scheduledDate, r.windowStart, r.windowEnd])).toEqual([
      ['RETURN', 'SCHEDULED', driver.id, '2034-03-05', '10:00', '12:00'],
      ['DELIVERY', 'SCHEDULED', driver.id, '2034-03-05', '10:00', '12:00'],
    ]);
    if (created.status === 201) {
      expect(created.body.data.handovers.map((h) => [h.kind, h.swap?.car_id, h.swap?.plate])).toEqual([
        ['RETURN', orderCar, '12가 3456'], ['DELIVERY', toCar, '78나 9012'],
      ]);
    }
    // One message for the pair, naming both cars.
    const delivery = rows.find((r) => r.kind === 'DELIVERY')!;
    const notify = await ctx.database.db.select().from(jobs).where(and(eq(jobs.kind, 'notify'), like(jobs.key, 'notify:subscription.handover_scheduled:%')));
    expect(notify.filter((j) => rows.some((r) => j.key.startsWith(`notify:subscription.handover_scheduled:${r.id}:`)))).toHaveLength(1);
    const loaded = await handoverScheduled.load(ctx.database.db, { type: 'subscription.handover_scheduled', userId: 0, subscriptionId, handoverId: delivery.id }, new Date());
    if (!('vars' in loaded)) throw new Error('skipped');
    const text = kakaoText(fillTemplate(handoverScheduled, loaded.vars, 'https://luxe.example'));
    expect(text).toContain('교체 반납·인도');
    expect(text).toContain('→');

    // On the board beside the other handovers, no longer waiting.
    const after = (await staff('GET', '/admin/handovers?from=2034-03-01&days=7')).body.data;
    expect(after.open_swaps.find((o: { swap_id: number }) => o.swap_id === swapId)).toBeUndefined();
    const listed = after.handovers.filter((h: { swap: { id: number } | null }) => h.swap?.id === swapId);
    expect(listed.map((h) => [h.kind, h.swap!.plate])).toEqual([['RETURN', '12가 3456'], ['DELIVERY', '78나 9012']]);

    // The subscription's own delivery is still its own (the swap's pair is not it).
    const own = await staff('POST', `/admin/subscriptions/${subscriptionId}/handovers`, { kind: 'DELIVERY', driver_id: (await newDriver()).id, date: '2034-01-10', window_start: '10:00', window_end: '11:00' });
    expect(own.status, JSON.stringify(own.body)).toBe(201);
    expect(own.body.data.handover.swap).toBeNull();
    expect(await pairRows(swapId)).toHaveLength(2);
  });

  it('refuses a driver on a butler trip at that time (409), another day than the swap day (422), a PENDING or unknown swap, bad bodies (400 Korean), non-staff', async () => {
    const { user, token, subscriptionId, swapId } = await swapped('2034-02-01', '2034-04-10');
    const driver = await newDriver();
    const tripId = await butlerTrip(user.id, '2034-04-10T10:00:00+09:00', '2034-04-10T14:00:00+09:00');
    expect((await staff('POST', `/admin/butler-requests/${tripId}/assign`, { driver_id: driver.id })).status).toBe(200);
    const good = { driver_id: driver.id, window_start: '11:00', window_end: '12:00' };
    const clash = await schedulePair(subscriptionId, swapId, good);
    expect([clash.status, clash.body.message]).toEqual([409, '해당 기사는 같은 시간대에 의전 운행이 배정되어 있습니다.']);
    const close = await schedulePair(subscriptionId, swapId, { ...good, window_start: '14:00', window_end: '15:00' });
    expect(close.status).toBe(409);
    expect(close.body.message).toMatch(/간격/);
    expect(await pairRows(swapId)).toEqual([]);
    // The reverse: a butler trip over the pair's window cannot take the driver.
    const ok = await schedulePair(subscriptionId, swapId, { ...good, window_start: '17:00', window_end: '18:00' });
    expect(ok.status).toBe(201);
    const later = await butlerTrip(user.id, '2034-04-10T17:30:00+09:00', '2034-04-10T19:00:00+09:00');
    const refused = await staff('POST', `/admin/butler-requests/${later}/assign`, { driver_id: driver.id });
    expect([refused.status, refused.body.message]).toEqual([409, '해당 기사는 같은 시간대에 차량 탁송·반납 일정이 있습니다.']);

    // The swap day only: it is the day billing prorated.
    const otherDay = await schedulePair(subscriptionId, swapId, { ...good, date: '2034-04-11', window_start: '17:00', window_end: '18:00' });
    expect(otherDay.status).toBe(422);
    expect(otherDay.body.message).toContain('2034-04-10');
    expect((await schedulePair(subscriptionId, swapId, { ...good, date: '2034-04-10', window_start: '17:00', window_end: '18:00' })).status).toBe(200);

    // A swap whose money has not moved yet, another subscription's swap, an unknown one.
    const pending = await insertConfirmedSwap(ctx.database.db, { subscriptionId, toCarId: await anotherPlate(ctx, newCarId), swapDate: '2034-05-10', status: 'PENDING' });
    expect((await schedulePair(subscriptionId, pending.id, good)).status).toBe(409);
    const stranger = await swapped('2034-02-01', '2034-04-12');
    expect((await schedulePair(subscriptionId, stranger.swapId, good)).status).toBe(404);
    expect((await schedulePair(subscriptionId, 99_999_999, good)).status).toBe(404);
    expect((await schedulePair(99_999_999, swapId, good)).status).toBe(404);
    // An ended subscription takes no new car.
    expect((await staff('PATCH', `/admin/subscriptions/${stranger.subscriptionId}`, { is_active: false })).status).toBe(200);
    const ended = await schedulePair(stranger.subscriptionId, stranger.swapId, { ...good, window_start: '08:00', window_end: '09:00' });
    expect([ended.status, ended.body.message]).toEqual([409, '해지된 구독은 차량 교체 일정을 잡을 수 없습니다.']);

    for (const bad of [{ ...good, driver_id: 'x' }, { ...good, window_start: '25:00' }, { ...good, date: '2034-02-30' }, { window_start: '10:00' }, { ...good, address: 5 }]) {
      const res = await schedulePair(subscriptionId, swapId, bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body.message).toMatch(korean);
    }
    const notJson = await ctx.call('POST', pairUrl(subscriptionId, swapId), { token: ADMIN, body: '{nope', headers: { 'content-type': 'application/json' } });
    expect(notJson.status).toBe(400);
    expect((await staff('POST', '/admin/subscriptions/1/swaps/abc/handovers', good)).status).toBe(400);
    for (const r of [await schedulePair(subscriptionId, swapId, { ...good, window_end: '11:10' }), await schedulePair(subscriptionId, swapId, { ...good, window_end: '10:00' })]) {
      expect(r.status).toBe(422);
      expect(r.body.message).toMatch(korean);
    }
    // A customer's token: 403; none: refused (401 from another machine: tests/api/strangers-network.test.ts).
    expect((await ctx.call('POST', pairUrl(subscriptionId, swapId), { token, json: good })).status).toBe(403);
    expect((await ctx.call('DELETE', pairUrl(subscriptionId, swapId), { token })).status).toBe(403);
    expect((await ctx.call('POST', pairUrl(subscriptionId, swapId), { json: good })).status).toBeGreaterThanOrEqual(401);
  });

  it('rescheduling moves both, calling off cancels both (either route), and a recorded pair stays', async () => {
    const { subscriptionId, swapId } = await swapped('2034-03-01', '2034-05-20');
    const [d1, d2] = [await newDriver(), await newDriver()];
    const first = await schedulePair(subscriptionId, swapId, { driver_id: d1.id, window_start: '09:00', window_end: '10:00' });
    expect(first.status).toBe(201);
    const moved = await schedulePair(subscriptionId, swapId, { driver_id: d2.id, window_start: '15:00', window_end: '16:30' });
    expect(moved.status).toBe(200);
    const rows = await pairRows(swapId);
    expect(rows.map((r) => [r.kind, r.driverId, r.windowStart, r.windowEnd, r.status])).toEqual([['RETURN', d2.id, '15:00', '16:30', 'SCHEDULED'], ['DELIVERY', d2.id, '15:00', '16:30', 'SCHEDULED']]);
    const audits = await ctx.database.db.select().from(auditLog).where(eq(auditLog.entity, 'subscription_handover'));
    expect(audits.filter((a) => rows.some((r) => String(r.id) === a.entityId)).map((a) => a.action).sort()).toEqual(['create', 'create', 'update', 'update']);

    // Cancelling one row of the pair cancels both; the swap waits on the board again.
    const cancelled = await staff('DELETE', `/admin/handovers/${rows[1].id}`);
    expect(cancelled.status).toBe(200);
    expect((await pairRows(swapId)).map((r) => r.status)).toEqual(['CANCELLED', 'CANCELLED']);
    expect((await staff('GET', '/admin/handovers?from=2034-05-18&days=7')).body.data.open_swaps.map((o: { swap_id: number }) => o.swap_id)).toContain(swapId);
    // Booked again, then called off by the pair's own route.
    expect((await schedulePair(subscriptionId, swapId, { driver_id: d1.id, window_start: '09:00', window_end: '10:00' })).status).toBe(201);
    const off = await staff('DELETE', pairUrl(subscriptionId, swapId));
    expect(off.status).toBe(200);
    expect(off.body.data.handovers.map((h: { status: string }) => h.status)).toEqual(['CANCELLED', 'CANCELLED']);
    expect((await staff('DELETE', pairUrl(subscriptionId, swapId))).status).toBe(200);
    expect((await pairRows(swapId)).filter((r) => r.status !== 'CANCELLED')).toEqual([]);

    // Two staff booking it at once with two drivers: one pair, one driver for both rows.
    const other = await swapped('2034-03-01', '2034-05-21');
    const [x, y] = await Promise.all([
      schedulePair(other.subscriptionId, other.swapId, { driver_id: d1.id, window_start: '13:00', window_end: '14:00' }),
      schedulePair(other.subscriptionId, other.swapId, { driver_id: d2.id, window_start: '13:00', window_end: '14:00' }),
    ]);
    expect([x.status, y.status].sort()).toEqual([200, 201]);
    const raced = (await pairRows(other.swapId)).filter((r) => r.status !== 'CANCELLED');
    expect(raced).toHaveLength(2);
    expect(new Set(raced.map((r) => r.driverId)).size).toBe(1);

    // Once a row is recorded, the pair neither moves nor is called off.
    const again = await schedulePair(subscriptionId, swapId, { driver_id: d1.id, window_start: '09:00', window_end: '10:00' });
    await setClock('2034-05-20T09:30:00+09:00');
    const ret = again.body.data.handovers.find((h: { kind: string }) => h.kind === 'RETURN');
    expect((await staff('POST', `/admin/handovers/${ret!.id}/record`, { odometer_km: 3_000, fuel_percent: 80 })).status).toBe(200);
    expect((await schedulePair(subscriptionId, swapId, { driver_id: d2.id, window_start: '11:00', window_end: '12:00' })).status).toBe(409);
    expect((await staff('DELETE', pairUrl(subscriptionId, swapId))).status).toBe(409);
    const delivery = again.body.data.handovers.find((h: { kind: string }) => h.kind === 'DELIVERY');
    expect((await staff('DELETE', `/admin/handovers/${delivery!.id}`)).status).toBe(409);
  });
});

describe('the records of a swap\'s pair and the mileage per car', () => {
  it('records SWAP_OUT on the old car and SWAP_IN on the new one (staff and the driver), keeps the first day, and the customer acknowledges both', async () => {
    const { token, subscriptionId, swapId, orderCar, toCar } = await swapped('2034-06-10', '2034-08-01');
    const driver = await newDriver();
    const otherDriver = await newDriver();
    const [mine, theirs] = [await driverToken(driver.id), await driverToken(otherDriver.id)];
    // The subscription's own delivery first (HANDOVER reading of the order's car).
    const own = (await staff('POST', `/admin/subscriptions/${subscriptionId}/handovers`, { kind: 'DELIVERY', driver_id: driver.id, date: '2034-06-10', window_start: '09:00', window_end: '10:00' })).body.data.handover.id;
    await setClock('2034-06-10T09:30:00+09:00');
    expect((await staff('POST', `/admin/handovers/${own}/record`, { odometer_km: 1_000, fuel_percent: 100 })).status).toBe(200);

    const pair = (await schedulePair(subscriptionId, swapId, { driver_id: driver.id, window_start: '10:00', window_end: '12:00' })).body.data.handovers as { id: number; kind: string }[];
    const [ret, del] = [pair.find((h) => h.kind === 'RETURN')!.id, pair.find((h) => h.kind === 'DELIVERY')!.id];
    // The day after the swap: the driver records (the first day would move if this were the subscription's own delivery).
    await setClock('2034-08-02T10:30:00+09:00');
    const list = await ctx.call('GET', '/driver/handovers', { token: mine });
    expect(list.body.data.handovers.filter((h) => h.swap).map((h) => [h.kind, h.swap!.plate])).toEqual([['RETURN', '12가 3456'], ['DELIVERY', '78나 9012']]);
    expect((await ctx.call('GET', '/driver/handovers', { token: theirs })).body.data.handovers).toEqual([]);
    expect((await ctx.call('POST', `/driver/handovers/${ret}/record`, { token: theirs, json: { odometer_km: 4_100, fuel_percent: 70 } })).status).toBe(403);
    expect((await ctx.call('POST', `/driver/handovers/${ret}/record`, { token, json: { odometer_km: 4_100, fuel_percent: 70 } })).status).toBe(403);
    const out = await ctx.call('POST', `/driver/handovers/${ret}/record`, { token: mine, json: { odometer_km: 4_100, fuel_percent: 70 } });
    expect(out.status, JSON.stringify(out.body)).toBe(200);
    // Recorded twice at once (a double tap, the other replica): one record, one SWAP_IN reading.
    const replica = await ctx.openReplicaApp();
    const otherApp = replica.app;
    const inBody = { odometer_km: 500, fuel_percent: 100, notes: '새 차량 인도' };
    const viaOther = otherApp.request(`/admin/handovers/${del}/record`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' }, body: JSON.stringify(inBody) });
    const [inn, twin] = await Promise.all([staff('POST', `/admin/handovers/${del}/record`, inBody), viaOther]);
    expect(inn.status, JSON.stringify(inn.body)).toBe(200);
    expect(twin.status).toBe(200);
    expect(inn.body.data.dates).toMatchObject({ start_date: '2034-06-10', moved: false });
    expect((await ctx.database.db.select().from(subscriptions).where(eq(subscriptions.id, subscriptionId)))[0].startDate).toBe('2034-06-10');
    // A retry answers the first; another km is refused.
    expect((await staff('POST', `/admin/handovers/${del}/record`, { odometer_km: 500, fuel_percent: 100, notes: '새 차량 인도' })).status).toBe(200);
    expect((await staff('POST', `/admin/handovers/${del}/record`, { odometer_km: 600, fuel_percent: 100 })).status).toBe(409);

    const readings = await readingsOf(subscriptionId);
    expect(readings.map((r) => [r.source, r.km, r.carId, r.swapId, r.readOn])).toEqual([
      ['HANDOVER', 1_000, orderCar, null, '2034-06-10'],
      ['SWAP_OUT', 4_100, orderCar, swapId, '2034-08-02'],
      ['SWAP_IN', 500, toCar, swapId, '2034-08-02'],
    ]);

    // The messages name the swap's car.
    const rec = await handoverRecorded.load(ctx.database.db, { type: 'subscription.handover_recorded', userId: 0, subscriptionId, handoverId: del }, new Date());
    if (!('vars' in rec)) throw new Error('skipped');
    expect(kakaoText(fillTemplate(handoverRecorded, rec.vars, 'https://luxe.example'))).toContain('교체 인도');

    // The customer sees both (labelled by their swap) and acknowledges each; another customer cannot.
    const mineList = (await ctx.call('GET', '/handovers', { token })).body.data.handovers as { id: number; swap: { id: number } | null }[];
    expect(mineList.filter((h) => h.swap?.id === swapId).map((h) => h.id).sort()).toEqual([ret, del].sort());
    const stranger = await customer(ctx);
    expect((await ctx.call('GET', '/handovers', { token: stranger.token })).body.data.handovers).toEqual([]);
    expect((await ctx.call('POST', `/handovers/${ret}/acknowledge`, { token: stranger.token, json: { name: '홍길동' } })).status).toBe(404);
    expect((await ctx.call('GET', `/handovers/${ret}/photos`, { token: stranger.token })).status).toBe(404);
    expect((await ctx.call('GET', `/handovers/${ret}/photos`, { token: theirs })).status).toBe(404);
    for (const id of [ret, del]) {
      const ack = await ctx.call('POST', `/handovers/${id}/acknowledge`, { token, json: { name: '홍길동' } });
      expect(ack.status).toBe(200);
      expect(ack.body.data.handover.swap).toMatchObject({ id: swapId });
    }

    // Mileage per car: the new car reads 500 → a staff reading of 800 is fine although the old car read 4,100; 400 is lower than the new car's 500.
    await setClock('2034-08-20T10:00:00+09:00');
    const ok = await staff('POST', `/admin/subscriptions/${subscriptionId}/odometer`, { km: 800, source: 'STAFF' });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const lower = await staff('POST', `/admin/subscriptions/${subscriptionId}/odometer`, { km: 400, source: 'STAFF' });
    expect([lower.status, lower.body.message]).toEqual([400, '주행거리는 줄어들 수 없습니다. 이전 기록(800km)보다 크거나 같게 입력해주세요.']);
    // The customer's report is of the car held that day (the new one).
    await setClock('2034-09-11T10:00:00+09:00');
    const self = await ctx.call('POST', `/subscriptions/${subscriptionId}/odometer`, { token, json: { km: 1_300 } });
    expect(self.status, JSON.stringify(self.body)).toBe(201);
    expect(self.body.data.readings.at(-1)).toMatchObject({ source: 'SELF', km: 1_300, car_id: toCar });
    // The estimate sums both cars: 3,100 + 800.
    expect(self.body.data.estimate).toMatchObject({ driven_km: 3_100 + 800, legs_km: [3_100, 800] });
    // A staff reading cannot pose as a swap's.
    expect((await staff('POST', `/admin/subscriptions/${subscriptionId}/odometer`, { km: 1_400, source: 'SWAP_IN' })).status).toBe(400);
  });

  it('the settlement charges the overage summed over both cars, once (retries and two replicas)', async () => {
    // Start 2035-01-10, swap 2035-02-20, return 2035-03-20 (month 3: 7,500km allowed).
    const { subscriptionId, swapId } = await swapped('2035-01-10', '2035-02-20');
    const driver = await newDriver();
    await setClock('2035-01-10T09:00:00+09:00');
    expect((await staff('POST', `/admin/subscriptions/${subscriptionId}/odometer`, { km: 1_000, source: 'HANDOVER', read_on: '2035-01-10' })).status).toBe(200);
    const pair = (await schedulePair(subscriptionId, swapId, { driver_id: driver.id, window_start: '10:00', window_end: '12:00' })).body.data.handovers as { id: number; kind: string }[];
    await setClock('2035-02-20T11:00:00+09:00');
    expect((await staff('POST', `/admin/handovers/${pair.find((h) => h.kind === 'RETURN')!.id}/record`, { odometer_km: 4_100, fuel_percent: 90 })).status).toBe(200);
    await setClock('2035-02-20T11:30:00+09:00');
    expect((await staff('POST', `/admin/handovers/${pair.find((h) => h.kind === 'DELIVERY')!.id}/record`, { odometer_km: 500, fuel_percent: 100 })).status).toBe(200);
    // The return is of the car held at the end (the new one): 500 → 5,600.
    await setClock('2035-03-20T10:00:00+09:00');
    expect((await staff('POST', `/admin/subscriptions/${subscriptionId}/odometer`, { km: 5_600, source: 'RETURN' })).status).toBe(200);

    const line = '주행 (3,100km + 5,100km) 8,200km − 약정 7,500km = 초과 700km × 1km당 200원 = 140,000원';
    const preview = await staff('GET', `/admin/subscriptions/${subscriptionId}/settlement`);
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body.data.settlement).toMatchObject({ status: 'PREVIEW', total: 140_000, to_charge: 140_000, mileage_arithmetic: line });
    const odometer = await staff('GET', `/admin/subscriptions/${subscriptionId}/odometer`);
    expect(odometer.body.data.settlement!.result).toMatchObject({ driven_km: 8_200, legs_km: [3_100, 5_100], overage_km: 700, amount: 140_000 });

    const replica = await ctx.openReplicaApp();
    const other = replica.app;
    const json = { damages: [], fuel_shortfall_percent: 0, quoted_total: 140_000 };
    const post = (app: typeof ctx.app) => app.request(`/admin/subscriptions/${subscriptionId}/settlement`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' }, body: JSON.stringify(json) });
    const answers = await Promise.all([post(ctx.app), post(other), post(ctx.app)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    const charged = await ctx.database.db.select().from(payments).where(and(eq(payments.refId, subscriptionId), eq(payments.purpose, 'SUBSCRIPTION_SETTLEMENT')));
    expect(charged.map((p) => [p.amount, p.status])).toEqual([[140_000, 'PAID']]);
  });
});

describe('after a swap: the car out and the fuel from the records (issue 49)', () => {
  it('the board names the swap’s new car on the return, and the settlement charges each car’s fuel drop from the records', async () => {
    // Start 2036-01-10, swap 2036-02-20, return on the last day, 2037-01-09.
    const { subscriptionId, swapId, token } = await swapped('2036-01-10', '2036-02-20');
    const driver = await newDriver();
    const record = async (id: number, at: string, odometer_km: number, fuel_percent: number) => {
      await setClock(at);
      const res = await staff('POST', `/admin/handovers/${id}/record`, { odometer_km, fuel_percent });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    };
    await setClock('2036-01-10T08:00:00+09:00');
    const delivery = await staff('POST', `/admin/subscriptions/${subscriptionId}/handovers`, { kind: 'DELIVERY', driver_id: driver.id, date: '2036-01-10', window_start: '09:00', window_end: '10:00', address: null });
    await record(delivery.body.data.handover.id, '2036-01-10T09:30:00+09:00', 1_000, 100);
    const pair = (await schedulePair(subscriptionId, swapId, { driver_id: driver.id, window_start: '10:00', window_end: '12:00' })).body.data.handovers as { id: number; kind: string }[];
    // The old car comes back 30% down at the swap; the new car leaves full and comes back 95%.
    await record(pair.find((h) => h.kind === 'RETURN')!.id, '2036-02-20T10:30:00+09:00', 3_000, 70);
    await record(pair.find((h) => h.kind === 'DELIVERY')!.id, '2036-02-20T11:00:00+09:00', 500, 100);

    // The subscription's return: waiting on the board with the new car (60 days before the end), and booked with it.
    await setClock('2036-12-01T09:00:00+09:00');
    const board = await staff('GET', '/admin/handovers?from=2036-12-01&days=30');
    const waiting = board.body.data.open.find((o: { subscription_id: number }) => o.subscription_id === subscriptionId);
    expect(waiting).toMatchObject({ missing: ['RETURN'], plate: '78나 9012' });
    const ret = await staff('POST', `/admin/subscriptions/${subscriptionId}/handovers`, { kind: 'RETURN', driver_id: driver.id, date: '2037-01-09', window_start: '10:00', window_end: '12:00', address: null });
    expect(ret.status, JSON.stringify(ret.body)).toBe(201);
    const booked = (await staff('GET', '/admin/handovers?from=2037-01-09&days=1')).body.data.handovers.find((h: { id: number }) => h.id === ret.body.data.handover.id);
    expect(booked).toMatchObject({ kind: 'RETURN', swap: null, plate: '78나 9012' });
    await record(ret.body.data.handover.id, '2037-01-09T10:30:00+09:00', 1_500, 95);
    expect((await ctx.call('POST', `/handovers/${ret.body.data.handover.id}/acknowledge`, { token, json: { name: '홍길동' } })).status).toBe(200);

    // 30% (old car at the swap) + 5% (new car at the return) = 35% × 3,000원, whatever is typed.
    const preview = await staff('GET', `/admin/subscriptions/${subscriptionId}/settlement?fuel_shortfall_percent=0`);
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    const s = preview.body.data.settlement;
    expect(s.fuel_shortfall_percent).toBe(35);
    expect(s.fuel_arithmetic).toMatch(/^.+12가 3456 인도 100% → 교체 반납 70% \(30%\) \+ .+78나 9012 교체 인도 100% → 반납 95% \(5%\)$/);
    expect(s.lines.find((l: { kind: string }) => l.kind === 'FUEL')).toMatchObject({ amount: 35 * 3_000 });
    const done = await staff('POST', `/admin/subscriptions/${subscriptionId}/settlement`, { damages: [], quoted_total: s.total });
    expect(done.body.data.settlement).toMatchObject({ fuel_shortfall_percent: 35, total: s.total });
  });
});
