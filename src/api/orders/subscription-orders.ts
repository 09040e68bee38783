import { desc, eq } from 'drizzle-orm';
import { feeForTerm, isFeeTerm, orderRefusal, type Car } from '../../domain/car';
import { cardViewOf, type CardView } from '../../domain/card-label';
import { dotDate, todayInKorea } from '../../domain/dates';
import { DRIVER_AGE_LABEL, carOptionPrices, defaultOptions, optionRefusal, pricedOptions, quoteSubscriptionOrder, type CarOptionPrices, type StoredOrderOptions, type SubscriptionOptions } from '../../domain/subscription-price';
import type { CreateSubscriptionRequestInput, UpdateSubscriptionRequestInput } from '../../domain/schemas/orders';
import { subscriptionActive, termEnd, type Subscription, type SubscriptionRequest } from '../../domain/subscriptions';
import { monthlyChargeDate, paymentIds, retryDate, type SubscriptionBillingView, ORDER_KINDS, paidAmount } from '../../domain/payments';
import type { Db } from '../db/client';
import { coupons, subscriptionExtensions, subscriptionRequests, subscriptions, userCoupons } from '../db/schema';
import { badRequest, conflict, notFound, unprocessable } from '../errors';
import { won } from '../../domain/money';
import { emit, emitOrderReceived, type CancelledBy } from '../notifications/events';
import type { PaymentContext } from '../payment-context';
import type { LicenceContext } from '../licence-provider';
import { checkOrderDrivers, recordOrderDrivers } from '../licences/licences';
import { attemptsOf, maskBillingKey, toPaymentView } from '../billing/ledger';
import { settlePriceChange, refundOrder, type PaidOrder } from '../billing/order-charges';
import { carById } from '../catalogue/catalogue';
import { checkPointStep, checkPointsWithin, claimBillingKey, creditPoints, dryRun, inTransaction, placeOrderOnce, releaseCoupon, spendPoints, takeCoupon, withUserLock } from './checkout';
import { toCoupon } from '../wallet/coupons';
import { cancelFutureCharges, monthFee, scheduleMonth, termMonthsSql } from '../billing/subscription-billing';
import { swapViews } from './swap-views';
import { type AuditWriter } from '../audit/audit';
import { DEFAULT_HOLD_DAYS, holdExpiry, inclusiveSpan } from '../../domain/availability';
import { conflictsOf, lockCar, requestedStart, requireConfirmable, requireFree } from './availability';
import { scheduleContract } from './contracts';
import { rowTime } from '../jobs/clock';

type RequestRow = typeof subscriptionRequests.$inferSelect;
const REF = ORDER_KINDS.SUBSCRIBE.refType;

/** The monthly fee for a term of a car that can be ordered now; 422 with a Korean message otherwise. */
function orderableFee(car: Car, month: number, today: string): number {
  const refusal = orderRefusal(car, today);
  if (refusal) throw unprocessable(refusal, { car: [car.is_subscriptable ? '아직 구독할 수 없는 차량입니다.' : '구독 불가 차량입니다.'] });
  const fee = isFeeTerm(month) ? feeForTerm(car, month) : null;
  if (fee === null) throw unprocessable(`이 차량은 ${month}개월 구독을 제공하지 않습니다.`, { month: ['제공하지 않는 구독 기간입니다.'] });
  return fee;
}

/** An order's options checked against the car's option prices (its own or the derived defaults); 400 with a Korean message. */
function checkedOptions(prices: CarOptionPrices, month: number, fee: number, chosen: SubscriptionOptions | undefined): SubscriptionOptions {
  const options = chosen ?? defaultOptions(prices);
  const refusal = optionRefusal({ month, fee, prices, options });
  if (refusal) throw badRequest(refusal.message, { [`options.${refusal.field}`]: [refusal.message] });
  return options;
}

/** Prices of a request from before options: the term's fee alone (what it was ordered and is billed at). */
const LEGACY_PRICES: CarOptionPrices = {
  mileage_plans: [{ km: 2_500, monthly: 0 }], overage_per_km: 0, young_driver_monthly: 0, extra_driver_monthly: 0, extra_driver_max: 0, deposit: null, prepayment_max: null, deductible: 0,
};

