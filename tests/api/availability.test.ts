import { eq, inArray } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../src/api/app';
import { noteCatalogueChange } from '../../src/api/catalogue/catalogue';
import { CatalogueCache } from '../../src/api/catalogue/cache/catalogue-cache';
import { insertTestCar } from '../../src/api/seed/factories';
import { payments, sandboxPayments, subscriptionRequests } from '../../src/api/db/schema';
import { TEST_ADMIN_TOKEN } from '../../src/api/env';
import { addDays, addMonths, todayInKorea } from '../../src/domain/dates';
import { apiTools, createTestContext, customer, type TestContext } from './helpers';

/** Issue 38 "Availability": a car is one plate; a paid first month holds it until staff confirm or cancel. */

let ctx: TestContext;
const ADMIN = TEST_ADMIN_TOKEN;
const { card } = apiTools(() => ctx);
const tomorrow = () => addDays(todayInKorea(new Date()), 1);
const dot = (d: string) => d.replaceAll('-', '.');

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

let seq = 0;
/** Each test car has a brand of its own: a garage query by brand finds it alone. */
const slugOf = new Map<number, string>();
/** A garage query: the catalogue route, typed as tests read it. */
type GaragePath = `/subscriptions/garages?${string}`;
const car = (fee?: number) => newCar(fee);
async function newCar(fee = 3_000_000, brand = 'Ferrari') {
  seq += 1;
  const brandSlug = `${brand.toLowerCase()}-${seq}`;
  const { car } = await insertTestCar(ctx.database.db, { brand, brandSlug, model: `Model ${seq}`, fees: { subscription_fee_1: fee + 500_000, subscription_fee_6: fee + 200_000, subscription_fee_12: fee } });
  slugOf.set(car.id, brandSlug);
  return car.id;
}
const order = (token: string, carId: number, body: Record<string, unknown>) => ctx.call('POST', `/subscriptions/cars/${carId}/request`, { token, json: body });
const paymentCount = async () => (await ctx.database.db.select().from(payments)).length;
const sandboxCount = async () => (await ctx.database.db.select().from(sandboxPayments)).length;

describe('a second customer asking for overlapping days', () => {
  it('is refused with 409 before any charge, told the next free start and offered similar free cars', async () => {
    const carId = await car();
    const sibling = await car(3_100_000); // a similar fee, free
    const start = addDays(tomorrow(), 10);
    const a = await customer(ctx);
    const first = await order(a.token, carId, { month: 6, start_date: start, billing_key: card() });
    expect(first.status).toBe(201);
    expect(first.body.data.subscription_request).toMatchObject({ requested_start: start, status: 'PENDING', hold_until: expect.any(String) });

    const b = await customer(ctx);
    const key = card();
    const [before, remoteBefore] = [await paymentCount(), await sandboxCount()];
    const refused = await order(b.token, carId, { month: 1, start_date: addDays(start, 60), billing_key: key });
    expect(refused.status).toBe(409);
    const next = addMonths(start, 6);
    expect(refused.body.message).toContain(`${dot(next)}부터 구독을 시작할 수 있습니다.`);
    // A refusal's data (409): the next free start and the similar cars, not the order's answer.
    const offer = refused.body.data as unknown as { next_start_date: string; similar_cars: { id: number }[] };
    expect(offer.next_start_date).toBe(next);
    expect(offer.similar_cars.map((c) => c.id)).toContain(sibling);
    expect(refused.body.errors.start_date).toBeDefined();
    // Nothing charged, nothing recorded: no payment row, no sandbox payment, no request.
    expect(await paymentCount()).toBe(before);
    expect(await sandboxCount()).toBe(remoteBefore);
    expect((await ctx.database.db.select().from(subscriptionRequests).where(eq(subscriptionRequests.userId, b.user.id)))).toHaveLength(0);

    // The days before the hold fit a 1-month term only when it ends before the hold starts; the next free start fits.
    expect((await order(b.token, carId, { month: 1, start_date: next, billing_key: key })).status).toBe(201);
  });

  it('the default start is tomorrow: a car held from tomorrow refuses an order without a start', async () => {
    const carId = await car();
    const a = await customer(ctx);
    const first = await order(a.token, carId, { month: 1, billing_key: card() });
    expect(first.status).toBe(201);
    expect(first.body.data.subscription_request.requested_start).toBe(tomorrow());
    const b = await customer(ctx);
    const res = await order(b.token, carId, { month: 1, billing_key: card() });
    expect(res.status).toBe(409);
    expect((res.body.data as unknown as { next_start_date: string }).next_start_date).toBe(addMonths(tomorrow(), 1));
  });

  it('a start before tomorrow or too far ahead is refused (422, Korean)', async () => {
    const carId = await car();
    const { token } = await customer(ctx);
    const past = await order(token, carId, { month: 1, start_date: todayInKorea(new Date()), billing_key: card() });
    expect(past.status).toBe(422);
    expect(past.body.message).toMatch(/이후로 선택해주세요/);
    const far = await order(token, carId, { month: 1, start_date: addDays(todayInKorea(new Date()), 800), billing_key: card() });
    expect(far.status).toBe(422);
    const bad = await order(token, carId, { month: 1, start_date: '2026-02-30', billing_key: card() });
    expect(bad.status).toBe(400);
  });
});

