import { and, asc, eq, gt } from 'drizzle-orm';
import { carDisplayName } from '../../domain/car';
import { monthlyChargeDate, paidAmount } from '../../domain/payments';
import { swapArithmetic, swapCancelLine, swapCancelMoney, swapCancelRefusal, swapCancelUntil, type SwapView } from '../../domain/swap';
import type { Db } from '../db/client';
import { paymentRefunds, subscriptionExtensions, subscriptionSwaps, subscriptions } from '../db/schema';
import { paymentById } from '../billing/ledger';
import { carById } from '../catalogue/catalogue';

/*
 * What the swap's confirmation (swap-confirm.ts) and its cancellation (swap-cancel.ts) both read: the
 * customer's own subscription, the swap rows, their views on my page and what a cancellation
 * would move.
 */

export type SwapRow = typeof subscriptionSwaps.$inferSelect;
type SubscriptionRow = typeof subscriptions.$inferSelect;

/** The refund of a negative difference: one per swap. */
export const swapRefundKey = (swapId: number) => `swap:refund:${swapId}`;

export { ownSubscription, type OwnSubscription as Found } from '../billing/own-subscription';

export const swapsOf = (db: Db, subscriptionId: number) => db.select().from(subscriptionSwaps).where(eq(subscriptionSwaps.subscriptionId, subscriptionId)).orderBy(asc(subscriptionSwaps.id));

export async function carNames(db: Db, ids: readonly number[]): Promise<Map<number, string>> {
  const out = new Map<number, string>();
  for (const id of new Set(ids)) out.set(id, carDisplayName(await carById(db, id)));
  return out;
}

const annexPath = (r: Pick<SwapRow, 'id' | 'subscriptionId'>) => `/subscriptions/${r.subscriptionId}/swaps/${r.id}/annex`;

/** A swap row as shown (names of both cars given; `cancel` what a cancellation offers now). */
export function swapView(r: SwapRow, names: Map<number, string>, termMonths: number, startDate: string, cancel: SwapView['cancel'] = null): SwapView {
  const newFeeFrom = r.firstNewMonth <= termMonths ? monthlyChargeDate(startDate, r.firstNewMonth) : null;
  return {
    id: r.id, status: r.status, swap_date: r.swapDate, from_car: { id: r.fromCarId, name: names.get(r.fromCarId) ?? '' }, to_car: { id: r.toCarId, name: names.get(r.toCarId) ?? '' },
    billing_month: r.billingMonth, first_new_month: r.firstNewMonth, new_fee_from: newFeeFrom, old_fee: r.oldFee, new_fee: r.newFee, prorate_days: r.prorateDays, month_days: r.monthDays,
    adjustment: r.adjustment, arithmetic: swapArithmetic({ new_fee: r.newFee, old_fee: r.oldFee, prorate_days: r.prorateDays, month_days: r.monthDays, adjustment: r.adjustment }),
    created_at: r.createdAt.toISOString(), annex_path: annexPath(r), cancel, cancelled_at: r.cancelledAt?.toISOString() ?? null,
  };
}

/** What the swap's difference moved: what its charge still holds (> 0), what its refund gave back (< 0). */
export async function movedBy(db: Db, row: SwapRow): Promise<{ charged: number; refunded: number }> {
  const payment = row.adjustment > 0 && row.paymentId ? await paymentById(db, row.paymentId) : undefined;
  const [refund] = row.adjustment < 0 ? await db.select().from(paymentRefunds).where(eq(paymentRefunds.key, swapRefundKey(row.id))) : [];
  return { charged: payment ? paidAmount(payment) : 0, refunded: refund?.status === 'SUCCEEDED' ? refund.amount : 0 };
}

/** An extension made after the swap (it extended the new car: the swap then stays). */
export async function extendedAfter(db: Db, row: SwapRow): Promise<boolean> {
  const later = await db.select({ id: subscriptionExtensions.id }).from(subscriptionExtensions).where(and(eq(subscriptionExtensions.subscriptionId, row.subscriptionId), gt(subscriptionExtensions.createdAt, row.createdAt))).limit(1);
  return later.length > 0;
}

/** What cancelling a swap offers today (null: it cannot be cancelled). */
async function cancelOffer(db: Db, sub: Pick<SubscriptionRow, 'exitDate'>, row: SwapRow, today: string): Promise<SwapView['cancel']> {
  if (row.status !== 'CONFIRMED') return null;
  if (swapCancelRefusal(row, { exitDate: sub.exitDate, extendedAfterSwap: await extendedAfter(db, row) }, today)) return null;
  const money = swapCancelMoney(row.adjustment, await movedBy(db, row));
  return { until: swapCancelUntil(row.swapDate), money, line: swapCancelLine(money) };
}

/** A subscription's swaps for my page, oldest first: the live ones (PENDING, CONFIRMED) and the confirmed ones cancelled later. */
export async function swapViews(db: Db, sub: SubscriptionRow, termMonths: number, today: string): Promise<SwapView[]> {
  const rows = (await swapsOf(db, sub.id)).filter((r) => r.status !== 'CANCELLED' || r.cancelledAt !== null);
  if (!rows.length) return [];
  const names = await carNames(db, rows.flatMap((r) => [r.fromCarId, r.toCarId]));
  const out: SwapView[] = [];
  for (const r of rows) out.push(swapView(r, names, termMonths, sub.startDate, await cancelOffer(db, sub, r, today)));
  return out;
}
