import { and, asc, desc, eq, inArray, isNull, ne, or } from 'drizzle-orm';
import { overtimeHours, quoteButler, tripDays, tripProblems, type ButlerCar, type ButlerRequestView, type ButlerSubscriptionView, type DriverPreference } from '../../domain/butler';
import { POINT_STEP, type DiscountType } from '../../domain/pricing';
import type { ButlerRequestUpdate, ButlerReservation } from '../../domain/schemas/butler';
import type { Db } from '../db/client';
import { butlerRequests, butlerReservedDates, butlerSubscriptions, butlerWaypoints, coupons, userCoupons } from '../db/schema';
import type { Config } from '../env';
import { conflict, notFound, unprocessable } from '../errors';
import { butlerCarList } from './catalogue';
import { checkPointStep, checkPointsWithin, creditPoints, inTransaction, placeOrderOnce, releaseCoupon, spendPoints, takeCoupon, withUserLock } from './checkout';
import { maskBillingKey } from './payments';

/**
 * Butler (의전) orders on the shared checkout core: a request reserves every Korean day its
 * trip covers for the car, takes a BUTLER coupon and points in the same transaction, and is
 * idempotent per billing key. Nothing is charged online; staff confirm after 입금 확인.
 */

type RequestRow = typeof butlerRequests.$inferSelect;
type WaypointInput = { address: string; scheduled_time: string | null };
const REF = 'butler_request';

const requestNotFound = () => notFound('요청을 찾을 수 없습니다.');
const dayTaken = (days: string[]) => conflict('선택한 날짜에 이미 예약된 차량입니다.', { start_at: [`이미 예약된 날짜: ${days.join(', ')}`] });

/** The butler car or 404. */
async function butlerCar(db: Db, carId: number): Promise<ButlerCar> {
  const [car] = await butlerCarList(db, carId);
  if (!car) throw notFound('차량 정보를 찾을 수 없습니다.');
  return car;
}

/** 422 with every problem of the trip's times (the first one as the message). */
function checkTrip(start: Date, end: Date | null, waypoints: WaypointInput[], waypointField: string, now: Date) {
  const problems = tripProblems({ start, end, waypoints }, now, waypointField);
  if (!problems.length) return;
  const fields: Record<string, string[]> = {};
  for (const p of problems) (fields[p.field] ??= []).push(p.message);
  throw unprocessable(problems[0].message, fields);
}

/**
 * Days among `days` already reserved for the car by someone else: a staff block, or another
 * request than `own` (on edit) or than the one behind `billingKey` (a repeat of the same order
 * must reach placeOrderOnce's repeat path, not a 409 for its own days).
 */
async function takenDays(db: Db, carId: number, days: string[], own: { requestId?: number; billingKey?: string }): Promise<string[]> {
  if (!days.length) return [];
  const rd = butlerReservedDates;
  const notOwn = own.requestId !== undefined ? ne(rd.butlerRequestId, own.requestId) : own.billingKey !== undefined ? ne(butlerRequests.billingKey, own.billingKey) : undefined;
  const rows = await db
    .select({ date: rd.date })
    .from(rd)
    .leftJoin(butlerRequests, eq(butlerRequests.id, rd.butlerRequestId))
    .where(and(eq(rd.butlerCarId, carId), inArray(rd.date, days), notOwn ? or(isNull(rd.butlerRequestId), notOwn) : undefined))
    .orderBy(asc(rd.date));
  return rows.map((r) => r.date);
}

/**
 * Reserves `days` (ascending, so concurrent bookings lock rows in one order) for the request
 * inside the caller's transaction. A day someone else holds makes nothing of it stick: the 409
 * rolls the whole transaction back, and of two racing bookings exactly one gets the day.
 */