describe('holds are released', () => {
  it('when the customer cancels', async () => {
    const carId = await car();
    const a = await customer(ctx);
    const first = await order(a.token, carId, { month: 6, billing_key: card() });
    const b = await customer(ctx);
    expect((await order(b.token, carId, { month: 6, billing_key: card() })).status).toBe(409);
    expect((await ctx.call('DELETE', `/subscriptions/requests/${first.body.data.subscription_request.id}`, { token: a.token })).status).toBe(200);
    expect((await order(b.token, carId, { month: 6, billing_key: card() })).status).toBe(201);
  });

  it('when the first charge is declined', async () => {
    const carId = await car();
    const a = await customer(ctx);
    const declined = await order(a.token, carId, { month: 6, billing_key: card('decline-limit') });
    expect(declined.status).toBe(422);
    const b = await customer(ctx);
    expect((await order(b.token, carId, { month: 6, billing_key: card() })).status).toBe(201);
  });

  it('when the hold lapses (SUBSCRIPTION_HOLD_DAYS) without staff confirming', async () => {
    const carId = await car();
    const a = await customer(ctx);
    const start = addDays(tomorrow(), 20);
    expect((await order(a.token, carId, { month: 1, start_date: start, billing_key: card() })).status).toBe(201);
    const b = await customer(ctx);
    expect((await order(b.token, carId, { month: 1, start_date: start, billing_key: card() })).status).toBe(409);
    // Eight days later on the business clock the 7-day hold is over.
    expect((await ctx.call('POST', '/admin/test-clock', { token: ADMIN, json: { now: new Date(Date.now() + 8 * 86_400_000).toISOString() } })).status).toBe(200);
    try {
      expect((await order(b.token, carId, { month: 1, start_date: start, billing_key: card() })).status).toBe(201);
    } finally {
      await ctx.call('POST', '/admin/test-clock', { token: ADMIN, json: {} });
    }
  });
});

describe('staff confirmation', () => {
  it('refuses days that overlap another subscription or a live hold', async () => {
    const carId = await car();
    const s1 = addDays(tomorrow(), 5);
    const s2 = addMonths(s1, 1);
    const a = await customer(ctx);
    const b = await customer(ctx);
    const ra = (await order(a.token, carId, { month: 1, start_date: s1, billing_key: card() })).body.data.subscription_request.id;
    const rb = (await order(b.token, carId, { month: 1, start_date: s2, billing_key: card() })).body.data.subscription_request.id;
    const confirm = (id: number, start: string) => ctx.call('POST', `/admin/subscription-requests/${id}/confirm`, { token: ADMIN, json: { start_date: start } });
    const clash = await confirm(rb, s1);
    expect(clash.status).toBe(409);
    expect(clash.body.message).toMatch(/다른 구독 일정.*확정할 수 없습니다/);
    // The console confirms on the day the customer asked for: the desk rows carry it.
    const desk = await ctx.call('GET', '/admin/subscription-requests?status=PENDING', { token: ADMIN });
    expect(desk.body.data.requests.find((r: { id: number }) => r.id === rb)).toMatchObject({ requested_start: s2, fee: 3_500_000 });
    expect((await confirm(rb, s2)).status).toBe(201);
    // A's confirmation may not move onto B's confirmed month either.
    expect((await confirm(ra, addDays(s2, 3))).status).toBe(409);
    expect((await confirm(ra, s1)).status).toBe(201);
  });
});

