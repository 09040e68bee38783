import { and, asc, desc, eq, inArray, ne } from 'drizzle-orm';
import { customerCarAsButlerCar } from '../../domain/butler-own-car';
import { overtimeHours, type ButlerRequestView, type TripRating } from '../../domain/butler';
import { showsDispatch, tripStage } from '../../domain/dispatch';
import { type PaymentView, paidAmount } from '../../domain/payments';
import type { Db } from '../db/client';
import { butlerRequests, butlerWaypoints, coupons, drivers, tripRatings, userCoupons } from '../db/schema';
import { paymentsOf, toPaymentView } from '../billing/ledger';
import { cardViewOf } from '../../domain/card-label';
import { ownCarRate } from '../billing/butler-billing';
import { butlerCarList } from '../catalogue/catalogue';
import type { PaymentRow } from '../payment-context';
import { todayInKorea } from '../../domain/dates';
import { asTripCharge, type TripCharge } from '../../domain/waiting';
import { companyTripViews } from '../companies/trips';
import { type RequestRow, REF, ownRequest } from './butler-requests';
import { legalView } from './butler-legal-basis';

/** Butler requests as the API answers them: the customer's list and one request. */

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

export const toRating = (row: typeof tripRatings.$inferSelect): TripRating => ({ score: row.score, comment: row.comment, created_at: row.createdAt.toISOString() });

/** The attempt with the highest number (a declined charge tried again is its last try). */
function latestAttempt(tries: PaymentRow[], parts?: TripCharge | null): PaymentView | null {
  const last = tries.reduce<PaymentRow | null>((a, p) => (!a || p.attempt > a.attempt ? p : a), null);
  return last ? toPaymentView(last, parts) : null;
}

export async function viewOf(db: Db, id: number, now: Date): Promise<ButlerRequestView> {
  const [row] = await db.select().from(butlerRequests).where(eq(butlerRequests.id, id));
  return (await toViews(db, [row], now))[0];
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

/** GET /butlers/requests/{id}. */
export async function getButlerRequest(db: Db, userId: number, id: number, now: Date) {
  return (await toViews(db, [await ownRequest(db, userId, id)], now))[0];
}