interface Pricing {
  month: number;
  fee: number;
  prices: CarOptionPrices;
  options: SubscriptionOptions;
}

/**
 * Coupon (if any) taken and points checked against the first month's fee with the options; the
 * server's quote (quoteSubscriptionOrder). Runs inside the transaction.
 */
async function priceInside(tx: Db, userId: number, p: Pricing, couponId: number | null | undefined, points: number, today: string) {
  const input = { month: p.month, fee: p.fee, prices: p.prices, options: pricedOptions(p.options) };
  const monthly = quoteSubscriptionOrder(input).monthly;
  const coupon = couponId ? await takeCoupon(tx, 'SUBSCRIBE', userId, couponId, monthly, today) : null;
  const quote = quoteSubscriptionOrder({ ...input, coupon, points });
  checkPointsWithin(points, monthly - quote.coupon_discount);
  return quote;
}

/** 409 when the page showed another first payment than the server's (a stale page or a tampered one): nothing is charged. */
function requireQuoted(quoted: number | undefined, paidToday: number) {
  if (quoted === undefined || quoted === paidToday) return;
  const message = `결제 금액이 변경되었습니다. 오늘 결제 금액은 ${won(paidToday)}입니다. 금액을 확인한 뒤 다시 신청해주세요.`;
  throw conflict(message, { quoted_first_payment: [message] });
}

/** A request row in API shape (the billing key masked; pages show `card`). */
async function toRequest(db: Db, r: RequestRow, cars = new Map<number, Car>()): Promise<SubscriptionRequest> {
  if (!cars.has(r.carId)) cars.set(r.carId, await carById(db, r.carId));
  let coupon = null;
  if (r.userCouponId) {
    const [c] = await db.select().from(userCoupons).innerJoin(coupons, eq(coupons.id, userCoupons.couponId)).where(eq(userCoupons.id, r.userCouponId));
    if (c) coupon = { id: c.user_coupons.id, coupon: toCoupon(c.coupons) };
  }
  return {
    id: r.id, car: cars.get(r.carId)!, month: r.month, status: r.status,
    start_date: r.startDate, end_date: r.endDate, created_at: r.createdAt.toISOString(),
    requested_start: r.requestedStart, hold_until: r.holdUntil?.toISOString() ?? null,
    coupon, point_used: r.pointUsed, fee: r.fee, coupon_discount: r.couponDiscount, final_fee: r.finalFee, options: r.options ?? null,
    billing_key: maskBillingKey(r.billingKey),
    card: cardViewOf(r),
    payment: ((p) => (p ? toPaymentView(p, r.options?.quote) : null))((await attemptsOf(db, REF, r.id, 'SUBSCRIPTION_FIRST')).at(-1)),
  };
}

/**
 * POST /subscriptions/cars/{id}/request. Verifies the billing key, prices on the server, spends
 * coupon and points and records the first month's charge in one transaction, then charges the
 * card (placeOrderOnce). Idempotent per billing key: a repeat by the same user returns the first
 * request and its charge (`created: false`).
 */
