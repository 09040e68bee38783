import { and, desc, eq, lt } from 'drizzle-orm';
import { inTransaction, type Db } from '../db/client';
import { cars, subscriptionSwaps } from '../db/schema';
import { conflict, notFound } from '../errors';
import { subscriptionNotFound, subscriptionOf } from './handover-rows';

/**
 * POST /admin/test-swap (TEST_FIXTURES=on only: scripts and end-to-end tests): a CONFIRMED swap as
 * the customer side's quote and confirm leave it, with no money (adjustment 0), from the car the
 * subscription holds before that day. The operations side reads nothing else of it.
 */
export async function insertTestSwap(db: Db, input: { subscription_id: number; to_car_id: number; swap_date: string }): Promise<{ id: number }> {
  return inTransaction(db, async (tx) => {
    const found = await subscriptionOf(tx, input.subscription_id, { lock: true });
    if (!found) throw subscriptionNotFound();
    const [car] = await tx.select({ id: cars.id }).from(cars).where(eq(cars.id, input.to_car_id));
    if (!car) throw notFound('차량을 찾을 수 없습니다.');
    const earlier = await tx
      .select({ toCarId: subscriptionSwaps.toCarId })
      .from(subscriptionSwaps)
      .where(and(eq(subscriptionSwaps.subscriptionId, found.sub.id), eq(subscriptionSwaps.status, 'CONFIRMED'), lt(subscriptionSwaps.swapDate, input.swap_date)))
      .orderBy(desc(subscriptionSwaps.swapDate))
      .limit(1);
    // The money columns are the customer side's (placeholders here: no adjustment).
    const fee = 0;
    const [row] = await tx
      .insert(subscriptionSwaps)
      .values({
        subscriptionId: found.sub.id, userId: found.sub.userId, fromCarId: earlier[0]?.toCarId ?? found.carId, toCarId: car.id, swapDate: input.swap_date,
        billingMonth: 1, firstNewMonth: 2, oldFee: fee, newFee: fee, baseFee: fee, optionExtras: 0, prorateDays: 0, monthDays: 30, adjustment: 0, status: 'CONFIRMED',
      })
      .onConflictDoNothing()
      .returning({ id: subscriptionSwaps.id });
    if (!row) throw conflict('그 날짜에는 이미 차량 교체가 있습니다.');
    return row;
  });
}