async function reserveDays(tx: Db, carId: number, requestId: number, days: string[]): Promise<void> {
  if (!days.length) return;
  const sorted = [...days].sort();
  const rows = await tx
    .insert(butlerReservedDates)
    .values(sorted.map((date) => ({ butlerCarId: carId, date, butlerRequestId: requestId })))
    .onConflictDoNothing()
    .returning({ date: butlerReservedDates.date });
  if (rows.length < sorted.length) {
    const got = new Set(rows.map((r) => r.date));
    throw dayTaken(sorted.filter((d) => !got.has(d)));
  }
}

async function insertWaypoints(tx: Db, requestId: number, waypoints: WaypointInput[]) {
  if (!waypoints.length) return;
  await tx.insert(butlerWaypoints).values(
    waypoints.map((w, i) => ({ butlerRequestId: requestId, position: i, address: w.address, scheduledTime: w.scheduled_time ? new Date(w.scheduled_time) : null })),
  );
}

/** Coupon terms of a held coupon (already taken by the request). */
async function heldCoupon(db: Db, holdingId: number) {
  const [row] = await db.select().from(coupons).innerJoin(userCoupons, eq(userCoupons.couponId, coupons.id)).where(eq(userCoupons.id, holdingId));
  if (!row) return null;
  return { discount_type: row.coupons.discountType as DiscountType, discount_rate: row.coupons.discountRate, discount: row.coupons.discount };
}

/** Requests in API shape, in the given order (cars, waypoints and coupons loaded in batches). */
async function toViews(db: Db, rows: RequestRow[]): Promise<ButlerRequestView[]> {
  if (!rows.length) return [];
  const ids = rows.map((r) => r.id);
  const carIds = [...new Set(rows.map((r) => r.butlerCarId))];
  // Archived cars too: a booking keeps showing the car it was made for.
  const fleet = carIds.length === 1 ? await butlerCarList(db, carIds[0], undefined, true) : await butlerCarList(db, undefined, undefined, true);
  const cars = new Map(fleet.map((c) => [c.id, c]));
  const points = await db.select().from(butlerWaypoints).where(inArray(butlerWaypoints.butlerRequestId, ids)).orderBy(asc(butlerWaypoints.position), asc(butlerWaypoints.id));
  const holdingIds = rows.flatMap((r) => (r.userCouponId ? [r.userCouponId] : []));
  const held = holdingIds.length
    ? await db.select({ id: userCoupons.id, name: coupons.name, code: coupons.code }).from(userCoupons).innerJoin(coupons, eq(coupons.id, userCoupons.couponId)).where(inArray(userCoupons.id, holdingIds))
    : [];
  return rows.map((r) => {
    const h = held.find((x) => x.id === r.userCouponId);
    const view: ButlerRequestView = {
      id: r.id,
      car: cars.get(r.butlerCarId)!,
      status: r.status as ButlerRequestView['status'],
      start_at: r.startAt.toISOString(),
      end_at: r.endAt ? r.endAt.toISOString() : null,
      start_location: r.startLocation,
      end_location: r.endLocation,
      description: r.description,
      passenger_count: r.passengerCount,
      purpose: r.purpose,
      memo: r.memo,
      driver_preference: (r.driverPreference as DriverPreference | null) ?? null,
      way_points: points
        .filter((w) => w.butlerRequestId === r.id)
        .map((w) => ({ id: w.id, address: w.address, scheduled_time: w.scheduledTime ? w.scheduledTime.toISOString() : null })),
      created_at: r.createdAt.toISOString(),
      modified_at: r.modifiedAt.toISOString(),
      point_used: r.pointUsed,
      coupon: h ? { id: h.id, coupon: { name: h.name, code: h.code } } : null,
      base_fee: r.baseFee,
      overtime_hours: overtimeHours(r.startAt, r.endAt),
      overtime_fee: r.overtimeFee,
      coupon_discount: r.couponDiscount,
      final_price: r.finalPrice,
      billing_key: maskBillingKey(r.billingKey),
    };
    return view;
  });
}

async function viewOf(db: Db, id: number): Promise<ButlerRequestView> {
  const [row] = await db.select().from(butlerRequests).where(eq(butlerRequests.id, id));
  return (await toViews(db, [row]))[0];
}

