import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertTestCar, insertUser } from '../../src/api/seed/factories';
import { issueSandboxBillingKey } from '../../src/api/billing/sandbox-provider';
import { openSession } from '../../src/api/accounts/sessions';
import { TEST_ADMIN_TOKEN } from '../../src/api/env';
import { anotherPlate, createTestContext, type TestContext } from './helpers';

let ctx: TestContext;
let carId: number;
const day = (offset: number) => new Date(Date.now() + 9 * 3600_000 + offset * 86_400_000).toISOString().slice(0, 10);
const admin = { token: TEST_ADMIN_TOKEN };

beforeAll(async () => {
  ctx = await createTestContext();
  ({ car: { id: carId } } = await insertTestCar(ctx.database.db, { fees: { subscription_fee_1: 4_000_000, subscription_fee_12: 3_000_000 } }));
});
afterAll(() => ctx.close());

/** A confirmed subscription of a new user running from start to end. */
async function subscription(start: string, end: string) {
  const user = await insertUser(ctx.database.db);
  const token = (await openSession(ctx.database.db, ctx.config, user.id)).access_token;
  const r = await ctx.call('POST', `/subscriptions/cars/${await anotherPlate(ctx, carId)}/request`, { token, json: { month: 1, billing_key: issueSandboxBillingKey(ctx.config) } });
  expect(r.status).toBe(201);
  const c = await ctx.call('POST', `/admin/subscription-requests/${r.body.data.subscription_request.id}/confirm`, { ...admin, json: { start_date: start, end_date: end } });
  expect(c.status).toBe(201);
  const list = (await ctx.call('GET', '/subscriptions', { token })).body.data.subscriptions;
  expect(list).toHaveLength(1);
  return { token, sub: list[0] as { id: number; is_active: boolean; is_current: boolean } };
}

describe('GET /subscriptions: is_active follows the end date', () => {
  it('is active and current within its dates, through the last day', async () => {
    expect((await subscription(day(-10), day(20))).sub).toMatchObject({ is_active: true, is_current: true });
    expect((await subscription(day(-30), day(0))).sub).toMatchObject({ is_active: true, is_current: true });
  });

  it('is active but not current before it starts', async () => {
    expect((await subscription(day(3), day(33))).sub).toMatchObject({ is_active: true, is_current: false });
  });

  it('is neither active nor current past its end date, though staff never switched it off', async () => {
    expect((await subscription(day(-40), day(-1))).sub).toMatchObject({ is_active: false, is_current: false });
  });

  it('is inactive once staff switch it off', async () => {
    const { token, sub } = await subscription(day(-1), day(29));
    await ctx.call('PATCH', `/admin/subscriptions/${sub.id}`, { ...admin, json: { is_active: false } });
    expect((await ctx.call('GET', '/subscriptions', { token })).body.data.subscriptions[0]).toMatchObject({ is_active: false, is_current: false });
  });
});
