import { and, eq, inArray, like } from 'drizzle-orm';
import { paidAmount } from '../../src/domain/payments';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayInKorea } from '../../src/domain/dates';
import { insertButlerCar, insertModel, upsertBrand } from '../../src/api/seed/factories';
import { auditLog, butlerRequests, butlerWaypoints, jobs, notificationMessages, paymentRefunds, payments } from '../../src/api/db/schema';
import { issueSandboxBillingKey } from '../../src/api/billing/sandbox-provider';
import { apiTools, createTestContext, customer, type TestContext } from './helpers';
import { driverAccount } from './driver-helpers';

/**
 * Staff change a booked trip (issue 50): the waypoints, the flight number, the end. The preview
 * says what changes and what it costs; a change of the booked hours is charged or refunded on the
 * card for the price staff confirmed, once however often the request is sent; the driver and the
 * customer are each told once; customers and drivers cannot call it.
 */

let ctx: TestContext;
let modelId: number;

beforeAll(async () => {
  ctx = await createTestContext();
  const brand = await upsertBrand(ctx.database.db, { name: '롤스로이스', slug: 'rolls-trip-change' });
  modelId = (await insertModel(ctx.database.db, { brandId: brand.id, name: 'Ghost' })).id;
});
afterAll(() => ctx.close());

const { admin: staff } = apiTools(() => ctx);
const at = (days: number, time: string) => `${addDays(todayInKorea(new Date()), days)}T${time}:00+09:00`;
const iso = (s: string) => new Date(s).toISOString();

