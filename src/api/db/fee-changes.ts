import { and, asc, eq } from 'drizzle-orm';
import type { ExtensionFee } from '../../domain/extension';
import type { Db } from './client';
import { subscriptionExtensions, subscriptionSwaps } from './schema';

/**
 * A subscription's fee changes as billing reads them (src/domain/extension.ts feeOfMonth): its
 * extensions (their months) and its CONFIRMED 차량 교체 (every month from first_new_month), each
 * with when it was made: where two cover a month the newer wins.
 */
export async function feeChanges(db: Db, subscriptionId: number): Promise<ExtensionFee[]> {
  const extensions = await db
    .select({ firstMonth: subscriptionExtensions.firstMonth, lastMonth: subscriptionExtensions.lastMonth, monthlyFee: subscriptionExtensions.monthlyFee, madeAt: subscriptionExtensions.createdAt })
    .from(subscriptionExtensions)
    .where(eq(subscriptionExtensions.subscriptionId, subscriptionId))
    .orderBy(asc(subscriptionExtensions.firstMonth));
  const swaps = await db
    .select({ firstMonth: subscriptionSwaps.firstNewMonth, monthlyFee: subscriptionSwaps.newFee, madeAt: subscriptionSwaps.createdAt })
    .from(subscriptionSwaps)
    .where(and(eq(subscriptionSwaps.subscriptionId, subscriptionId), eq(subscriptionSwaps.status, 'CONFIRMED')))
    .orderBy(asc(subscriptionSwaps.id));
  return [
    ...extensions.map((e) => ({ ...e, madeAt: e.madeAt.toISOString() })),
    ...swaps.map((w) => ({ firstMonth: w.firstMonth, lastMonth: Infinity, monthlyFee: w.monthlyFee, madeAt: w.madeAt.toISOString() })),
  ];
}

