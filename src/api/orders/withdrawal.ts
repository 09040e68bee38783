import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import { koreaDate, todayInKorea } from '../../domain/dates';
import { won } from '../../domain/money';
import { ORDER_KINDS, paidAmount } from '../../domain/payments';
import { withdrawalLines, withdrawalQuote, type WithdrawalInput, type WithdrawalQuote } from '../../domain/withdrawal';
import { recordAudit } from '../audit/audit';
import { inTransaction, type Db } from '../db/client';
import { payments, subscriptionHandovers, subscriptionWithdrawals, subscriptions, users } from '../db/schema';
import { conflict } from '../errors';
import { emit } from '../notifications/events';
import type { PaymentContext } from '../payment-context';
import { refundPayment } from '../billing/refunds';
import { cancelFutureCharges } from '../billing/subscription-billing';
import { ownSubscription } from '../billing/own-subscription';
import { creditPoints, releaseCoupon } from './checkout';

/**
 * 청약철회 of a subscription (전자상거래법 제17조; docs/decisions/legal.md §4): the quote
 * (GET /subscriptions/{id}/withdrawal) and the withdrawal itself (POST), once. The rule is
 * src/domain/withdrawal.ts; the refunds go through refundPayment (the provider's cancel), each under
 * its own key, so a retry or a second click refunds nothing twice.
 */

const REF = ORDER_KINDS.SUBSCRIBE;

/** GET answer: the quote when one may withdraw today, else why not (and the deadline when it passed). */
export interface WithdrawalQuoteAnswer {
  available: boolean;
  reason: string | null;
  deadline: string | null;
  withdrawal_days: number;
  quote: WithdrawalQuote | null;
  /** Each part named in Korean (the quote's lines). */
  lines: { label: string; amount: string }[];
  /** Set once the withdrawal is done. */
  withdrawn_at: string | null;
}

/** POST answer: the withdrawal as done (a repeat answers the same). */
export interface WithdrawalDoneAnswer {
  withdrawal: { subscription_id: number; quote: WithdrawalQuote; lines: { label: string; amount: string }[]; refunded: number; withdrawn_at: string };
}
type Found = Awaited<ReturnType<typeof ownSubscription>>;

/** The order's card payments (the first payment and edits' differences), oldest first. */
async function orderPayments(db: Db, requestId: number) {
  return db
    .select()
    .from(payments)
    .where(and(eq(payments.refType, REF.refType), eq(payments.refId, requestId), inArray(payments.purpose, [REF.placed, REF.adjustment])))
    .orderBy(asc(payments.requestedAt), asc(payments.id));
}

/**
 * The day the car was handed over: the recorded delivery's day; without a record, the start
 * date once it has come (a subscription from before handover records is taken as handed over
 * on its first day); null when neither.
 */
async function handoverDay(db: Db, f: Found, today: string): Promise<string | null> {
  const [done] = await db
    .select({ actualDate: subscriptionHandovers.actualDate, recordedAt: subscriptionHandovers.recordedAt })
    .from(subscriptionHandovers)
    .where(and(eq(subscriptionHandovers.subscriptionId, f.sub.id), eq(subscriptionHandovers.kind, 'DELIVERY'), isNull(subscriptionHandovers.swapId), eq(subscriptionHandovers.status, 'DONE')));
  if (done) return done.actualDate ?? (done.recordedAt ? koreaDate(done.recordedAt) : f.sub.startDate);
  return f.sub.startDate <= today ? f.sub.startDate : null;
}

/** The rule's input from the stored order (the quote at the order, or the request's own columns before options). */
async function ruleInput(db: Db, f: Found, today: string, days: number): Promise<WithdrawalInput> {
  const q = f.request.options?.quote;
  const cardPaid = (await orderPayments(db, f.request.id)).reduce((sum, p) => sum + paidAmount(p), 0);
  return {
    startDate: f.sub.startDate, handoverDay: await handoverDay(db, f, today), today, withdrawalDays: days,
    monthlyFee: q?.monthly ?? f.request.fee, firstMonthPaid: q?.first_month ?? f.request.finalFee, couponDiscount: q?.coupon_discount ?? f.request.couponDiscount, points: q?.points ?? f.request.pointUsed,
    deliveryFee: q?.delivery_fee ?? 0, deposit: q?.deposit ?? 0, prepayment: q?.prepayment ?? 0, cardPaid,
  };
}

