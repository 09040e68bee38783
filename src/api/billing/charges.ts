import { and, eq } from 'drizzle-orm';
import { inTransaction } from '../db/client';
import { payments, users } from '../db/schema';
import { cancelQueued, type Job } from '../jobs/queue';
import { paymentById, reconcileKey } from './ledger';
import type { PaymentContext } from '../payment-context';
import type { ChargeResult } from '../payment-provider';
import { settleUnknownRefund, syncCancellations } from './refunds';
import { type PaymentRow } from '../payment-context';

/** Sends a recorded PENDING charge to the provider and settles it; a settled row is returned as it is. */
export async function executeCharge(ctx: PaymentContext, paymentId: string, recorded?: PaymentRow): Promise<PaymentRow> {
  // The caller that just recorded the charge passes its row: one read less per charge.
  const row = recorded ?? (await paymentById(ctx.db, paymentId));
  if (!row) throw new Error(`payment ${paymentId} was not recorded`);
  if (row.status !== 'PENDING') return row;
  const [customer] = await ctx.db.select({ name: users.name, email: users.email, mobile: users.mobile }).from(users).where(eq(users.id, row.userId));
  const result = await ctx.payments.charge({
    paymentId: row.id,
    billingKey: row.billingKey,
    orderName: row.orderName,
    amount: row.amount,
    customer: { id: String(row.userId), name: customer?.name, email: customer?.email, phone: customer?.mobile },
  });
  return settleCharge(ctx, paymentId, result);
}

/**
 * Records a charge's outcome. The status moves from PENDING only once (a conditional update), and
 * the purpose's follow-up runs in that same transaction: a charge settled by the request that
 * made it and by the reconcile job at the same time is followed up once. UNKNOWN changes nothing.
 */
async function settleCharge(ctx: PaymentContext, paymentId: string, result: ChargeResult): Promise<PaymentRow> {
  if (result.status === 'UNKNOWN') {
    ctx.log('info', `payment ${paymentId}: outcome unknown (${result.detail}); the reconcile job will ask the provider`);
    return (await paymentById(ctx.db, paymentId))!;
  }
  // Payment times on the business clock (one clock with POST /admin/test-clock).
  const now = ctx.clock.now();
  const settled = await inTransaction(ctx.db, async (tx) => {
    const pending = and(eq(payments.id, paymentId), eq(payments.status, 'PENDING'));
    const [row] =
      result.status === 'PAID'
        ? await tx.update(payments).set({ status: 'PAID', pgTxId: result.pgTxId, paidAt: result.paidAt, receiptUrl: result.receiptUrl, updatedAt: now }).where(pending).returning()
        : await tx.update(payments).set({ status: 'FAILED', failureCode: result.code, failureReason: result.reason, failedAt: now, updatedAt: now }).where(pending).returning();
    if (!row) return null;
    // The outcome is known: the charge's safety net is not needed (100,000 provider reads a month less).
    await cancelQueued(tx, [reconcileKey(paymentId)]);
    const outcome = ctx.outcomes[row.purpose];
    await (result.status === 'PAID' ? outcome.paid(tx, row, ctx) : outcome.failed(tx, row, ctx));
    return row;
  });
  // Settled by someone else first: their record is the one to answer with.
  return settled ?? (await paymentById(ctx.db, paymentId))!;
}

/**
 * Brings a payment in line with the provider's record (a webhook, the reconcile job): a PENDING
 * one paid or failed there is settled here the same way, and refunds made there are recorded.
 * Returns the provider's record, or null when it has none.
 */
export async function syncPayment(ctx: PaymentContext, paymentId: string) {
  const remote = await ctx.payments.getPayment(paymentId);
  if (!remote) return null;
  const row = await paymentById(ctx.db, paymentId);
  if (row?.status === 'PENDING') {
    if (remote.status === 'FAILED') {
      await settleCharge(ctx, paymentId, { status: 'FAILED', code: remote.failure?.code ?? 'FAILED', reason: remote.failure?.reason ?? '카드 결제에 실패했습니다.' });
    } else if (remote.status !== 'READY' && remote.status !== 'PENDING') {
      await settleCharge(ctx, paymentId, { status: 'PAID', pgTxId: remote.pgTxId, paidAt: remote.paidAt ?? ctx.clock.now(), receiptUrl: remote.receiptUrl });
    }
  }
  await syncCancellations(ctx, remote);
  return remote;
}

/**
 * The reconcile job: a payment still PENDING is read from the provider and settled the same way.
 * Unknown to the provider: the charge never reached it, so it is sent again under the same id (the
 * provider charges an id once). Still in flight there: try again later. A refund whose answer is
 * not known yet (its own job, queued before the provider was asked) is settled from the read-back.
 */
export async function reconcilePayment(ctx: PaymentContext, job: Job): Promise<void> {
  const paymentId = String(job.payload.paymentId);
  const row = await paymentById(ctx.db, paymentId);
  if (!row || row.status === 'FAILED') return;
  const remote = await syncPayment(ctx, paymentId);
  // A refund whose answer was unknown: syncPayment recorded it if the provider shows it; if not, it was not made.
  if (typeof job.payload.refundKey === 'string') {
    await settleUnknownRefund(ctx.db, job.payload.refundKey, ctx.clock.now());
    return;
  }
  if (!remote && row.status === 'PENDING') {
    const settled = await executeCharge(ctx, paymentId);
    if (settled.status === 'PENDING') throw new Error('the provider has not answered the charge yet');
    return;
  }
  if (remote && (remote.status === 'READY' || remote.status === 'PENDING')) throw new Error('the provider has the payment in flight');
}
