import { and, asc, desc, eq, inArray, isNull, ne, or } from 'drizzle-orm';
import { DEV_PARTNER, FLEET_ONLY_MESSAGE, judgeEligibility, OWN_CAR_ONLY_MESSAGE, type ButlerLegalModel, type ButlerLegalView, type LegalBasis } from '../../domain/butler-legal';
import { customerCarAsButlerCar, DEFAULT_OWN_CAR_HOURLY_RATE, judgeOwnCar, ownCarFees, quoteOwnCar, type CustomerCar } from '../../domain/butler-own-car';
import { subscriptionCarFor } from './own-car-subscriptions';
import { defaultEnd, overtimeHours, quoteButler, requoteButler, tripDays, tripProblems, type ButlerCancelAnswer, type ButlerCancelPreview, type ButlerCar, type ButlerRequestView, type ButlerSubscriptionView, type TripRating } from '../../domain/butler';
import { LOW_RATING_MAX, showsDispatch, tripStage, UNASSIGNED_ALERTS, unassignedAlertAt } from '../../domain/dispatch';
import { paymentIds, type ButlerRefundPolicy, type PaymentView, ORDER_KINDS, paidAmount } from '../../domain/payments';
import type { ButlerRequestUpdate, ButlerReservation, OwnCarReservation } from '../../domain/schemas/butler';
import type { z } from 'zod';
import type { TripRatingSchema } from '../../domain/schemas/butler';
import type { Db } from '../db/client';
import { butlerRequests, butlerReservedDates, butlerSubscriptions, butlerWaypoints, coupons, drivers, tripRatings, userCoupons } from '../db/schema';
import { conflict, notFound, unprocessable } from '../errors';
import { rescheduleQueued } from '../jobs/queue';
import { tellDriver } from '../notifications/driver-notices';
import { BUTLER_REMINDER_BEFORE_MS, butlerReminderKey, emit, type CancelledBy, emitOrderReceived, notifyJobKey, unassignedAlertKey } from '../notifications/events';
import type { PaymentContext } from '../payment-context';
import { attemptsOf, paymentsOf, toPaymentView } from '../billing/ledger';
import { cardViewOf } from '../../domain/card-label';
import { refundOrder, refundPreview, settlePriceChange, type PaidOrder } from '../billing/order-charges';
import { cancelBooking, customerRefundPercent, heldCoupon, ownCarRate } from '../billing/butler-billing';
import { butlerCarList } from '../catalogue/catalogue';
import { checkPointStep, checkPointsWithin, creditPoints, dryRun, inTransaction, placeOrderOnce, spendPoints, takeCoupon, withUserLock } from './checkout';
import { type AuditWriter } from '../audit/audit';
import { type PaymentRow } from '../payment-context';
import { rowTime } from '../jobs/clock';
import { todayInKorea } from '../../domain/dates';
import { asTripCharge, type TripCharge } from '../../domain/waiting';
import { companyTripViews } from '../companies/trips';

/**
 * Butler (의전) orders on the shared checkout core: a request reserves every Korean day its
 * trip covers for the car, takes a BUTLER coupon and points in the same transaction, is
 * idempotent per billing key, and charges its quoted price to the card at booking; staff confirm.
 */

type RequestRow = typeof butlerRequests.$inferSelect;
type WaypointInput = { address: string; scheduled_time: string | null };
const REF = ORDER_KINDS.BUTLER.refType;

const requestNotFound = () => notFound('요청을 찾을 수 없습니다.');
const dayTaken = (days: string[]) => conflict('선택한 날짜에 이미 예약된 차량입니다.', { start_at: [`이미 예약된 날짜: ${days.join(', ')}`] });

/** The butler car or 404. */
export async function butlerCar(db: Db, carId: number, today: string): Promise<ButlerCar> {
  const [car] = await butlerCarList(db, { id: carId, today });
  if (!car) throw notFound('차량 정보를 찾을 수 없습니다.');
  return car;
}

