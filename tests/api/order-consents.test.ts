import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subscriptionRequests } from '../../src/api/db/schema';
import { TEST_ADMIN_TOKEN } from '../../src/api/env';
import { insertTestCar } from '../../src/api/seed/factories';
import { anotherPlate, billingKey, createTestContext, customer, type TestContext } from './helpers';

/** Issue 48: the car's 위치정보 is an optional consent; the order keeps the choice and staff see it. */
let ctx: TestContext;
let carId: number;
beforeAll(async () => {
  ctx = await createTestContext();
  ({ car: { id: carId } } = await insertTestCar(ctx.database.db, { fees: { subscription_fee_12: 1_500_000 } }));
});
afterAll(() => ctx.close());

const order = async (json: Record<string, unknown>) => {
  const { token } = await customer(ctx);
  return ctx.call('POST', `/subscriptions/cars/${await anotherPlate(ctx, carId)}/request`, { token, json: { month: 12, billing_key: billingKey(ctx), ...json } });
};
const stored = async (id: number) => (await ctx.database.db.select().from(subscriptionRequests).where(eq(subscriptionRequests.id, id)))[0].locationConsent;

describe('the optional 위치정보 consent of an order', () => {
  it('orders without it, keeps the choice (absent = not given) and shows it on the desk', async () => {
    const without = await order({ location_consent: false });
    expect(without.status, JSON.stringify(without.body)).toBe(201);
    const withIt = await order({ location_consent: true });
    const absent = await order({});
    const ids = [without, withIt, absent].map((r) => r.body.data.subscription_request.id);
    expect(await Promise.all(ids.map(stored))).toEqual([false, true, false]);
    const desk = (await ctx.call('GET', '/admin/subscription-requests', { token: TEST_ADMIN_TOKEN })).body.data.requests as { id: number; location_consent: boolean | null }[];
    expect(ids.map((id) => desk.find((r) => r.id === id)?.location_consent)).toEqual([false, true, false]);
  });

  it('refuses a value that is not true or false (400, Korean)', async () => {
    const bad = await order({ location_consent: 'yes' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.location_consent[0]).toBe('위치정보 동의 여부는 true 또는 false여야 합니다.');
  });
});
