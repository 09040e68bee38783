import { eq } from 'drizzle-orm';
import { inTransaction, type Db } from '../db/client';
import { subscriptionSwaps } from '../db/schema';
import type { Job } from '../jobs/queue';
import { callOffSwapPair } from './swap-handovers';

/** The job a customer's 교체 취소 queues (src/api/orders/swap-cancel.ts): the pair called off, audited as the customer. */
export async function swapPairCallOffJobHandler(db: Db, job: Job, now: Date): Promise<void> {
  const { swapId, actor } = job.payload as { swapId: number; actor: string };
  const [swap] = await db.select({ status: subscriptionSwaps.status, userId: subscriptionSwaps.userId }).from(subscriptionSwaps).where(eq(subscriptionSwaps.id, Number(swapId)));
  if (swap?.status !== 'CANCELLED') return;
  await inTransaction(db, (tx) => callOffSwapPair(tx, { userId: swap.userId, name: actor }, Number(swapId), now));
}