/** Why this subscription cannot be withdrawn now whatever the dates (its state), or null. */
function stateRefusal(f: Found): string | null {
  if (f.sub.billingStatus === 'CANCELLED' || !f.sub.isActive) return '이미 해지된 구독입니다.';
  if (f.sub.paidMonths > 1) return '두 번째 달 구독료가 결제된 구독은 청약철회 대신 중도 해지를 이용해주세요.';
  return null;
}

const doneAnswer = (id: number, row: typeof subscriptionWithdrawals.$inferSelect): WithdrawalDoneAnswer => ({
  withdrawal: { subscription_id: id, quote: row.quote, lines: withdrawalLines(row.quote), refunded: row.quote.refund, withdrawn_at: (row.completedAt ?? row.createdAt).toISOString() },
});

export async function quoteWithdrawal(ctx: PaymentContext, subscriptionId: number, userId: number, days: number): Promise<WithdrawalQuoteAnswer> {
  const today = todayInKorea(ctx.clock.now());
  const found = await ownSubscription(ctx.db, subscriptionId, userId);
  const [done] = await ctx.db.select().from(subscriptionWithdrawals).where(eq(subscriptionWithdrawals.subscriptionId, subscriptionId));
  const base = { withdrawal_days: days, withdrawn_at: null };
  if (done?.status === 'DONE') return { ...base, available: false, reason: '이미 청약철회된 구독입니다.', deadline: done.quote.deadline, quote: done.quote, lines: withdrawalLines(done.quote), withdrawn_at: done.completedAt!.toISOString() };
  const refused = stateRefusal(found);
  if (refused && !done) return { ...base, available: false, reason: refused, deadline: null, quote: null, lines: [] };
  const a = done ? { ok: true as const, quote: done.quote } : withdrawalQuote(await ruleInput(ctx.db, found, today, days));
  if (!a.ok) return { ...base, available: false, reason: a.reason, deadline: a.deadline, quote: null, lines: [] };
  return { ...base, available: true, reason: null, deadline: a.quote.deadline, quote: a.quote, lines: withdrawalLines(a.quote) };
}

/** Which payment gives back how much: the refund spread over the order's paid charges, newest first. */
function refundPlan(rows: Awaited<ReturnType<typeof orderPayments>>, refund: number) {
  const plan: { payment_id: string; amount: number }[] = [];
  let left = refund;
  for (const p of [...rows].reverse()) {
    if (left <= 0) break;
    const amount = Math.min(left, paidAmount(p));
    if (amount <= 0) continue;
    plan.push({ payment_id: p.id, amount });
    left -= amount;
  }
  return plan;
}

/**
 * POST /subscriptions/{id}/withdrawal: fixes the quote and the refund plan under the subscription's
 * row lock (one row per subscription), makes each refund under its own key, then ends the
 * subscription, frees the car (before the handover: the delivery called off, the dates no longer
 * held), returns the coupon and points and tells the customer and staff, once.
 */
