import { and, eq, ne } from 'drizzle-orm';
import { acknowledgementMatches, HANDOVER_RECORD_LABEL, type Handover } from '../../domain/handover';
import { inTransaction, type Db } from '../db/client';
import { subscriptionHandovers, subscriptions, users } from '../db/schema';
import { conflict, unprocessable } from '../errors';
import { recordAudit } from '../audit/audit';
import { audited, handoverNotFound, withDriver } from './handover-rows';
import { boardRows } from './handover-board-rows';

/** GET /handovers: the signed-in customer's live deliveries and returns (their own subscriptions only). */
export async function customerHandovers(db: Db, userId: number): Promise<Handover[]> {
  const rows = await boardRows(db, and(eq(subscriptions.userId, userId), ne(subscriptionHandovers.status, 'CANCELLED')));
  return rows.map(({ car: _car, plate: _plate, customer: _customer, start_date: _s, end_date: _e, ...h }) => forCustomer(h));
}

/**
 * POST /handovers/{id}/acknowledge: the customer confirms the record with their name as typed
 * (their account's name). Only their own (another customer's is 404, as if it did not exist);
 * only once recorded; a second tap answers the first acknowledgement.
 */
export async function acknowledgeHandover(db: Db, userId: number, id: number, typedName: string, now: Date): Promise<Handover> {
  return inTransaction(db, async (tx) => {
    const [found] = await tx
      .select({ h: subscriptionHandovers, owner: subscriptions.userId })
      .from(subscriptionHandovers)
      .innerJoin(subscriptions, eq(subscriptions.id, subscriptionHandovers.subscriptionId))
      .where(eq(subscriptionHandovers.id, id))
      .for('update', { of: subscriptionHandovers });
    if (!found || found.owner !== userId || found.h.status === 'CANCELLED') throw handoverNotFound();
    const row = found.h;
    if (row.status !== 'DONE') throw conflict(`아직 ${HANDOVER_RECORD_LABEL[row.kind]}이 작성되지 않았습니다. 기록이 올라온 뒤 확인해주세요.`);
    if (row.acknowledgedAt) return forCustomer(await withDriver(tx, row));
    const [user] = await tx.select({ name: users.name, email: users.email, username: users.username }).from(users).where(eq(users.id, userId));
    if (!acknowledgementMatches(typedName, user?.name ?? null)) throw unprocessable('회원 정보에 등록된 이름을 정확히 입력해주세요.', { name: ['회원 정보의 이름과 같게 입력해주세요.'] });
    const [after] = await tx.update(subscriptionHandovers).set({ acknowledgedAt: now, acknowledgedName: typedName.trim().slice(0, 40), updatedAt: now }).where(eq(subscriptionHandovers.id, id)).returning();
    await recordAudit(tx, { userId, name: `customer:${user?.email ?? user?.username ?? userId}` }, { action: 'confirm', entity: 'subscription_handover', entityId: id, before: audited(row), after: audited(after) });
    return forCustomer(await withDriver(tx, after));
  });
}

/** What the customer sees of a handover: the driver's name (the phone stays with staff), not which staff account recorded it. */
const forCustomer = (h: Handover): Handover => ({ ...h, driver: { ...h.driver, phone: '' }, record: h.record ? { ...h.record, recorded_by: '' } : null });
