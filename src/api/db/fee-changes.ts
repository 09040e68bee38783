import { and, asc, eq } from 'drizzle-orm';
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
  const extensions = await db
    .select({ firstMonth: subscriptionExtensions.firstMonth, lastMonth: subscriptionExtensions.lastMonth, monthlyFee: subscriptionExtensions.monthlyFee, madeAt: subscriptionExtensions.createdAt })
    .from(subscriptionExtensions)
    .where(eq(subscriptionExtensions.subscriptionId, subscriptionId))
    .orderBy(asc(subscriptionExtensions.firstMonth));
  const swaps = await db
    .select({
      firstNewMonth: subscriptionSwaps.firstNewMonth, newFee: subscriptionSwaps.newFee, baseFee: subscriptionSwaps.baseFee, optionExtras: subscriptionSwaps.optionExtras,
      prepaymentCredit: subscriptionSwaps.prepaymentCredit, madeAt: subscriptionSwaps.createdAt, orderMonths: subscriptionRequests.month,
    })
    .from(subscriptionSwaps)
    .innerJoin(subscriptions, eq(subscriptions.id, subscriptionSwaps.subscriptionId))
    .innerJoin(subscriptionRequests, eq(subscriptionRequests.id, subscriptions.requestId))
    .where(and(eq(subscriptionSwaps.subscriptionId, subscriptionId), eq(subscriptionSwaps.status, 'CONFIRMED')))
    .orderBy(asc(subscriptionSwaps.id));
  return [
    ...extensions.map((e) => ({ ...e, madeAt: e.madeAt.toISOString() })),
    ...swaps.flatMap((w) => swapFeeChanges({ ...w, madeAt: w.madeAt.toISOString() }, w.orderMonths)),
  ];
}

