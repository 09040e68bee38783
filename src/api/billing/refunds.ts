import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { won } from '../../domain/money';
import { inTransaction, type Db } from '../db/client';
import { paymentRefunds, payments } from '../db/schema';
import { conflict, unprocessable } from '../errors';
import { emit } from '../notifications/events';
import type { PaymentContext } from '../payment-context';
import { cancelQueued, enqueue } from '../jobs/queue';
import { paymentById, RECONCILE_AFTER_MS, RECONCILE_JOB, type RefundRow } from './ledger';
import { providerUnavailable } from './errors';
import type { CancelResult, ProviderPayment } from '../payment-provider';
import { type PaymentRow, type ProviderContext } from '../payment-context';
import { paidAmount } from '../../domain/payments';

export interface RefundRequest {
  paymentId: string;
  /** Won; absent = everything not refunded yet. */
  amount?: number;
  reason: string;
  /** customer | system | staff:<email> */
  actor: string;
  /** What the refund is for: the same key twice is one refund (a retried cancel never refunds twice). */
  key: string;
}

const refundable = (p: PaymentRow) => paidAmount(p) > 0;

/** Asking the provider, and what follows a recorded refund (passed in by the composition root). */
export type RefundContext = ProviderContext & Pick<PaymentContext, 'refunded'>;

/**
 * Refunds (part of) a paid payment through the provider, once per key. The refund row is written
 * first (REQUESTED), then the provider is asked with the cancellable amount we know of (it refuses
 * when a concurrent cancel changed it), then the row and the payment are settled in one
 * transaction. A payment with nothing to refund (unpaid, failed, 0 won) returns null.
 */
export async function refundPayment(ctx: RefundContext, req: RefundRequest): Promise<RefundRow | null> {
  // The payment before the key: a refund settles its row and the payment in one transaction, so a
  // payment read before that commit holds the old amount, and a key read after it sees SUCCEEDED.
  // Read the other way round, a repeat racing the first call (two replicas, a double click) could
  // find no refund and then a payment already refunded, and refuse itself with 422.
  const payment = await paymentById(ctx.db, req.paymentId);
  const prior = await refundByKey(ctx.db, req.key);
  if (prior?.status === 'SUCCEEDED') return prior;
  if (!payment || !refundable(payment)) return null;
  const left = payment.amount - payment.cancelledAmount;
  const amount = req.amount ?? left;
  if (amount <= 0) return null;
  if (amount > left) throw unprocessable(`환불 가능 금액(${won(left)})을 넘었습니다.`, { amount: ['환불 가능 금액을 넘었습니다.'] });

  // The refund is this call's once it holds the key's row: written now, or taken over after a failure.
  const written = await ctx.db.insert(paymentRefunds).values({ key: req.key, paymentId: req.paymentId, userId: payment.userId, amount, reason: req.reason, actor: req.actor, createdAt: ctx.clock.now() }).onConflictDoNothing().returning();
  const [claimed] = written.length
    ? written
    : await ctx.db.update(paymentRefunds).set({ status: 'REQUESTED', amount, failureReason: null }).where(and(eq(paymentRefunds.key, req.key), eq(paymentRefunds.status, 'FAILED'))).returning();
  if (!claimed) return settledElsewhere(ctx.db, req.key);
  // Queued before the provider is asked, dropped when its answer is recorded: a crash in between
  // still has the refund settled from the provider's record.
  const watch = await watchRefund(ctx, req, claimed.id);
  const result = await ctx.payments
    .cancel({ paymentId: req.paymentId, amount, reason: req.reason, currentCancellableAmount: left })
    .catch((err: unknown): CancelResult => ({ status: 'UNKNOWN', detail: err instanceof Error ? err.message : String(err) }));
  if (result.status === 'UNKNOWN') return refundUnknown(ctx, req, result.detail);
  if (result.status === 'FAILED') {
    await inTransaction(ctx.db, async (tx) => {
      await tx.update(paymentRefunds).set({ status: 'FAILED', failureReason: result.reason, completedAt: ctx.clock.now() }).where(and(eq(paymentRefunds.key, req.key), eq(paymentRefunds.status, 'REQUESTED')));
      await cancelQueued(tx, [watch]);
    });
    // Our cancellable amount was stale (a refund whose answer was lost, a cancel in the provider's
    // console): the provider's record is read so the ledger catches up before anyone tries again.
    if (result.code === 'CANCELLABLE_AMOUNT_CONSISTENCY_BROKEN' || result.code === 'PAYMENT_ALREADY_CANCELLED') await readBack(ctx, req.paymentId).catch(() => undefined);
    throw conflict(`환불하지 못했습니다: ${result.reason}`);
  }
  await inTransaction(ctx.db, async (tx) => {
    const [done] = await tx
      .update(paymentRefunds)
      .set({ status: 'SUCCEEDED', completedAt: ctx.clock.now() })
      .where(and(eq(paymentRefunds.key, req.key), eq(paymentRefunds.status, 'REQUESTED')))
      .returning();
    if (done) await applyRefunded(tx, ctx, req.paymentId, done);
    await cancelQueued(tx, [watch]);
  });
  return (await refundByKey(ctx.db, req.key))!;
}

/** Queues the reconcile job that settles a refund from the provider's record if its answer is never recorded; returns its key. */
async function watchRefund(ctx: ProviderContext, req: RefundRequest, refundId: number): Promise<string> {
  const key = `reconcile:refund:${refundId}:${randomUUID()}`;
  await enqueue(ctx.db, {
    kind: RECONCILE_JOB,
    key,
    payload: { paymentId: req.paymentId, refundKey: req.key },
    runAt: new Date(ctx.clock.now().getTime() + RECONCILE_AFTER_MS),
    maxAttempts: 20,
  });
  return key;
}

