import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertTestCar } from '../../src/api/seed/factories';
import { jobs, paymentRefunds, payments, sandboxPayments, subscriptions } from '../../src/api/db/schema';
import { TEST_ADMIN_TOKEN } from '../../src/api/env';
import type { CarOptionPrices } from '../../src/domain/subscription-price';
import { anotherPlate, apiTools, billingKey, couponUsed, createTestContext, customer, pointsOf, type TestContext } from './helpers';

let ctx: TestContext;
let carId: number;
const ADMIN = TEST_ADMIN_TOKEN;

const prices: CarOptionPrices = {
  mileage_plans: [{ km: 2_500, monthly: 0 }], overage_per_km: 900, young_driver_monthly: 0, extra_driver_monthly: 0, extra_driver_max: 0,
  deposit: 2_000_000, prepayment_max: null, deductible: 500_000,
};
// 탁송 outside 서울·경기: 150,000 won with the first payment.
const options = { mileage_km: 2_500, driver_age: 'AGE_26', extra_drivers: 0, handover: 'DELIVERY', delivery_address: '부산 해운대구 우동 1408', delivery_window: 'MORNING', prepayment: 0 };

beforeAll(async () => {
  ctx = await createTestContext();
  ({ car: { id: carId } } = await insertTestCar(ctx.database.db, { fees: { subscription_fee_12: 1_550_000 }, optionPrices: prices }));
});
afterAll(() => ctx.close());

const { setClock } = apiTools(() => ctx);

/** A confirmed 12-month subscription starting on `start`, ordered on `orderedOn` with a 100,000-won coupon and 50,000 points. */
async function subscription(orderedOn: string, start: string) {
  await setClock(`${orderedOn}T09:00:00+09:00`);
  const { user, token, holdings } = await customer(ctx, 50_000, [{ discountType: 'FIXED', discount: 100_000 }], 'SUBSCRIBE');
  const req = await ctx.call('POST', `/subscriptions/cars/${await anotherPlate(ctx, carId)}/request`, {
    token, json: { month: 12, billing_key: billingKey(ctx), options, start_date: start, coupon_id: holdings[0], point_amount: 50_000 },
  });
  expect(req.status).toBe(201);
  const requestId = req.body.data.subscription_request.id;
  const sub = (await ctx.call('POST', `/admin/subscription-requests/${requestId}/confirm`, { token: ADMIN, json: { start_date: start } })).body.data.subscription;
  return { user, token, holding: holdings[0], requestId, subscriptionId: sub.id };
}

const refundsOf = (requestId: number) =>
  ctx.database.db.select({ amount: paymentRefunds.amount, status: paymentRefunds.status }).from(paymentRefunds).innerJoin(payments, eq(payments.id, paymentRefunds.paymentId)).where(and(eq(payments.refType, 'subscription_request'), eq(payments.refId, requestId)));
const notifies = (key: string) => ctx.database.db.select().from(jobs).where(like(jobs.key, `notify:${key}`));

