import { and, asc, eq, inArray } from 'drizzle-orm';
import { ownCarFees } from '../../domain/butler-own-car';
import { requoteButler, tripDays } from '../../domain/butler';
import type { ButlerRequestUpdate } from '../../domain/schemas/butler';
import type { Db } from '../db/client';
import { butlerRequests, butlerReservedDates, butlerWaypoints } from '../db/schema';
import type { PaymentContext } from '../payment-context';
import { settlePriceChange } from '../billing/order-charges';
import { heldCoupon, ownCarRate } from '../billing/butler-billing';
import { creditPoints, dryRun, withUserLock } from './checkout';
import { rowTime } from '../jobs/clock';
import { todayInKorea } from '../../domain/dates';
import { REF, ownRequest, requirePending, paidOrder } from './butler-requests';
import { type WaypointInput, dayTaken, butlerCar, checkTrip, takenDays, reserveDays, insertWaypoints } from './butler-trip-checks';
import { scheduleReminder } from './butler-reminders';
import { viewOf } from './butler-views';
import { customerActor, recordAudit } from '../audit/audit';
import { companyEditPayer, companyEditor, companyTripRow } from './company-trip-edit';

/**
 * PUT /butlers/requests/{id} while PENDING. Re-validates the times, re-prices (the held coupon's
 * discount is recomputed on the new total; its min/max was checked against the base fee, which
 * an edit cannot change), re-checks the car's days excluding its own and frees the days no longer
 * covered. Points stay, except when the new price after the coupon is below them: the points
 * used drop to the largest 10,000 step within the price and the rest is refunded at once.
 */
export async function updateButlerRequest(ctx: PaymentContext, userId: number, id: number, input: ButlerRequestUpdate, now: Date, via: { companyId?: number } = {}) {
  const { db } = ctx;
  // The booker's own route, or the company's (PUT /companies/{id}/trips/{tripId}: its admin, or the booker).
  const load = (d: Db, lock = false) => (via.companyId === undefined ? ownRequest(d, userId, id, { lock }) : companyTripRow(d, via.companyId, id, { lock }));
  const current = await load(db);
  requirePending(current, '수정');
  // A company trip: the editor's role decides (companyEditor), the company pays the difference (companyEditPayer).
  const editor = current.companyId ? await companyEditor(db, current, userId) : null;
  const owner = current.userId;
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
    const locked = await load(tx, true);
    requirePending(locked, '수정');
    const coupon = locked.userCouponId ? await heldCoupon(tx, locked.userCouponId) : null;
    const { quote, pointsBack } = requoteButler(car, start, end, coupon, locked.pointUsed);
    if (pointsBack > 0) await creditPoints(tx, { userId: owner, amount: pointsBack, reason: 'BUTLER_EDIT', refType: REF, refId: null, description: `의전 요청 #${id} 수정 환불` });
    const pointUsed = quote.points;

    if (locked.butlerCarId) {
      const own = (await tx.select({ date: butlerReservedDates.date }).from(butlerReservedDates).where(eq(butlerReservedDates.butlerRequestId, id))).map((r) => r.date);
      const freed = own.filter((d) => !days.includes(d));
      if (freed.length) await tx.delete(butlerReservedDates).where(and(eq(butlerReservedDates.butlerRequestId, id), inArray(butlerReservedDates.date, freed)));
      await reserveDays(tx, locked.butlerCarId, id, days.filter((d) => !own.includes(d)));
    }

    await scheduleReminder(tx, ctx, id, owner, start);
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
    // A company trip's change is audited (who changed the company's booking, and its price); a retry that changes nothing is not.
    const moved = locked.startAt.getTime() !== start.getTime() || (locked.endAt?.getTime() ?? null) !== (end?.getTime() ?? null) || locked.finalPrice !== quote.final || locked.startLocation !== input.start_location || locked.endLocation !== input.end_location;
    if (editor && moved) {
      await recordAudit(tx, await customerActor(tx, userId), {
        action: 'update', entity: 'butler_request', entityId: id,
        before: { start_at: locked.startAt.toISOString(), end_at: locked.endAt?.toISOString() ?? null, start_location: locked.startLocation, end_location: locked.endLocation, final_price: locked.finalPrice },
        after: { start_at: start.toISOString(), end_at: end?.toISOString() ?? null, start_location: input.start_location, end_location: input.end_location, final_price: quote.final, company_id: locked.companyId },
      });
    }
    return quote.final;
  };
  // The new price first (a rolled-back run of the edit), then the money, then the edit itself.
  // The edit key holds the row's version: a retried request settles once (and then finds nothing changed).
  const newPrice = await dryRun(db, owner, edit);
  const editKey = `butler:${id}:edit:${current.modifiedAt.getTime()}`;
  if (!editor) await settlePriceChange(ctx, paidOrder(current), newPrice, editKey);
  else {
    const payer = await companyEditPayer(db, editor, current, newPrice);
    if (payer && newPrice !== current.finalPrice) await settlePriceChange(ctx, payer, newPrice, editKey, (await customerActor(db, userId)).name);
  }
  await withUserLock(db, owner, edit);
  return viewOf(db, id, now);
}
