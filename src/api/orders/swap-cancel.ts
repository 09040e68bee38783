import { and, eq } from 'drizzle-orm';
import { addDays, dotDate, todayInKorea } from '../../domain/dates';
import { paymentIds, type PaymentView, type RefundView } from '../../domain/payments';
import { swapCancelLine, swapCancelMoney, swapCancelRefusal, type SwapView } from '../../domain/swap';
import { customerActor, recordAudit } from '../audit/audit';
import { inTransaction, type Db } from '../db/client';
import { paymentRefunds, subscriptionRequests, subscriptionSwaps, subscriptions } from '../db/schema';
import { conflict, notFound } from '../errors';
import { emit } from '../notifications/events';
import { enqueue, type JobSpec } from '../jobs/queue';
import type { ChargeOutcome, PaymentContext, PaymentRow } from '../payment-context';
import { executeCharge } from '../billing/charges';
import { declinedOrFine } from '../billing/errors';
import { paymentById, recordCharge, toPaymentView, toRefundView } from '../billing/ledger';
import { refundPayment } from '../billing/refunds';
import { lockCar } from './availability';
import { carNames, extendedAfter, movedBy, ownSubscription, swapView, type Found, type SwapRow } from './swap-views';
import { takenFrom } from './swap-terms';

/*
 * 교체 취소: the customer calls a CONFIRMED swap off until SWAP_CANCEL_CLOSES_DAYS before its day
 * (src/domain/swap.ts; docs/decisions/swap.md). The money goes back first, once: a charged
 * difference refunded under swapCancelRefundKey, a refunded one charged again
 * (sub-{id}-swap-{swapId}-cancel, -r1… after a decline). Then, once, under the swap row's lock:
 * CANCELLED, audited, both sides told, and a job that calls the return and delivery pair off.
 * Fees, the cars' days and the mileage read CONFIRMED swaps only, so all is as before the swap.
 */

/**
 * The return and delivery pair of a cancelled swap, called off by dispatch (which owns the board;
 * src/api/dispatch/swap-pair-call-off-job.ts) in a job queued with the cancellation: once per swap.
 */
export const SWAP_PAIR_CALL_OFF_JOB = 'subscription-swap-pair-call-off';
const pairCallOffJob = (swapId: number, actor: string, now: Date): JobSpec => ({ kind: SWAP_PAIR_CALL_OFF_JOB, key: `swap-pair-off:${swapId}`, payload: { swapId, actor }, runAt: now, maxAttempts: 8 });

/** The refund of a charged difference when the swap is cancelled: one per swap. */
const swapCancelRefundKey = (swapId: number) => `swap:cancel:${swapId}`;

/** POST /subscriptions/{id}/swaps/{swapId}/cancel: the swap as cancelled and what moved (a repeat answers the same). */
export interface SwapCancelAnswer {
  swap: SwapView;
  payment: PaymentView | null;
  refund: RefundView | null;
}

type Step = { done: true } | { charge: string; recorded?: PaymentRow } | { refund: { paymentId: string; amount: number } };

/**
 * Cancels a CONFIRMED swap (once: the row's lock and status): CANCELLED with its time, audited
 * (actor: the customer), the customer and staff told, the pair's call-off queued.
 */
async function applyCancel(tx: Db, swapId: number, now: Date): Promise<void> {
  const [row] = await tx.select().from(subscriptionSwaps).where(eq(subscriptionSwaps.id, swapId)).for('update');
  if (!row || row.status !== 'CONFIRMED') return;
  const [after] = await tx.update(subscriptionSwaps).set({ status: 'CANCELLED', cancelledAt: now, updatedAt: now }).where(eq(subscriptionSwaps.id, swapId)).returning();
  const actor = await customerActor(tx, row.userId);
  await enqueue(tx, pairCallOffJob(swapId, actor.name, now));
  const names = await carNames(tx, [row.fromCarId, row.toCarId]);
  await recordAudit(tx, actor, {
    action: 'cancel', entity: 'subscription', entityId: row.subscriptionId,
    before: { swap: { id: row.id, status: row.status, swap_date: row.swapDate } }, after: { swap: { id: after.id, status: after.status, cancelled_at: now.toISOString(), cancel_payment_id: row.cancelPaymentId } },
  });
  const facts = { subscriptionId: row.subscriptionId, swapId, swapDate: row.swapDate, fromCar: names.get(row.fromCarId) ?? '', toCar: names.get(row.toCarId) ?? '' };
  await emit(tx, `subscription.swap_cancelled:${swapId}`, { type: 'subscription.swap_cancelled', userId: row.userId, ...facts, moneyLine: cancelledMoneyLine(row) }, now);
  await emit(tx, `staff.subscription_swap_cancelled:${swapId}`, { type: 'staff.subscription_swap_cancelled', ...facts }, now);
}

