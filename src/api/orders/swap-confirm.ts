import { and, eq } from 'drizzle-orm';
import { carDisplayName, feeForTerm } from '../../domain/car';
import { dotDate, todayInKorea } from '../../domain/dates';
import { NO_EXTRAS } from '../../domain/extension';
import { paidAmount, paymentIds, type PaymentView, type RefundView } from '../../domain/payments';
import { won } from '../../domain/money';
import { priceConsentRefusal } from '../../domain/price-consent';
import { swapQuote, swapRefusal, type SwapQuote, type SwapView } from '../../domain/swap';
import { carOnDay } from '../../domain/swap-cars';
import { inTransaction, type Db } from '../db/client';
import { paymentRefunds, subscriptionRequests, subscriptionSwaps, subscriptions } from '../db/schema';
import { ApiError, conflict, unprocessable } from '../errors';
import type { PaymentContext, PaymentRow } from '../payment-context';
import { executeCharge } from '../billing/charges';
import { declinedOrFine } from '../billing/errors';
import { attemptsOf, paymentById, recordCharge, toPaymentView, toRefundView } from '../billing/ledger';
import { refundPayment } from '../billing/refunds';
import { carById } from '../catalogue/catalogue';
import { lockCar } from './availability';
import { carNames, ownSubscription, swapRefundKey, swapsOf, swapView, type Found, type SwapRow } from './swap-views';
import { rowTime } from '../jobs/clock';
import { confirmedOf, offers, optionExtras, refuse, ruleInput, takenFrom } from './swap-terms';
import { applySwap } from './swap-apply';

/** POST /subscriptions/{id}/swap: the swap as confirmed (a repeat answers the same). */
export interface SwapConfirmAnswer {
  swap: SwapView;
  /** The difference's charge (> 0), or null. */
  payment: PaymentView | null;
  /** The difference's refund (< 0), or null (0, or nothing left to refund). */
  refund: RefundView | null;
}

type Step = { swapId: number } & ({ done: true } | { charge: string; recorded?: PaymentRow } | { refund: { paymentId: string; amount: number } });

/**
 * The payment that holds billing month `month` (its paid attempt; month 1: the order's first
 * payment) and what may be refunded from it: what it still holds, less the 보증금 and 선납금 the
 * first payment also holds (they are settled at the return).
 */
async function monthPayment(db: Db, f: Found, month: number): Promise<{ payment: PaymentRow; refundable: number } | null> {
  const rows = month === 1
    ? await attemptsOf(db, 'subscription_request', f.request.id, 'SUBSCRIPTION_FIRST')
    : await attemptsOf(db, 'subscription', f.sub.id, 'SUBSCRIPTION_MONTH', month);
  const payment = rows.find((p) => paidAmount(p) > 0);
  if (!payment) return null;
  const kept = month === 1 ? Math.max(0, f.request.options?.quote.deposit ?? 0) + Math.max(0, f.request.options?.quote.prepayment ?? 0) : 0;
  return { payment, refundable: Math.max(0, paidAmount(payment) - kept) };
}

/** The money step of a PENDING swap (new, or met again by a repeat): charge, refund, or apply at once. */
async function moneyStep(tx: Db, ctx: PaymentContext, f: Found, row: SwapRow, now: Date): Promise<Step> {
  if (row.status === 'CONFIRMED') return { swapId: row.id, done: true };
  if (row.adjustment > 0) {
    const id = paymentIds.subscriptionSwap(f.sub.id, row.id);
    const existing = await paymentById(tx, id);
    if (existing) return existing.status === 'PENDING' ? { swapId: row.id, charge: id } : { swapId: row.id, done: true };
    const recorded = await recordCharge(tx, ctx.payments.name, {
      id, userId: f.sub.userId, purpose: 'SUBSCRIPTION_SWAP', refType: 'subscription', refId: f.sub.id, attempt: 1,
      orderName: `LUXE 구독 #${f.sub.id} 차량 교체 차액`, amount: row.adjustment, billingKey: f.sub.billingKey ?? f.request.billingKey,
    }, now);
    await tx.update(subscriptionSwaps).set({ paymentId: id, updatedAt: now }).where(eq(subscriptionSwaps.id, row.id));
    return { swapId: row.id, charge: id, recorded };
  }
  if (row.adjustment < 0) {
    const held = row.paymentId ? await monthPaymentById(tx, f, row) : await monthPayment(tx, f, row.billingMonth);
    const amount = held ? Math.min(-row.adjustment, held.refundable) : 0;
    if (held && row.paymentId === null) await tx.update(subscriptionSwaps).set({ paymentId: held.payment.id, updatedAt: now }).where(eq(subscriptionSwaps.id, row.id));
    const [prior] = await tx.select().from(paymentRefunds).where(eq(paymentRefunds.key, swapRefundKey(row.id)));
    if (prior?.status === 'SUCCEEDED') {
      await applySwap(tx, row.id, now);
      return { swapId: row.id, done: true };
    }
    if (held && (amount > 0 || prior)) return { swapId: row.id, refund: { paymentId: held.payment.id, amount: prior?.amount ?? amount } };
  }
  // Nothing moves (equal fees, or nothing left to refund): applied at once.
  await applySwap(tx, row.id, now);
  return { swapId: row.id, done: true };
}

