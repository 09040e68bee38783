import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertTestCar } from '../../src/api/seed/factories';
import { paymentRefunds, payments, subscriptionExtensions, subscriptionSwaps, subscriptions } from '../../src/api/db/schema';
import { swapRefundKey } from '../../src/api/orders/swap-views';
import { anotherPlate, apiTools, countQueries, createTestContext, customer, type TestContext } from './helpers';

/**
 * The subscription lists read a fixed number of queries whatever the number of subscriptions
 * (issue 51): my page's GET /subscriptions (cars, extensions, swaps and what cancelling them
 * moves, the owed month's failed attempts and fee) and the staff's overdue list. Each
 * subscription here has all of it, so a read left in a loop over the rows shows as more queries
 * for 6 subscriptions than for 1.
 */
let ctx: TestContext;
let carId: number;
let otherCarId: number;
const START = '2031-03-10';

beforeAll(async () => {
  ctx = await createTestContext();
  ({ car: { id: carId } } = await insertTestCar(ctx.database.db, { fees: { subscription_fee_1: 1_900_000, subscription_fee_12: 1_200_000 } }));
  ({ car: { id: otherCarId } } = await insertTestCar(ctx.database.db, { brand: 'Porsche', model: 'Taycan', fees: { subscription_fee_12: 1_500_000 } }));
  await setClock(`${START}T08:00:00+09:00`);
});
afterAll(() => ctx.close());

const { admin, setClock, card } = apiTools(() => ctx);

/**
 * A confirmed 12-month subscription of the customer on a plate of its own, then as a list shows
 * everything: an extension, two confirmed swaps (a charged difference and a refunded one, both
 * still cancellable), month 2 declined (PAST_DUE, one failed attempt).
 */
async function fullSubscription(who: { user: { id: number }; token: string }) {
  const db = ctx.database.db;
  const plate = await anotherPlate(ctx, carId);
  const req = await ctx.call('POST', `/subscriptions/cars/${plate}/request`, { token: who.token, json: { month: 12, billing_key: card() } });
  expect(req.status, JSON.stringify(req.body)).toBe(201);
  const confirmed = await admin('POST', `/admin/subscription-requests/${req.body.data.subscription_request.id}/confirm`, { start_date: START });
  expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(201);
  const id = confirmed.body.data.subscription.id;
  const [first] = await db.select().from(payments).where(eq(payments.id, `subreq-${req.body.data.subscription_request.id}`));
  await db.insert(payments).values({ ...first, id: `sub-${id}-m2`, purpose: 'SUBSCRIPTION_MONTH', refType: 'subscription', refId: id, month: 2, status: 'FAILED', failureReason: '잔액 부족', paidAt: null, failedAt: new Date() });
  // Made before the swaps: an extension after a swap makes it not cancellable.
  await db.insert(subscriptionExtensions).values({ subscriptionId: id, userId: who.user.id, months: 1, monthlyFee: 1_300_000, baseFee: 1_300_000, firstMonth: 13, lastMonth: 13, fromDate: '2032-03-10', toDate: '2032-04-09', createdAt: new Date('2020-01-01T00:00:00Z') });
  await db.update(subscriptions).set({ extendedMonths: 1, billingStatus: 'PAST_DUE' }).where(eq(subscriptions.id, id));
  const swap = { subscriptionId: id, userId: who.user.id, fromCarId: plate, billingMonth: 6, firstNewMonth: 7, oldFee: 1_200_000, baseFee: 1_500_000, prorateDays: 10, monthDays: 30, status: 'CONFIRMED' as const };
  await db.insert(subscriptionSwaps).values({ ...swap, toCarId: await anotherPlate(ctx, otherCarId), swapDate: '2031-08-20', newFee: 1_500_000, adjustment: 100_000, paymentId: first.id });
  const [refunded] = await db
    .insert(subscriptionSwaps)
    .values({ ...swap, toCarId: await anotherPlate(ctx, carId), swapDate: '2031-09-20', billingMonth: 7, firstNewMonth: 8, newFee: 1_000_000, adjustment: -50_000, paymentId: first.id })
    .returning();
  await db.insert(paymentRefunds).values({ key: swapRefundKey(refunded.id), paymentId: first.id, userId: who.user.id, amount: 50_000, reason: '차량 교체 차액', actor: 'system', status: 'SUCCEEDED' });
  return id;
}

/** GET /subscriptions of the customer, with the statements it sent. */
async function myList(token: string) {
  const { result, queries } = await countQueries(ctx.database.db, () => ctx.call('GET', '/subscriptions', { token }));
  expect(result.status).toBe(200);
  return { subscriptions: result.body.data.subscriptions, queries };
}

describe('subscription lists: a fixed number of queries', () => {
  it('my page reads as many queries for 6 subscriptions as for 1, each answer whole', async () => {
    const one = await customer(ctx);
    await fullSubscription(one);
    const six = await customer(ctx);
    const ids: number[] = [];
    for (let i = 0; i < 6; i++) ids.push(await fullSubscription(six));

    const single = await myList(one.token);
    const many = await myList(six.token);
    expect(single.subscriptions).toHaveLength(1);
    expect(many.subscriptions.map((s) => s.id)).toEqual([...ids].reverse());
    expect(many.queries.length, many.queries.join('\n')).toBe(single.queries.length);
    // Each subscription's own parts, read in the batch: not another's, nothing left out.
    for (const s of many.subscriptions) {
      expect(s.extensions).toEqual([expect.objectContaining({ months: 1, first_month: 13, monthly_fee: 1_300_000 })]);
      expect(s.swaps.map((w) => [w.adjustment, w.cancel?.money])).toEqual([
        [100_000, { kind: 'refund', amount: expect.any(Number) }],
        [-50_000, { kind: 'charge', amount: 50_000 }],
      ]);
      expect(s.swaps[0].from_car.id).toBe(s.request.car.id);
      expect(s.billing).toMatchObject({ status: 'PAST_DUE', term_months: 13, failed_payment: { id: `sub-${s.id}-m2` }, next_charge_amount: 1_200_000 });
    }
  });

  it('the staff overdue list reads as many queries for 6 overdue subscriptions as for 1', async () => {
    const db = ctx.database.db;
    // Only one subscription overdue first, then six.
    await db.update(subscriptions).set({ billingStatus: 'ACTIVE' });
    const overdue = await fullSubscription(await customer(ctx));
    const read = async () => {
      const { result, queries } = await countQueries(db, () => admin('GET', '/admin/subscriptions/overdue'));
      expect(result.status).toBe(200);
      return { subscriptions: result.body.data.subscriptions, queries };
    };
    const single = await read();
    expect(single.subscriptions.map((s) => s.id)).toEqual([overdue]);
    const who = await customer(ctx);
    for (let i = 0; i < 5; i++) await fullSubscription(who);
    const many = await read();
    expect(many.subscriptions).toHaveLength(6);
    expect(many.queries.length, many.queries.join('\n')).toBe(single.queries.length);
    for (const s of many.subscriptions) expect(s).toMatchObject({ month: 2, amount: 1_200_000, failures: 1, last_failure: '잔액 부족', due_date: '2031-04-10' });
  });
});
