import { DEV_PARTNER } from '../../domain/butler-legal';
import { quoteButler, tripDays } from '../../domain/butler';
import { paymentIds } from '../../domain/payments';
import type { ButlerReservation } from '../../domain/schemas/butler';
import { butlerRequests } from '../db/schema';
import { emitOrderReceived } from '../notifications/events';
import type { PaymentContext } from '../payment-context';
import { chargeNow, checkPointStep, checkPointsWithin, claimKey, inOrderLock, priorOrder, recordOrderCharge, requireVerifiedAccount, spendPoints, takeCoupon, verifiedCard, type Orderer } from './checkout';
import { declinedOrFine } from '../billing/errors';
import { todayInKorea } from '../../domain/dates';
import { REF } from './butler-requests';
import { dayTaken, butlerCar, checkTrip, takenDays, reserveDays, insertWaypoints } from './butler-trip-checks';
import { scheduleReminder } from './butler-reminders';
import { viewOf } from './butler-views';
import { type ButlerLegalSetting, legalBasisOf } from './butler-legal-basis';

/**
 * Butler (의전) orders on the shared checkout core: a request reserves every Korean day its
 * trip covers for the car, takes a BUTLER coupon and points in the same transaction, is
 * idempotent per billing key, and charges its quoted price to the card at booking; staff confirm.
 */

/**
 * POST /butlers/cars/{carId}/request, the checkout's steps in order (checkout.ts): a repeat of the
 * billing key returns the first request; car, times, point steps and free days are checked before
 * the key is verified; then, in one transaction under the user's lock, the coupon is taken (BUTLER,
 * min/max against the base fee), the price made with quoteButler (coupon on the total with
 * overtime), every covered day reserved, the points spent and the fee's charge recorded; then the
 * card is charged.
 */
export async function createButlerRequest(ctx: PaymentContext, userId: number, carId: number, input: ButlerReservation, now: Date, legal: ButlerLegalSetting = { model: 'partner', partner: DEV_PARTNER }) {
  const { db } = ctx;
  const who: Orderer = { service: 'BUTLER', userId, billingKey: input.billing_key };
  const prior = await priorOrder(ctx, who);
  if (prior) return { created: false, request: await viewOf(db, prior.orderId, now), payment: prior.payment };
  await requireVerifiedAccount(db, who);
  const points = input.point_amount ?? 0;
  const start = new Date(input.start_at);
  const end = input.end_at ? new Date(input.end_at) : null;
  const days = tripDays(start, end);
  const car = await butlerCar(db, carId, todayInKorea(now));
  checkTrip(start, end, input.way_point_requests, 'way_point_requests', now);
  const basis = legalBasisOf(legal, input, car, start, end);
  checkPointStep(points);
  const taken = await takenDays(db, carId, days, { billingKey: input.billing_key });
  if (taken.length) throw dayTaken(taken);
  const card = await verifiedCard(ctx, input.billing_key);
  const placed = await inOrderLock(ctx, who, async (tx) => {
    const coupon = input.coupon_id ? await takeCoupon(tx, 'BUTLER', userId, input.coupon_id, car.butler_fee, todayInKorea(now)) : null;
    const quote = quoteButler(car, start, end, coupon, points);
    checkPointsWithin(points, quote.total - quote.couponDiscount);
    const [row] = await tx
      .insert(butlerRequests)
      .values({
        userId, butlerCarId: carId, startAt: start, endAt: end, startLocation: input.start_location, endLocation: input.end_location,
        passengerCount: input.passenger_count, purpose: input.purpose, memo: input.memo, description: input.description,
        driverPreference: input.driver_preference, flightNumber: input.flight_number, userCouponId: input.coupon_id || null, pointUsed: points,
        billingKey: input.billing_key, billingProvider: ctx.payments.name, cardIssuer: card?.issuer ?? null, cardLast4: card?.last4 ?? null, legalModel: legal.model, legalBasis: basis,
        baseFee: quote.baseFee, overtimeFee: quote.overtimeFee, couponDiscount: quote.couponDiscount, finalPrice: quote.final,
        // The request date on the business clock (one clock with POST /admin/test-clock).
        createdAt: now, modifiedAt: now,
      })
      .returning();
    await reserveDays(tx, carId, row.id, days);
    await insertWaypoints(tx, row.id, input.way_point_requests);
    await scheduleReminder(tx, ctx, row.id, userId, start);
    await spendPoints(tx, { userId, amount: points, reason: 'BUTLER_SPEND', refType: REF, refId: row.id, description: `의전 요청 #${row.id}` });
    await claimKey(tx, who, row.id);
    if (quote.final > 0) {
      const chargeId = await recordOrderCharge(tx, ctx, { id: paymentIds.butler(row.id), userId, purpose: 'BUTLER', refType: REF, refId: row.id, orderName: `LUXE 의전 예약 #${row.id}`, amount: quote.final, billingKey: input.billing_key });
      return { orderId: row.id, chargeId };
    }
    await emitOrderReceived(tx, { service: 'BUTLER', userId, orderId: row.id }, ctx.clock.now());
    return { orderId: row.id, chargeId: null };
  });
  if (!placed.created) return { created: false, request: await viewOf(db, placed.orderId, now), payment: placed.payment };
  const payment = declinedOrFine(await chargeNow(ctx, placed.chargeId));
  return { created: true, request: await viewOf(db, placed.orderId, now), payment };
}
