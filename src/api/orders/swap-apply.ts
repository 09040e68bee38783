import { and, eq } from 'drizzle-orm';
import { customerActor, recordAudit } from '../audit/audit';
import type { Db } from '../db/client';
import { subscriptionRequests, subscriptionSwaps, subscriptions } from '../db/schema';
import { enqueue } from '../jobs/queue';
import { emit } from '../notifications/events';
import type { ChargeOutcome } from '../payment-context';
import { carNames, swapView } from './swap-views';
import { rowTime } from '../jobs/clock';
import { swapAnnexJob } from './swap-annexes';

/**
 * Applies a PENDING swap (once: the row's lock and status): CONFIRMED, so billing takes the new fee
 * from first_new_month and the old car is free from the day after the swap; audited (actor: the
 * customer); the customer told the arithmetic (email + 알림톡), staff told to schedule the return
 * and delivery pair; the annex job queued.
 */
export async function applySwap(tx: Db, swapId: number, now: Date): Promise<void> {
  const [row] = await tx.select().from(subscriptionSwaps).where(eq(subscriptionSwaps.id, swapId)).for('update');
  if (!row || row.status !== 'PENDING') return;
  const [after] = await tx.update(subscriptionSwaps).set({ status: 'CONFIRMED', updatedAt: now }).where(eq(subscriptionSwaps.id, swapId)).returning();
  const [found] = await tx.select({ sub: subscriptions, request: subscriptionRequests }).from(subscriptions).innerJoin(subscriptionRequests, eq(subscriptionRequests.id, subscriptions.requestId)).where(eq(subscriptions.id, row.subscriptionId));
  const names = await carNames(tx, [row.fromCarId, row.toCarId]);
  const view = swapView(after, names, found.request.month + found.sub.extendedMonths, found.sub.startDate);
  await recordAudit(tx, await customerActor(tx, row.userId), {
    action: 'update', entity: 'subscription', entityId: row.subscriptionId, before: null, after: { swap: { ...view, payment_id: row.paymentId } },
  });
  const facts = { subscriptionId: row.subscriptionId, swapId, swapDate: row.swapDate, fromCar: view.from_car.name, toCar: view.to_car.name, newFee: row.newFee };
  await emit(tx, `subscription.swapped:${swapId}`, { type: 'subscription.swapped', userId: row.userId, ...facts, arithmetic: view.arithmetic, adjustment: row.adjustment, firstNewMonth: row.firstNewMonth, newFeeFrom: view.new_fee_from }, now);
  await emit(tx, `staff.subscription_swapped:${swapId}`, { type: 'staff.subscription_swapped', ...facts }, now);
  await enqueue(tx, swapAnnexJob(swapId, now));
}

/** The swap difference's charge: paid applies the swap; declined withdraws it (CANCELLED: the new car is free again). */
export const swapOutcome: ChargeOutcome = {
  async paid(tx, payment, ctx) {
    const [row] = await tx.select({ id: subscriptionSwaps.id }).from(subscriptionSwaps).where(eq(subscriptionSwaps.paymentId, payment.id));
    if (row) await applySwap(tx, row.id, ctx.clock.now());
  },
  async failed(tx, payment, ctx) {
    await tx.update(subscriptionSwaps).set({ status: 'CANCELLED', updatedAt: rowTime() }).where(and(eq(subscriptionSwaps.paymentId, payment.id), eq(subscriptionSwaps.status, 'PENDING')));
    await emit(tx, `payment.failed:${payment.id}`, { type: 'payment.failed', userId: payment.userId, paymentId: payment.id, reason: payment.failureReason ?? '', retryDate: null }, ctx.clock.now());
  },
};
