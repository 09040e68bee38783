import { and, asc, eq, inArray } from 'drizzle-orm';
import type { ExtensionFee } from '../../domain/extension';
import { swapFeeChanges } from '../../domain/swap';
import type { Db } from './client';
import { subscriptionExtensions, subscriptionRequests, subscriptionSwaps, subscriptions } from './schema';

/**
 * A subscription's fee changes as billing reads them (src/domain/extension.ts feeOfMonth): its
 * extensions (their months) and its CONFIRMED 차량 교체 (every month from first_new_month; the 선납금
 * credit a swap kept ends with the order's months: swapFeeChanges), each with when it was made:
 * where two cover a month the newer wins.
 */
export async function feeChanges(db: Db, subscriptionId: number): Promise<ExtensionFee[]> {
  return (await feeChangesOf(db, [subscriptionId])).get(subscriptionId) ?? [];
}

/** feeChanges of many subscriptions in two queries (a list's rows), by subscription id; one without changes has none in the map. */
export async function feeChangesOf(db: Db, subscriptionIds: readonly number[]): Promise<Map<number, ExtensionFee[]>> {
  const out = new Map<number, ExtensionFee[]>();
  const ids = [...new Set(subscriptionIds)];
  if (!ids.length) return out;
  const add = (id: number, changes: ExtensionFee[]) => {
    const list = out.get(id);
    if (list) list.push(...changes);
    else out.set(id, [...changes]);
  };
  const extensions = await db
    .select({ subscriptionId: subscriptionExtensions.subscriptionId, firstMonth: subscriptionExtensions.firstMonth, lastMonth: subscriptionExtensions.lastMonth, monthlyFee: subscriptionExtensions.monthlyFee, madeAt: subscriptionExtensions.createdAt })
    .from(subscriptionExtensions)
    .where(inArray(subscriptionExtensions.subscriptionId, ids))
    .orderBy(asc(subscriptionExtensions.firstMonth), asc(subscriptionExtensions.id));
  const swaps = await db
    .select({
      subscriptionId: subscriptionSwaps.subscriptionId, firstNewMonth: subscriptionSwaps.firstNewMonth, newFee: subscriptionSwaps.newFee, baseFee: subscriptionSwaps.baseFee, optionExtras: subscriptionSwaps.optionExtras,
      prepaymentCredit: subscriptionSwaps.prepaymentCredit, madeAt: subscriptionSwaps.createdAt, orderMonths: subscriptionRequests.month,
    })
    .from(subscriptionSwaps)
    .innerJoin(subscriptions, eq(subscriptions.id, subscriptionSwaps.subscriptionId))
    .innerJoin(subscriptionRequests, eq(subscriptionRequests.id, subscriptions.requestId))
    .where(and(inArray(subscriptionSwaps.subscriptionId, ids), eq(subscriptionSwaps.status, 'CONFIRMED')))
    .orderBy(asc(subscriptionSwaps.id));
  // Each subscription's extensions first, then its swaps, as one subscription's read gave them.
  for (const { subscriptionId, madeAt, ...e } of extensions) add(subscriptionId, [{ ...e, madeAt: madeAt.toISOString() }]);
  for (const { subscriptionId, ...w } of swaps) add(subscriptionId, swapFeeChanges({ ...w, madeAt: w.madeAt.toISOString() }, w.orderMonths));
  return out;
}
