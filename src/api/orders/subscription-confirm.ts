import { eq } from 'drizzle-orm';
import { dotDate } from '../../domain/dates';
import { termEnd } from '../../domain/subscriptions';
import { paidAmount } from '../../domain/payments';
import type { Db } from '../db/client';
import { companies, companySubscriptionMonths, subscriptionRequests, subscriptions } from '../db/schema';
import { conflict, notFound, unprocessable } from '../errors';
import { emit } from '../notifications/events';
import type { PaymentContext } from '../payment-context';
import { attemptsOf } from '../billing/ledger';
import { inTransaction } from './checkout';
import { scheduleMonth } from '../billing/subscription-billing';
import { inclusiveSpan } from '../../domain/availability';
import { conflictsOf, lockCar, requireConfirmable } from './availability';
import { REF } from './subscription-requests';

/**
 * Staff confirmation: a pending request whose first month is paid becomes a subscription with
 * start and end dates; month 2 is scheduled on the start's day of the next month.
 */
export async function confirmRequest(db: Db, id: number, startDate: string, endDate: string | undefined, now: Date, cancelConflicting = false) {
  return inTransaction(db, async (tx) => {
    const [row] = await tx.select().from(subscriptionRequests).where(eq(subscriptionRequests.id, id)).for('update');
    if (!row) throw notFound('구독 신청을 찾을 수 없습니다.');
    if (row.status !== 'PENDING') throw conflict(row.status === 'CONFIRMED' ? '이미 확정된 구독 신청입니다.' : '취소된 구독 신청입니다.');
    const charges = await attemptsOf(tx, REF, id, 'SUBSCRIPTION_FIRST');
    if (charges.some((c) => c.status === 'PENDING')) throw conflict('첫 결제가 아직 확인되지 않은 신청입니다. 잠시 후 다시 시도해주세요.');
    // A first month refunded in full was not paid: it cannot start a subscription (a partial refund,
    // e.g. a compensation, leaves a paid month and may be confirmed; docs/decisions/payments-and-billing.md).
    if (charges.some((c) => c.status === 'CANCELLED') && charges.every((c) => paidAmount(c) === 0)) {
      throw conflict('첫 결제가 전액 환불된 신청은 확정할 수 없습니다. 신청을 취소하거나 고객이 다시 신청하도록 안내해주세요.');
    }
    const end = endDate ?? termEnd(startDate, row.month);
    if (end < startDate) throw unprocessable('종료일은 시작일 이후여야 합니다.', { end_date: ['종료일은 시작일 이후여야 합니다.'] });
    // One plate, one customer: the confirmed days may not overlap another subscription or a live hold.
    await lockCar(tx, row.carId);
    await requireConfirmable(tx, row.carId, inclusiveSpan(startDate, end), row.month, id, now);
    // A paid request whose hold lapsed is off the timeline but still owed its days (issue 49): confirming over it is an explicit choice.
    const conflicting = (await conflictsOf(tx, row.carId, id, inclusiveSpan(startDate, end))).filter((c) => c.status === 'PENDING');
    if (conflicting.length && !cancelConflicting) {
      const list = conflicting.map((c) => `#${c.request_id} (${dotDate(c.start)}~${dotDate(c.end)})`).join(', ');
      throw conflict(
        `이 기간과 겹치는 같은 차량의 결제 완료 신청이 있습니다: ${list}. 확정하면 그 신청은 전액 환불 후 취소되고 고객에게 안내됩니다. 계속하려면 겹치는 신청의 환불·취소를 선택해주세요.`,
        { cancel_conflicting: ['겹치는 결제 완료 신청이 있습니다.'] },
        { conflicting_request_ids: conflicting.map((c) => c.request_id) },
      );
    }
    await tx.update(subscriptionRequests).set({ status: 'CONFIRMED', startDate, endDate: end, holdUntil: null, updatedAt: now }).where(eq(subscriptionRequests.id, id));
    // A company order (법인) is charged to the company's card as registered now (the request's key is only the
    // order's idempotency key; a replaced company card moves its subscriptions along), or on 후불 to its statement.
    const card = row.companyId ? await companyCard(tx, row.companyId, row.invoiceBilled) : null;
    const [sub] = await tx
      .insert(subscriptions)
      .values({
        requestId: id, userId: row.userId, startDate, endDate: end, companyId: row.companyId,
        ...(card ? { billingKey: card.billingKey, cardIssuer: card.cardIssuer, cardLast4: card.cardLast4 } : row.companyId ? { billingKey: null } : { billingKey: row.billingKey, cardIssuer: row.cardIssuer, cardLast4: row.cardLast4 }),
        createdAt: now, updatedAt: now,
      })
      .returning();
    // On 후불 the first payment falls due on the first day, billed to the company's next statement.
    if (row.companyId && row.invoiceBilled) await tx.insert(companySubscriptionMonths).values({ subscriptionId: sub.id, companyId: row.companyId, month: 1, amount: row.finalFee, serviceDate: startDate }).onConflictDoNothing();
    await scheduleMonth(tx, sub, row.month, 2, row.fee, now);
    await emit(tx, `subscription.confirmed:${sub.id}`, { type: 'subscription.confirmed', userId: row.userId, subscriptionId: sub.id }, now);
    return { id: sub.id, request_id: id, start_date: startDate, end_date: end, is_active: sub.isActive, conflicting_request_ids: conflicting.map((c) => c.request_id) };
  });
}

/** The company card a company subscription is charged on (null on 후불). */
async function companyCard(tx: Db, companyId: number, invoice: boolean) {
  if (invoice) return null;
  const [c] = await tx.select({ billingKey: companies.billingKey, cardIssuer: companies.cardIssuer, cardLast4: companies.cardLast4 }).from(companies).where(eq(companies.id, companyId));
  if (!c?.billingKey) throw unprocessable('회사 결제 카드가 등록되지 않았습니다. 회사 관리자가 카드를 등록한 뒤 확정해주세요.', { company: ['회사 결제 카드가 없습니다.'] });
  return c;
}

/**
 * After a confirmation over conflicting paid requests (issue 49): each is refunded in full,
 * cancelled and its customer told why, once (a cancelled request is skipped). One the provider
 * refuses to refund stays PENDING with its desk warning, for staff to cancel again.
 */
export async function cancelTakenRequests(ctx: PaymentContext, ids: readonly number[], cancel: (id: number, userId: number) => Promise<unknown>) {
  const out: { id: number; cancelled: boolean; message?: string }[] = [];
  for (const id of ids) {
    const [row] = await ctx.db.select({ userId: subscriptionRequests.userId, status: subscriptionRequests.status }).from(subscriptionRequests).where(eq(subscriptionRequests.id, id));
    if (!row || row.status !== 'PENDING') continue;
    try {
      await cancel(id, row.userId);
      out.push({ id, cancelled: true });
    } catch (e) {
      out.push({ id, cancelled: false, message: e instanceof Error ? e.message : String(e) });
    }
  }
  return out;
}