export async function createRequest(ctx: PaymentContext & LicenceContext, userId: number, carId: number, input: CreateSubscriptionRequestInput, holdDays = DEFAULT_HOLD_DAYS) {
  const { db } = ctx;
  const points = input.point_amount ?? 0;
  const { created, order, payment } = await placeOrderOnce(ctx, {
    service: 'SUBSCRIBE',
    userId,
    billingKey: input.billing_key,
    validate: async () => {
      const car = await carById(db, carId, { archived: false });
      const fee = orderableFee(car, input.month, todayInKorea(ctx.clock.now()));
      const prices = carOptionPrices(car);
      const chosen = checkedOptions(prices, input.month, fee, input.options);
      checkPointStep(points);
      const start = requestedStart(car, input.start_date, todayInKorea(ctx.clock.now()));
      // A refused order never reaches the card: the overlap is checked before the key is verified…
      await requireFree(db, car, start, input.month, ctx.clock.now());
      // …and every driver's licence (운전자격 확인): the age band is theirs on the start, never a free choice.
      const drivers = await checkOrderDrivers(ctx, userId, input.extra_driver_licence_ids ?? [], chosen.extra_drivers, start);
      if (input.options && input.options.driver_age !== drivers.band) {
        const message = `운전자 연령 기준은 확인된 운전면허의 생년월일로 정해집니다: ${DRIVER_AGE_LABEL[drivers.band]}.${drivers.reason ? ` ${drivers.reason}` : ''}`;
        throw unprocessable(message, { 'options.driver_age': [message] });
      }
      const options = { ...chosen, driver_age: drivers.band };
      return { fee, car, start, prices, options, licenceIds: drivers.licenceIds };
    },
    price: async (tx, { fee, car, start, prices, options }) => {
      // …and again under the car's row lock, so concurrent orders of one car are placed one at a time.
      await lockCar(tx, carId);
      await requireFree(tx, car, start, input.month, ctx.clock.now());
      const quote = await priceInside(tx, userId, { month: input.month, fee, prices, options }, input.coupon_id, points, todayInKorea(ctx.clock.now()));
      requireQuoted(input.quoted_first_payment, quote.paid_today);
      return quote;
    },
    record: async (tx, { checked: { start, prices, options, licenceIds }, quote, provider, card }) => {
      const [row] = await tx
        .insert(subscriptionRequests)
        .values({
          userId, carId, month: input.month, userCouponId: input.coupon_id || null, pointUsed: points,
          // fee: the monthly fee with the options (months 2… are charged it); finalFee: paid today.
          billingKey: input.billing_key, billingProvider: provider, cardIssuer: card?.issuer ?? null, cardLast4: card?.last4 ?? null, fee: quote.monthly, couponDiscount: quote.coupon_discount, finalFee: quote.paid_today,
          requestedStart: start, holdUntil: holdExpiry(ctx.clock.now(), holdDays), options: { options, prices, quote } satisfies StoredOrderOptions,
          // The optional consent to the car's 위치정보 (docs/decisions/legal.md §6): not given unless ticked.
          locationConsent: input.location_consent ?? false,
          // The request date on the business clock, like its charge (one clock with POST /admin/test-clock).
          createdAt: ctx.clock.now(), updatedAt: ctx.clock.now(),
        })
        .returning();
      await spendPoints(tx, { userId, amount: points, reason: 'SUBSCRIPTION_SPEND', refType: REF, refId: row.id, description: `구독 신청 #${row.id}` });
      await recordOrderDrivers(tx, row.id, licenceIds);
      return row.id;
    },
    charge: (id, quote) => ({
      id: paymentIds.subscriptionFirst(id), purpose: 'SUBSCRIPTION_FIRST', refType: REF, refId: id, month: 1, amount: quote.final,
      orderName: quote.final === quote.first_month ? `LUXE 구독 신청 #${id} 첫 달 요금` : `LUXE 구독 신청 #${id} 첫 결제 (첫 달 요금·탁송비·보증금·선납금)`,
    }),
    received: async (tx, id) => {
      await emitOrderReceived(tx, { service: 'SUBSCRIBE', userId, orderId: id }, ctx.clock.now());
      await scheduleContract(tx, id, ctx.clock.now());
    },
    load: async (id) => {
      const [row] = await db.select().from(subscriptionRequests).where(eq(subscriptionRequests.id, id));
      return toRequest(db, row);
    },
  });
  return { created, request: order, payment };
}

/** The user's requests, newest first: a cancelled one (by the customer, or a declined first charge) stays, read-only, with its state. */
export async function listRequests(db: Db, userId: number) {
  const rows = await db
    .select()
    .from(subscriptionRequests)
    .where(eq(subscriptionRequests.userId, userId))
    .orderBy(desc(subscriptionRequests.createdAt), desc(subscriptionRequests.id));
  const cache = new Map<number, Car>();
  const out = [];
  for (const r of rows) out.push(await toRequest(db, r, cache));
  return out;
}