let seq = 0;
/** A paid booking 09:00–17:00 on day `d` (800,000원 for 8 h, 100,000원 an hour beyond), a stop at 12:00, a driver assigned. */
async function assignedTrip(d: number, opts: { flight?: string | null; start?: string; end?: string; stop?: string; driver?: Awaited<ReturnType<typeof driverAccount>> } = {}) {
  const car = await insertButlerCar(ctx.database.db, modelId, { butlerFee: 800_000, butlerOvertimeFee: 100_000, licensePlate: `57다 ${7000 + ++seq}` });
  const owner = await customer(ctx);
  const res = await ctx.call('POST', `/butlers/cars/${car.id}/request`, {
    token: owner.token,
    json: {
      start_at: at(d, opts.start ?? '09:00'), end_at: at(d, opts.end ?? '17:00'), start_location: '서울 중구 세종대로 110', end_location: '서울 강남구 테헤란로 152', passenger_count: 1,
      way_point_requests: [{ address: '서울 종로구 사직로 161', scheduled_time: at(d, opts.stop ?? '12:00') }], flight_number: opts.flight === undefined ? null : opts.flight, billing_key: issueSandboxBillingKey(ctx.config),
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const id = res.body.data.butler_request.id;
  const a = opts.driver ?? (await driverAccount(ctx));
  expect((await staff('POST', `/admin/butler-requests/${id}/assign`, { driver_id: a.driver.id })).status).toBe(200);
  return { id, owner, driver: a };
}

/** Messages of `event` about trip `id` (after the jobs ran), to `to` when given. */
async function sent(event: string, id: number, to?: string) {
  await staff('POST', '/admin/billing/run');
  const rows = await ctx.database.db.select().from(notificationMessages).where(eq(notificationMessages.event, event));
  return rows.filter((m) => m.text.includes(`#${id}`) && (to === undefined || m.to === to));
}

const chargesOf = (id: number) => ctx.database.db.select().from(payments).where(and(eq(payments.refType, 'butler_request'), eq(payments.refId, id)));
const row = async (id: number) => (await ctx.database.db.select().from(butlerRequests).where(eq(butlerRequests.id, id)))[0];

describe('staff change the flight number and the waypoints', () => {
  it('previews, saves, tells the driver and the customer once, audits, and a retry changes nothing', async () => {
    const { id, driver } = await assignedTrip(6);
    const body = { flight_number: 'oz 1085', way_points: [{ address: '서울 종로구 사직로 161', scheduled_time: at(6, '12:00') }, { address: '서울 용산구 한강대로 405', scheduled_time: null }], reason: '고객 요청: 항공편 변경, 경유지 추가' };
    const preview = await staff('POST', `/admin/butler-requests/${id}/trip/preview`, body);
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body.data).toMatchObject({ price: null, waiting: { free_before: 15, free_after: 60 } });
    expect(preview.body.data.changes.map((c: { field: string }) => c.field)).toEqual(['way_points', 'flight_number']);
    // The preview saved nothing.
    expect((await row(id)).flightNumber).toBeNull();

    const res = await staff('PATCH', `/admin/butler-requests/${id}/trip`, body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.changed).toBe(true);
    expect(res.body.data.trip.flight_number).toBe('OZ1085');
    expect(res.body.data.trip.waypoints.map((w: { address: string }) => w.address)).toEqual(['서울 종로구 사직로 161', '서울 용산구 한강대로 405']);
    // Sent again (a retry): nothing left to change, nobody told again.
    const again = await staff('PATCH', `/admin/butler-requests/${id}/trip`, body);
    expect(again.body.data.changed).toBe(false);

    const driverTold = await sent('driver.trip_changed', id, driver.phone);
    expect(driverTold).toHaveLength(1);
    expect(driverTold[0].text).toContain('항공편 없음 → OZ1085');
    expect(driverTold[0].text).toContain('서울 용산구 한강대로 405');
    const customerTold = await sent('butler.trip_changed', id);
    expect(customerTold.map((m) => m.channel).sort()).toEqual(['email', 'kakao']);
    expect(customerTold[0].text).toContain('예약 내용이 변경되었습니다: 경유지, 항공편.');
    expect(customerTold[0].text).not.toContain('결제 금액');
    const notices = (await ctx.call('GET', '/driver/notices', { token: driver.token })).body.data.notices;
    expect(notices.filter((n: { kind: string }) => n.kind === 'changed')).toHaveLength(1);
    const audit = await ctx.database.db.select().from(auditLog).where(and(eq(auditLog.action, 'change_trip'), eq(auditLog.entityId, String(id))));
    expect(audit).toHaveLength(1);
    expect(await chargesOf(id)).toHaveLength(1);
  });

  it('removes every waypoint with [] and clears the flight with null', async () => {
    const { id } = await assignedTrip(7, { flight: 'KE123' });
    const res = await staff('PATCH', `/admin/butler-requests/${id}/trip`, { way_points: [], flight_number: null, reason: '일정 변경' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.waiting).toEqual({ free_before: 60, free_after: 15 });
    expect(await ctx.database.db.select().from(butlerWaypoints).where(eq(butlerWaypoints.butlerRequestId, id))).toHaveLength(0);
    expect((await row(id)).flightNumber).toBeNull();
  });
});

describe('a change of the booked hours is re-priced by the booking rule', () => {
  it('charges the difference once for the confirmed price, then refunds it when the day is shortened again', async () => {
    const { id, driver } = await assignedTrip(8);
    const longer = { end_at: at(8, '19:00'), way_points: [{ address: '서울 종로구 사직로 161', scheduled_time: at(8, '12:00') }, { address: '경기 성남시 분당구 판교역로 166', scheduled_time: at(8, '18:00') }], reason: '판교 경유 추가' };
    const preview = (await staff('POST', `/admin/butler-requests/${id}/trip/preview`, longer)).body.data;
    expect(preview.price).toEqual({ hours_before: 8, hours_after: 10, before: 800_000, after: 1_000_000, difference: 200_000, points_back: 0 });

    // Without the price staff saw (or with another), nothing is charged or saved; the 409 carries the preview.
    const unconfirmed = await staff('PATCH', `/admin/butler-requests/${id}/trip`, longer);
    expect(unconfirmed.status).toBe(409);
    expect(unconfirmed.body.message).toBe('변경 후 결제 금액은 1,000,000원입니다. 금액을 확인한 뒤 다시 저장해주세요.');
    expect(unconfirmed.body.data.price!.difference).toBe(200_000);
    expect((await staff('PATCH', `/admin/butler-requests/${id}/trip`, { ...longer, confirm_price: 900_000 })).status).toBe(409);
    expect(await chargesOf(id)).toHaveLength(1);

    const saved = await staff('PATCH', `/admin/butler-requests/${id}/trip`, { ...longer, confirm_price: 1_000_000 });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.data.trip.end_at).toBe(iso(at(8, '19:00')));
    // A retry (the answer was lost) charges nothing more.
    expect((await staff('PATCH', `/admin/butler-requests/${id}/trip`, { ...longer, confirm_price: 1_000_000 })).body.data.changed).toBe(false);
    const charges = await chargesOf(id);
    expect(charges.map((p) => [p.purpose, p.amount, p.status]).sort()).toEqual([['BUTLER', 800_000, 'PAID'], ['BUTLER_ADJUSTMENT', 200_000, 'PAID']]);
    expect(await row(id)).toMatchObject({ finalPrice: 1_000_000, overtimeFee: 200_000 });

    const customerTold = await sent('butler.trip_changed', id);
    expect(customerTold[0].text).toContain('이용 8시간 → 10시간 · 결제 금액 800,000원 → 1,000,000원 (차액 200,000원 추가 결제)');
    const driverTold = await sent('driver.trip_changed', id, driver.phone);
    expect(driverTold).toHaveLength(1);
    expect(driverTold[0].text).toMatch(/종료 시각 \S+ 17:00 → \S+ 19:00/);

    // Back to 17:00 (the stop at 18:00 dropped): the 200,000원 is refunded, once.
    const shorter = { end_at: at(8, '17:00'), way_points: [{ address: '서울 종로구 사직로 161', scheduled_time: at(8, '12:00') }], reason: '판교 경유 취소', confirm_price: 800_000 };
    const back = await staff('PATCH', `/admin/butler-requests/${id}/trip`, shorter);
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(back.body.data.price).toMatchObject({ difference: -200_000 });
    expect((await staff('PATCH', `/admin/butler-requests/${id}/trip`, shorter)).body.data.changed).toBe(false);
    const after = await chargesOf(id);
    expect(after.reduce((sum, p) => sum + paidAmount(p), 0)).toBe(800_000);
    const refunds = await ctx.database.db.select().from(paymentRefunds).where(inArray(paymentRefunds.paymentId, after.map((p) => p.id)));
    expect(refunds).toHaveLength(1);
    // Staff made the change: the refund row says so, not "customer".
    expect(refunds[0].actor).toMatch(/^staff:/);
    expect((await row(id)).finalPrice).toBe(800_000);
    expect((await sent('driver.trip_changed', id, driver.phone))).toHaveLength(2);
  });

  it('refuses a waypoint outside the trip, another day, a clash with the driver’s next trip, a cancelled trip and a bad body', async () => {
    const { id } = await assignedTrip(9);
    const outside = await staff('PATCH', `/admin/butler-requests/${id}/trip`, { way_points: [{ address: '서울 종로구 사직로 161', scheduled_time: at(9, '18:00') }], reason: 'x' });
    expect(outside.status).toBe(422);
    expect(outside.body.errors['way_points.0.scheduled_time']).toEqual(['경유지 시간은 출발 시간과 도착 시간 사이로 선택해주세요.']);
    expect((await staff('PATCH', `/admin/butler-requests/${id}/trip`, { end_at: at(10, '02:00'), reason: 'x', confirm_price: 1_800_000 })).status).toBe(422);
    expect((await staff('PATCH', `/admin/butler-requests/${id}/trip`, { flight_number: 'KOREA', reason: 'x' })).status).toBe(400);
    expect((await staff('PATCH', `/admin/butler-requests/${id}/trip`, { reason: '없음' })).status).toBe(400);
    expect((await staff('PATCH', `/admin/butler-requests/${id}/trip`, { flight_number: 'KE1' })).status).toBe(400);
    expect((await staff('PATCH', `/admin/butler-requests/${id}/trip`, 'x')).status).toBe(400);
    expect((await staff('POST', `/admin/butler-requests/999999/trip/preview`, { flight_number: 'KE1', reason: 'x' })).status).toBe(404);

    // The same driver's next trip of that day starts at 19:30: ending at 19:00 breaks the 60-minute gap; nothing is charged.
    const first = await assignedTrip(11, { end: '13:00', stop: '11:00' });
    await assignedTrip(11, { start: '19:30', end: '22:00', stop: '20:00', driver: first.driver });
    const clash = await staff('PATCH', `/admin/butler-requests/${first.id}/trip`, { end_at: at(11, '19:00'), reason: 'x', confirm_price: 800_000 });
    expect(clash.status).toBe(409);
    expect(clash.body.message).toContain('간격이 60분보다 짧습니다');
    expect(await chargesOf(first.id)).toHaveLength(1);

    // Another customer cannot cancel it; staff can, and then it cannot be changed.
    expect((await ctx.call('DELETE', `/butlers/requests/${id}`, { token: (await customer(ctx)).token })).status).toBe(404);
    expect((await staff('POST', `/admin/butler-requests/${id}/cancel`, {})).status).toBe(200);
    const cancelled = await staff('PATCH', `/admin/butler-requests/${id}/trip`, { flight_number: 'KE1', reason: 'x' });
    expect(cancelled.status).toBe(409);
    expect(await ctx.database.db.select().from(jobs).where(like(jobs.key, `notify:driver.trip_changed:${id}:%`))).toHaveLength(0);
  });

  it('is for staff only: the customer and the driver of the trip cannot preview or change it', async () => {
    const { id, owner, driver } = await assignedTrip(13);
    for (const token of [owner.token, driver.token]) {
      expect((await ctx.call('PATCH', `/admin/butler-requests/${id}/trip`, { token, json: { flight_number: 'KE1', reason: 'x' } })).status).toBe(403);
      expect((await ctx.call('POST', `/admin/butler-requests/${id}/trip/preview`, { token, json: { flight_number: 'KE1', reason: 'x' } })).status).toBe(403);
    }
    expect((await ctx.call('PATCH', `/admin/butler-requests/${id}/trip`, { json: { flight_number: 'KE1', reason: 'x' } })).status).toBe(403);
    expect((await row(id)).flightNumber).toBeNull();
    expect(await sent('butler.trip_changed', id)).toHaveLength(0);
  });
});
