import { and, eq, inArray } from 'drizzle-orm';
import { ORDER_KINDS, paidAmount, type OrderService } from '../../domain/payments';
import { inTransaction } from '../db/client';
import { payments } from '../db/schema';
import { executeCharge } from './charges';
import type { PaymentContext } from '../payment-context';
import { declinedOrFine, providerUnavailable } from './errors';
import { recordCharge, type NewCharge } from './ledger';
import { refundPayment } from './refunds';
import { type PaymentRow } from '../payment-context';

/** An order paid at placement: a subscription request (its first month) or a butler booking (its fee). */
export interface PaidOrder {
  kind: OrderService;
  id: number;
  userId: number;
  billingKey: string;
}

/** The order's charges made at placement and by edits (not monthly or overtime ones), oldest first. */
async function orderCharges(ctx: PaymentContext, order: PaidOrder): Promise<PaymentRow[]> {
  const p = ORDER_KINDS[order.kind];
  return ctx.db
    .select()
    .from(payments)
    .where(and(eq(payments.refType, p.refType), eq(payments.refId, order.id), inArray(payments.purpose, [p.placed, p.adjustment])))
    .orderBy(payments.requestedAt, payments.id);
}

/** A charge still in flight counts as paid here: an edit must not charge it a second time. */
const kept = (p: PaymentRow) => paidAmount(p, { pending: true });

/** Won the customer has paid (or is being charged) for the order so far. */
export async function paidForOrder(ctx: PaymentContext, order: PaidOrder): Promise<number> {
  return (await orderCharges(ctx, order)).reduce((sum, p) => sum + kept(p), 0);
}

/**
 * Brings what an order has paid to `newPrice` after an edit, before the edit is saved: a higher
 * price charges the difference (its own payment id; declined → 422 and the edit is not saved),
 * a lower one refunds the difference (newest charges first). `editKey` names the edit, so a
 * retried request settles once; `actor` is who made it (the refund row says so).
 */
export async function settlePriceChange(ctx: PaymentContext, order: PaidOrder, newPrice: number, editKey: string, actor = 'customer'): Promise<void> {
  const charges = await orderCharges(ctx, order);
  const paid = charges.reduce((sum, p) => sum + kept(p), 0);
  const p = ORDER_KINDS[order.kind];
  if (newPrice > paid) {
    const n = charges.filter((c) => c.purpose === p.adjustment).length + 1;
    const id = p.adjustmentId(order.id, n);
    const charge: NewCharge = { id, userId: order.userId, purpose: p.adjustment, refType: p.refType, refId: order.id, orderName: `LUXE ${p.orderLabel} #${order.id} 변경 차액`, amount: newPrice - paid, billingKey: order.billingKey };
    await inTransaction(ctx.db, (tx) => recordCharge(tx, ctx.payments.name, charge, ctx.clock.now()));
    declinedOrFine(await executeCharge(ctx, id));
    return;
  }
  let excess = paid - newPrice;
  for (const c of [...charges].reverse()) {
    if (excess <= 0) break;
    const amount = Math.min(excess, kept(c));
    if (amount <= 0 || c.status === 'PENDING') continue;
    await refundPayment(ctx, { paymentId: c.id, amount, reason: `${p.orderLabel} 변경 차액 환불`, actor, key: `refund:${editKey}:${c.id}` });
    excess -= amount;
  }
  if (excess > 0) throw providerUnavailable('결제 확인이 끝나지 않아 변경할 수 없습니다. 잠시 후 다시 시도해주세요.');
}

/** What refundOrder would refund now for `percent`, and what the order has paid (won); nothing is changed. */
export async function refundPreview(ctx: PaymentContext, order: PaidOrder, percent: number): Promise<{ paid: number; refund: number }> {
  const charges = await orderCharges(ctx, order);
  return { paid: charges.reduce((sum, c) => sum + kept(c), 0), refund: charges.reduce((sum, c) => sum + Math.max(0, Math.floor((kept(c) * percent) / 100)), 0) };
}

/**
 * Refunds `percent` of what an order has paid (a cancel), once per order: every charge of it,
 * newest first. Returns the won refunded. A refund the provider refuses stops the cancel.
 */
export async function refundOrder(ctx: PaymentContext, order: PaidOrder, percent: number, reason: string, actor: string): Promise<number> {
  let refunded = 0;
  for (const c of (await orderCharges(ctx, order)).reverse()) {
    if (c.status === 'PENDING') throw providerUnavailable('결제 확인이 끝나지 않아 지금은 취소할 수 없습니다. 잠시 후 다시 시도해주세요.');
    const amount = Math.floor((kept(c) * percent) / 100);
    if (amount <= 0) continue;
    const r = await refundPayment(ctx, { paymentId: c.id, amount, reason, actor, key: `refund:${order.kind}:${order.id}:${c.id}` });
    refunded += r?.amount ?? 0;
  }
  return refunded;
}
