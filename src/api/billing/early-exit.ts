import { and, eq, ne } from 'drizzle-orm';
import { earlyExitSwapRefusal } from '../../domain/swap';
import { todayInKorea } from '../../domain/dates';
import { EARLY_EXIT_FEE_PERCENT, earlyExitQuote, earlyExitWindow, remainingFees, type EarlyExitQuote, type EarlyExitSubscription } from '../../domain/early-exit';
import type { ExtensionFee } from '../../domain/extension';
import { paymentIds, type PaymentView } from '../../domain/payments';
import { recordAudit } from '../audit/audit';
import { inTransaction, type Db } from '../db/client';
import { subscriptionRequests, subscriptionSwaps, subscriptions, users } from '../db/schema';
import { conflict, unprocessable } from '../errors';
import { emit } from '../notifications/events';
import type { ChargeOutcome, PaymentContext, PaymentRow } from '../payment-context';
import { executeCharge } from './charges';
import { declinedOrFine } from './errors';
import { attemptsOf, recordCharge, toPaymentView } from './ledger';
import { cancelFutureCharges, feeChanges, termMonthsSql } from './subscription-billing';
import { ownSubscription } from './own-subscription';
import { rowTime } from '../jobs/clock';

/** GET /subscriptions/{id}/early-exit: the quote for a return day, and the days one can choose today. */
export interface EarlyExitQuoteAnswer {
  /** null when no day was given. */
  quote: EarlyExitQuote | null;
  earliest: string;
  latest: string;
}

/** POST /subscriptions/{id}/early-exit: the exit as confirmed (a repeat answers the same). */
export interface EarlyExitAnswer {
  quote: EarlyExitQuote;
  end_date: string;
  billing_status: 'CANCELLED';
  /** The fee's charge; null when nothing remained to charge. */
  payment: PaymentView | null;
}

/**
 * The customer's own subscription (own-subscription.ts: another's is 404, a company's 403) with
 * what an exit reads: the order's monthly fee and key, the fee changes and the swaps.
 */
export async function exitSubscription(db: Db, id: number, userId: number, lock = false) {
  const { sub, request, term } = await ownSubscription(db, id, userId, lock);
  // After a 구독 연장 or a 차량 교체 the months carry their own fee (src/domain/extension.ts feeOfMonth).
  const extensions = await feeChanges(db, id);
  const swaps = await db.select({ swapDate: subscriptionSwaps.swapDate, status: subscriptionSwaps.status }).from(subscriptionSwaps).where(and(eq(subscriptionSwaps.subscriptionId, id), ne(subscriptionSwaps.status, 'CANCELLED')));
  return { sub, term, fee: request.fee, requestKey: request.billingKey, extensions, swaps };
}

export type Found = Awaited<ReturnType<typeof exitSubscription>>;

const ruleInput = (f: Found): EarlyExitSubscription => ({
  startDate: f.sub.startDate, endDate: f.sub.endDate, termMonths: f.term, monthlyFee: f.fee, paidMonths: f.sub.paidMonths, isActive: f.sub.isActive, billingStatus: f.sub.billingStatus,
  extensions: f.extensions,
});

function quoteOrThrow(f: Found, exitDate: string, today: string): EarlyExitQuote {
  const refused = (no: { status: 409 | 422; reason: string }) => (no.status === 409 ? conflict(no.reason) : unprocessable(no.reason, { date: [no.reason] }));
  const a = earlyExitQuote(ruleInput(f), exitDate, today);
  if (!a.ok) throw refused(a);
  // A 차량 교체 ahead: the return day comes after it (src/domain/swap.ts).
  const swap = earlyExitSwapRefusal(f.swaps, exitDate);
  if (swap) throw refused(swap);
  return a.quote;
}

export async function quoteEarlyExit(ctx: PaymentContext, subscriptionId: number, userId: number, exitDate: string | undefined): Promise<EarlyExitQuoteAnswer> {
  const today = todayInKorea(ctx.clock.now());
  const found = await exitSubscription(ctx.db, subscriptionId, userId);
  const window = earlyExitWindow(ruleInput(found), today);
  if (exitDate === undefined) {
    // The subscription's state is checked even without a day (an overdue one is refused up front); the window may be empty.
    const a = earlyExitQuote(ruleInput(found), window.earliest, today);
    if (!a.ok && a.status === 409) throw conflict(a.reason);
    return { quote: null, ...window };
  }
  return { quote: quoteOrThrow(found, exitDate, today), ...window };
}