/** 422 with every problem of the trip's times (the first one as the message). */
export function checkTrip(start: Date, end: Date | null, waypoints: WaypointInput[], waypointField: string, now: Date) {
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
export async function takenDays(db: Db, carId: number, days: string[], own: { requestId?: number; billingKey?: string }): Promise<string[]> {
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
export async function reserveDays(tx: Db, carId: number, requestId: number, days: string[]): Promise<void> {
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

export async function insertWaypoints(tx: Db, requestId: number, waypoints: WaypointInput[]) {
  if (!waypoints.length) return;
  await tx.insert(butlerWaypoints).values(
    waypoints.map((w, i) => ({ butlerRequestId: requestId, position: i, address: w.address, scheduledTime: w.scheduled_time ? new Date(w.scheduled_time) : null })),
  );
}

/**
 * Requests in API shape, in the given order (cars, waypoints, coupons and drivers loaded in
 * batches); `now` decides the stage and whether the driver and plate show yet (showsDispatch).
 */
export async function toViews(db: Db, rows: RequestRow[], now: Date): Promise<ButlerRequestView[]> {
  if (!rows.length) return [];
  const ids = rows.map((r) => r.id);
  const carIds = [...new Set(rows.flatMap((r) => (r.butlerCarId ? [r.butlerCarId] : [])))];
  // Archived cars too: a booking keeps showing the car it was made for. A driver-only booking has none.
  const fleet = carIds.length ? await butlerCarList(db, { id: carIds.length === 1 ? carIds[0] : undefined, archived: true, plates: true, today: todayInKorea(now) }) : [];
  const cars = new Map(fleet.map((c) => [c.id, c]));
  const points = await db.select().from(butlerWaypoints).where(inArray(butlerWaypoints.butlerRequestId, ids)).orderBy(asc(butlerWaypoints.position), asc(butlerWaypoints.id));
  const charges = await paymentsOf(db, REF, ids);
  const holdingIds = rows.flatMap((r) => (r.userCouponId ? [r.userCouponId] : []));
  const held = holdingIds.length
    ? await db.select({ id: userCoupons.id, name: coupons.name, code: coupons.code }).from(userCoupons).innerJoin(coupons, eq(coupons.id, userCoupons.couponId)).where(inArray(userCoupons.id, holdingIds))
    : [];
  const driverIds = [...new Set(rows.flatMap((r) => (r.driverId ? [r.driverId] : [])))];
  const assigned = driverIds.length ? await db.select({ id: drivers.id, name: drivers.name, phone: drivers.phone }).from(drivers).where(inArray(drivers.id, driverIds)) : [];
  const rated = await db.select().from(tripRatings).where(inArray(tripRatings.butlerRequestId, ids));
  const companyTrips = await companyTripViews(db, rows);
  return rows.map((r) => {
    const h = held.find((x) => x.id === r.userCouponId);
    const car = r.butlerCarId ? cars.get(r.butlerCarId)! : customerCarAsButlerCar(r.customerCar!, ownCarRate(r));
    const driver = assigned.find((d) => d.id === r.driverId);
    const view: ButlerRequestView = {
      id: r.id,
      // The plate only with the driver, from the day before (dispatch below).
      car: { ...car, license_plate: null },
      customer_car: r.customerCar ?? null,
      status: r.status,
      start_at: r.startAt.toISOString(),
      end_at: r.endAt ? r.endAt.toISOString() : null,
      start_location: r.startLocation,
      end_location: r.endLocation,
      description: r.description,
      passenger_count: r.passengerCount,
      purpose: r.purpose,
      memo: r.memo,
      driver_preference: r.driverPreference,
      flight_number: r.flightNumber,
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
      card: cardViewOf(r),
      payment: ((p) => (p ? toPaymentView(p) : null))(charges.filter((p) => p.refId === r.id && p.purpose === 'BUTLER').at(0)),
      overtime_payment: latestAttempt(charges.filter((p) => p.refId === r.id && p.purpose === 'BUTLER_OVERTIME'), asTripCharge(r.tripCharge)),
      paid_amount: charges.filter((p) => p.refId === r.id).reduce((sum, p) => sum + paidAmount(p), 0),
      stage: tripStage({ status: r.status, driver_id: r.driverId, start_at: r.startAt, actual_start_at: r.actualStartAt, actual_end_at: r.actualEndAt, departed_at: r.departedAt, arrived_at: r.arrivedAt }, now),
      dispatch: driver && r.status !== 'CANCELLED' && showsDispatch(r.startAt, now) ? { driver_name: driver.name, license_plate: car.license_plate } : null,
      trip_record: {
        departed_at: r.departedAt?.toISOString() ?? null,
        arrived_at: r.arrivedAt?.toISOString() ?? null,
        boarded_at: r.actualStartAt?.toISOString() ?? null,
        ended_at: r.actualEndAt?.toISOString() ?? null,
        overtime_hours: r.actualStartAt && r.actualEndAt ? overtimeHours(r.actualStartAt, r.actualEndAt) : 0,
      },
      trip_charge: asTripCharge(r.tripCharge),
      rating: ((x) => (x ? toRating(x) : null))(rated.find((x) => x.butlerRequestId === r.id)),
      legal: legalView(r),
      company_booking: companyTrips.get(r.id) ?? null,
    };
    return view;
  });
}

const toRating = (row: typeof tripRatings.$inferSelect): TripRating => ({ score: row.score, comment: row.comment, created_at: row.createdAt.toISOString() });

/**
 * POST /butlers/requests/{id}/rating: the customer rates their finished trip once (1–5, optional
 * comment), credited to the driver who drove it. Another user's or an unknown booking is 404;
 * before the actual end is recorded, or a second time, 409 (the unique booking id settles two at once).
 */
export async function rateTrip(db: Db, userId: number, id: number, input: z.output<typeof TripRatingSchema>, now: Date): Promise<TripRating> {
  const row = await ownRequest(db, userId, id);
  if (!row.actualEndAt) throw conflict('운행이 끝난 뒤에 평가할 수 있습니다.');
  const saved = await inTransaction(db, async (tx) => {
    const [inserted] = await tx
      .insert(tripRatings)
      .values({ butlerRequestId: id, userId, driverId: row.driverId, score: input.score, comment: input.comment, createdAt: now })
      .onConflictDoNothing()
      .returning();
    // A poor trip is staff's to follow up at once (issue 50); every comment is on the console's list.
    if (inserted && inserted.score <= LOW_RATING_MAX) await emit(tx, `staff.trip_rated_low:${id}`, { type: 'staff.trip_rated_low', butlerRequestId: id }, now);
    return inserted;
  });
  if (!saved) throw conflict('이미 평가한 운행입니다. 평가는 한 번만 남길 수 있습니다.');
  return toRating(saved);
}

/** The attempt with the highest number (a declined charge tried again is its last try). */
function latestAttempt(tries: PaymentRow[], parts?: TripCharge | null): PaymentView | null {
  const last = tries.reduce<PaymentRow | null>((a, p) => (!a || p.attempt > a.attempt ? p : a), null);
  return last ? toPaymentView(last, parts) : null;
}

export async function viewOf(db: Db, id: number, now: Date): Promise<ButlerRequestView> {
  const [row] = await db.select().from(butlerRequests).where(eq(butlerRequests.id, id));
  return (await toViews(db, [row], now))[0];
}

/**
 * POST /butlers/cars/{carId}/request. Checks car, times, point steps and free days before the
 * billing key is verified; then, in one transaction under the user's lock, takes the coupon
 * (BUTLER, min/max against the base fee), prices with quoteButler (coupon on the total with
 * overtime), reserves every covered day, spends the points and records the fee's charge; then
 * the card is charged (placeOrderOnce). A repeat of the billing key returns the first request.
 */
export async function createButlerRequest(ctx: PaymentContext, userId: number, carId: number, input: ButlerReservation, now: Date, legal: ButlerLegalSetting = { model: 'partner', partner: DEV_PARTNER }) {
  const { db } = ctx;
  const points = input.point_amount ?? 0;
  const start = new Date(input.start_at);
  const end = input.end_at ? new Date(input.end_at) : null;
  const days = tripDays(start, end);
  let basis: LegalBasis | null = null;
  const { created, order, payment } = await placeOrderOnce(ctx, {
    service: 'BUTLER',
    userId,
    billingKey: input.billing_key,
    validate: async () => {
      const car = await butlerCar(db, carId, todayInKorea(now));
      checkTrip(start, end, input.way_point_requests, 'way_point_requests', now);
      basis = legalBasisOf(legal, input, car, start, end);
      checkPointStep(points);
      const taken = await takenDays(db, carId, days, { billingKey: input.billing_key });
      if (taken.length) throw dayTaken(taken);
      return car;
    },
    price: async (tx, car) => {
      const coupon = input.coupon_id ? await takeCoupon(tx, 'BUTLER', userId, input.coupon_id, car.butler_fee, todayInKorea(now)) : null;
      const quote = quoteButler(car, start, end, coupon, points);
      checkPointsWithin(points, quote.total - quote.couponDiscount);
      return quote;
    },
    record: async (tx, { quote, provider, card }) => {
      const [row] = await tx
        .insert(butlerRequests)
        .values({
          userId, butlerCarId: carId, startAt: start, endAt: end, startLocation: input.start_location, endLocation: input.end_location,
          passengerCount: input.passenger_count, purpose: input.purpose, memo: input.memo, description: input.description,
          driverPreference: input.driver_preference, flightNumber: input.flight_number, userCouponId: input.coupon_id || null, pointUsed: points,
          billingKey: input.billing_key, billingProvider: provider, cardIssuer: card?.issuer ?? null, cardLast4: card?.last4 ?? null, legalModel: legal.model, legalBasis: basis,
          baseFee: quote.baseFee, overtimeFee: quote.overtimeFee, couponDiscount: quote.couponDiscount, finalPrice: quote.final,
          // The request date on the business clock (one clock with POST /admin/test-clock).
          createdAt: now, modifiedAt: now,
        })
        .returning();
      await reserveDays(tx, carId, row.id, days);
      await insertWaypoints(tx, row.id, input.way_point_requests);
      await scheduleReminder(tx, ctx, row.id, userId, start);
      await spendPoints(tx, { userId, amount: points, reason: 'BUTLER_SPEND', refType: REF, refId: row.id, description: `의전 요청 #${row.id}` });
      return row.id;
    },
    charge: (id, quote) => ({ id: paymentIds.butler(id), purpose: 'BUTLER', refType: REF, refId: id, orderName: `LUXE 의전 예약 #${id}`, amount: quote.final }),
    received: (tx, id) => emitOrderReceived(tx, { service: 'BUTLER', userId, orderId: id }, ctx.clock.now()),
    load: (id) => viewOf(db, id, now),
  });
  return { created, request: order, payment };
}

/** BUTLER_LEGAL_MODEL (or a test run's override) and the partner it names. */
export interface ButlerLegalSetting {
  model: ButlerLegalModel;
  partner: { name: string; licence: string };
  /** own-car: won per hour of the driver (BUTLER_OWN_CAR_HOURLY_RATE). */
  ownCarHourlyRate?: number;
}

/**
 * The customer's car of a driver-only booking, checked before anything is paid: their active
 * subscription's car (another user's subscription is 404), or their own car with a Korean plate
 * and the insurance statement (422 naming the field).
 */
async function customerCarOf(db: Db, userId: number, input: OwnCarReservation, days: string[], now: Date): Promise<CustomerCar> {
  const claim = input.customer_car;
  if (claim.kind === 'subscription') {
    const choice = await subscriptionCarFor(db, userId, claim.subscription_id, { firstDay: days[0], lastDay: days[days.length - 1], today: todayInKorea(now) });
    return { kind: 'subscription', subscription_id: choice.subscription_id, car_id: choice.car_id, name: choice.name, plate: choice.plate };
  }
  const verdict = judgeOwnCar(claim);
  if (!verdict.ok) throw unprocessable(verdict.message, { [verdict.field]: [verdict.message] });
  return verdict.car;
}

/**
 * POST /butlers/own-car/request (BUTLER_LEGAL_MODEL=own-car): a driver for the customer's own car.
 * The same checkout as a fleet booking (coupon, points, card, idempotent per billing key) without a
 * fleet car: no days are reserved, the price is the driver-only hourly rate (quoteOwnCar), and the
 * customer's car is kept on the booking. Under the other models it is refused (422).
 */
export async function createOwnCarRequest(ctx: PaymentContext, userId: number, input: OwnCarReservation, now: Date, legal: ButlerLegalSetting) {
  const { db } = ctx;
  if (legal.model !== 'own-car') throw unprocessable(FLEET_ONLY_MESSAGE, { customer_car: [FLEET_ONLY_MESSAGE] });
  const rate = legal.ownCarHourlyRate ?? DEFAULT_OWN_CAR_HOURLY_RATE;
  const points = input.point_amount ?? 0;
  const start = new Date(input.start_at);
  const end = input.end_at ? new Date(input.end_at) : null;
  const { created, order, payment } = await placeOrderOnce(ctx, {
    service: 'BUTLER',
    userId,
    billingKey: input.billing_key,
    validate: async () => {
      checkTrip(start, end, input.way_point_requests, 'way_point_requests', now);
      checkPointStep(points);
      return customerCarOf(db, userId, input, tripDays(start, end), now);
    },
    price: async (tx) => {
      const baseFee = ownCarFees(rate).butler_fee;
      const coupon = input.coupon_id ? await takeCoupon(tx, 'BUTLER', userId, input.coupon_id, baseFee, todayInKorea(now)) : null;
      const quote = quoteOwnCar(rate, start, end, coupon, points);
      checkPointsWithin(points, quote.total - quote.couponDiscount);
      return quote;
    },
    record: async (tx, { checked: customerCar, quote, provider, card }) => {
      const [row] = await tx
        .insert(butlerRequests)
        .values({
          userId, butlerCarId: null, customerCar, startAt: start, endAt: end, startLocation: input.start_location, endLocation: input.end_location,
          passengerCount: input.passenger_count, purpose: input.purpose, memo: input.memo, description: input.description,
          driverPreference: input.driver_preference, flightNumber: input.flight_number, userCouponId: input.coupon_id || null, pointUsed: points,
          billingKey: input.billing_key, billingProvider: provider, cardIssuer: card?.issuer ?? null, cardLast4: card?.last4 ?? null, legalModel: 'own-car', legalBasis: { ownCar: { hourlyRate: rate } },
          baseFee: quote.baseFee, overtimeFee: quote.overtimeFee, couponDiscount: quote.couponDiscount, finalPrice: quote.final,
          createdAt: now, modifiedAt: now,
        })
        .returning();
      await insertWaypoints(tx, row.id, input.way_point_requests);
      await scheduleReminder(tx, ctx, row.id, userId, start);
      await spendPoints(tx, { userId, amount: points, reason: 'BUTLER_SPEND', refType: REF, refId: row.id, description: `의전 요청 #${row.id}` });
      return row.id;
    },
    charge: (id, quote) => ({ id: paymentIds.butler(id), purpose: 'BUTLER', refType: REF, refId: id, orderName: `LUXE 의전 기사 예약 #${id}`, amount: quote.final }),
    received: (tx, id) => emitOrderReceived(tx, { service: 'BUTLER', userId, orderId: id }, ctx.clock.now()),
    load: (id) => viewOf(db, id, now),
  });
  return { created, request: order, payment };
}

/**
 * What a new booking rests on, or 422 before anything is paid: under `exemptions` the claimed
 * 시행령 제18조 case must fit (judgeEligibility); under `own-car` no fleet car may be rented.
 */
export function legalBasisOf(legal: ButlerLegalSetting, input: Pick<ButlerReservation, 'eligibility' | 'flight_number'>, car: ButlerCar, start: Date, end: Date | null): LegalBasis {
  if (legal.model === 'own-car') throw unprocessable(OWN_CAR_ONLY_MESSAGE, { car_id: [OWN_CAR_ONLY_MESSAGE] });
  if (legal.model === 'partner') return { partner: { ...legal.partner } };
  const verdict = judgeEligibility('exemptions', input.eligibility ?? null, { start, end: end ?? defaultEnd(start), carSubModel: car.sub_model, flightNumber: input.flight_number });
  if (!verdict.ok) throw unprocessable(verdict.message, { [verdict.field]: [verdict.message] });
  return verdict.record ? { eligibility: verdict.record } : {};
}

/** A booking's legal basis in view shape. */
export function legalView(row: Pick<RequestRow, 'legalModel' | 'legalBasis'>): ButlerLegalView {
  const b = row.legalBasis ?? {};
  return { model: row.legalModel ?? null, partner: b.partner ?? null, eligibility: b.eligibility ?? null, refused: b.refused ?? null };
}

/** GET /butlers/requests: the user's live (not cancelled) requests, newest first. */
export async function listButlerRequests(db: Db, userId: number, now: Date) {
  const rows = await db
    .select()
    .from(butlerRequests)
    .where(and(eq(butlerRequests.userId, userId), ne(butlerRequests.status, 'CANCELLED')))
    .orderBy(desc(butlerRequests.createdAt), desc(butlerRequests.id));
  return toViews(db, rows, now);
}

/** The user's live request (locked when asked); another user's, a cancelled or an unknown id is 404. */
async function ownRequest(db: Db, userId: number, id: number, { lock = false }: { lock?: boolean } = {}) {
  const q = db.select().from(butlerRequests).where(eq(butlerRequests.id, id));
  const [row] = lock ? await q.for('update') : await q;
  if (!row || row.userId !== userId || row.status === 'CANCELLED') throw requestNotFound();
  return row;
}

function requirePending(row: RequestRow, action: string) {
  if (row.status !== 'PENDING') throw conflict(`확정된 의전 요청은 ${action}할 수 없습니다. 고객센터로 문의해주세요.`);
}

/**
 * A booking the customer may cancel: pending or confirmed (a driver assigned or not), until the
 * driver sets out. The refund follows the rule shown before paying (customerRefundPercent).
 */
function requireCancellable(row: RequestRow) {
  if (row.departedAt) throw conflict('기사님이 이미 출발한 의전 예약은 취소할 수 없습니다. 고객센터로 문의해주세요.');
}

/** GET /butlers/requests/{id}. */
export async function getButlerRequest(db: Db, userId: number, id: number, now: Date) {
  return (await toViews(db, [await ownRequest(db, userId, id)], now))[0];
}

/**
 * PUT /butlers/requests/{id} while PENDING. Re-validates the times, re-prices (the held coupon's
 * discount is recomputed on the new total; its min/max was checked against the base fee, which
 * an edit cannot change), re-checks the car's days excluding its own and frees the days no longer
 * covered. Points stay, except when the new price after the coupon is below them: the points
 * used drop to the largest 10,000 step within the price and the rest is refunded at once.
 */
export async function updateButlerRequest(ctx: PaymentContext, userId: number, id: number, input: ButlerRequestUpdate, now: Date) {
  const { db } = ctx;
  const current = await ownRequest(db, userId, id);
  requirePending(current, '수정');
  // A company trip's price was approved and billed as booked (its card or invoice): it is cancelled and booked again instead.
  if (current.companyId) throw conflict('회사 이름으로 한 예약은 수정할 수 없습니다. 취소한 뒤 다시 예약해주세요.');
  const start = new Date(input.start_at);
  const end = input.end_at === undefined ? current.endAt : input.end_at ? new Date(input.end_at) : null;
  const keptWaypoints = async () =>
    (await db.select().from(butlerWaypoints).where(eq(butlerWaypoints.butlerRequestId, id)).orderBy(asc(butlerWaypoints.position), asc(butlerWaypoints.id))).map((w) => ({
      address: w.address,
      scheduled_time: w.scheduledTime ? w.scheduledTime.toISOString() : null,
    }));
  const waypoints: WaypointInput[] = input.way_points ?? (await keptWaypoints());
  checkTrip(start, end, waypoints, 'way_points', now);
  // A driver-only booking (own-car) keeps its hourly rate and reserves no fleet car's days.
  const fleetCarId = current.butlerCarId;
  const car = fleetCarId ? await butlerCar(db, fleetCarId, todayInKorea(now)) : ownCarFees(ownCarRate(current));
  const days = tripDays(start, end);
  const taken = fleetCarId ? await takenDays(db, fleetCarId, days, { requestId: id }) : [];
  if (taken.length) throw dayTaken(taken);

  const edit = async (tx: Db) => {
    const locked = await ownRequest(tx, userId, id, { lock: true });
    requirePending(locked, '수정');
    const coupon = locked.userCouponId ? await heldCoupon(tx, locked.userCouponId) : null;
    const { quote, pointsBack } = requoteButler(car, start, end, coupon, locked.pointUsed);
    if (pointsBack > 0) await creditPoints(tx, { userId, amount: pointsBack, reason: 'BUTLER_EDIT', refType: REF, refId: null, description: `의전 요청 #${id} 수정 환불` });
    const pointUsed = quote.points;

    if (locked.butlerCarId) {
      const own = (await tx.select({ date: butlerReservedDates.date }).from(butlerReservedDates).where(eq(butlerReservedDates.butlerRequestId, id))).map((r) => r.date);
      const freed = own.filter((d) => !days.includes(d));
      if (freed.length) await tx.delete(butlerReservedDates).where(and(eq(butlerReservedDates.butlerRequestId, id), inArray(butlerReservedDates.date, freed)));
      await reserveDays(tx, locked.butlerCarId, id, days.filter((d) => !own.includes(d)));
    }

    await scheduleReminder(tx, ctx, id, userId, start);
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
        flightNumber: keep(input.flight_number, locked.flightNumber),
        pointUsed, baseFee: quote.baseFee, overtimeFee: quote.overtimeFee, couponDiscount: quote.couponDiscount, finalPrice: quote.final,
        modifiedAt: rowTime(),
      })
      .where(eq(butlerRequests.id, id));
    return quote.final;
  };
  // The new price first (a rolled-back run of the edit), then the money, then the edit itself.
  const newPrice = await dryRun(db, userId, edit);
  await settlePriceChange(ctx, paidOrder(current), newPrice, `butler:${id}:edit:${current.modifiedAt.getTime()}`);
  await withUserLock(db, userId, edit);
  return viewOf(db, id, now);
}

/**
 * The reminder the day before the trip (start − 24 h on the business clock), scheduled when the
 * booking is made and moved when an edit moves the trip; none for a trip less than a day ahead.
 * The notify job skips it if the booking was cancelled by then.
 */
export async function scheduleReminder(tx: Db, ctx: Pick<PaymentContext, 'clock'>, id: number, userId: number, start: Date) {
  const due = new Date(start.getTime() - BUTLER_REMINDER_BEFORE_MS);
  await scheduleUnassignedAlerts(tx, ctx.clock.now(), id, start);
  if (await rescheduleQueued(tx, notifyJobKey(butlerReminderKey(id)), due)) return;
  if (due > ctx.clock.now()) await emit(tx, butlerReminderKey(id), { type: 'butler.reminder', userId, butlerRequestId: id }, due);
}

/** Staff's alerts of a trip still without a driver the evening before and the morning of (each dropped at send time once a driver is assigned). */
async function scheduleUnassignedAlerts(tx: Db, now: Date, id: number, start: Date) {
  for (const alert of UNASSIGNED_ALERTS) {
    const due = unassignedAlertAt(start, alert);
    if (await rescheduleQueued(tx, notifyJobKey(unassignedAlertKey(id, alert)), due)) continue;
    if (due > now) await emit(tx, unassignedAlertKey(id, alert), { type: 'staff.butler_unassigned', butlerRequestId: id, alert }, due);
  }
}

const paidOrder = (row: RequestRow): PaidOrder => ({ kind: 'BUTLER', id: row.id, userId: row.userId, billingKey: row.billingKey });

/**
 * DELETE /butlers/requests/{id} while PENDING: irreversible. What was paid is refunded by the
 * policy (all until 24 h before the start, 50% after, nothing once it started; configurable),
 * then the days are freed, the coupon returned and the points refunded. previewButlerCancel says
 * beforehand what it would refund now (the customer's confirm dialog).
 */
export async function previewButlerCancel(ctx: PaymentContext, policy: ButlerRefundPolicy, userId: number, id: number): Promise<ButlerCancelPreview> {
  const current = await ownRequest(ctx.db, userId, id);
  requireCancellable(current);
  const now = ctx.clock.now();
  const percent = customerRefundPercent(current, now, policy);
  const { paid, refund } = await refundPreview(ctx, paidOrder(current), percent);
  return { paid_amount: paid, refund_amount: refund, refund_percent: percent, now: now.toISOString() };
}

export async function cancelButlerRequest(ctx: PaymentContext, policy: ButlerRefundPolicy, userId: number, id: number) {
  const current = await ownRequest(ctx.db, userId, id);
  requireCancellable(current);
  const percent = customerRefundPercent(current, ctx.clock.now(), policy);
  const refunded = await refundOrder(ctx, paidOrder(current), percent, percent === 100 ? '의전 예약 취소' : `의전 예약 취소 (${percent}% 환불)`, 'customer');
  return withUserLock(ctx.db, userId, async (tx) => {
    const row = await ownRequest(tx, userId, id, { lock: true });
    requireCancellable(row);
    const now = ctx.clock.now();
    await emit(tx, `butler.cancelled:${id}`, { type: 'butler.cancelled', userId, butlerRequestId: id, refundPercent: percent }, now);
    const result = { ...(await cancelBooking(tx, row)), refunded_amount: refunded, refund_percent: percent };
    await tellStaffOfCancel(tx, now, result, { kind: 'customer' });
    await tellDriverOfCancel(tx, now, row);
    return result;
  });
}

/** The assigned driver hears that their trip is off, once per booking (알림톡, SMS fallback; and on /driver). */
async function tellDriverOfCancel(tx: Db, now: Date, row: RequestRow) {
  if (row.driverId) await tellDriver(tx, now, { kind: 'cancelled', butlerRequestId: row.id, driverId: row.driverId, key: `driver.trip_cancelled:${row.id}` });
}

/**
 * What a staff cancel refunds: by default the customer's rule at this moment (full until
 * BUTLER_FULL_REFUND_HOURS before the start, then BUTLER_LATE_REFUND_PERCENT); in full when staff
 * decide so with a reason (audited, and the customer is told it was the operator's decision), and
 * always in full for a refused eligibility.
 */
function staffRefundPercent(row: Pick<RequestRow, 'startAt'>, now: Date, policy: ButlerRefundPolicy, decision: { fullRefundReason?: string; refusal?: boolean }): number {
  return decision.fullRefundReason || decision.refusal ? 100 : customerRefundPercent(row, now, policy);
}

/** GET /admin/butler-requests/{id}/cancel-preview: what a staff cancel would refund now, by the rule and in full. */
export async function previewStaffCancel(ctx: PaymentContext, policy: ButlerRefundPolicy, id: number): Promise<ButlerCancelPreview> {
  const [found] = await ctx.db.select().from(butlerRequests).where(eq(butlerRequests.id, id));
  if (!found) throw requestNotFound();
  if (found.status === 'CANCELLED') throw conflict('이미 취소된 의전 요청입니다.');
  const now = ctx.clock.now();
  const percent = customerRefundPercent(found, now, policy);
  const { paid, refund } = await refundPreview(ctx, paidOrder(found), percent);
  return { paid_amount: paid, refund_amount: refund, refund_percent: percent, now: now.toISOString() };
}

/** Staff hear of every cancellation (by the customer or by staff), with the refund, once per booking. */
async function tellStaffOfCancel(tx: Db, now: Date, result: ButlerCancelAnswer, by: CancelledBy) {
  await emit(tx, `staff.butler_cancelled:${result.id}`, {
    type: 'staff.butler_cancelled', butlerRequestId: result.id, by, refundedAmount: result.refunded_amount, refundPercent: result.refund_percent, refundedPoints: result.refunded_points,
  }, now);
}

/**
 * Staff: cancels a pending or confirmed request, refunding by staffRefundPercent, with the coupon
 * and points; `fullRefundReason` is the operator's decision to refund in full.
 */
export async function adminCancelButlerRequest(
  ctx: PaymentContext, policy: ButlerRefundPolicy, id: number, staff: { actor: string; audit: AuditWriter }, decision: { refusal?: { reason: string }; fullRefundReason?: string } = {},
) {
  const { refusal, fullRefundReason } = decision;
  const [found] = await ctx.db.select().from(butlerRequests).where(eq(butlerRequests.id, id));
  if (!found) throw requestNotFound();
  if (found.status === 'CANCELLED') throw conflict('이미 취소된 의전 요청입니다.');
  if (refusal && !found.legalBasis?.eligibility) throw conflict('대여 자격(시행령 제18조)을 확인하는 예약이 아닙니다. 일반 취소를 이용해주세요.');
  const percent = staffRefundPercent(found, ctx.clock.now(), policy, { fullRefundReason, refusal: Boolean(refusal) });
  const reason = refusal ? '의전 예약 거절 (대여 자격 미확인)' : fullRefundReason ? '의전 예약 취소 (운영팀 결정 전액 환불)' : percent === 100 ? '의전 예약 취소 (운영팀)' : `의전 예약 취소 (운영팀, ${percent}% 환불)`;
  const refunded = await refundOrder(ctx, paidOrder(found), percent, reason, staff.actor);
  return withUserLock(ctx.db, found.userId, async (tx) => {
    const [row] = await tx.select().from(butlerRequests).where(eq(butlerRequests.id, id)).for('update');
    if (row.status === 'CANCELLED') throw conflict('이미 취소된 의전 요청입니다.');
    if (refusal) {
      const refused = { reason: refusal.reason, by: staff.actor.replace(/^staff:/, ''), at: ctx.clock.now().toISOString() };
      await tx.update(butlerRequests).set({ legalBasis: { ...row.legalBasis, refused } }).where(eq(butlerRequests.id, id));
    }
    const now = ctx.clock.now();
    const operatorDecision = refusal ? `대여 자격 미확인: ${refusal.reason}` : fullRefundReason;
    await emit(tx, `butler.cancelled:${id}`, { type: 'butler.cancelled', userId: row.userId, butlerRequestId: id, refundPercent: percent, byOperator: true, ...(operatorDecision ? { operatorDecision } : {}) }, now);
    const result = { ...(await cancelBooking(tx, row)), refunded_amount: refunded, refund_percent: percent };
    await tellStaffOfCancel(tx, now, result, { kind: 'staff', name: staff.actor.replace(/^staff:/, '') });
    await tellDriverOfCancel(tx, now, row);
    // The audit keeps the override's reason with what was refunded.
    await staff.audit(tx, fullRefundReason ? { ...result, full_refund_reason: fullRefundReason } : result);
    return result;
  });
}

/** A butler subscription in API shape. */
async function subscriptionViews(db: Db, rows: { sub: typeof butlerSubscriptions.$inferSelect; request: RequestRow }[], now: Date): Promise<ButlerSubscriptionView[]> {
  const views = await toViews(db, rows.map((r) => r.request), now);
  return rows.map((r, i) => ({ id: r.sub.id, created_at: r.sub.createdAt.toISOString(), modified_at: r.sub.modifiedAt.toISOString(), request: views[i] }));
}

/**
 * The confirmation's writes inside the caller's transaction (the confirm route's own, or a
 * driver's assignment to a pending request): PENDING → CONFIRMED, the butler subscription, the
 * butler.confirmed event and the reminder; 409 when not pending or its charge is not settled.
 * Returns the subscription's id.
 */
export async function confirmInTransaction(tx: Db, id: number, now: Date): Promise<number> {
  const [row] = await tx.select().from(butlerRequests).where(eq(butlerRequests.id, id)).for('update');
  if (!row) throw requestNotFound();
  if (row.status !== 'PENDING') throw conflict(row.status === 'CONFIRMED' ? '이미 확정된 의전 요청입니다.' : '취소된 의전 요청입니다.');
  if (row.approvalStatus === 'WAITING') throw conflict('회사 관리자의 승인을 기다리는 예약입니다. 승인된 뒤에 확정할 수 있습니다.');
  if ((await attemptsOf(tx, REF, id, 'BUTLER')).some((c) => c.status === 'PENDING')) throw conflict('예약 요금 결제가 아직 확인되지 않았습니다. 잠시 후 다시 시도해주세요.');
  await tx.update(butlerRequests).set({ status: 'CONFIRMED', modifiedAt: rowTime() }).where(eq(butlerRequests.id, id));
  const [sub] = await tx.insert(butlerSubscriptions).values({ requestId: id, userId: row.userId }).returning();
  await emit(tx, `butler.confirmed:${id}`, { type: 'butler.confirmed', userId: row.userId, butlerRequestId: id }, now);
  await scheduleReminder(tx, { clock: { now: () => now } }, id, row.userId, row.startAt);
  return sub.id;
}

/** Staff confirmation of a paid booking: PENDING → CONFIRMED and a butler subscription; 409 when not pending or its charge is not settled. */
export async function confirmButlerRequest(db: Db, id: number, now: Date): Promise<ButlerSubscriptionView> {
  const subId = await inTransaction(db, (tx) => confirmInTransaction(tx, id, now));
  const [row] = await db.select({ sub: butlerSubscriptions, request: butlerRequests }).from(butlerSubscriptions).innerJoin(butlerRequests, eq(butlerRequests.id, butlerSubscriptions.requestId)).where(eq(butlerSubscriptions.id, subId));
  return (await subscriptionViews(db, [row], now))[0];
}

/** GET /butlers: the user's butler subscriptions (confirmed requests not cancelled since), newest first. */
export async function listButlerSubscriptions(db: Db, userId: number, now: Date): Promise<ButlerSubscriptionView[]> {
  const rows = await db
    .select({ sub: butlerSubscriptions, request: butlerRequests })
    .from(butlerSubscriptions)
    .innerJoin(butlerRequests, eq(butlerRequests.id, butlerSubscriptions.requestId))
    .where(and(eq(butlerSubscriptions.userId, userId), ne(butlerRequests.status, 'CANCELLED')))
    .orderBy(desc(butlerSubscriptions.createdAt), desc(butlerSubscriptions.id));
  return subscriptionViews(db, rows, now);
}