describe('청약철회 (withdrawal)', () => {
  it('before the handover: quotes every part, refunds it all once (two clicks, a retry), returns coupon and points, frees the car', async () => {
    const { user, token, holding, requestId, subscriptionId } = await subscription('2030-03-01', '2030-03-10');
    await setClock('2030-03-05T10:00:00+09:00');
    const quote = await ctx.call('GET', `/subscriptions/${subscriptionId}/withdrawal`, { token });
    expect(quote.status).toBe(200);
    // First payment: 1,550,000 − 100,000 coupon − 50,000 points + 150,000 탁송비 + 2,000,000 보증금 = 3,550,000.
    expect(quote.body.data).toMatchObject({
      available: true, withdrawal_days: 7,
      quote: { kind: 'BEFORE_HANDOVER', first_month_refund: 1_400_000, delivery_fee_refund: 150_000, deposit_refund: 2_000_000, prepayment_refund: 0, usage_charge: 0, refund: 3_550_000, points_restored: 50_000, coupon_restored: true },
    });
    expect(quote.body.data.lines.at(-1)).toEqual({ label: '카드 환불 합계', amount: '3,550,000원' });

    // A stale amount is refused, nothing refunded.
    const stale = await ctx.call('POST', `/subscriptions/${subscriptionId}/withdrawal`, { token, json: { quoted_refund: 3_000_000 } });
    expect(stale.status).toBe(409);
    expect(stale.body.message).toContain('3,550,000원');
    expect(await refundsOf(requestId)).toEqual([]);
    // Bad input: Korean 400, never 500.
    const bad = await ctx.call('POST', `/subscriptions/${subscriptionId}/withdrawal`, { token, json: { quoted_refund: 'all' } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/[가-힣]/);

    const [a, b] = await Promise.all([0, 1].map(() => ctx.call('POST', `/subscriptions/${subscriptionId}/withdrawal`, { token, json: { quoted_refund: 3_550_000 } })));
    for (const r of [a, b]) expect(r.status).toBe(200);
    expect(a.body.data.withdrawal).toMatchObject({ subscription_id: subscriptionId, refunded: 3_550_000, quote: { kind: 'BEFORE_HANDOVER' } });
    const again = await ctx.call('POST', `/subscriptions/${subscriptionId}/withdrawal`, { token, json: { quoted_refund: 3_550_000 } });
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(a.body.data);
    expect(await refundsOf(requestId)).toEqual([{ amount: 3_550_000, status: 'SUCCEEDED' }]);
    const [paid] = await ctx.database.db.select().from(payments).where(and(eq(payments.refType, 'subscription_request'), eq(payments.refId, requestId)));
    expect(paid).toMatchObject({ status: 'CANCELLED', cancelledAmount: 3_550_000 });
    const [sandbox] = await ctx.database.db.select().from(sandboxPayments).where(eq(sandboxPayments.paymentId, paid.id));
    expect(sandbox).toBeDefined();

    expect(await pointsOf(ctx, user.id)).toBe(50_000);
    expect(await couponUsed(ctx, holding)).toBe(false);
    const [row] = await ctx.database.db.select().from(subscriptions).where(eq(subscriptions.id, subscriptionId));
    expect(row).toMatchObject({ isActive: false, billingStatus: 'CANCELLED' });
    // Month 2 is never charged.
    expect(await ctx.database.db.select().from(jobs).where(and(eq(jobs.key, `charge:sub:${subscriptionId}:m2`), eq(jobs.status, 'queued')))).toEqual([]);
    // The customer and staff are told once.
    expect(await notifies(`subscription.withdrawn:${subscriptionId}`)).toHaveLength(1);
    expect(await notifies(`staff.subscription_withdrawn:${subscriptionId}`)).toHaveLength(1);
    // The GET now says it is done.
    expect((await ctx.call('GET', `/subscriptions/${subscriptionId}/withdrawal`, { token })).body.data).toMatchObject({ available: false, reason: '이미 청약철회된 구독입니다.' });
  });

  it('frees the car: another customer may order the same days', async () => {
    const plate = await anotherPlate(ctx, carId);
    await setClock('2030-05-01T09:00:00+09:00');
    const first = await customer(ctx);
    const req = await ctx.call('POST', `/subscriptions/cars/${plate}/request`, { token: first.token, json: { month: 12, billing_key: billingKey(ctx), start_date: '2030-05-10' } });
    const sub = (await ctx.call('POST', `/admin/subscription-requests/${req.body.data.subscription_request.id}/confirm`, { token: ADMIN, json: { start_date: '2030-05-10' } })).body.data.subscription;
    const second = await customer(ctx);
    const refused = await ctx.call('POST', `/subscriptions/cars/${plate}/request`, { token: second.token, json: { month: 12, billing_key: billingKey(ctx), start_date: '2030-05-10' } });
    expect(refused.status).toBe(409);
    const q = (await ctx.call('GET', `/subscriptions/${sub.id}/withdrawal`, { token: first.token })).body.data.quote;
    expect((await ctx.call('POST', `/subscriptions/${sub.id}/withdrawal`, { token: first.token, json: { quoted_refund: q!.refund } })).status).toBe(200);
    const taken = await ctx.call('POST', `/subscriptions/cars/${plate}/request`, { token: second.token, json: { month: 12, billing_key: billingKey(ctx), start_date: '2030-05-10' } });
    expect(taken.status).toBe(201);
  });

  it('after the handover: less the days used and the 탁송비, deposit back; refused after the 7th day with the deadline', async () => {
    const { user, token, holding, requestId, subscriptionId } = await subscription('2030-07-01', '2030-07-10');
    // No handover record: the car counts as handed over on the start day. 7/10–7/12 = 3 days; month 1 runs 7/10–8/09 (31 days).
    await setClock('2030-07-12T10:00:00+09:00');
    const quote = (await ctx.call('GET', `/subscriptions/${subscriptionId}/withdrawal`, { token })).body.data;
    // 1,550,000 × 3 ÷ 31 = 150,000: the 100,000 coupon and 50,000 points take it; the card's 1,400,000 first month comes back.
    expect(quote).toMatchObject({
      available: true, deadline: '2030-07-17',
      quote: { kind: 'AFTER_HANDOVER', handover_day: '2030-07-10', days_used: 3, days_in_month: 31, usage_charge: 150_000, first_month_refund: 1_400_000, delivery_fee_refund: 0, delivery_fee_kept: 150_000, deposit_refund: 2_000_000, refund: 3_400_000, points_restored: 0, coupon_restored: false },
    });
    const done = await ctx.call('POST', `/subscriptions/${subscriptionId}/withdrawal`, { token, json: { quoted_refund: 3_400_000 } });
    expect(done.status).toBe(200);
    expect(await refundsOf(requestId)).toEqual([{ amount: 3_400_000, status: 'SUCCEEDED' }]);
    expect(await pointsOf(ctx, user.id)).toBe(0);
    expect(await couponUsed(ctx, holding)).toBe(true);
    const [row] = await ctx.database.db.select().from(subscriptions).where(eq(subscriptions.id, subscriptionId));
    expect(row).toMatchObject({ endDate: '2030-07-12', billingStatus: 'CANCELLED' });

    const late = await subscription('2030-09-01', '2030-09-10');
    await setClock('2030-09-18T10:00:00+09:00');
    const closed = (await ctx.call('GET', `/subscriptions/${late.subscriptionId}/withdrawal`, { token: late.token })).body.data;
    expect(closed).toMatchObject({ available: false, deadline: '2030-09-17', reason: '청약철회 기간(인도일로부터 7일, 2030-09-17까지)이 지났습니다. 중도 해지를 이용해주세요.' });
    const refused = await ctx.call('POST', `/subscriptions/${late.subscriptionId}/withdrawal`, { token: late.token, json: { quoted_refund: 0 } });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain('2030-09-17');
  });

  it("another customer's subscription is a 404, and nothing is refunded", async () => {
    const { requestId, subscriptionId } = await subscription('2030-11-01', '2030-11-10');
    const stranger = await customer(ctx);
    expect((await ctx.call('GET', `/subscriptions/${subscriptionId}/withdrawal`, { token: stranger.token })).status).toBe(404);
    const post = await ctx.call('POST', `/subscriptions/${subscriptionId}/withdrawal`, { token: stranger.token, json: { quoted_refund: 3_550_000 } });
    expect(post.status).toBe(404);
    expect(post.body.message).toBe('구독을 찾을 수 없습니다.');
    expect(await refundsOf(requestId)).toEqual([]);
    expect((await ctx.call('GET', `/subscriptions/${subscriptionId}/withdrawal`)).status).toBe(401);
  });
});