/**
 * POST /butlers/cars/{carId}/request. Checks car, times, point steps and free days before the
 * billing key is verified; then, in one transaction under the user's lock, takes the coupon
 * (BUTLER, min/max against the base fee), prices with quoteButler (coupon on the total with
 * overtime), reserves every covered day and spends the points. A repeat of the billing key
 * returns the first request (`created: false`).
 */
export async function createButlerRequest(db: Db, config: Config, userId: number, carId: number, input: ButlerReservation, now = new Date()) {
  const points = input.point_amount ?? 0;
  const start = new Date(input.start_at);
  const end = input.end_at ? new Date(input.end_at) : null;
  const days = tripDays(start, end);
  let car: ButlerCar;
  const { created, order } = await placeOrderOnce(db, config, {
    service: 'BUTLER',
    userId,
    billingKey: input.billing_key,
    precheck: async () => {
      car = await butlerCar(db, carId);
      checkTrip(start, end, input.way_point_requests, 'way_point_requests', now);
      checkPointStep(points);
      const taken = await takenDays(db, carId, days, { billingKey: input.billing_key });
      if (taken.length) throw dayTaken(taken);
    },
    create: async (tx, provider) => {
      const coupon = input.coupon_id ? await takeCoupon(tx, 'BUTLER', userId, input.coupon_id, car.butler_fee) : null;
      const quote = quoteButler(car, start, end, coupon, points);
      checkPointsWithin(points, quote.total - quote.couponDiscount);
      const [row] = await tx
        .insert(butlerRequests)
        .values({
          userId, butlerCarId: carId, startAt: start, endAt: end, startLocation: input.start_location, endLocation: input.end_location,
          passengerCount: input.passenger_count, purpose: input.purpose, memo: input.memo, description: input.description,
          driverPreference: input.driver_preference, userCouponId: input.coupon_id || null, pointUsed: points,
          billingKey: input.billing_key, billingProvider: provider,
          baseFee: quote.baseFee, overtimeFee: quote.overtimeFee, couponDiscount: quote.couponDiscount, finalPrice: quote.final,
        })
        .returning();
      await reserveDays(tx, carId, row.id, days);
      await insertWaypoints(tx, row.id, input.way_point_requests);
      await spendPoints(tx, { userId, amount: points, reason: 'BUTLER_SPEND', refType: REF, refId: row.id, description: `의전 요청 #${row.id}` });
      return row.id;
    },
    load: (id) => viewOf(db, id),
  });
  return { created, request: order };
}

/** GET /butlers/requests: the user's live (not cancelled) requests, newest first. */
export async function listButlerRequests(db: Db, userId: number) {
  const rows = await db
    .select()
    .from(butlerRequests)
    .where(and(eq(butlerRequests.userId, userId), ne(butlerRequests.status, 'CANCELLED')))
    .orderBy(desc(butlerRequests.createdAt), desc(butlerRequests.id));
  return toViews(db, rows);
}

/** The user's live request (locked when asked); another user's, a cancelled or an unknown id is 404. */
async function ownRequest(db: Db, userId: number, id: number, lock = false) {
  const q = db.select().from(butlerRequests).where(eq(butlerRequests.id, id));
  const [row] = lock ? await q.for('update') : await q;
  if (!row || row.userId !== userId || row.status === 'CANCELLED') throw requestNotFound();
  return row;
}

function requirePending(row: RequestRow, action: string) {
  if (row.status !== 'PENDING') throw conflict(`확정된 의전 요청은 ${action}할 수 없습니다. 고객센터로 문의해주세요.`);
}

/** GET /butlers/requests/{id}. */
export async function getButlerRequest(db: Db, userId: number, id: number) {
  return (await toViews(db, [await ownRequest(db, userId, id)]))[0];
}