/** The month payment a refunding swap named (a repeat refunds from the same one). */
async function monthPaymentById(db: Db, f: Found, row: SwapRow) {
  const payment = await paymentById(db, row.paymentId!);
  if (!payment) return null;
  const kept = row.billingMonth === 1 ? Math.max(0, f.request.options?.quote.deposit ?? 0) + Math.max(0, f.request.options?.quote.prepayment ?? 0) : 0;
  return { payment, refundable: Math.max(0, paidAmount(payment) - kept) };
}

/**
 * 차량 교체 확정: on the subscription's row lock the quote is made again from today's prices; a
 * difference or fee other than the one quoted is 409 with the new quote (nothing changed). Both
 * cars' rows are locked in id order (as orders lock a car) and the new car must be free from the
 * day to the end. Then the swap row (PENDING, it holds the new car) and its money: a positive
 * difference charged once (sub-{id}-swap-{swapId}; its PAID outcome applies the swap, a decline
 * cancels it: 422), a negative one refunded once from the prorated month's payment (key
 * swap:refund:{swapId}, then applied), none: applied at once. A repeat (the same day and car)
 * answers the same swap; two clicks meet on the row lock, then on the same payment id or refund key.
 * A list of named steps, each returning what the next takes: placeSwap (one transaction: requote,
 * requireCarFree, insertSwap, moneyStep), payDifference (the provider call), confirmedSwap (the answer).
 */
export async function confirmSwap(ctx: PaymentContext, subscriptionId: number, userId: number, input: SwapConfirmInput): Promise<SwapConfirmAnswer> {
  const now = ctx.clock.now();
  const step = await inTransaction(ctx.db, (tx) => placeSwap(tx, ctx, subscriptionId, userId, input, now));
  await payDifference(ctx, step);
  return confirmedSwap(ctx.db, step.swapId);
}

type SwapConfirmInput = { date: string; car_id: number; quoted_adjustment: number; quoted_fee: number; price_consent?: number };

/** On the subscription's row lock: the repeat's swap, or a new PENDING swap at today's quote; then its money step. */
async function placeSwap(tx: Db, ctx: PaymentContext, subscriptionId: number, userId: number, input: SwapConfirmInput, now: Date): Promise<Step> {
  const f = await ownSubscription(tx, subscriptionId, userId, true);
  const swaps = await swapsOf(tx, subscriptionId);
  const same = swaps.find((r) => r.status !== 'CANCELLED' && r.swapDate === input.date && r.toCarId === input.car_id);
  if (same) return moneyStep(tx, ctx, f, same, now);
  const { current, car, quote } = await requote(tx, f, swaps, input, todayInKorea(now));
  await requireCarFree(tx, f, car.id, input.date, now);
  const row = await insertSwap(tx, { subscriptionId, userId, fromCarId: current, toCarId: car.id }, quote, now);
  return moneyStep(tx, ctx, f, row, now);
}

/**
 * The quote made again from today's prices, with both cars' rows locked in id order: refused as
 * the rule says, for the car held that day or one not offered, a quote other than the one shown
 * (409 with the new quote), or a new fee without the customer's consent.
 */
async function requote(tx: Db, f: Found, swaps: readonly SwapRow[], input: SwapConfirmInput, today: string) {
  const rule = await ruleInput(tx, f, swaps);
  const refusal = swapRefusal(rule, today);
  if (refusal) throw conflict(refusal.reason);
  const check = swapQuote(rule, input.date, 0, NO_EXTRAS, today);
  if (!check.ok) throw refuse(check);
  const current = carOnDay(f.request.carId, confirmedOf(swaps), input.date);
  if (input.car_id === current) throw unprocessable('지금 이용 중인 차량과 다른 차량을 선택해주세요.', { car_id: ['지금 이용 중인 차량입니다.'] });
  // One plate, one customer: both cars' rows, in id order (orders and other swaps wait on them).
  for (const id of [current, input.car_id].sort((a, b) => a - b)) await lockCar(tx, id);
  const car = await carById(tx, input.car_id).catch(() => null);
  if (!car || !offers(car, f.request.month, today)) throw unprocessable('교체할 수 없는 차량입니다. 목록에서 차량을 선택해주세요.', { car_id: ['교체할 수 없는 차량입니다.'] });
  const a = swapQuote(rule, input.date, feeForTerm(car, f.request.month)!, optionExtras(f), today);
  if (!a.ok) throw refuse(a);
  const q = a.quote;
  if (q.adjustment !== input.quoted_adjustment || q.new_fee !== input.quoted_fee) {
    throw conflict(
      `견적이 바뀌었습니다. 새 월 구독료 월 ${won(q.new_fee)}, 교체 월 ${q.arithmetic}. 바뀐 견적을 확인한 뒤 다시 확정해주세요.`,
      { quoted_adjustment: ['견적과 현재 금액이 다릅니다.'] },
      { quote: { ...q, car_id: car.id, car_name: carDisplayName(car) } },
    );
  }
  // 가격 변경 동의: a new car at another monthly fee needs the customer's explicit consent to it.
  const consent = priceConsentRefusal(q.old_fee, q.new_fee, input.price_consent);
  if (consent) throw unprocessable(consent, { price_consent: [consent] });
  return { current, car, quote: q };
}

