import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { subscriptionRequests, subscriptions } from '../db/schema';
import { notFound } from '../errors';
import { attemptsOf } from '../billing/ledger';
import { inTransaction } from './checkout';
import { cancelFutureCharges, monthFee, scheduleMonth, termMonthsSql } from '../billing/subscription-billing';
import { rowTime } from '../jobs/clock';

/**
 * Staff: a subscription on or off. Off is 해지: every future charge is dropped (the month already
 * paid is kept, not refunded). On again resumes billing from the first unpaid month.
 */
export async function setSubscriptionActive(db: Db, id: number, isActive: boolean, now: Date) {
  return inTransaction(db, async (tx) => {
    const [found] = await tx
      .select({ sub: subscriptions, term: termMonthsSql, fee: subscriptionRequests.fee })
      .from(subscriptions)
      .innerJoin(subscriptionRequests, eq(subscriptionRequests.id, subscriptions.requestId))
      .where(eq(subscriptions.id, id))
      .for('update', { of: subscriptions });
    if (!found) throw notFound('구독을 찾을 수 없습니다.');
    const owed = found.sub.paidMonths + 1;
    // A month that already failed stays overdue on resume (staff 지금 재시도 or the customer pays it); else it is scheduled.
    const owedTried = isActive && (await attemptsOf(tx, 'subscription', id, 'SUBSCRIPTION_MONTH', owed)).length > 0;
    const [row] = await tx
      .update(subscriptions)
      .set({ isActive, billingStatus: !isActive ? 'CANCELLED' : owedTried ? 'OVERDUE' : 'ACTIVE', updatedAt: rowTime() })
      .where(eq(subscriptions.id, id))
      .returning();
    if (!isActive) await cancelFutureCharges(tx, id, row.paidMonths, found.term);
    else if (!owedTried) await scheduleMonth(tx, row, found.term, owed, await monthFee(tx, found, owed), now);
    return { id: row.id, is_active: row.isActive, billing_status: row.billingStatus };
  });
}
