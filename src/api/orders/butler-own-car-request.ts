import { FLEET_ONLY_MESSAGE } from '../../domain/butler-legal';
import { DEFAULT_OWN_CAR_HOURLY_RATE, judgeOwnCar, ownCarFees, quoteOwnCar, type CustomerCar } from '../../domain/butler-own-car';
import { subscriptionCarFor } from './own-car-subscriptions';
import { tripDays } from '../../domain/butler';
import { paymentIds } from '../../domain/payments';
import type { OwnCarReservation } from '../../domain/schemas/butler';
import type { Db } from '../db/client';
import { butlerRequests } from '../db/schema';
import { unprocessable } from '../errors';
import { emitOrderReceived } from '../notifications/events';
import type { PaymentContext } from '../payment-context';
import { chargeNow, checkPointStep, checkPointsWithin, claimKey, inOrderLock, priorOrder, recordOrderCharge, requireVerifiedAccount, spendPoints, takeCoupon, verifiedCard, type Orderer } from './checkout';
import { declinedOrFine } from '../billing/errors';
import { todayInKorea } from '../../domain/dates';
import { REF } from './butler-requests';
import { checkTrip, insertWaypoints } from './butler-trip-checks';
import { scheduleReminder } from './butler-reminders';
import { viewOf } from './butler-views';
import type { ButlerLegalSetting } from './butler-legal-basis';

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
 * The same checkout steps as a fleet booking (checkout.ts: coupon, points, card, idempotent per
 * billing key) without a fleet car: no days are reserved, the price is the driver-only hourly rate
 * (quoteOwnCar), and the customer's car is kept on the booking. Under the other models it is
 * refused (422).
 */
export async function createOwnCarRequest(ctx: PaymentContext, userId: number, input: OwnCarReservation, now: Date, legal: ButlerLegalSetting) {
  const { db } = ctx;
  if (legal.model !== 'own-car') throw unprocessable(FLEET_ONLY_MESSAGE, { customer_car: [FLEET_ONLY_MESSAGE] });
  const who: Orderer = { service: 'BUTLER', userId, billingKey: input.billing_key };
  const prior = await priorOrder(ctx, who);
  if (prior) return { created: false, request: await viewOf(db, prior.orderId, now), payment: prior.payment };
  await requireVerifiedAccount(db, who);
  const rate = legal.ownCarHourlyRate ?? DEFAULT_OWN_CAR_HOURLY_RATE;
  const points = input.point_amount ?? 0;
  const start = new Date(input.start_at);
  const end = input.end_at ? new Date(input.end_at) : null;
  checkTrip(start, end, input.way_point_requests, 'way_point_requests', now);
  checkPointStep(points);
  const customerCar = await customerCarOf(db, userId, input, tripDays(start, end), now);
  const card = await verifiedCard(ctx, input.billing_key);
  const placed = await inOrderLock(ctx, who, async (tx) => {
    const baseFee = ownCarFees(rate).butler_fee;
    const coupon = input.coupon_id ? await takeCoupon(tx, 'BUTLER', userId, input.coupon_id, baseFee, todayInKorea(now)) : null;
    const quote = quoteOwnCar(rate, start, end, coupon, points);
    checkPointsWithin(points, quote.total - quote.couponDiscount);
    const [row] = await tx
      .insert(butlerRequests)
      .values({
        userId, butlerCarId: null, customerCar, startAt: start, endAt: end, startLocation: input.start_location, endLocation: input.end_location,
        passengerCount: input.passenger_count, purpose: input.purpose, memo: input.memo, description: input.description,
        driverPreference: input.driver_preference, flightNumber: input.flight_number, userCouponId: input.coupon_id || null, pointUsed: points,
        billingKey: input.billing_key, billingProvider: ctx.payments.name, cardIssuer: card?.issuer ?? null, cardLast4: card?.last4 ?? null, legalModel: 'own-car', legalBasis: { ownCar: { hourlyRate: rate } },
        baseFee: quote.baseFee, overtimeFee: quote.overtimeFee, couponDiscount: quote.couponDiscount, finalPrice: quote.final,
        createdAt: now, modifiedAt: now,
      })
      .returning();
    await insertWaypoints(tx, row.id, input.way_point_requests);
    await scheduleReminder(tx, ctx, row.id, userId, start);
    await spendPoints(tx, { userId, amount: points, reason: 'BUTLER_SPEND', refType: REF, refId: row.id, description: `의전 요청 #${row.id}` });
    await claimKey(tx, who, row.id);
    if (quote.final > 0) {
      const chargeId = await recordOrderCharge(tx, ctx, { id: paymentIds.butler(row.id), userId, purpose: 'BUTLER', refType: REF, refId: row.id, orderName: `LUXE 의전 기사 예약 #${row.id}`, amount: quote.final, billingKey: input.billing_key });
      return { orderId: row.id, chargeId };
    }
    await emitOrderReceived(tx, { service: 'BUTLER', userId, orderId: row.id }, ctx.clock.now());
    return { orderId: row.id, chargeId: null };
  });
  if (!placed.created) return { created: false, request: await viewOf(db, placed.orderId, now), payment: placed.payment };
  const payment = declinedOrFine(await chargeNow(ctx, placed.chargeId));
  return { created: true, request: await viewOf(db, placed.orderId, now), payment };
}