export async function confirmWithdrawal(ctx: PaymentContext, subscriptionId: number, userId: number, days: number, quotedRefund: number): Promise<WithdrawalDoneAnswer> {
  const now = ctx.clock.now();
  const today = todayInKorea(now);
  const row = await inTransaction(ctx.db, async (tx) => {
    const found = await ownSubscription(tx, subscriptionId, userId, true);
    const [prior] = await tx.select().from(subscriptionWithdrawals).where(eq(subscriptionWithdrawals.subscriptionId, subscriptionId));
    if (prior) return prior;
    const refused = stateRefusal(found);
    if (refused) throw conflict(refused);
    const a = withdrawalQuote(await ruleInput(tx, found, today, days));
    if (!a.ok) throw conflict(a.reason, { date: [a.reason] }, { deadline: a.deadline });
    if (a.quote.refund !== quotedRefund) {
      const message = `환불 금액이 변경되었습니다. 지금 청약철회하면 ${won(a.quote.refund)}이 환불됩니다. 금액을 확인한 뒤 다시 신청해주세요.`;
      throw conflict(message, { quoted_refund: [message] }, { quote: a.quote });
    }
    const plan = refundPlan(await orderPayments(tx, found.request.id), a.quote.refund);
    const [created] = await tx.insert(subscriptionWithdrawals).values({ subscriptionId, userId, quote: a.quote, plan, createdAt: now }).returning();
    return created;
  });
  if (row.status === 'DONE') return doneAnswer(subscriptionId, row);
  for (const p of row.plan) {
    await refundPayment(ctx, { paymentId: p.payment_id, amount: p.amount, reason: '구독 청약철회', actor: 'customer', key: `refund:withdrawal:${subscriptionId}:${p.payment_id}` });
  }
  const finished = await inTransaction(ctx.db, async (tx) => {
    const found = await ownSubscription(tx, subscriptionId, userId, true);
    const [w] = await tx.select().from(subscriptionWithdrawals).where(eq(subscriptionWithdrawals.subscriptionId, subscriptionId)).for('update');
    if (w.status === 'DONE') return w;
    const q = w.quote;
    const before = q.kind === 'BEFORE_HANDOVER';
    // Before the handover the car never left: the subscription is off and its days free. After it
    // the term ends today; the car is collected by a return staff schedule.
    const [after] = await tx
      .update(subscriptions)
      .set(before ? { isActive: false, billingStatus: 'CANCELLED', updatedAt: now } : { endDate: today < found.sub.endDate ? today : found.sub.endDate, billingStatus: 'CANCELLED', updatedAt: now })
      .where(eq(subscriptions.id, subscriptionId))
      .returning();
    await cancelFutureCharges(tx, subscriptionId, found.sub.paidMonths, found.term);
    if (before) {
      await tx.update(subscriptionHandovers).set({ status: 'CANCELLED', updatedAt: now })
        .where(and(eq(subscriptionHandovers.subscriptionId, subscriptionId), eq(subscriptionHandovers.kind, 'DELIVERY'), isNull(subscriptionHandovers.swapId), eq(subscriptionHandovers.status, 'SCHEDULED')));
    }
    if (q.coupon_restored && found.request.userCouponId) await releaseCoupon(tx, found.request.userCouponId);
    if (q.points_restored > 0) {
      await creditPoints(tx, { userId, amount: q.points_restored, reason: 'SUBSCRIPTION_REFUND', refType: REF.refType, refId: found.request.id, description: `구독 #${subscriptionId} 청약철회 환불` });
    }
    const [done] = await tx.update(subscriptionWithdrawals).set({ status: 'DONE', completedAt: now }).where(eq(subscriptionWithdrawals.id, w.id)).returning();
    const [user] = await tx.select({ email: users.email }).from(users).where(eq(users.id, userId));
    const strip = ({ billingKey: _k, ...rest }: typeof after) => rest;
    await recordAudit(tx, { userId, name: user?.email ?? `user:${userId}` }, {
      action: 'cancel', entity: 'subscription', entityId: subscriptionId, before: strip(found.sub), after: { ...strip(after), withdrawal: { ...q, plan: w.plan } },
    });
    await emit(tx, `subscription.withdrawn:${subscriptionId}`, {
      type: 'subscription.withdrawn', userId, subscriptionId, day: today, refund: q.refund, pointsRestored: q.points_restored, couponRestored: q.coupon_restored, lines: withdrawalLines(q),
    }, now);
    await emit(tx, `staff.subscription_withdrawn:${subscriptionId}`, { type: 'staff.subscription_withdrawn', subscriptionId, day: today, kind: q.kind, refund: q.refund }, now);
    return done;
  });
  return doneAnswer(subscriptionId, finished);
}
