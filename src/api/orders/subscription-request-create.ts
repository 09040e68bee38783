import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { todayInKorea } from '../../domain/dates';
import { DRIVER_AGE_LABEL, carOptionPrices, type StoredOrderOptions } from '../../domain/subscription-price';
import type { CreateSubscriptionRequestInput } from '../../domain/schemas/orders';
import { paymentIds } from '../../domain/payments';
import { subscriptionRequests } from '../db/schema';
import { unprocessable } from '../errors';
import { emitOrderReceived } from '../notifications/events';
import type { PaymentContext } from '../payment-context';
import type { LicenceContext } from '../licence-provider';
import { checkOrderDrivers, recordOrderDrivers } from '../licences/licences';
import { carById } from '../catalogue/catalogue';
import { chargeNow, checkPointStep, claimKey, inOrderLock, priorOrder, recordOrderCharge, requireVerifiedAccount, spendPoints, verifiedCard, type Orderer } from './checkout';
import { declinedOrFine } from '../billing/errors';
import { DEFAULT_HOLD_DAYS, holdExpiry } from '../../domain/availability';
import { lockCar, requestedStart, requireFree } from './availability';
import { scheduleContract } from './contracts';
import { checkedOptions, orderableFee, priceInside, requireQuoted } from './subscription-request-pricing';
import { REF, toRequest } from './subscription-requests';

/**
 * An order in a company's name (법인 장기 구독; src/api/orders/company-subscription.ts): the
 * company is the party and pays, the driver is the named member who drives (their licence is the
 * one checked, the request is theirs to see), the orderer only places it. `orderKey` is the order's
 * own idempotency key; `cardKey` the company card charged now, or null on 후불 (`invoice`).
 */
export interface CompanyParty {
  companyId: number;
  companyName: string;
  driverId: number;
  orderKey: string;
  cardKey: string | null;
  invoice: boolean;
  /** Checks that hold for any company order (an overdue statement), run before anything is spent. */
  check: () => Promise<void>;
  /** Inside the order's transaction, once the request is written (its audit row). */
  recorded: (tx: Db, requestId: number) => Promise<void>;
}

/**
 * POST /subscriptions/cars/{id}/request, the checkout's steps in order (checkout.ts): a repeat of
 * the billing key by the same user returns the first request and its charge (`created: false`);
 * car, term, options, dates and every driver's licence are checked before the key is verified;
 * then, in one transaction under the user's lock, the server's price (coupon and points spent) and
 * the first payment's charge; then the card is charged. With `company`, `userId` is the company
 * admin who orders: no coupon or points, the company card (or 후불: nothing charged now).
 */
