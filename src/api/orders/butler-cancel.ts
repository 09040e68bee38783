import { eq } from 'drizzle-orm';
import type { ButlerCancelAnswer, ButlerCancelPreview } from '../../domain/butler';
import type { ButlerRefundPolicy } from '../../domain/payments';
import type { Db } from '../db/client';
import { butlerRequests } from '../db/schema';
import { conflict } from '../errors';
import { tellDriver } from '../notifications/driver-notices';
import { emit, type CancelledBy } from '../notifications/events';
import type { PaymentContext } from '../payment-context';
import { refundOrder, refundPreview } from '../billing/order-charges';
import { cancelBooking, customerRefundPercent } from '../billing/butler-billing';
import { withUserLock } from './checkout';
import type { AuditWriter } from '../audit/audit';
import { type RequestRow, requestNotFound, ownRequest, requireCancellable, paidOrder } from './butler-requests';

/** Cancelling a butler booking: the customer's and staff's, their previews, and who is told. */

/**
 * DELETE /butlers/requests/{id} while PENDING: irreversible. What was paid is refunded by the
 * policy (all until 24 h before the start, 50% after, nothing once it started; configurable),
 * then the days are freed, the coupon returned and the points refunded. previewButlerCancel says
 * beforehand what it would refund now (the customer's confirm dialog).
 */
export async function previewButlerCancel(ctx: PaymentContext, policy: ButlerRefundPolicy, userId: number, id: number): Promise<ButlerCancelPreview> {
  const current = await ownRequest(ctx.db, userId, id);
  requireCancellable(current);
  const now = ctx.clock.now();
  const percent = customerRefundPercent(current, now, policy);
  const { paid, refund } = await refundPreview(ctx, paidOrder(current), percent);
  return { paid_amount: paid, refund_amount: refund, refund_percent: percent, now: now.toISOString() };
}

export async function cancelButlerRequest(ctx: PaymentContext, policy: ButlerRefundPolicy, userId: number, id: number) {
  const current = await ownRequest(ctx.db, userId, id);
  requireCancellable(current);
  const percent = customerRefundPercent(current, ctx.clock.now(), policy);
  const refunded = await refundOrder(ctx, paidOrder(current), percent, percent === 100 ? '의전 예약 취소' : `의전 예약 취소 (${percent}% 환불)`, 'customer');
  return withUserLock(ctx.db, userId, async (tx) => {
    const row = await ownRequest(tx, userId, id, { lock: true });
    requireCancellable(row);
    const now = ctx.clock.now();
    await emit(tx, `butler.cancelled:${id}`, { type: 'butler.cancelled', userId, butlerRequestId: id, refundPercent: percent }, now);
    const result = { ...(await cancelBooking(tx, row)), refunded_amount: refunded, refund_percent: percent };
    await tellStaffOfCancel(tx, now, result, { kind: 'customer' });
    await tellDriverOfCancel(tx, now, row);
    return result;
  });
}

/** The assigned driver hears that their trip is off, once per booking (알림톡, SMS fallback; and on /driver). */
async function tellDriverOfCancel(tx: Db, now: Date, row: RequestRow) {
  if (row.driverId) await tellDriver(tx, now, { kind: 'cancelled', butlerRequestId: row.id, driverId: row.driverId, key: `driver.trip_cancelled:${row.id}` });
}

/**
 * What a staff cancel refunds: by default the customer's rule at this moment (full until
 * BUTLER_FULL_REFUND_HOURS before the start, then BUTLER_LATE_REFUND_PERCENT); in full when staff
 * decide so with a reason (audited, and the customer is told it was the operator's decision), and
 * always in full for a refused eligibility.
 */
function staffRefundPercent(row: Pick<RequestRow, 'startAt'>, now: Date, policy: ButlerRefundPolicy, decision: { fullRefundReason?: string; refusal?: boolean }): number {
  return decision.fullRefundReason || decision.refusal ? 100 : customerRefundPercent(row, now, policy);
}

