import { eq } from 'drizzle-orm';
import { ORDER_KINDS } from '../../domain/payments';
import type { Db } from '../db/client';
import { butlerRequests } from '../db/schema';
import { conflict, notFound } from '../errors';
import type { PaidOrder } from '../billing/order-charges';

/** A customer's butler (의전) request: the row, its lookups and the checks its changes share. */

export type RequestRow = typeof butlerRequests.$inferSelect;

export const REF = ORDER_KINDS.BUTLER.refType;

export const requestNotFound = () => notFound('요청을 찾을 수 없습니다.');

/** The user's live request (locked when asked); another user's, a cancelled or an unknown id is 404. */
export async function ownRequest(db: Db, userId: number, id: number, { lock = false }: { lock?: boolean } = {}) {
  const q = db.select().from(butlerRequests).where(eq(butlerRequests.id, id));
  const [row] = lock ? await q.for('update') : await q;
  if (!row || row.userId !== userId || row.status === 'CANCELLED') throw requestNotFound();
  return row;
}

export function requirePending(row: RequestRow, action: string) {
  if (row.status !== 'PENDING') throw conflict(`확정된 의전 요청은 ${action}할 수 없습니다. 고객센터로 문의해주세요.`);
}

/**
 * A booking the customer may cancel: pending or confirmed (a driver assigned or not), until the
 * driver sets out. The refund follows the rule shown before paying (customerRefundPercent).
 */
export function requireCancellable(row: RequestRow) {
  if (row.departedAt) throw conflict('기사님이 이미 출발한 의전 예약은 취소할 수 없습니다. 고객센터로 문의해주세요.');
}

export const paidOrder = (row: RequestRow): PaidOrder => ({ kind: 'BUTLER', id: row.id, userId: row.userId, billingKey: row.billingKey });
