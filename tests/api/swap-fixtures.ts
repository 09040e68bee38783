import { and, desc, eq } from 'drizzle-orm';
import type { Db } from '../../src/api/db/client';
import { subscriptionRequests, subscriptionSwaps, subscriptions } from '../../src/api/db/schema';

/**
 * A 차량 교체 as the customer side (quote → confirm, its money moved) leaves it: a CONFIRMED row in
 * subscription_swaps. The handover and mileage tests insert it directly; the old car is the one the
 * subscription holds before the swap (the order's, or the last confirmed swap's new car). The money
 * columns are placeholders (no adjustment): the operations side never reads them.
 */
export async function insertConfirmedSwap(db: Db, input: { subscriptionId: number; toCarId: number; swapDate: string; status?: 'PENDING' | 'CONFIRMED' }) {
  const [sub] = await db
    .select({ userId: subscriptions.userId, carId: subscriptionRequests.carId })
    .from(subscriptions)
    .innerJoin(subscriptionRequests, eq(subscriptionRequests.id, subscriptions.requestId))
    .where(eq(subscriptions.id, input.subscriptionId));
  const [last] = await db
    .select({ toCarId: subscriptionSwaps.toCarId })
    .from(subscriptionSwaps)
    .where(and(eq(subscriptionSwaps.subscriptionId, input.subscriptionId), eq(subscriptionSwaps.status, 'CONFIRMED')))
    .orderBy(desc(subscriptionSwaps.swapDate))
    .limit(1);
  const [swap] = await db
    .insert(subscriptionSwaps)
    .values({
      subscriptionId: input.subscriptionId, userId: sub.userId, fromCarId: last?.toCarId ?? sub.carId, toCarId: input.toCarId, swapDate: input.swapDate,
      billingMonth: 1, firstNewMonth: 2, oldFee: 555_000, newFee: 555_000, baseFee: 555_000, optionExtras: 0, prorateDays: 0, monthDays: 30, adjustment: 0,
      status: input.status ?? 'CONFIRMED',
    })
    .returning();
  return swap;
}
