import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayInKorea } from '../../src/domain/dates';
import { editPrice } from '../../src/islands/butler-lists/detail/edit-price';
import { insertButlerCar, insertCoupon, insertModel, insertUser, upsertBrand } from '../../src/api/seed/factories';
import { userCoupons } from '../../src/api/db/schema';
import { issueSandboxBillingKey } from '../../src/api/billing/sandbox-provider';
import { creditPoints, pointBalance } from '../../src/api/wallet/points';
import { openSession } from '../../src/api/accounts/sessions';
import { createTestContext, type TestContext } from './helpers';

/**
 * The edit form's price preview (editPrice, fed as the browser feeds it: the request as listed and
 * the held coupon from GET /butlers/coupons) against what PUT /butlers/requests/{id} then charges,
 * refunds and gives back in points.
 */

let ctx: TestContext;
let modelId: number;

beforeAll(async () => {
  ctx = await createTestContext();
  const brand = await upsertBrand(ctx.database.db, { name: 'Genesis', slug: 'genesis-edit-price' });
  modelId = (await insertModel(ctx.database.db, { brandId: brand.id, name: 'G90' })).id;
});
afterAll(() => ctx.close());

const at = (days: number, time: string) => `${addDays(todayInKorea(new Date()), days)}T${time}:00+09:00`;

async function customer(points: number, coupon: Parameters<typeof insertCoupon>[1] | null) {
  const db = ctx.database.db;
  const user = await insertUser(db);
  if (points) await creditPoints(db, { userId: user.id, amount: points, reason: 'ADMIN' });
  let holding: number | null = null;
  if (coupon) {
    const c = await insertCoupon(db, { service: 'BUTLER', ...coupon });
    holding = (await db.insert(userCoupons).values({ userId: user.id, couponId: c.id }).returning())[0].id;
  }
  return { user, token: (await openSession(db, ctx.config, user.id)).access_token, holding };
}

/** What the browser has: the request as GET /butlers/requests lists it, and its coupon's terms. */
async function seen(token: string, id: number) {
  const request = ((await ctx.call('GET', '/butlers/requests', { token })).body.data.butler_requests).find((r) => r.id === id)!;
  const coupons = (await ctx.call('GET', '/butlers/coupons', { token })).body.data.coupons;
  const terms = request.coupon ? coupons.find((h) => h.id === request.coupon!.id)!.coupon : null;
  return { request, terms };
}

describe('the edit preview charges what the server charges', () => {
  const cases: { name: string; points: number; coupon: Parameters<typeof insertCoupon>[1] | null; booked: [string, string | null]; edits: [string, string | null][] }[] = [
    { name: 'a percentage coupon and points, longer then shorter then open-ended', points: 50_000, coupon: { discountType: 'PERCENTAGE', discountRate: 10 }, booked: ['09:00', '17:00'], edits: [['09:00', '20:30'], ['10:00', '18:00'], ['08:00', null]] },
    { name: 'a fixed coupon', points: 0, coupon: { discountType: 'FIXED', discount: 50_000 }, booked: ['09:00', '17:00'], edits: [['07:00', '19:00'], ['09:00', '17:00']] },
    { name: 'points beyond the shorter price come back to the balance', points: 980_000, coupon: null, booked: ['08:00', '20:00'], edits: [['08:00', '16:00'], ['08:00', '18:00']] },
  ];
  let day = 100;
  for (const c of cases) {
    it(c.name, async () => {
      const d = day++;
      const car = await insertButlerCar(ctx.database.db, modelId, { subModel: 'G90 4인', butlerFee: 700_000, butlerOvertimeFee: null });
      const { user, token, holding } = await customer(c.points, c.coupon);
      const booked = await ctx.call('POST', `/butlers/cars/${car.id}/request`, {
        token,
        json: {
          start_at: at(d, c.booked[0]), end_at: c.booked[1] && at(d, c.booked[1]), start_location: 'a', end_location: 'b', way_point_requests: [],
          passenger_count: 2, coupon_id: holding, point_amount: c.points || null, billing_key: issueSandboxBillingKey(ctx.config),
        },
      });
      expect(booked.status).toBe(201);
      const id = booked.body.data.butler_request.id;
      const moves: number[] = [];
      for (const [start, end] of c.edits) {
        const { request, terms } = await seen(token, id);
        const balance = await pointBalance(ctx.database.db, user.id);
        const p = editPrice(request.car, at(d, start), end && at(d, end), terms, request.point_used, request.final_price);
        const res = await ctx.call('PUT', `/butlers/requests/${id}`, { token, json: { month: 1, billing_key: 'temp-billing-key', start_at: at(d, start), end_at: end && at(d, end), start_location: 'a', end_location: 'b' } });
        expect(res.status).toBe(200);
        const after = res.body.data.butler_request;
        expect({ final: after.final_price, points: after.point_used, paidChange: after.paid_amount - request.paid_amount, pointsBack: (await pointBalance(ctx.database.db, user.id)) - balance })
          .toEqual({ final: p.quote.final, points: p.quote.points, paidChange: p.difference, pointsBack: p.pointsBack });
        moves.push(p.difference, p.pointsBack);
      }
      // Each case moves money or points at least once (not only unchanged prices).
      expect(moves.some((m) => m !== 0)).toBe(true);
    });
  }
});