/** The user's request; a cancelled one only to read (`cancelled: true`): nothing changes it any more. */
async function ownRequest(db: Db, userId: number, id: number, { lock = false, cancelled = false }: { lock?: boolean; cancelled?: boolean } = {}) {
  const q = db.select().from(subscriptionRequests).where(eq(subscriptionRequests.id, id));
  const [row] = lock ? await q.for('update') : await q;
  if (!row || row.userId !== userId || (row.status === 'CANCELLED' && !cancelled)) throw notFound('구독 신청을 찾을 수 없습니다.');
  return row;
}

function requirePending(row: RequestRow, action: string) {
  if (row.status !== 'PENDING') throw conflict(`확정된 구독 신청은 ${action}할 수 없습니다. 고객센터로 문의해주세요.`);
}

/** GET /subscriptions/requests/{id}. */
export async function getRequest(db: Db, userId: number, id: number) {
  return toRequest(db, await ownRequest(db, userId, id, { cancelled: true }));
}

const paidOrder = (row: RequestRow, billingKey = row.billingKey): PaidOrder => ({ kind: 'SUBSCRIBE', id: row.id, userId: row.userId, billingKey });

/**
 * PUT /subscriptions/requests/{id}: re-validates and re-prices like creation. The new price is
 * worked out first (a rolled-back run of the edit), the money settled (a higher first month
 * charges the difference, a lower one refunds it), then the edit is saved with its coupon and
 * point changes in one transaction.
 */
export async function updateRequest(ctx: PaymentContext, userId: number, id: number, input: UpdateSubscriptionRequestInput) {
  const { db } = ctx;
  const current = await ownRequest(db, userId, id);
  requirePending(current, '수정');
  const car = await carById(db, current.carId);
  const fee = orderableFee(car, input.month, todayInKorea(ctx.clock.now()));
  // The options and their prices as ordered (a later price change in the console does not touch a placed order).
  const stored = current.options;
  const prices = stored?.prices ?? LEGACY_PRICES;
  const options = checkedOptions(prices, input.month, fee, stored?.options);
  checkPointStep(input.point_amount);
  const keyChanged = input.billing_key !== current.billingKey && input.billing_key !== maskBillingKey(current.billingKey);
  const billingKey = keyChanged ? input.billing_key : current.billingKey;
  // A new key's card replaces the one shown; an unchanged key keeps it.
  const card = keyChanged ? await ctx.payments.verifyBillingKey(billingKey) : null;
  const edit = async (tx: Db) => {
    const locked = await ownRequest(tx, userId, id, { lock: true });
    requirePending(locked, '수정');
    if (locked.requestedStart && input.month !== locked.month) {
      await lockCar(tx, locked.carId);
      await requireFree(tx, car, locked.requestedStart, input.month, ctx.clock.now(), id);
    }
    if (keyChanged) await claimBillingKey(tx, { billingKey, service: 'SUBSCRIBE', userId, orderId: id });
    if (locked.userCouponId) await releaseCoupon(tx, locked.userCouponId);
    const quote = await priceInside(tx, userId, { month: input.month, fee, prices, options }, input.coupon_id, input.point_amount, todayInKorea(ctx.clock.now()));
    const delta = input.point_amount - locked.pointUsed;
    const entry = { userId, reason: 'SUBSCRIPTION_EDIT', refType: REF, refId: null, description: `구독 신청 #${id} 수정` };
    if (delta > 0) await spendPoints(tx, { ...entry, amount: delta });
    if (delta < 0) await creditPoints(tx, { ...entry, amount: -delta });
    const [updated] = await tx
      .update(subscriptionRequests)
      .set({
        month: input.month, userCouponId: input.coupon_id || null, pointUsed: input.point_amount, billingKey, billingProvider: ctx.payments.name,
        ...(keyChanged ? { cardIssuer: card?.issuer ?? null, cardLast4: card?.last4 ?? null } : {}),
        fee: quote.monthly, couponDiscount: quote.coupon_discount, finalFee: quote.paid_today, updatedAt: rowTime(),
        options: stored ? { options, prices, quote } : null,
      })
      .where(eq(subscriptionRequests.id, id))
      .returning();
    return updated;
  };
  const newPrice = (await dryRun(db, userId, edit)).finalFee;
  await settlePriceChange(ctx, paidOrder(current, billingKey), newPrice, `subreq:${id}:edit:${current.updatedAt.getTime()}`);
  const row = await withUserLock(db, userId, edit);
  return toRequest(db, row);
}

