import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inArray } from 'drizzle-orm';
import { jobs } from '../../src/api/db/schema';
import { addDays, todayInKorea } from '../../src/domain/dates';
import { insertButlerCar, insertModel, upsertBrand } from '../../src/api/seed/factories';
import { apiTools, billingKey, createTestContext, customer, type TestContext } from './helpers';

/**
 * After the trip's actual end is recorded, its customer rates it once (1–5, optional comment):
 * before the end, or a second time, 409 in Korean; another user 404, nobody 401. Staff read each
 * driver's average and count on the roster (GET /admin/drivers).
 */
let ctx: TestContext;
let modelId: number;
const { admin: staff } = apiTools(() => ctx);
const at = (days: number, time: string) => `${addDays(todayInKorea(new Date()), days)}T${time}:00+09:00`;
const korean = /[가-힣]/;

beforeAll(async () => {
  ctx = await createTestContext();
  const brand = await upsertBrand(ctx.database.db, { name: '캐딜락', slug: 'cadillac-rate' });
  modelId = (await insertModel(ctx.database.db, { brandId: brand.id, name: '에스컬레이드' })).id;
});
afterAll(() => ctx.close());

let driverSeq = 0;
async function newDriver() {
  const res = await staff('POST', '/admin/drivers', { name: `평가기사${++driverSeq}`, phone: `010-4444-${String(2000 + driverSeq)}`, gender: 'male' });
  return res.body.data.driver as { id: number };
}

