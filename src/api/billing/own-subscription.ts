import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { subscriptionRequests, subscriptions } from '../db/schema';
import { notFound } from '../errors';
import { requirePrivate, termMonthsSql } from './subscription-billing';

/** Another customer's subscription reads as an unknown one (404), as does one that does not exist. */
export function requireOwner<T extends { sub: { userId: number } }>(row: T | undefined, userId: number): asserts row is T {
  if (!row || row.sub.userId !== userId) throw notFound('구독을 찾을 수 없습니다.');
}

/**
 * The customer's own subscription with its order and its term in months, for what they change on
 * it (구독 연장, 차량 교체 and its cancellation, 청약철회, 중도 해지); another customer's reads as
 * unknown (404), a company's is the company's to change (403). `lock` takes the subscription's row
 * lock, where those changes meet.
 */
export async function ownSubscription(db: Db, id: number, userId: number, lock = false) {
  const q = db
    .select({ sub: subscriptions, request: subscriptionRequests, term: termMonthsSql })
    .from(subscriptions)
    .innerJoin(subscriptionRequests, eq(subscriptionRequests.id, subscriptions.requestId))
    .where(eq(subscriptions.id, id));
  const [row] = lock ? await q.for('update', { of: subscriptions }) : await q;
  requireOwner(row, userId);
  requirePrivate(row.sub);
  return row;
}

export type OwnSubscription = Awaited<ReturnType<typeof ownSubscription>>;
