import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyReferral, REFERRAL_REWARD } from '../../src/api/wallet/referrals';
import { pointBalance } from '../../src/api/wallet/points';
import { createTestContext, customer, type TestContext } from './helpers';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());


describe('referrals', () => {
  it('entering a code rewards both sides once and lists them', async () => {
    const a = await customer(ctx);
    const b = await customer(ctx);
    const res = await ctx.call('POST', `/users/referrals/%20${a.user.referralCode.toLowerCase()}%20`, { token: b.token });
    expect(res.status).toBe(201);
    expect(res.body.data.referrals_received).toEqual([{ referrer_username: a.user.username, created_at: expect.any(String) }]);
    expect(await pointBalance(ctx.database.db, a.user.id)).toBe(REFERRAL_REWARD);
    expect(await pointBalance(ctx.database.db, b.user.id)).toBe(REFERRAL_REWARD);
    const mine = (await ctx.call('GET', '/users/referrals', { token: a.token })).body.data;
    expect(mine.referral_code).toBe(a.user.referralCode);
    expect(mine.referrals_given).toEqual([{ referree_username: b.user.username, created_at: expect.any(String) }]);
    expect(mine.referrals_received).toEqual([]);
  });

  it('once per account, never one own code, unknown codes 404', async () => {
    const a = await customer(ctx);
    const b = await customer(ctx);
    const c = await customer(ctx);
    const own = await ctx.call('POST', `/users/referrals/${a.user.referralCode}`, { token: a.token });
    expect(own.status).toBe(400);
    expect(own.body.message).toMatch(/본인/);
    expect((await ctx.call('POST', `/users/referrals/${a.user.referralCode}`, { token: b.token })).status).toBe(201);
    const twice = await ctx.call('POST', `/users/referrals/${c.user.referralCode}`, { token: b.token });
    expect(twice.status).toBe(409);
    expect(twice.body.message).toMatch(/한 번만/);
    expect((await ctx.call('POST', '/users/referrals/ZZZZZZZZ', { token: c.token })).status).toBe(404);
    expect((await ctx.call('GET', '/users/referrals')).status).toBe(401);
    expect(await pointBalance(ctx.database.db, b.user.id)).toBe(REFERRAL_REWARD);
  });

  it('applyReferral (used at signup) credits once even when called twice at the same time', async () => {
    const a = await customer(ctx);
    const b = await customer(ctx);
    const results = await Promise.all([
      applyReferral(ctx.database.db, { referrerId: a.user.id, refereeId: b.user.id }),
      applyReferral(ctx.database.db, { referrerId: a.user.id, refereeId: b.user.id }),
    ]);
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await pointBalance(ctx.database.db, a.user.id)).toBe(REFERRAL_REWARD);
    expect(await pointBalance(ctx.database.db, b.user.id)).toBe(REFERRAL_REWARD);
  });
});
