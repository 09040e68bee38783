import { eq } from 'drizzle-orm';
import type { ButlerSubscriptionView } from '../../domain/butler';
import type { Db } from '../db/client';
import { butlerRequests, butlerSubscriptions } from '../db/schema';
import { conflict } from '../errors';
import { emit } from '../notifications/events';
import { attemptsOf } from '../billing/ledger';
import { inTransaction } from './checkout';
import { rowTime } from '../jobs/clock';
import { REF, requestNotFound } from './butler-requests';
import { scheduleReminder } from './butler-reminders';
import { subscriptionViews } from './butler-subscriptions';

/**
 * The confirmation's writes inside the caller's transaction (the confirm route's own, or a
 * driver's assignment to a pending request): PENDING → CONFIRMED, the butler subscription, the
 * butler.confirmed event and the reminder; 409 when not pending or its charge is not settled.
 * Returns the subscription's id.
 */
export async function confirmInTransaction(tx: Db, id: number, now: Date): Promise<number> {
  const [row] = await tx.select().from(butlerRequests).where(eq(butlerRequests.id, id)).for('update');
  if (!row) throw requestNotFound();
  if (row.status !== 'PENDING') throw conflict(row.status === 'CONFIRMED' ? '이미 확정된 의전 요청입니다.' : '취소된 의전 요청입니다.');
  if (row.approvalStatus === 'WAITING') throw conflict('회사 관리자의 승인을 기다리는 예약입니다. 승인된 뒤에 확정할 수 있습니다.');
  if ((await attemptsOf(tx, REF, id, 'BUTLER')).some((c) => c.status === 'PENDING')) throw conflict('예약 요금 결제가 아직 확인되지 않았습니다. 잠시 후 다시 시도해주세요.');
  await tx.update(butlerRequests).set({ status: 'CONFIRMED', modifiedAt: rowTime() }).where(eq(butlerRequests.id, id));
  const [sub] = await tx.insert(butlerSubscriptions).values({ requestId: id, userId: row.userId }).returning();
  await emit(tx, `butler.confirmed:${id}`, { type: 'butler.confirmed', userId: row.userId, butlerRequestId: id }, now);
  await scheduleReminder(tx, { clock: { now: () => now } }, id, row.userId, row.startAt);
  return sub.id;
}

/** Staff confirmation of a paid booking: PENDING → CONFIRMED and a butler subscription; 409 when not pending or its charge is not settled. */
export async function confirmButlerRequest(db: Db, id: number, now: Date): Promise<ButlerSubscriptionView> {
  const subId = await inTransaction(db, (tx) => confirmInTransaction(tx, id, now));
  const [row] = await db.select({ sub: butlerSubscriptions, request: butlerRequests }).from(butlerSubscriptions).innerJoin(butlerRequests, eq(butlerRequests.id, butlerSubscriptions.requestId)).where(eq(butlerSubscriptions.id, subId));
  return (await subscriptionViews(db, [row], now))[0];
}