/**
 * DELETE /subscriptions/requests/{id}: irreversible. The first month's charge is refunded in full
 * first (a refund the provider refuses stops the cancel), then the coupon is returned and the
 * points refunded once.
 */
export async function cancelRequest(ctx: PaymentContext, userId: number, id: number, staff?: { actor: string; audit: AuditWriter; reason?: 'car_taken' }) {
  const current = await ownRequest(ctx.db, userId, id);
  requirePending(current, '취소');
  const refunded = await refundOrder(ctx, paidOrder(current), 100, staff ? '구독 신청 취소 (운영팀)' : '구독 신청 취소', staff?.actor ?? 'customer');
  return withUserLock(ctx.db, userId, async (tx) => {
    const row = await ownRequest(tx, userId, id, { lock: true });
    requirePending(row, '취소');
    await tx.update(subscriptionRequests).set({ status: 'CANCELLED', cancelledAt: ctx.clock.now(), updatedAt: ctx.clock.now() }).where(eq(subscriptionRequests.id, id));
    if (row.userCouponId) await releaseCoupon(tx, row.userCouponId);
    if (row.pointUsed > 0) {
      await creditPoints(tx, { userId, amount: row.pointUsed, reason: 'SUBSCRIPTION_REFUND', refType: REF, refId: id, description: `구독 신청 #${id} 취소 환불` });
    }
    await emit(tx, `subscription.cancelled:${id}`, { type: 'subscription.cancelled', userId, requestId: id, ...(staff?.reason ? { reason: staff.reason } : {}) }, ctx.clock.now());
    const result = { id, refunded_points: row.pointUsed, coupon_returned: Boolean(row.userCouponId), refunded_amount: refunded };
    // Staff hear of it too (the car's hold is free again), with the refund.
    const by: CancelledBy = staff ? { kind: 'staff', name: staff.actor.replace(/^staff:/, '') } : { kind: 'customer' };
    await emit(tx, `staff.subscription_cancelled:${id}`, { type: 'staff.subscription_cancelled', requestId: id, by, refundedAmount: refunded, refundedPoints: row.pointUsed }, ctx.clock.now());
    await staff?.audit(tx, result);
    return result;
  });
}

/**
 * Staff confirmation: a pending request whose first month is paid becomes a subscription with
 * start and end dates; month 2 is scheduled on the start's day of the next month.
 */