/**
 * A done exit's numbers, read back from what was stored: the exit day, and the charge (its month
 * column holds the remaining months the fee was computed on). No charge: nothing remained.
 */
export function storedQuote(exitDate: string, term: number, monthlyFee: number, payment: Pick<PaymentRow, 'month' | 'amount'> | undefined, extensions: readonly ExtensionFee[] = []): EarlyExitQuote {
  const remaining = payment?.month ?? 0;
  const { monthly_fee, fee: _computed, ...parts } = remainingFees(term, remaining, monthlyFee, extensions);
  return { exit_date: exitDate, exit_month: term - remaining, term_months: term, remaining_months: remaining, monthly_fee, percent: EARLY_EXIT_FEE_PERCENT, fee: payment?.amount ?? 0, ...parts };
}

const doneAnswer = (f: Found, payment: PaymentRow | undefined): EarlyExitAnswer => ({
  quote: storedQuote(f.sub.exitDate!, f.term, f.fee, payment, f.extensions), end_date: f.sub.endDate, billing_status: 'CANCELLED', payment: payment ? toPaymentView(payment) : null,
});

type ExitStep = { done: Found; payment: PaymentRow | undefined } | { charge: string; recorded?: PaymentRow };

/**
 * 중도 해지 확정: charges the fee once (payment id sub-{id}-exit; a new attempt id only after a known
 * decline) and, once it is paid, ends the subscription on the exit day. Two clicks at once meet on
 * the subscription's row lock and then on the same payment id. A decline changes nothing (422).
 * Named steps: placeExit (one transaction) → the fee charged (declinedOrFine) → exitedAnswer.
 */
export async function confirmEarlyExit(ctx: PaymentContext, subscriptionId: number, userId: number, exitDate: string): Promise<EarlyExitAnswer> {
  const now = ctx.clock.now();
  const step = await inTransaction(ctx.db, (tx) => placeExit(tx, ctx, subscriptionId, userId, exitDate, now));
  if ('done' in step) return doneAnswer(step.done, step.payment);
  const payment = declinedOrFine(await executeCharge(ctx, step.charge, step.recorded));
  return exitedAnswer(ctx.db, subscriptionId, userId, payment);
}

/**
 * On the subscription's row lock: a done exit (a repeat), the fee's charge in flight (the other
 * click, a crash: the same id again, whatever day this click chose), an exit with nothing to pay
 * ended at once, or the exit day set and the fee's charge recorded PENDING.
 */
async function placeExit(tx: Db, ctx: PaymentContext, subscriptionId: number, userId: number, exitDate: string, now: Date): Promise<ExitStep> {
  const found = await exitSubscription(tx, subscriptionId, userId, true);
  const attempts = await attemptsOf(tx, 'subscription', subscriptionId, 'SUBSCRIPTION_EARLY_EXIT');
  const paid = attempts.find((a) => a.status === 'PAID' || a.status === 'PARTIAL_CANCELLED' || a.status === 'CANCELLED');
  if (found.sub.exitDate && found.sub.billingStatus === 'CANCELLED') return { done: found, payment: paid };
  const pending = attempts.find((a) => a.status === 'PENDING');
  if (pending) return { charge: pending.id };
  const quote = quoteOrThrow(found, exitDate, todayInKorea(now));
  if (quote.fee === 0) {
    await tx.update(subscriptions).set({ exitDate, updatedAt: rowTime() }).where(eq(subscriptions.id, subscriptionId));
    await finishExit(tx, subscriptionId, quote, null, now);
    return { done: await exitSubscription(tx, subscriptionId, userId), payment: undefined };
  }
  await tx.update(subscriptions).set({ exitDate, updatedAt: rowTime() }).where(eq(subscriptions.id, subscriptionId));
  const attempt = attempts.length + 1;
  const id = paymentIds.retry(paymentIds.subscriptionEarlyExit(subscriptionId), attempt);
  const recorded = await recordCharge(tx, ctx.payments.name, {
    // month holds the remaining months the fee was computed on (the message and a repeat read it back).
    id, userId, purpose: 'SUBSCRIPTION_EARLY_EXIT', refType: 'subscription', refId: subscriptionId, month: quote.remaining_months, attempt,
    orderName: `LUXE 구독 #${subscriptionId} 중도 해지 수수료`, amount: quote.fee, billingKey: found.sub.billingKey ?? found.requestKey,
  }, now);
  return { charge: id, recorded };
}

