import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertCoupon } from '../../src/api/seed/factories';
import { pointCoupons } from '../../src/api/db/schema';
import { createTestContext, customer, koreaDay, type TestContext } from './helpers';

let ctx: TestContext;
const day = koreaDay;

beforeAll(async () => {
  ctx = await createTestContext();
  const db = ctx.database.db;
  await insertCoupon(db, { code: 'SUB10', discountType: 'PERCENTAGE', discountRate: 10 });
  await insertCoupon(db, { code: 'BUT5', service: 'BUTLER', discountType: 'FIXED', discount: 50_000 });
  await insertCoupon(db, { code: 'OLD', validFrom: day(-20), validTo: day(-1) });
  await db.insert(pointCoupons).values([
    { code: 'P50', name: '포인트 5만', amount: 50_000 },
    { code: 'PGONE', name: '지난 포인트', amount: 50_000, validTo: day(-1) },
  ]);
});
afterAll(() => ctx.close());


describe('coupons', () => {
  it('adds a coupon by code (trimmed, any case) once and lists it by service', async () => {
    const { token } = await customer(ctx);
    const add = await ctx.call('POST', '/subscriptions/coupons/sub10', { token });
    expect(add.status).toBe(201);
    expect(add.body.data.coupon).toMatchObject({ is_used: false, is_valid: true, coupon: { code: 'SUB10', discount_type: 'PERCENTAGE', discount_rate: 10 } });
    expect((await ctx.call('POST', '/subscriptions/coupons/SUB10', { token })).status).toBe(409);
    await ctx.call('POST', '/subscriptions/coupons/BUT5', { token });
    const all = (await ctx.call('GET', '/subscriptions/coupons', { token })).body.data.coupons;
    expect(all).toHaveLength(2);
    const sub = (await ctx.call('GET', '/subscriptions/coupons?service=SUBSCRIBE', { token })).body.data.coupons;
    expect(sub.map((h: any) => h.coupon.code)).toEqual(['SUB10']);
    const but = (await ctx.call('GET', '/subscriptions/coupons?service=BUTLER', { token })).body.data.coupons;
    expect(but.map((h: any) => h.coupon.code)).toEqual(['BUT5']);
    expect((await ctx.call('GET', '/subscriptions/coupons?service=OTHER', { token })).status).toBe(400);
  });

  it('refuses unknown, expired and malformed codes with Korean messages', async () => {
    const { token } = await customer(ctx);
    const unknown = await ctx.call('POST', '/subscriptions/coupons/NOPE', { token });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toMatch(/존재하지 않는/);
    expect((await ctx.call('POST', '/subscriptions/coupons/OLD', { token })).status).toBe(422);
    const bad = await ctx.call('POST', `/subscriptions/coupons/${encodeURIComponent('a b!')}`, { token });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.code).toBeDefined();
    expect((await ctx.call('POST', '/subscriptions/coupons/SUB10')).status).toBe(401);
  });

  it('judges a coupon period on the business clock, not the wall clock', async () => {
    await insertCoupon(ctx.database.db, { code: 'LATER', validFrom: day(10), validTo: day(20) });
    await insertCoupon(ctx.database.db, { code: 'ENDING', validFrom: day(-5), validTo: day(5) });
    const { token } = await customer(ctx);
    try {
      // Twelve days on by the shop's clock: LATER has begun, ENDING has ended.
      ctx.clock.set(new Date(`${day(12)}T12:00:00+09:00`));
      expect((await ctx.call('POST', '/subscriptions/coupons/LATER', { token })).status).toBe(201);
      expect((await ctx.call('POST', '/subscriptions/coupons/ENDING', { token })).status).toBe(422);
      const listed = (await ctx.call('GET', '/subscriptions/coupons?service=SUBSCRIBE', { token })).body.data.coupons as { is_valid: boolean; coupon: { code: string } }[];
      expect(listed.find((h) => h.coupon.code === 'LATER')?.is_valid).toBe(true);
    } finally {
      ctx.clock.reset();
    }
  });

  it('GET /subscriptions/coupons/{code} shows the coupon', async () => {
    const { token } = await customer(ctx);
    const res = await ctx.call('GET', '/subscriptions/coupons/SUB10', { token });
    expect(res.body.data.coupon.code).toBe('SUB10');
  });
});

describe('points ledger', () => {
  it('a point coupon credits once per user; the ledger lists it', async () => {
    const a = await customer(ctx);
    const b = await customer(ctx);
    const first = await ctx.call('POST', '/users/point-coupons/P50', { token: a.token });
    expect(first.status).toBe(201);
    expect(first.body.data).toMatchObject({ amount: 50_000, point: 50_000 });
    const [x, y] = await Promise.all([
      ctx.call('POST', '/users/point-coupons/P50', { token: a.token }),
      ctx.call('POST', '/users/point-coupons/p50', { token: a.token }),
    ]);
    expect([x.status, y.status]).toEqual([409, 409]);
    expect((await ctx.call('POST', '/users/point-coupons/P50', { token: b.token })).status).toBe(201);
    const ledger = (await ctx.call('GET', '/users/point-transactions', { token: a.token })).body.data;
    expect(ledger.point).toBe(50_000);
    expect(ledger.point_transactions).toHaveLength(1);
    expect(ledger.point_transactions[0]).toMatchObject({ amount: 50_000, reason: 'POINT_COUPON' });
  });

  it('refuses unknown and expired point coupons', async () => {
    const { token } = await customer(ctx);
    expect((await ctx.call('POST', '/users/point-coupons/NONE', { token })).status).toBe(404);
    expect((await ctx.call('POST', '/users/point-coupons/PGONE', { token })).status).toBe(422);
    expect((await ctx.call('GET', '/users/point-transactions', { token })).body.data.point).toBe(0);
  });
});
