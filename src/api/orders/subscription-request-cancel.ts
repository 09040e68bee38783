import { eq } from 'drizzle-orm';
import { subscriptionRequests } from '../db/schema';
import { emit, type CancelledBy } from '../notifications/events';
import type { PaymentContext } from '../payment-context';
import { refundOrder } from '../billing/order-charges';
import { creditPoints, releaseCoupon, withUserLock } from './checkout';
import type { AuditWriter } from '../audit/audit';
import { ownRequest, paidOrder, REF, requireNotCompany, requirePending } from './subscription-requests';

/**
 * DELETE /subscriptions/requests/{id}: irreversible. The first month's charge is refunded in full
 * first (a refund the provider refuses stops the cancel), then the coupon is returned and the
 * points refunded once. `staff` is also the company admin's cancel of a company order (issue 52:
 * company-subscription.ts), who is named in `by`.
 */
export async function cancelRequest(ctx: PaymentContext, userId: number, id: number, staff?: { actor: string; audit: AuditWriter; reason?: 'car_taken'; by?: CancelledBy }) {
  const current = await ownRequest(ctx.db, userId, id);
  if (!staff) requireNotCompany(current, '취소');
  requirePending(current, '취소');
  const refunded = await refundOrder(ctx, paidOrder(current), 100, staff ? '구독 신청 취소 (운영팀)' : '구독 신청 취소', staff?.actor ?? 'customer');
  return withUserLock(ctx.db, userId, async (tx) => {
    const row = await ownRequest(tx, userId, id, { lock: true });
    requirePending(row, '취소');
    await tx.update(subscriptionRequests).set({ status: 'CANCELLED', cancelledAt: ctx.clock.now(), updatedAt: ctx.clock.now() }).where(eq(subscriptionRequests.id, id));
    if (row.userCouponId) await releaseCoupon(tx, row.userCouponId);
    if (row.pointUsed > 0) {
      await creditPoints(tx, { userId, amount: row.pointUsed, reason: 'SUBSCRIPTION_REFUND', refType: REF, refId: id, description: `구독 신청 #${id} 취소 환불` });
    }
    await emit(tx, `subscription.cancelled:${id}`, { type: 'subscription.cancelled', userId, requestId: id, ...(staff?.reason ? { reason: staff.reason } : {}) }, ctx.clock.now());
    const result = { id, refunded_points: row.pointUsed, coupon_returned: Boolean(row.userCouponId), refunded_amount: refunded };
    // Staff hear of it too (the car's hold is free again), with the refund.
    const by: CancelledBy = staff?.by ?? (staff ? { kind: 'staff', name: staff.actor.replace(/^staff:/, '') } : { kind: 'customer' });
    await emit(tx, `staff.subscription_cancelled:${id}`, { type: 'staff.subscription_cancelled', requestId: id, by, refundedAmount: refunded, refundedPoints: row.pointUsed }, ctx.clock.now());
    await staff?.audit(tx, result);
    return result;
  });
}
