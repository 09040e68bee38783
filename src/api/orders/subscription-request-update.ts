import { eq } from 'drizzle-orm';
import { todayInKorea } from '../../domain/dates';
import type { UpdateSubscriptionRequestInput } from '../../domain/schemas/orders';
import type { Db } from '../db/client';
import { subscriptionRequests } from '../db/schema';
import type { PaymentContext } from '../payment-context';
import { maskBillingKey } from '../billing/ledger';
import { settlePriceChange } from '../billing/order-charges';
import { carById } from '../catalogue/catalogue';
import { checkPointStep, claimBillingKey, creditPoints, dryRun, releaseCoupon, spendPoints, withUserLock } from './checkout';
import { lockCar, requireFree } from './availability';
import { rowTime } from '../jobs/clock';
import { checkedOptions, LEGACY_PRICES, orderableFee, priceInside } from './subscription-request-pricing';
import { ownRequest, paidOrder, REF, requireNotCompany, requirePending, toRequest } from './subscription-requests';

/**
 * PUT /subscriptions/requests/{id}: re-validates and re-prices like creation. The new price is
 * worked out first (a rolled-back run of the edit), the money settled (a higher first month
 * charges the difference, a lower one refunds it), then the edit is saved with its coupon and
 * point changes in one transaction.
 */
export async function updateRequest(ctx: PaymentContext, userId: number, id: number, input: UpdateSubscriptionRequestInput) {
  const { db } = ctx;
  const current = await ownRequest(db, userId, id);
  requireNotCompany(current, '수정');
  requirePending(current, '수정');
  const car = await carById(db, current.carId);
  const fee = orderableFee(car, input.month, todayInKorea(ctx.clock.now()));
  // The options and their prices as ordered (a later price change in the console does not touch a placed order).
  const stored = current.options;
  const prices = stored?.prices ?? LEGACY_PRICES;
  const options = checkedOptions(prices, input.month, fee, stored?.options);
  checkPointStep(input.point_amount);
  const keyChanged = input.billing_key !== current.billingKey && input.billing_key !== maskBillingKey(current.billingKey);
  const billingKey = keyChanged ? input.billing_key : current.billingKey;
  // A new key's card replaces the one shown; an unchanged key keeps it.
  const card = keyChanged ? await ctx.payments.verifyBillingKey(billingKey) : null;
  const edit = async (tx: Db) => {
    const locked = await ownRequest(tx, userId, id, { lock: true });
    requirePending(locked, '수정');
    if (locked.requestedStart && input.month !== locked.month) {
      await lockCar(tx, locked.carId);
      await requireFree(tx, car, locked.requestedStart, input.month, ctx.clock.now(), id);
    }
    if (keyChanged) await claimBillingKey(tx, { billingKey, service: 'SUBSCRIBE', userId, orderId: id });
    if (locked.userCouponId) await releaseCoupon(tx, locked.userCouponId);
    const quote = await priceInside(tx, userId, { month: input.month, fee, prices, options }, input.coupon_id, input.point_amount, todayInKorea(ctx.clock.now()));
    const delta = input.point_amount - locked.pointUsed;
    const entry = { userId, reason: 'SUBSCRIPTION_EDIT', refType: REF, refId: null, description: `구독 신청 #${id} 수정` };
    if (delta > 0) await spendPoints(tx, { ...entry, amount: delta });
    if (delta < 0) await creditPoints(tx, { ...entry, amount: -delta });
    const [updated] = await tx
      .update(subscriptionRequests)
      .set({
        month: input.month, userCouponId: input.coupon_id || null, pointUsed: input.point_amount, billingKey, billingProvider: ctx.payments.name,
        ...(keyChanged ? { cardIssuer: card?.issuer ?? null, cardLast4: card?.last4 ?? null } : {}),
        fee: quote.monthly, couponDiscount: quote.coupon_discount, finalFee: quote.paid_today, updatedAt: rowTime(),
        options: stored ? { options, prices, quote } : null,
      })
      .where(eq(subscriptionRequests.id, id))
      .returning();
    return updated;
  };
  const newPrice = (await dryRun(db, userId, edit)).finalFee;
  await settlePriceChange(ctx, paidOrder(current, billingKey), newPrice, `subreq:${id}:edit:${current.updatedAt.getTime()}`);
  const row = await withUserLock(db, userId, edit);
  return toRequest(db, row);
}