describe('20 concurrent orders of one car for one period', () => {
  it('make exactly one request and one charge; the other 19 are refused before their cards', async () => {
    const carId = await car();
    const people = await Promise.all(Array.from({ length: 20 }, () => customer(ctx)));
    const remoteBefore = await sandboxCount();
    const answers = await Promise.all(people.map((p) => order(p.token, carId, { month: 12, billing_key: card() })));
    expect(answers.filter((r) => r.status === 201)).toHaveLength(1);
    expect(answers.filter((r) => r.status === 409)).toHaveLength(19);
    const requests = await ctx.database.db.select().from(subscriptionRequests).where(eq(subscriptionRequests.carId, carId));
    expect(requests).toHaveLength(1);
    const charges = await ctx.database.db.select().from(payments).where(inArray(payments.refId, requests.map((r) => r.id)));
    expect(charges.filter((p) => p.refType === 'subscription_request')).toHaveLength(1);
    expect((await sandboxCount()) - remoteBefore).toBe(1);
  });
});

describe('GET /subscriptions/availability', () => {
  it('answers each car’s first free day: 구독 가능, or YYYY.MM.DD부터 구독 가능', async () => {
    const held = await car();
    const free = await car();
    const { token } = await customer(ctx);
    expect((await order(token, held, { month: 6, billing_key: card() })).status).toBe(201);
    const res = await ctx.call('GET', `/subscriptions/availability?ids=${held},${free}`);
    expect(res.status).toBe(200);
    const byId = Object.fromEntries(res.body.data.availability.map((a: { car_id: number }) => [a.car_id, a]));
    const from = addMonths(tomorrow(), 6);
    expect(byId[held]).toMatchObject({ car_id: held, available_from: from, text: `${dot(from)}부터 구독 가능` });
    expect(byId[free]).toMatchObject({ car_id: free, available_from: tomorrow(), text: '구독 가능' });
  });

  it('judges the asked term and start: a car held 12 months from a few days away is not 구독 가능 for 12 months', async () => {
    const carId = await car();
    const holdStart = addDays(tomorrow(), 4);
    const { token } = await customer(ctx);
    expect((await order(token, carId, { month: 12, start_date: holdStart, billing_key: card() })).status).toBe(201);
    const ask = async (q: string) => (await ctx.call('GET', `/subscriptions/availability?ids=${carId}${q}`)).body.data.availability[0];
    const free = addMonths(holdStart, 12);
    // Today's main said 구독 가능 here: the first free day is tomorrow, yet no offered term fits before the hold.
    expect(await ask('&month=12')).toMatchObject({ free: false, month: 12, next_start: free, available_from: free, longest_month: null, text: `${dot(free)}부터 구독 가능` });
    expect(await ask('')).toMatchObject({ free: false, text: `${dot(free)}부터 구독 가능` });
    // The order page's chosen start: from the hold's end the term fits.
    expect(await ask(`&month=12&start=${free}`)).toMatchObject({ free: true, start: free, text: '구독 가능' });
    // A start before the earliest is judged from the earliest; a term the car does not offer, as no term.
    expect(await ask(`&month=12&start=${todayInKorea(new Date())}`)).toMatchObject({ start: tomorrow(), free: false });
    expect(await ask('&month=36')).toMatchObject({ month: null });
  });

  it('says the longest term that fits now when the asked one does not', async () => {
    const carId = await car();
    const holdStart = addMonths(tomorrow(), 7);
    const { token } = await customer(ctx);
    expect((await order(token, carId, { month: 1, start_date: holdStart, billing_key: card() })).status).toBe(201);
    const res = await ctx.call('GET', `/subscriptions/availability?ids=${carId}&month=12`);
    expect(res.body.data.availability[0]).toMatchObject({ free: false, longest_month: 6, next_start: addMonths(holdStart, 1) });
    const any = await ctx.call('GET', `/subscriptions/availability?ids=${carId}`);
    expect(any.body.data.availability[0]).toMatchObject({ free: true, longest_month: 6, text: '최대 6개월 구독 가능' });
  });

  it('refuses bad ids with a Korean 400', async () => {
    for (const q of ['', '?ids=', '?ids=abc', '?ids=1,-2', '?ids=1&month=x', '?ids=1&start=2026-13-01', `?ids=${Array.from({ length: 101 }, (_, i) => i + 1).join(',')}`]) {
      const res = await ctx.call('GET', `/subscriptions/availability${q}`);
      expect(res.status, q).toBe(400);
      expect(res.body.message).toMatch(/[가-힣]/);
    }
  });
});