/** What the money did, once it moved: a charged difference was refunded, a refunded one charged again, else nothing moved. */
function cancelledMoneyLine(row: SwapRow): string {
  if (row.adjustment > 0 && row.paymentId) return '결제하신 교체 차액은 환불되었습니다.';
  if (row.cancelPaymentId) return '환불받으신 교체 차액은 등록하신 카드로 다시 결제되었습니다.';
  return swapCancelLine({ kind: 'none', amount: 0 });
}

/** The money step of a cancellation (new, or met again by a repeat): refund, charge again, or cancel at once. */
async function moneyStep(tx: Db, ctx: PaymentContext, f: Found, row: SwapRow, now: Date): Promise<Step> {
  const money = swapCancelMoney(row.adjustment, await movedBy(tx, row));
  if (money.kind === 'refund') {
    const [prior] = await tx.select().from(paymentRefunds).where(eq(paymentRefunds.key, swapCancelRefundKey(row.id)));
    if (prior?.status === 'SUCCEEDED') {
      await applyCancel(tx, row.id, now);
      return { done: true };
    }
    return { refund: { paymentId: row.paymentId!, amount: prior?.amount ?? money.amount } };
  }
  if (money.kind === 'charge') {
    const prior = row.cancelPaymentId ? await paymentById(tx, row.cancelPaymentId) : undefined;
    if (prior?.status === 'PAID') {
      await applyCancel(tx, row.id, now);
      return { done: true };
    }
    if (prior?.status === 'PENDING') return { charge: prior.id };
    // First try, or a new one after a decline: a new id, so the provider charges each try once.
    const attempt = prior ? prior.attempt + 1 : 1;
    const id = paymentIds.retry(paymentIds.subscriptionSwapCancel(f.sub.id, row.id), attempt);
    const recorded = await recordCharge(tx, ctx.payments.name, {
      id, userId: f.sub.userId, purpose: 'SUBSCRIPTION_SWAP_CANCEL', refType: 'subscription', refId: f.sub.id, attempt,
      orderName: `LUXE 구독 #${f.sub.id} 차량 교체 취소`, amount: money.amount, billingKey: f.sub.billingKey ?? f.request.billingKey,
    }, now);
    await tx.update(subscriptionSwaps).set({ cancelPaymentId: id, updatedAt: now }).where(eq(subscriptionSwaps.id, row.id));
    return { charge: id, recorded };
  }
  await applyCancel(tx, row.id, now);
  return { done: true };
}

/**
 * 교체 취소: on the subscription's row lock, the swap must be the customer's, CONFIRMED, its day
 * at least SWAP_CANCEL_CLOSES_DAYS ahead, with no 중도 해지 asked for and no extension made after
 * it; the old car (its row locked) must still be free from the day after the swap day to the end.
 * Then the money goes back once and the swap is cancelled. A repeat answers the cancelled swap; two
 * clicks meet on the row lock, then on the refund key or the payment id.
 */