export async function confirmRequest(db: Db, id: number, startDate: string, endDate: string | undefined, now: Date, cancelConflicting = false) {
  return inTransaction(db, async (tx) => {
    const [row] = await tx.select().from(subscriptionRequests).where(eq(subscriptionRequests.id, id)).for('update');
    if (!row) throw notFound('구독 신청을 찾을 수 없습니다.');
    if (row.status !== 'PENDING') throw conflict(row.status === 'CONFIRMED' ? '이미 확정된 구독 신청입니다.' : '취소된 구독 신청입니다.');
    const charges = await attemptsOf(tx, REF, id, 'SUBSCRIPTION_FIRST');
    if (charges.some((c) => c.status === 'PENDING')) throw conflict('첫 달 결제가 아직 확인되지 않은 신청입니다. 잠시 후 다시 시도해주세요.');
    // A first month refunded in full was not paid: it cannot start a subscription (a partial refund,
    // e.g. a compensation, leaves a paid month and may be confirmed; docs/decisions/payments-and-billing.md).
    if (charges.some((c) => c.status === 'CANCELLED') && charges.every((c) => paidAmount(c) === 0)) {
      throw conflict('첫 달 결제가 전액 환불된 신청은 확정할 수 없습니다. 신청을 취소하거나 고객이 다시 신청하도록 안내해주세요.');
    }
    const end = endDate ?? termEnd(startDate, row.month);
    if (end < startDate) throw unprocessable('종료일은 시작일 이후여야 합니다.', { end_date: ['종료일은 시작일 이후여야 합니다.'] });
    // One plate, one customer: the confirmed days may not overlap another subscription or a live hold.
    await lockCar(tx, row.carId);
    await requireConfirmable(tx, row.carId, inclusiveSpan(startDate, end), row.month, id, now);
    // A paid request whose hold lapsed is off the timeline but still owed its days (issue 49): confirming over it is an explicit choice.
    const conflicting = (await conflictsOf(tx, row.carId, id, inclusiveSpan(startDate, end))).filter((c) => c.status === 'PENDING');
    if (conflicting.length && !cancelConflicting) {
      const list = conflicting.map((c) => `#${c.request_id} (${dotDate(c.start)}~${dotDate(c.end)})`).join(', ');
      throw conflict(
        `이 기간과 겹치는 같은 차량의 결제 완료 신청이 있습니다: ${list}. 확정하면 그 신청은 전액 환불 후 취소되고 고객에게 안내됩니다. 계속하려면 겹치는 신청의 환불·취소를 선택해주세요.`,
        { cancel_conflicting: ['겹치는 결제 완료 신청이 있습니다.'] },
        { conflicting_request_ids: conflicting.map((c) => c.request_id) },
      );
    }
    await tx.update(subscriptionRequests).set({ status: 'CONFIRMED', startDate, endDate: end, holdUntil: null, updatedAt: now }).where(eq(subscriptionRequests.id, id));
    const [sub] = await tx.insert(subscriptions).values({ requestId: id, userId: row.userId, startDate, endDate: end, billingKey: row.billingKey, cardIssuer: row.cardIssuer, cardLast4: row.cardLast4, createdAt: now, updatedAt: now }).returning();
    await scheduleMonth(tx, sub, row.month, 2, row.fee, now);
    await emit(tx, `subscription.confirmed:${sub.id}`, { type: 'subscription.confirmed', userId: row.userId, subscriptionId: sub.id }, now);
    return { id: sub.id, request_id: id, start_date: startDate, end_date: end, is_active: sub.isActive, conflicting_request_ids: conflicting.map((c) => c.request_id) };
  });
}

/**
 * After a confirmation over conflicting paid requests (issue 49): each is refunded in full,
 * cancelled and its customer told why, once (a cancelled request is skipped). One the provider
 * refuses to refund stays PENDING with its desk warning, for staff to cancel again.
 */
export async function cancelTakenRequests(ctx: PaymentContext, ids: readonly number[], cancel: (id: number, userId: number) => Promise<unknown>) {
  const out: { id: number; cancelled: boolean; message?: string }[] = [];
  for (const id of ids) {
    const [row] = await ctx.db.select({ userId: subscriptionRequests.userId, status: subscriptionRequests.status }).from(subscriptionRequests).where(eq(subscriptionRequests.id, id));
    if (!row || row.status !== 'PENDING') continue;
    try {
      await cancel(id, row.userId);
      out.push({ id, cancelled: true });
    } catch (e) {
      out.push({ id, cancelled: false, message: e instanceof Error ? e.message : String(e) });
    }
  }
  return out;
}

/**
 * Staff: a subscription on or off. Off is 해지: every future charge is dropped (the month already
 * paid is kept, not refunded). On again resumes billing from the first unpaid month.
 */
export async function setSubscriptionActive(db: Db, id: number, isActive: boolean, now: Date) {
  return inTransaction(db, async (tx) => {
    const [found] = await tx
      .select({ sub: subscriptions, term: termMonthsSql, fee: subscriptionRequests.fee })
      .from(subscriptions)
      .innerJoin(subscriptionRequests, eq(subscriptionRequests.id, subscriptions.requestId))
      .where(eq(subscriptions.id, id))
      .for('update', { of: subscriptions });
    if (!found) throw notFound('구독을 찾을 수 없습니다.');
    const owed = found.sub.paidMonths + 1;
    // A month that already failed stays overdue on resume (staff 지금 재시도 or the customer pays it); else it is scheduled.
    const owedTried = isActive && (await attemptsOf(tx, 'subscription', id, 'SUBSCRIPTION_MONTH', owed)).length > 0;
    const [row] = await tx
      .update(subscriptions)
      .set({ isActive, billingStatus: !isActive ? 'CANCELLED' : owedTried ? 'OVERDUE' : 'ACTIVE', updatedAt: rowTime() })
      .where(eq(subscriptions.id, id))
      .returning();
    if (!isActive) await cancelFutureCharges(tx, id, row.paidMonths, found.term);
    else if (!owedTried) await scheduleMonth(tx, row, found.term, owed, await monthFee(tx, found, owed), now);
    return { id: row.id, is_active: row.isActive, billing_status: row.billingStatus };
  });
}

