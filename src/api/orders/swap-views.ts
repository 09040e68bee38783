import { and, asc, eq, gt, inArray } from 'drizzle-orm';
import { carDisplayName } from '../../domain/car';
import { monthlyChargeDate, paidAmount } from '../../domain/payments';
import { swapArithmetic, swapCancelLine, swapCancelMoney, swapCancelRefusal, swapCancelUntil, type SwapView } from '../../domain/swap';
import type { Db } from '../db/client';
import { paymentRefunds, payments, subscriptionExtensions, subscriptionSwaps, subscriptions } from '../db/schema';
import type { RefundRow } from '../billing/ledger';
import type { PaymentRow } from '../payment-context';
import { carsByIds } from '../catalogue/catalogue';

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

/** The display names of cars by id, in one query. */
export async function carNames(db: Db, ids: readonly number[]): Promise<Map<number, string>> {
  const cars = await carsByIds(db, ids);
  return new Map([...cars].map(([id, car]) => [id, carDisplayName(car)]));
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

type Moved = { charged: number; refunded: number };

/** What a swap's difference moved, from its charge (> 0) and its refund (< 0): what the charge still holds, what the refund gave back. */
const movedOf = (row: SwapRow, payment: PaymentRow | undefined, refund: RefundRow | undefined): Moved => ({
  charged: row.adjustment > 0 && payment ? paidAmount(payment) : 0,
  refunded: row.adjustment < 0 && refund?.status === 'SUCCEEDED' ? refund.amount : 0,
});

/** What the swap's difference moved: what its charge still holds (> 0), what its refund gave back (< 0). */
export async function movedBy(db: Db, row: SwapRow): Promise<Moved> {
  return (await movedByEach(db, [row])).get(row.id)!;
}

/** movedBy of many swaps in two queries whatever their number, by swap id. */
async function movedByEach(db: Db, rows: readonly SwapRow[]): Promise<Map<number, Moved>> {
  const paymentIds = rows.flatMap((r) => (r.adjustment > 0 && r.paymentId ? [r.paymentId] : []));
  const refundKeys = rows.flatMap((r) => (r.adjustment < 0 ? [swapRefundKey(r.id)] : []));
  const charges = paymentIds.length ? await db.select().from(payments).where(inArray(payments.id, paymentIds)) : [];
  const refunds = refundKeys.length ? await db.select().from(paymentRefunds).where(inArray(paymentRefunds.key, refundKeys)) : [];
  const chargeOf = new Map(charges.map((p) => [p.id, p]));
  const refundOf = new Map(refunds.map((r) => [r.key, r]));
  return new Map(rows.map((r) => [r.id, movedOf(r, r.paymentId ? chargeOf.get(r.paymentId) : undefined, refundOf.get(swapRefundKey(r.id)))]));
}

/** An extension made after the swap (it extended the new car: the swap then stays). */
export async function extendedAfter(db: Db, row: SwapRow): Promise<boolean> {
  return (await extendedAfterEach(db, [row])).has(row.id);
}

/** The swaps, of these, that an extension made after them (extendedAfter), in one query. */
async function extendedAfterEach(db: Db, rows: readonly Pick<SwapRow, 'id'>[]): Promise<Set<number>> {
  if (!rows.length) return new Set();
  const later = await db
    .selectDistinct({ id: subscriptionSwaps.id })
    .from(subscriptionSwaps)
    .innerJoin(subscriptionExtensions, and(eq(subscriptionExtensions.subscriptionId, subscriptionSwaps.subscriptionId), gt(subscriptionExtensions.createdAt, subscriptionSwaps.createdAt)))
    .where(inArray(subscriptionSwaps.id, rows.map((r) => r.id)));
  return new Set(later.map((r) => r.id));
}

/** What cancelling a swap offers, given what its difference moved (undefined: it cannot be cancelled). */
function cancelOffer(row: SwapRow, moved: Moved | undefined): SwapView['cancel'] {
  if (!moved) return null;
  const money = swapCancelMoney(row.adjustment, moved);
  return { until: swapCancelUntil(row.swapDate), money, line: swapCancelLine(money) };
}

/**
 * The swaps of a list's subscriptions for my page, each one's oldest first, by subscription id: the
 * live ones (PENDING, CONFIRMED) and the confirmed ones cancelled later, with what cancelling each
 * offers today (null: it cannot be cancelled). A fixed number of queries whatever the number of
 * subscriptions and swaps.
 */
export async function swapViewsOf(db: Db, subs: readonly { sub: SubscriptionRow; termMonths: number }[], today: string): Promise<Map<number, SwapView[]>> {
  const out = new Map<number, SwapView[]>();
  if (!subs.length) return out;
  const rows = (await db.select().from(subscriptionSwaps).where(inArray(subscriptionSwaps.subscriptionId, subs.map((s) => s.sub.id))).orderBy(asc(subscriptionSwaps.id)))
    .filter((r) => r.status !== 'CANCELLED' || r.cancelledAt !== null);
  if (!rows.length) return out;
  const subOf = new Map(subs.map((s) => [s.sub.id, s]));
  const names = await carNames(db, rows.flatMap((r) => [r.fromCarId, r.toCarId]));
  const confirmed = rows.filter((r) => r.status === 'CONFIRMED');
  const extended = await extendedAfterEach(db, confirmed);
  const refusal = (r: SwapRow) => swapCancelRefusal(r, { exitDate: subOf.get(r.subscriptionId)!.sub.exitDate, extendedAfterSwap: extended.has(r.id) }, today);
  const cancellable = confirmed.filter((r) => !refusal(r));
  const moved = await movedByEach(db, cancellable);
  for (const r of rows) {
    const { sub, termMonths } = subOf.get(r.subscriptionId)!;
    const view = swapView(r, names, termMonths, sub.startDate, cancelOffer(r, moved.get(r.id)));
    const list = out.get(sub.id);
    if (list) list.push(view);
    else out.set(sub.id, [view]);
  }
  return out;
}