/** 409 when the new car is taken by another subscription, hold or swap between the day and the end. */
async function requireCarFree(tx: Db, f: Found, carId: number, day: string, now: Date): Promise<void> {
  const taken = await takenFrom(tx, f, carId, day, now);
  if (taken) throw conflict(`이 차량은 ${dotDate(taken)}부터 다른 일정이 있어 교체할 수 없습니다. 다른 차량을 선택해주세요.`, { car_id: ['이 기간에 차량의 다른 일정이 있습니다.'] }, { taken_from: taken });
}

/** The PENDING swap row at the quote (it holds the new car from the day). */
async function insertSwap(tx: Db, who: { subscriptionId: number; userId: number; fromCarId: number; toCarId: number }, q: SwapQuote, now: Date): Promise<SwapRow> {
  const [row] = await tx
    .insert(subscriptionSwaps)
    .values({
      ...who, swapDate: q.swap_date, billingMonth: q.billing_month, firstNewMonth: q.first_new_month,
      oldFee: q.old_fee, newFee: q.new_fee, baseFee: q.base_fee, optionExtras: q.option_extras, prepaymentCredit: q.prepayment_credit, prorateDays: q.prorate_days, monthDays: q.month_days, adjustment: q.adjustment,
      createdAt: now, updatedAt: now,
    })
    .returning();
  return row;
}

/**
 * After the transaction, the money step's provider call: the difference charged (declined: 422;
 * unknown yet: 409), or refunded (a refusal withdraws the swap), then applied once refunded.
 */
async function payDifference(ctx: PaymentContext, step: Step): Promise<void> {
  if ('charge' in step) {
    const payment = declinedOrFine(await executeCharge(ctx, step.charge, step.recorded));
    if (payment.status === 'PENDING') throw conflict('차량 교체 차액 결제를 확인하고 있습니다. 잠시 후 다시 확인해주세요.');
  } else if ('refund' in step) {
    let refund;
    try {
      refund = await refundPayment(ctx, { paymentId: step.refund.paymentId, amount: step.refund.amount, reason: '차량 교체 일할 차액 환불', actor: 'customer', key: swapRefundKey(step.swapId) });
    } catch (err) {
      // A refusal by the provider (not an unknown answer): the swap is withdrawn, nothing else changed.
      if (err instanceof ApiError && err.status === 409) await ctx.db.update(subscriptionSwaps).set({ status: 'CANCELLED', updatedAt: rowTime() }).where(and(eq(subscriptionSwaps.id, step.swapId), eq(subscriptionSwaps.status, 'PENDING')));
      throw err;
    }
    if (!refund || refund.status === 'SUCCEEDED') await inTransaction(ctx.db, (tx) => applySwap(tx, step.swapId, ctx.clock.now()));
  }
}

/** The swap as confirmed; 409 while its money is still being confirmed. */
async function confirmedSwap(db: Db, swapId: number): Promise<SwapConfirmAnswer> {
  const [row] = await db.select().from(subscriptionSwaps).where(eq(subscriptionSwaps.id, swapId));
  if (row.status !== 'CONFIRMED') throw conflict('차량 교체 처리를 확인하고 있습니다. 잠시 후 다시 확인해주세요.');
  return confirmAnswer(db, row);
}

async function confirmAnswer(db: Db, row: SwapRow): Promise<SwapConfirmAnswer> {
  const [found] = await db.select({ sub: subscriptions, request: subscriptionRequests }).from(subscriptions).innerJoin(subscriptionRequests, eq(subscriptionRequests.id, subscriptions.requestId)).where(eq(subscriptions.id, row.subscriptionId));
  const names = await carNames(db, [row.fromCarId, row.toCarId]);
  const payment = row.adjustment > 0 && row.paymentId ? await paymentById(db, row.paymentId) : undefined;
  const [refund] = row.adjustment < 0 ? await db.select().from(paymentRefunds).where(eq(paymentRefunds.key, swapRefundKey(row.id))) : [];
  return {
    swap: swapView(row, names, found.request.month + found.sub.extendedMonths, found.sub.startDate),
    payment: payment ? toPaymentView(payment) : null,
    refund: refund ? toRefundView(refund) : null,
  };
}