/** Reads the payment from the provider and records the refunds it shows (syncCancellations). */
async function readBack(ctx: RefundContext, paymentId: string): Promise<void> {
  const remote = await ctx.payments.getPayment(paymentId);
  if (remote) await syncCancellations(ctx, remote);
}

/**
 * A cancel whose answer does not say whether the provider refunded (a 5xx, UNAUTHORIZED, a lost
 * connection). It is not a refusal: the refund stays REQUESTED and is settled from the provider's
 * record: read back now, and otherwise by a reconcile job, which marks it SUCCEEDED when the
 * provider shows the amount cancelled and FAILED when it does not (the job queued before the
 * provider was asked). Until then the ledger keeps the
 * old cancellable amount, so another refund sends it and the provider refuses a double refund.
 */
async function refundUnknown(ctx: RefundContext, req: RefundRequest, detail: string): Promise<RefundRow> {
  ctx.log('info', `refund ${req.key} of ${req.paymentId}: outcome unknown (${detail}); reading the payment back`);
  await readBack(ctx, req.paymentId).catch(() => undefined);
  const settled = (await refundByKey(ctx.db, req.key))!;
  if (settled.status === 'SUCCEEDED') return settled;
  throw providerUnavailable('환불 처리 결과를 결제사에 확인하고 있습니다. 잠시 후 결제 내역에서 확인해주세요.');
}

/**
 * A refund left REQUESTED by an unknown answer, after its payment was read back (the reconcile
 * job): the provider does not show it, so it was not made; it is FAILED, and may be tried again.
 */
export async function settleUnknownRefund(db: Db, key: string, now: Date): Promise<void> {
  await db
    .update(paymentRefunds)
    .set({ status: 'FAILED', failureReason: '결제사에서 환불이 확인되지 않았습니다. 다시 시도해주세요.', completedAt: now })
    .where(and(eq(paymentRefunds.key, key), eq(paymentRefunds.status, 'REQUESTED')));
}

/**
 * The same refund made by a concurrent call (a double-submitted cancel): waits for it to settle
 * and answers it, or its failure; the provider is asked once.
 */
async function settledElsewhere(db: Db, key: string): Promise<RefundRow> {
  for (let waited = 0; waited < 30_000; waited += 100) {
    const row = await refundByKey(db, key);
    if (row?.status === 'SUCCEEDED') return row;
    if (row?.status === 'FAILED') throw conflict(`환불하지 못했습니다: ${row.failureReason ?? ''}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  throw providerUnavailable('환불을 처리하고 있습니다. 잠시 후 다시 확인해주세요.');
}

async function refundByKey(db: Db, key: string): Promise<RefundRow | undefined> {
  return (await db.select().from(paymentRefunds).where(eq(paymentRefunds.key, key)))[0];
}

/**
 * Adds a refund to the payment (CANCELLED once all of it is back), tells the customer and, for a
 * company card payment with a 전자세금계산서, issues its 수정세금계산서; once per refund row.
 */
async function applyRefunded(tx: Db, ctx: RefundContext, paymentId: string, refund: Pick<RefundRow, 'id' | 'amount' | 'reason'>): Promise<void> {
  const { amount } = refund;
  const eventKey = `refund:${refund.id}`;
  const [row] = await tx
    .update(payments)
    .set({
      cancelledAmount: sql`${payments.cancelledAmount} + ${amount}`,
      status: sql`case when ${payments.cancelledAmount} + ${amount} >= ${payments.amount} then 'CANCELLED' else 'PARTIAL_CANCELLED' end`,
      cancelledAt: ctx.clock.now(),
      updatedAt: ctx.clock.now(),
    })
    .where(eq(payments.id, paymentId))
    .returning();
  if (!row) return;
  await emit(tx, `payment.refunded:${eventKey}`, { type: 'payment.refunded', userId: row.userId, paymentId, amount }, ctx.clock.now());
  await ctx.refunded(tx, row, refund, ctx.clock.now());
}

/**
 * Brings our record of a paid payment in line with the provider's cancelled amount (a refund that
 * crashed after the provider did it; a cancel made in the provider's console): REQUESTED refunds
 * the provider has done are marked done, and what is left is recorded as a refund by the provider.
 */
export async function syncCancellations(ctx: RefundContext, remote: ProviderPayment): Promise<void> {
  await inTransaction(ctx.db, async (tx) => {
    const local = await paymentById(tx, remote.paymentId, { lock: true });
    if (!local || !refundable(local)) return;
    let missing = remote.cancelledAmount - local.cancelledAmount;
    if (missing <= 0) return;
    const requested = await tx
      .select()
      .from(paymentRefunds)
      .where(and(eq(paymentRefunds.paymentId, local.id), eq(paymentRefunds.status, 'REQUESTED')))
      .orderBy(paymentRefunds.id);
    for (const r of requested) {
      if (r.amount > missing) break;
      await tx.update(paymentRefunds).set({ status: 'SUCCEEDED', completedAt: ctx.clock.now() }).where(eq(paymentRefunds.id, r.id));
      await applyRefunded(tx, ctx, local.id, r);
      missing -= r.amount;
    }
    if (missing > 0) {
      const key = `refund:provider:${local.id}:${remote.cancelledAmount}`;
      const [r] = await tx
        .insert(paymentRefunds)
        .values({ key, paymentId: local.id, userId: local.userId, amount: missing, reason: '결제사에서 취소됨', actor: 'provider', status: 'SUCCEEDED', createdAt: ctx.clock.now(), completedAt: ctx.clock.now() })
        .onConflictDoNothing()
        .returning();
      if (r) await applyRefunded(tx, ctx, local.id, r);
    }
  });
}