export async function cancelSwap(ctx: PaymentContext, subscriptionId: number, swapId: number, userId: number): Promise<SwapCancelAnswer> {
  const now = ctx.clock.now();
  const today = todayInKorea(now);
  const step = await inTransaction(ctx.db, async (tx): Promise<Step & { swapId: number }> => {
    const f = await ownSubscription(tx, subscriptionId, userId, true);
    const [row] = await tx.select().from(subscriptionSwaps).where(and(eq(subscriptionSwaps.id, swapId), eq(subscriptionSwaps.subscriptionId, subscriptionId))).for('update');
    if (!row) throw notFound('차량 교체 내역을 찾을 수 없습니다.');
    if (row.status === 'CANCELLED' && row.cancelledAt) return { swapId, done: true };
    // A cancellation whose money already moved (an answer lost, a crash) is finished, never refused.
    const [refunding] = await tx.select({ status: paymentRefunds.status }).from(paymentRefunds).where(eq(paymentRefunds.key, swapCancelRefundKey(swapId)));
    const charging = row.cancelPaymentId ? await paymentById(tx, row.cancelPaymentId) : undefined;
    const moving = (refunding && refunding.status !== 'FAILED') || (charging && charging.status !== 'FAILED');
    if (!moving) {
      const refusal = swapCancelRefusal(row, { exitDate: f.sub.exitDate, extendedAfterSwap: await extendedAfter(tx, row) }, today);
      if (refusal) throw conflict(refusal.reason);
      // The old car comes back from the day after the swap day: nobody may have taken it since.
      await lockCar(tx, row.fromCarId);
      const taken = await takenFrom(tx, f, row.fromCarId, addDays(row.swapDate, 1), now);
      if (taken) throw conflict(`기존 차량에 ${dotDate(taken)}부터 다른 고객의 일정이 있어 교체를 취소할 수 없습니다. 고객센터로 문의해주세요.`, {}, { taken_from: taken });
    }
    return { swapId, ...(await moneyStep(tx, ctx, f, row, now)) };
  });
  if ('charge' in step) {
    const payment = declinedOrFine(await executeCharge(ctx, step.charge, step.recorded));
    if (payment.status === 'PENDING') throw conflict('차량 교체 취소 결제를 확인하고 있습니다. 잠시 후 다시 확인해주세요.');
  } else if ('refund' in step) {
    const refund = await refundPayment(ctx, { paymentId: step.refund.paymentId, amount: step.refund.amount, reason: '차량 교체 취소 차액 환불', actor: 'customer', key: swapCancelRefundKey(swapId) });
    if (!refund || refund.status === 'SUCCEEDED') await inTransaction(ctx.db, (tx) => applyCancel(tx, swapId, ctx.clock.now()));
  }
  const [row] = await ctx.db.select().from(subscriptionSwaps).where(eq(subscriptionSwaps.id, swapId));
  if (row.status !== 'CANCELLED') throw conflict('차량 교체 취소를 확인하고 있습니다. 잠시 후 다시 확인해주세요.');
  return cancelAnswer(ctx.db, row);
}

async function cancelAnswer(db: Db, row: SwapRow): Promise<SwapCancelAnswer> {
  const [{ sub, request }] = await db
    .select({ sub: subscriptions, request: subscriptionRequests })
    .from(subscriptions)
    .innerJoin(subscriptionRequests, eq(subscriptionRequests.id, subscriptions.requestId))
    .where(eq(subscriptions.id, row.subscriptionId));
  const names = await carNames(db, [row.fromCarId, row.toCarId]);
  const payment = row.cancelPaymentId ? await paymentById(db, row.cancelPaymentId) : undefined;
  const [refund] = await db.select().from(paymentRefunds).where(eq(paymentRefunds.key, swapCancelRefundKey(row.id)));
  return {
    swap: swapView(row, names, request.month + sub.extendedMonths, sub.startDate),
    payment: payment ? toPaymentView(payment) : null,
    refund: refund ? toRefundView(refund) : null,
  };
}

/** The charge that takes back a refunded difference: paid cancels the swap; declined leaves it as it was (the customer is told). */
export const swapCancelOutcome: ChargeOutcome = {
  async paid(tx, payment, ctx) {
    const [row] = await tx.select({ id: subscriptionSwaps.id }).from(subscriptionSwaps).where(eq(subscriptionSwaps.cancelPaymentId, payment.id));
    if (row) await applyCancel(tx, row.id, ctx.clock.now());
  },
  async failed(tx, payment, ctx) {
    await emit(tx, `payment.failed:${payment.id}`, { type: 'payment.failed', userId: payment.userId, paymentId: payment.id, reason: payment.failureReason ?? '', retryDate: null }, ctx.clock.now());
  },
};