/** GET /admin/butler-requests/{id}/cancel-preview: what a staff cancel would refund now, by the rule and in full. */
export async function previewStaffCancel(ctx: PaymentContext, policy: ButlerRefundPolicy, id: number): Promise<ButlerCancelPreview> {
  const [found] = await ctx.db.select().from(butlerRequests).where(eq(butlerRequests.id, id));
  if (!found) throw requestNotFound();
  if (found.status === 'CANCELLED') throw conflict('이미 취소된 의전 요청입니다.');
  const now = ctx.clock.now();
  const percent = customerRefundPercent(found, now, policy);
  const { paid, refund } = await refundPreview(ctx, paidOrder(found), percent);
  return { paid_amount: paid, refund_amount: refund, refund_percent: percent, now: now.toISOString() };
}

/** Staff hear of every cancellation (by the customer or by staff), with the refund, once per booking. */
async function tellStaffOfCancel(tx: Db, now: Date, result: ButlerCancelAnswer, by: CancelledBy) {
  await emit(tx, `staff.butler_cancelled:${result.id}`, {
    type: 'staff.butler_cancelled', butlerRequestId: result.id, by, refundedAmount: result.refunded_amount, refundPercent: result.refund_percent, refundedPoints: result.refunded_points,
  }, now);
}

/**
 * Staff: cancels a pending or confirmed request, refunding by staffRefundPercent, with the coupon
 * and points; `fullRefundReason` is the operator's decision to refund in full.
 */
export async function adminCancelButlerRequest(
  ctx: PaymentContext, policy: ButlerRefundPolicy, id: number, staff: { actor: string; audit: AuditWriter }, decision: { refusal?: { reason: string }; fullRefundReason?: string } = {},
) {
  const { refusal, fullRefundReason } = decision;
  const [found] = await ctx.db.select().from(butlerRequests).where(eq(butlerRequests.id, id));
  if (!found) throw requestNotFound();
  if (found.status === 'CANCELLED') throw conflict('이미 취소된 의전 요청입니다.');
  if (refusal && !found.legalBasis?.eligibility) throw conflict('대여 자격(시행령 제18조)을 확인하는 예약이 아닙니다. 일반 취소를 이용해주세요.');
  const percent = staffRefundPercent(found, ctx.clock.now(), policy, { fullRefundReason, refusal: Boolean(refusal) });
  const reason = refusal ? '의전 예약 거절 (대여 자격 미확인)' : fullRefundReason ? '의전 예약 취소 (운영팀 결정 전액 환불)' : percent === 100 ? '의전 예약 취소 (운영팀)' : `의전 예약 취소 (운영팀, ${percent}% 환불)`;
  const refunded = await refundOrder(ctx, paidOrder(found), percent, reason, staff.actor);
  return withUserLock(ctx.db, found.userId, async (tx) => {
    const [row] = await tx.select().from(butlerRequests).where(eq(butlerRequests.id, id)).for('update');
    if (row.status === 'CANCELLED') throw conflict('이미 취소된 의전 요청입니다.');
    if (refusal) {
      const refused = { reason: refusal.reason, by: staff.actor.replace(/^staff:/, ''), at: ctx.clock.now().toISOString() };
      await tx.update(butlerRequests).set({ legalBasis: { ...row.legalBasis, refused } }).where(eq(butlerRequests.id, id));
    }
    const now = ctx.clock.now();
    const operatorDecision = refusal ? `대여 자격 미확인: ${refusal.reason}` : fullRefundReason;
    await emit(tx, `butler.cancelled:${id}`, { type: 'butler.cancelled', userId: row.userId, butlerRequestId: id, refundPercent: percent, byOperator: true, ...(operatorDecision ? { operatorDecision } : {}) }, now);
    const result = { ...(await cancelBooking(tx, row)), refunded_amount: refunded, refund_percent: percent };
    await tellStaffOfCancel(tx, now, result, { kind: 'staff', name: staff.actor.replace(/^staff:/, '') });
    await tellDriverOfCancel(tx, now, row);
    // The audit keeps the override's reason with what was refunded.
    await staff.audit(tx, fullRefundReason ? { ...result, full_refund_reason: fullRefundReason } : result);
    return result;
  });
}