/** A booking `days` ahead, assigned to the driver (which confirms it). */
async function trip(days: number, driverId: number, who?: { token: string }) {
  const owner = who ?? (await customer(ctx));
  const car = await insertButlerCar(ctx.database.db, modelId, { licensePlate: null });
  const res = await ctx.call('POST', `/butlers/cars/${car.id}/request`, {
    token: owner.token,
    json: { start_at: at(days, '09:00'), end_at: at(days, '17:00'), start_location: '서울 용산구 한남대로 98', end_location: '서울 송파구 올림픽로 300', billing_key: billingKey(ctx) },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const id = res.body.data.butler_request.id;
  expect((await staff('POST', `/admin/butler-requests/${id}/assign`, { driver_id: driverId })).status).toBe(200);
  return { id, token: owner.token };
}

/** Staff record the trip as it happened; the business clock is moved past it first, then back. */
async function record(id: number, days: number, withEnd = true) {
  await staff('POST', '/admin/test-clock', { now: new Date(Date.parse(at(days, '17:10'))).toISOString() });
  try {
    const res = await staff('POST', `/admin/butler-requests/${id}/trip`, { actual_start_at: at(days, '09:00'), ...(withEnd ? { actual_end_at: at(days, '17:00') } : {}) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  } finally {
    await staff('POST', '/admin/test-clock', {});
  }
}

const rate = (id: number, token: string | undefined, json: unknown) => ctx.call('POST', `/butlers/requests/${id}/rating`, { token, json });

describe('rating a finished trip', () => {
  it('is refused before the end (also once started), taken once after it, and shown on the booking', async () => {
    const driver = await newDriver();
    const { id, token } = await trip(3, driver.id);
    const early = await rate(id, token, { score: 5 });
    expect(early.status).toBe(409);
    expect(early.body.message).toMatch(korean);
    await record(id, 3, false);
    expect((await rate(id, token, { score: 5 })).status).toBe(409);
    await record(id, 3);

    const first = await rate(id, token, { score: 4, comment: '  친절하고 안전했습니다. ' });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body.data.rating).toMatchObject({ score: 4, comment: '친절하고 안전했습니다.' });
    const again = await rate(id, token, { score: 1 });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('이미 평가한 운행입니다. 평가는 한 번만 남길 수 있습니다.');
    const view = await ctx.call('GET', `/butlers/requests/${id}`, { token });
    expect(view.body.data.butler_request).toMatchObject({ stage: 'COMPLETED', rating: { score: 4, comment: '친절하고 안전했습니다.' } });
  });

  it('is only the customer’s: another user or an unknown booking 404, nobody 401', async () => {
    const driver = await newDriver();
    const { id, token } = await trip(4, driver.id);
    await record(id, 4);
    const stranger = await customer(ctx);
    expect((await rate(id, stranger.token, { score: 1 })).status).toBe(404);
    expect((await rate(id, undefined, { score: 1 })).status).toBe(401);
    expect((await rate(999_999, token, { score: 1 })).status).toBe(404);
    // The stranger's attempt left nothing behind: the owner still rates.
    expect((await rate(id, token, { score: 5 })).status).toBe(201);
  });

  it('refuses scores outside 1–5 or not whole, and long comments, in Korean on the field', async () => {
    const driver = await newDriver();
    const { id, token } = await trip(5, driver.id);
    await record(id, 5);
    for (const [json, field] of [[{ score: 0 }, 'score'], [{ score: 6 }, 'score'], [{ score: 3.5 }, 'score'], [{ score: '5' }, 'score'], [{}, 'score'], [{ score: 5, comment: '가'.repeat(501) }, 'comment']] as const) {
      const res = await rate(id, token, json);
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect(res.body.errors[field][0]).toMatch(korean);
    }
    const raw = await ctx.call('POST', `/butlers/requests/${id}/rating`, { token, body: '{', headers: { 'content-type': 'application/json' } });
    expect(raw.status).toBe(400);
  });

  it('two ratings at once: exactly one is kept', async () => {
    const driver = await newDriver();
    const { id, token } = await trip(6, driver.id);
    await record(id, 6);
    const answers = await Promise.all([rate(id, token, { score: 5 }), rate(id, token, { score: 2 })]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
  });
});

describe("staff read each driver's average on the roster", () => {
  it('GET /admin/drivers answers average (one decimal) and count per rated driver; none for an unrated one', async () => {
    const rated = await newDriver();
    const unrated = await newDriver();
    const scores = [5, 4, 4];
    for (const [i, score] of scores.entries()) {
      const { id, token } = await trip(8 + i, rated.id);
      await record(id, 8 + i);
      expect((await rate(id, token, { score })).status).toBe(201);
    }
    const res = await staff('GET', '/admin/drivers');
    expect(res.status).toBe(200);
    const ratings = res.body.data.ratings as { driver_id: number; average: number; count: number }[];
    expect(ratings.find((r) => r.driver_id === rated.id)).toEqual({ driver_id: rated.id, average: 4.3, count: 3 });
    expect(ratings.find((r) => r.driver_id === unrated.id)).toBeUndefined();
    const customerToken = (await customer(ctx)).token;
    expect((await ctx.call('GET', '/admin/drivers', { token: customerToken })).status).toBe(403);
  });
});

describe('what staff read of the ratings (issue 50)', () => {
  it('every comment with its trip and driver, newest first; a rating of 2 or fewer alerts staff once; customers are refused', async () => {
    const driver = await newDriver();
    const good = await trip(5, driver.id);
    const poor = await trip(6, driver.id);
    await record(good.id, 5);
    await record(poor.id, 6);
    expect((await rate(good.id, good.token, { score: 5, comment: '기사님께 감사드립니다.' })).status).toBe(201);
    expect((await rate(poor.id, poor.token, { score: 2, comment: '픽업에 20분 늦으셨어요.' })).status).toBe(201);

    const list = await staff('GET', '/admin/trip-ratings');
    expect(list.status).toBe(200);
    const mine = (list.body.data.ratings as { butler_request_id: number }[]).filter((r) => [good.id, poor.id].includes(r.butler_request_id));
    expect(mine).toEqual([
      expect.objectContaining({ butler_request_id: poor.id, score: 2, comment: '픽업에 20분 늦으셨어요.', driver: { id: driver.id, name: expect.stringContaining('평가기사') }, start_location: '서울 용산구 한남대로 98' }),
      expect.objectContaining({ butler_request_id: good.id, score: 5, comment: '기사님께 감사드립니다.' }),
    ]);
    const alerts = await ctx.database.db.select().from(jobs).where(inArray(jobs.key, [`notify:staff.trip_rated_low:${poor.id}`, `notify:staff.trip_rated_low:${good.id}`]));
    expect(alerts.map((j) => j.key)).toEqual([`notify:staff.trip_rated_low:${poor.id}`]);

    expect((await ctx.call('GET', '/admin/trip-ratings', { token: good.token })).status).toBe(403);
    expect([401, 403]).toContain((await ctx.call('GET', '/admin/trip-ratings')).status);
  });
});