describe('the garage filter "지금 구독 가능" (available_only)', () => {
  // The garage index trusts the catalogue version it read for a second; a new car is a change.
  const car = async () => {
    const id = await newCar();
    noteCatalogueChange();
    return id;
  };
  const brandOf = (carId: number) => slugOf.get(carId)!;
  const listed = async (carId: number, on: (path: GaragePath) => Promise<{ ids: number[]; cache: string | null }>) =>
    (await on(`/subscriptions/garages?available_only=true&brand=${brandOf(carId)}`)).ids.includes(carId);
  const plain = async (path: GaragePath) => {
    const res = await ctx.call('GET', path);
    expect(res.status).toBe(200);
    return { ids: (res.body.data.cars as { id: number }[]).map((c) => c.id), cache: null };
  };

  it('leaves out a car a hold or a subscription takes from tomorrow, and shows it again once freed', async () => {
    const carId = await car();
    expect(await listed(carId, plain)).toBe(true);
    const a = await customer(ctx);
    const held = await order(a.token, carId, { month: 1, billing_key: card() });
    expect(held.status).toBe(201);
    expect(await listed(carId, plain)).toBe(false);
    // Without the filter the car is still in the garage (its card says from when it is free).
    expect((await plain(`/subscriptions/garages?brand=${brandOf(carId)}`)).ids).toContain(carId);
    expect((await ctx.call('DELETE', `/subscriptions/requests/${held.body.data.subscription_request.id}`, { token: a.token })).status).toBe(200);
    expect(await listed(carId, plain)).toBe(true);
  });

  it('keeps a car whose only booking starts later: a start tomorrow is free', async () => {
    const carId = await car();
    const a = await customer(ctx);
    expect((await order(a.token, carId, { month: 1, start_date: addDays(tomorrow(), 45), billing_key: card() })).status).toBe(201);
    expect(await listed(carId, plain)).toBe(true);
  });

  it('a confirmed subscription covering tomorrow takes the car too', async () => {
    const carId = await car();
    const a = await customer(ctx);
    const held = await order(a.token, carId, { month: 1, billing_key: card() });
    const id = held.body.data.subscription_request.id;
    const confirmed = await ctx.call('POST', `/admin/subscription-requests/${id}/confirm`, { token: ADMIN, json: { start_date: tomorrow(), end_date: addDays(addMonths(tomorrow(), 1), -1) } });
    expect(confirmed.status).toBe(201);
    expect(await listed(carId, plain)).toBe(false);
  });

  describe('through the catalogue cache', () => {
    let app: ReturnType<typeof createApp>;
    beforeAll(() => {
      app = createApp({ db: ctx.database.db, config: ctx.config, catalogueCache: new CatalogueCache() });
    });
    afterEach(() => vi.useRealTimers());
    const cached = async (path: string) => {
      const res = await app.request(path);
      expect(res.status).toBe(200);
      const body = (await res.json()) as { data: { cars: { id: number }[] } };
      return { ids: body.data.cars.map((c) => c.id), cache: res.headers.get('x-cache') };
    };

    it('an order on this replica drops the cached answer at once', async () => {
      const carId = await car();
      const path = `/subscriptions/garages?available_only=true&brand=${brandOf(carId)}`;
      expect((await cached(path)).ids).toContain(carId);
      expect((await cached(path)).cache).toBe('HIT');
      const a = await customer(ctx);
      const res = await app.request(`/subscriptions/cars/${carId}/request`, {
        method: 'POST',
        headers: { authorization: `Bearer ${a.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ month: 1, billing_key: card() }),
      });
      expect(res.status).toBe(201);
      const after = await cached(path);
      expect(after.cache).toBe('MISS');
      expect(after.ids).not.toContain(carId);
    });

    it('an answer is kept 30 seconds at most: a hold lapses by the clock, with no write to drop it', async () => {
      const carId = await car();
      const path = `/subscriptions/garages?available_only=true&brand=${brandOf(carId)}&sort=mileage`;
      await cached(path);
      expect((await cached(path)).cache).toBe('HIT');
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(Date.now() + 31_000);
      expect((await cached(path)).cache).toBe('MISS');
      // The unfiltered garage is the catalogue's alone and keeps its answer.
      const all = `/subscriptions/garages?brand=${brandOf(carId)}&sort=mileage`;
      await cached(all);
      vi.setSystemTime(Date.now() + 31_000);
      expect((await cached(all)).cache).toBe('HIT');
    });
  });
});