/** The exit as done once its fee is paid; 409 while the fee's charge (or its outcome) is still being confirmed. */
async function exitedAnswer(db: Db, subscriptionId: number, userId: number, payment: PaymentRow): Promise<EarlyExitAnswer> {
  const after = await exitSubscription(db, subscriptionId, userId);
  if (payment.status === 'PENDING' || !after.sub.exitDate || after.sub.billingStatus !== 'CANCELLED') {
    throw conflict('중도 해지 수수료 결제를 확인하고 있습니다. 잠시 후 다시 확인해주세요.');
  }
  return doneAnswer(after, payment);
}

/** Ends the subscription on its exit day: later charges cancelled, 해지, audited, the customer told the arithmetic. */
async function finishExit(tx: Db, subscriptionId: number, quote: EarlyExitQuote, paymentId: string | null, now: Date): Promise<void> {
  const [found] = await tx
    .select({ sub: subscriptions, term: termMonthsSql })
    .from(subscriptions)
    .innerJoin(subscriptionRequests, eq(subscriptionRequests.id, subscriptions.requestId))
    .where(eq(subscriptions.id, subscriptionId))
    .for('update', { of: subscriptions });
  if (!found || found.sub.billingStatus === 'CANCELLED') return;
  const [row] = await tx
    .update(subscriptions)
    .set({ endDate: quote.exit_date, billingStatus: 'CANCELLED', updatedAt: rowTime() })
    .where(eq(subscriptions.id, subscriptionId))
    .returning();
  await cancelFutureCharges(tx, subscriptionId, found.sub.paidMonths, found.term);
  const [user] = await tx.select({ email: users.email }).from(users).where(eq(users.id, found.sub.userId));
  const strip = ({ billingKey: _k, ...rest }: typeof row) => rest;
  await recordAudit(tx, { userId: found.sub.userId, name: user?.email ?? `user:${found.sub.userId}` }, {
    action: 'cancel', entity: 'subscription', entityId: subscriptionId, before: strip(found.sub), after: { ...strip(row), early_exit: { ...quote, payment_id: paymentId } },
  });
  await emit(tx, `subscription.early_exit:${subscriptionId}`, {
    type: 'subscription.early_exit', userId: found.sub.userId, subscriptionId, exitDate: quote.exit_date,
    remainingMonths: quote.remaining_months, monthlyFee: quote.monthly_fee, percent: quote.percent, fee: quote.fee, ...(quote.fee_parts ? { feeParts: quote.fee_parts } : {}),
  }, now);
}

/** The early-exit fee's charge: paid ends the subscription; declined clears the asked-for day (nothing else changed). */
export const earlyExitOutcome: ChargeOutcome = {
  async paid(tx, payment, ctx) {
    const [sub] = await tx.select().from(subscriptions).where(eq(subscriptions.id, payment.refId));
    const [req] = sub ? await tx.select({ term: subscriptionRequests.month, fee: subscriptionRequests.fee }).from(subscriptionRequests).where(eq(subscriptionRequests.id, sub.requestId)) : [];
    if (!sub?.exitDate || !req) return;
    const extensions = await feeChanges(tx, sub.id);
    await finishExit(tx, sub.id, storedQuote(sub.exitDate, req.term + sub.extendedMonths, req.fee, payment, extensions), payment.id, ctx.clock.now());
  },
  async failed(tx, payment, ctx) {
    await tx.update(subscriptions).set({ exitDate: null, updatedAt: rowTime() }).where(eq(subscriptions.id, payment.refId));
    await emit(tx, `payment.failed:${payment.id}`, { type: 'payment.failed', userId: payment.userId, paymentId: payment.id, reason: payment.failureReason ?? '', retryDate: null }, ctx.clock.now());
  },
};