/**
 * PUT /butlers/requests/{id} while PENDING. Re-validates the times, re-prices (the held coupon's
 * discount is recomputed on the new total; its min/max was checked against the base fee, which
 * an edit cannot change), re-checks the car's days excluding its own and frees the days no longer
 * covered. Points stay, except when the new price after the coupon is below them: the points
 * used drop to the largest 10,000 step within the price and the rest is refunded at once.
 */
export async function updateButlerRequest(db: Db, userId: number, id: number, input: ButlerRequestUpdate, now = new Date()) {
  const current = await ownRequest(db, userId, id);
  requirePending(current, '수정');
  const start = new Date(input.start_at);
  const end = input.end_at === undefined ? current.endAt : input.end_at ? new Date(input.end_at) : null;
  const keptWaypoints = async () =>
    (await db.select().from(butlerWaypoints).where(eq(butlerWaypoints.butlerRequestId, id)).orderBy(asc(butlerWaypoints.position), asc(butlerWaypoints.id))).map((w) => ({
      address: w.address,
      scheduled_time: w.scheduledTime ? w.scheduledTime.toISOString() : null,
    }));
  const waypoints: WaypointInput[] = input.way_points ?? (await keptWaypoints());
  checkTrip(start, end, waypoints, 'way_points', now);
  const car = await butlerCar(db, current.butlerCarId);
  const days = tripDays(start, end);
  const taken = await takenDays(db, current.butlerCarId, days, { requestId: id });
  if (taken.length) throw dayTaken(taken);

  await withUserLock(db, userId, async (tx) => {
    const locked = await ownRequest(tx, userId, id, true);
    requirePending(locked, '수정');
    const coupon = locked.userCouponId ? await heldCoupon(tx, locked.userCouponId) : null;
    const before = quoteButler(car, start, end, coupon, 0);
    const payable = before.total - before.couponDiscount;
    let pointUsed = locked.pointUsed;
    if (pointUsed > payable) {
      const kept = Math.floor(payable / POINT_STEP) * POINT_STEP;
      await creditPoints(tx, { userId, amount: pointUsed - kept, reason: 'BUTLER_EDIT', refType: REF, refId: null, description: `의전 요청 #${id} 수정 환불` });
      pointUsed = kept;
    }
    const quote = quoteButler(car, start, end, coupon, pointUsed);

    const own = (await tx.select({ date: butlerReservedDates.date }).from(butlerReservedDates).where(eq(butlerReservedDates.butlerRequestId, id))).map((r) => r.date);
    const freed = own.filter((d) => !days.includes(d));
    if (freed.length) await tx.delete(butlerReservedDates).where(and(eq(butlerReservedDates.butlerRequestId, id), inArray(butlerReservedDates.date, freed)));
    await reserveDays(tx, locked.butlerCarId, id, days.filter((d) => !own.includes(d)));

    if (input.way_points !== undefined) {
      await tx.delete(butlerWaypoints).where(eq(butlerWaypoints.butlerRequestId, id));
      await insertWaypoints(tx, id, input.way_points);
    }
    const keep = <T>(v: T | undefined, old: T) => (v === undefined ? old : v);
    await tx
      .update(butlerRequests)
      .set({
        startAt: start, endAt: end, startLocation: input.start_location, endLocation: input.end_location,
        description: keep(input.description, locked.description),
        passengerCount: keep(input.passenger_count, locked.passengerCount),
        purpose: keep(input.purpose, locked.purpose),
        memo: keep(input.memo, locked.memo),
        driverPreference: keep(input.driver_preference, locked.driverPreference),
        pointUsed, baseFee: quote.baseFee, overtimeFee: quote.overtimeFee, couponDiscount: quote.couponDiscount, finalPrice: quote.final,
        modifiedAt: new Date(),
      })
      .where(eq(butlerRequests.id, id));
  });
  return viewOf(db, id);
}

