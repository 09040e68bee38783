import { DEV_PARTNER, type LegalBasis } from '../../domain/butler-legal';
import { quoteButler, tripDays } from '../../domain/butler';
import { paymentIds } from '../../domain/payments';
import type { ButlerReservation } from '../../domain/schemas/butler';
import { butlerRequests } from '../db/schema';
import { emitOrderReceived } from '../notifications/events';
import type { PaymentContext } from '../payment-context';
import { checkPointStep, checkPointsWithin, placeOrderOnce, spendPoints, takeCoupon } from './checkout';
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