export async function createRequest(ctx: PaymentContext & LicenceContext, userId: number, carId: number, input: CreateSubscriptionRequestInput, holdDays = DEFAULT_HOLD_DAYS, company?: CompanyParty) {
  const { db } = ctx;
  const who: Orderer = { service: 'SUBSCRIBE', userId, billingKey: company?.orderKey ?? input.billing_key };
  const prior = await priorOrder(ctx, who);
  if (prior) return { created: false, request: await requestById(db, prior.orderId), payment: prior.payment };
  await requireVerifiedAccount(db, who);
  const points = company ? 0 : input.point_amount ?? 0;
  const couponId = company ? null : input.coupon_id;
  const driverId = company?.driverId ?? userId;
  const cardKey = company ? company.cardKey : input.billing_key;
  await company?.check();
  const car = await carById(db, carId, { archived: false });
  const fee = orderableFee(car, input.month, todayInKorea(ctx.clock.now()));
  const prices = carOptionPrices(car);
  const chosen = checkedOptions(prices, input.month, fee, input.options);
  checkPointStep(points);
  const start = requestedStart(car, input.start_date, todayInKorea(ctx.clock.now()));
  // A refused order never reaches the card: the overlap is checked before the key is verified…
  await requireFree(db, car, start, input.month, ctx.clock.now());
  // …and every driver's licence (운전자격 확인): the age band is theirs on the start, never a free choice.
  const drivers = await checkOrderDrivers(ctx, driverId, input.extra_driver_licence_ids ?? [], chosen.extra_drivers, start);
  if (input.options && input.options.driver_age !== drivers.band) {
    const message = `운전자 연령 기준은 확인된 운전면허의 생년월일로 정해집니다: ${DRIVER_AGE_LABEL[drivers.band]}.${drivers.reason ? ` ${drivers.reason}` : ''}`;
    throw unprocessable(message, { 'options.driver_age': [message] });
  }
  const options = { ...chosen, driver_age: drivers.band };
  const card = await verifiedCard(ctx, cardKey);
  const placed = await inOrderLock(ctx, who, async (tx) => {
    // …and again under the car's row lock, so concurrent orders of one car are placed one at a time.
    await lockCar(tx, carId);
    await requireFree(tx, car, start, input.month, ctx.clock.now());
    const quote = await priceInside(tx, userId, { month: input.month, fee, prices, options }, couponId, points, todayInKorea(ctx.clock.now()));
    requireQuoted(input.quoted_first_payment, quote.paid_today);
    const [row] = await tx
      .insert(subscriptionRequests)
      .values({
        userId: driverId, carId, month: input.month, userCouponId: couponId || null, pointUsed: points,
        // fee: the monthly fee with the options (months 2… are charged it); finalFee: paid today.
        billingKey: who.billingKey, billingProvider: ctx.payments.name, cardIssuer: card?.issuer ?? null, cardLast4: card?.last4 ?? null, fee: quote.monthly, couponDiscount: quote.coupon_discount, finalFee: quote.paid_today,
        requestedStart: start, holdUntil: holdExpiry(ctx.clock.now(), holdDays), options: { options, prices, quote } satisfies StoredOrderOptions,
        // The optional consent to the car's 위치정보 (docs/decisions/legal.md §6): not given unless ticked.
        locationConsent: input.location_consent ?? false,
        ...(company ? { companyId: company.companyId, orderedByUserId: userId, invoiceBilled: company.invoice } : {}),
        // The request date on the business clock, like its charge (one clock with POST /admin/test-clock).
        createdAt: ctx.clock.now(), updatedAt: ctx.clock.now(),
      })
      .returning();
    await spendPoints(tx, { userId, amount: points, reason: 'SUBSCRIPTION_SPEND', refType: REF, refId: row.id, description: `구독 신청 #${row.id}` });
    await recordOrderDrivers(tx, row.id, drivers.licenceIds);
    await company?.recorded(tx, row.id);
    await claimKey(tx, who, row.id);
    if (quote.final > 0 && cardKey) {
      const chargeId = await recordOrderCharge(tx, ctx, {
        id: paymentIds.subscriptionFirst(row.id), userId, purpose: 'SUBSCRIPTION_FIRST', refType: REF, refId: row.id, month: 1, amount: quote.final, billingKey: cardKey,
        orderName: `${quote.final === quote.first_month ? `LUXE 구독 신청 #${row.id} 첫 달 요금` : `LUXE 구독 신청 #${row.id} 첫 결제 (첫 달 요금·탁송비·보증금·선납금)`}${company ? ` (${company.companyName})` : ''}`,
      });
      return { orderId: row.id, chargeId };
    }
    // Nothing to pay by card now (coupon and points cover it, or 후불): the "requested" messages now.
    await emitOrderReceived(tx, { service: 'SUBSCRIBE', userId, orderId: row.id }, ctx.clock.now());
    await scheduleContract(tx, row.id, ctx.clock.now());
    return { orderId: row.id, chargeId: null };
  });
  if (!placed.created) return { created: false, request: await requestById(db, placed.orderId), payment: placed.payment };
  const payment = declinedOrFine(await chargeNow(ctx, placed.chargeId));
  return { created: true, request: await requestById(db, placed.orderId), payment };
}

/** The request in API shape. */
async function requestById(db: Db, id: number) {
  const [row] = await db.select().from(subscriptionRequests).where(eq(subscriptionRequests.id, id));
  return toRequest(db, row);
}