/**
 * GET /subscriptions: the user's subscriptions, newest first. is_active = not switched off by staff and
 * not past its end date (staff answers report the stored flag); is_current = active and today within the dates;
 * billing = the monthly charges: status, the next charge, a failed one to pay.
 */
export async function listSubscriptions(db: Db, userId: number, today: string): Promise<Subscription[]> {
  const rows = await db
    .select()
    .from(subscriptions)
    .innerJoin(subscriptionRequests, eq(subscriptionRequests.id, subscriptions.requestId))
    .where(eq(subscriptions.userId, userId))
    .orderBy(desc(subscriptions.createdAt), desc(subscriptions.id));
  const cache = new Map<number, Car>();
  const out = [];
  for (const { subscriptions: s, subscription_requests: r } of rows) {
    if (!cache.has(r.carId)) cache.set(r.carId, await carById(db, r.carId));
    const extensions = s.extendedMonths
      ? await db.select().from(subscriptionExtensions).where(eq(subscriptionExtensions.subscriptionId, s.id)).orderBy(subscriptionExtensions.firstMonth)
      : [];
    out.push({
      // Past its end date a subscription is no longer active, whatever its stored flag says.
      id: s.id, start_date: s.startDate, end_date: s.endDate, is_active: subscriptionActive(s, today),
      is_current: s.isActive && s.startDate <= today && today <= s.endDate, created_at: s.createdAt.toISOString(),
      request: { id: r.id, car: cache.get(r.carId)!, month: r.month, start_date: r.startDate, end_date: r.endDate },
      extended_months: s.extendedMonths,
      extensions: extensions.map((e) => ({ id: e.id, months: e.months, monthly_fee: e.monthlyFee, first_month: e.firstMonth, last_month: e.lastMonth, from_date: e.fromDate, to_date: e.toDate, created_at: e.createdAt.toISOString() })),
      swaps: await swapViews(db, s, r.month + s.extendedMonths, today),
      billing: await billingView(db, s, r.month + s.extendedMonths, r.fee, cardViewOf(s.billingKey && s.billingKey !== r.billingKey ? s : r)),
    });
  }
  return out;
}

/** A subscription's billing for my page (SubscriptionBillingView). */
async function billingView(db: Db, s: typeof subscriptions.$inferSelect, term: number, fee: number, card: CardView | null): Promise<SubscriptionBillingView> {
  const owed = s.paidMonths < term ? s.paidMonths + 1 : null;
  const billing = s.isActive && s.billingStatus !== 'CANCELLED' && owed !== null;
  const failed = owed !== null && s.billingStatus !== 'ACTIVE' ? (await attemptsOf(db, 'subscription', s.id, 'SUBSCRIPTION_MONTH', owed)).filter((p) => p.status === 'FAILED').at(-1) : undefined;
  const failures = failed ? (await attemptsOf(db, 'subscription', s.id, 'SUBSCRIPTION_MONTH', owed!)).filter((p) => p.status === 'FAILED').length : 0;
  const due = owed !== null ? monthlyChargeDate(s.startDate, owed) : null;
  return {
    status: s.billingStatus,
    paid_months: s.paidMonths,
    term_months: term,
    next_charge_date: billing ? (s.billingStatus === 'PAST_DUE' && due ? retryDate(due, failures) : due) : null,
    next_charge_amount: billing ? await monthFee(db, { sub: s, fee }, owed) : null,
    failed_payment: failed ? toPaymentView(failed) : null,
    retry_date: s.billingStatus === 'PAST_DUE' && due ? retryDate(due, failures) : null,
    card,
  };
}