/** Cancels inside the caller's transaction (row locked): frees the days, returns the coupon, refunds the points once. */
async function cancelInside(tx: Db, row: RequestRow) {
  await tx.update(butlerRequests).set({ status: 'CANCELLED', modifiedAt: new Date() }).where(eq(butlerRequests.id, row.id));
  await tx.delete(butlerReservedDates).where(eq(butlerReservedDates.butlerRequestId, row.id));
  if (row.userCouponId) await releaseCoupon(tx, row.userCouponId);
  const refunded =
    row.pointUsed > 0 &&
    (await creditPoints(tx, { userId: row.userId, amount: row.pointUsed, reason: 'BUTLER_REFUND', refType: REF, refId: row.id, description: `의전 요청 #${row.id} 취소 환불` }));
  return { id: row.id, refunded_points: refunded ? row.pointUsed : 0, coupon_returned: Boolean(row.userCouponId) };
}

/** DELETE /butlers/requests/{id} while PENDING: irreversible. */
export async function cancelButlerRequest(db: Db, userId: number, id: number) {
  return withUserLock(db, userId, async (tx) => {
    const row = await ownRequest(tx, userId, id, true);
    requirePending(row, '취소');
    return cancelInside(tx, row);
  });
}

/** Staff: cancels a pending or confirmed request (e.g. no deposit); same refunds as the user's cancel. */
export async function adminCancelButlerRequest(db: Db, id: number) {
  const [found] = await db.select().from(butlerRequests).where(eq(butlerRequests.id, id));
  if (!found) throw requestNotFound();
  return withUserLock(db, found.userId, async (tx) => {
    const [row] = await tx.select().from(butlerRequests).where(eq(butlerRequests.id, id)).for('update');
    if (row.status === 'CANCELLED') throw conflict('이미 취소된 의전 요청입니다.');
    return cancelInside(tx, row);
  });
}

/** A butler subscription in API shape. */
async function subscriptionViews(db: Db, rows: { sub: typeof butlerSubscriptions.$inferSelect; request: RequestRow }[]): Promise<ButlerSubscriptionView[]> {
  const views = await toViews(db, rows.map((r) => r.request));
  return rows.map((r, i) => ({ id: r.sub.id, created_at: r.sub.createdAt.toISOString(), modified_at: r.sub.modifiedAt.toISOString(), request: views[i] }));
}

/** Staff confirmation after 입금 확인: PENDING → CONFIRMED and a butler subscription; 409 when not pending. */
export async function confirmButlerRequest(db: Db, id: number): Promise<ButlerSubscriptionView> {
  const subId = await inTransaction(db, async (tx) => {
    const [row] = await tx.select().from(butlerRequests).where(eq(butlerRequests.id, id)).for('update');
    if (!row) throw requestNotFound();
    if (row.status !== 'PENDING') throw conflict(row.status === 'CONFIRMED' ? '이미 확정된 의전 요청입니다.' : '취소된 의전 요청입니다.');
    await tx.update(butlerRequests).set({ status: 'CONFIRMED', modifiedAt: new Date() }).where(eq(butlerRequests.id, id));
    const [sub] = await tx.insert(butlerSubscriptions).values({ requestId: id, userId: row.userId }).returning();
    return sub.id;
  });
  const [row] = await db.select({ sub: butlerSubscriptions, request: butlerRequests }).from(butlerSubscriptions).innerJoin(butlerRequests, eq(butlerRequests.id, butlerSubscriptions.requestId)).where(eq(butlerSubscriptions.id, subId));
  return (await subscriptionViews(db, [row]))[0];
}

/** GET /butlers: the user's butler subscriptions (confirmed requests not cancelled since), newest first. */
export async function listButlerSubscriptions(db: Db, userId: number): Promise<ButlerSubscriptionView[]> {
  const rows = await db
    .select({ sub: butlerSubscriptions, request: butlerRequests })
    .from(butlerSubscriptions)
    .innerJoin(butlerRequests, eq(butlerRequests.id, butlerSubscriptions.requestId))
    .where(and(eq(butlerSubscriptions.userId, userId), ne(butlerRequests.status, 'CANCELLED')))
    .orderBy(desc(butlerSubscriptions.createdAt), desc(butlerSubscriptions.id));
  return subscriptionViews(db, rows);
}
