import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { insertTestCar } from '../../src/api/seed/factories';
import { pointTransactions, subscriptionRequests, userCoupons } from '../../src/api/db/schema';
import { issueSandboxBillingKey, sandboxCardInfo } from '../../src/api/billing/sandbox-provider';
import { todayInKorea } from '../../src/domain/dates';
import { TEST_ADMIN_TOKEN } from '../../src/api/env';
import { anotherPlate, billingKey, couponUsed, createTestContext, customer, koreaDay, pointsOf, type TestContext } from './helpers';

let ctx: TestContext;
let carId: number;
const day = koreaDay;
const key = () => billingKey(ctx);

beforeAll(async () => {
  ctx = await createTestContext();
  ({ car: { id: carId } } = await insertTestCar(ctx.database.db, { fees: { subscription_fee_12: 3_000_000, subscription_fee_24: 2_700_000 } }));
});
afterAll(() => ctx.close());

// One plate per order (issue 38: one car is not ordered twice for the same days).
const order = async (token: string, body: Record<string, unknown>, car?: number) => ctx.call('POST', `/subscriptions/cars/${car ?? (await anotherPlate(ctx, carId))}/request`, { token, json: body });
const balance = (userId: number) => pointsOf(ctx, userId);

describe('creating a subscription request', () => {
  it('needs a login', async () => {
    const res = await ctx.call('POST', `/subscriptions/cars/${carId}/request`, { json: { month: 12, billing_key: key() } });
    expect(res.status).toBe(401);
  });

  it('prices on the server with coupon and points and spends both', async () => {
    const { user, token, holdings } = await customer(ctx, 150_000, [{ discountType: 'PERCENTAGE', discountRate: 10 }]);
    const res = await order(token, { month: 12, coupon_id: holdings[0], point_amount: 100_000, billing_key: key() });
    expect(res.status).toBe(201);
    const r = res.body.data.subscription_request;
    expect(r).toMatchObject({ month: 12, fee: 3_000_000, coupon_discount: 300_000, point_used: 100_000, final_fee: 2_600_000, status: 'PENDING' });
    expect(r.billing_key).toContain('*');
    // The held coupon as the request declares it: its name and code (what my page shows), nothing more.
    expect(r.coupon).toEqual({ id: holdings[0], coupon: { name: '테스트 쿠폰', code: expect.stringMatching(/^TEST\d+$/) } });
    expect(await balance(user.id)).toBe(50_000);
    expect(await couponUsed(ctx, holdings[0])).toBe(true);
  });

  it('FIXED and FREE coupons never push the price below 0', async () => {
    const { token, holdings } = await customer(ctx, 0, [{ discountType: 'FREE' }, { discountType: 'FIXED', discount: 9_000_000 }]);
    const a = await order(token, { month: 24, coupon_id: holdings[0], billing_key: key() });
    expect(a.body.data.subscription_request).toMatchObject({ coupon_discount: 2_700_000, final_fee: 0 });
    const b = await order(token, { month: 12, coupon_id: holdings[1], billing_key: key() });
    expect(b.body.data.subscription_request).toMatchObject({ coupon_discount: 3_000_000, final_fee: 0 });
  });

  it('is idempotent per billing key: a repeat returns the first request and spends nothing more', async () => {
    const { user, token } = await customer(ctx, 100_000);
    const billing_key = key();
    const first = await order(token, { month: 12, point_amount: 50_000, billing_key });
    expect(first.status).toBe(201);
    const again = await order(token, { month: 24, point_amount: 50_000, billing_key });
    expect(again.status).toBe(200);
    expect(again.body.data.created).toBe(false);
    expect(again.body.data.subscription_request.id).toBe(first.body.data.subscription_request.id);
    expect(again.body.data.subscription_request.month).toBe(12);
    expect(await balance(user.id)).toBe(50_000);
  });

  it('concurrent double submits make one request and one spend', async () => {
    const { user, token, holdings } = await customer(ctx, 200_000, [{ discountType: 'FIXED', discount: 100_000 }]);
    const billing_key = key();
    const body = { month: 12, coupon_id: holdings[0], point_amount: 200_000, billing_key };
    const results = await Promise.all([order(token, body), order(token, body), order(token, body)]);
    // The twins are repeats: 202 while the first charge is still at the provider, 200 once it is settled.
    expect(results.map((r) => (r.status === 201 ? 'created' : [200, 202].includes(r.status) && r.body.data.created === false ? 'repeat' : r.status)).sort()).toEqual(['created', 'repeat', 'repeat']);
    const ids = new Set(results.map((r) => r.body.data.subscription_request.id));
    expect(ids.size).toBe(1);
    expect(await balance(user.id)).toBe(0);
    const spends = await ctx.database.db.select().from(pointTransactions).where(eq(pointTransactions.userId, user.id));
    expect(spends.filter((s) => s.amount < 0)).toHaveLength(1);
  });

  it('concurrent orders with different keys never take the balance below 0', async () => {
    const { user, token } = await customer(ctx, 100_000);
    const results = await Promise.all([0, 1, 2].map(() => order(token, { month: 12, point_amount: 100_000, billing_key: key() })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 422)).toHaveLength(2);
    expect(await balance(user.id)).toBe(0);
  });

  it('another user reusing a billing key is refused', async () => {
    const a = await customer(ctx);
    const b = await customer(ctx);
    const billing_key = key();
    expect((await order(a.token, { month: 12, billing_key })).status).toBe(201);
    const res = await order(b.token, { month: 12, billing_key });
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/빌링키/);
  });

  describe('rejections: 4xx, a Korean message, nothing spent', () => {
    it.each([
      ['a term the car does not offer', { month: 6 }, 422, /6개월/],
      ['a term that is no term', { month: 5 }, 422, /제공하지 않습니다/],
      ['points not in 10,000 steps', { point_amount: 15_000 }, 422, /10,000P/],
      ['points beyond the balance', { point_amount: 200_000 }, 422, /포인트가 부족/],
      ['a forged billing key', { billing_key: 'sandbox-bk-abc.def' }, 422, /빌링키/],
      ['a missing billing key', { billing_key: '' }, 400, /입력값/],
      ['a bad month', { month: 0 }, 400, /입력값/],
      ['negative points', { point_amount: -10_000 }, 400, /입력값/],
    ])('%s', async (_name, patch, status, message) => {
      const { user, token } = await customer(ctx, 100_000);
      const res = await order(token, { month: 12, billing_key: key(), ...patch });
      expect(res.status).toBe(status);
      expect(res.body.message).toMatch(message);
      expect(await balance(user.id)).toBe(100_000);
    });

    it('points beyond the price after the coupon', async () => {
      const { user, token, holdings } = await customer(ctx, 3_000_000, [{ discountType: 'FIXED', discount: 100_000 }]);
      const res = await order(token, { month: 12, coupon_id: holdings[0], point_amount: 2_910_000, billing_key: key() });
      expect(res.status).toBe(422);
      expect(await balance(user.id)).toBe(3_000_000);
      expect(await couponUsed(ctx, holdings[0])).toBe(false);
    });

    it.each([
      ['used', { }, true, /이미 사용한/],
      ['expired', { validFrom: day(-30), validTo: day(-1) }, false, /사용 기간/],
      ['not yet valid', { validFrom: day(3) }, false, /사용 기간/],
      ['under its min price', { minPrice: 5_000_000 }, false, /금액 범위/],
      ['over its max price', { maxPrice: 1_000_000 }, false, /금액 범위/],
      ['for butler', { service: 'BUTLER' }, false, /구독 서비스/],
    ])('a coupon that is %s', async (_n, overrides, used, message) => {
      const { user, token, holdings } = await customer(ctx, 50_000, [overrides]);
      if (used) await ctx.database.db.update(userCoupons).set({ isUsed: true }).where(eq(userCoupons.id, holdings[0]));
      const res = await order(token, { month: 12, coupon_id: holdings[0], point_amount: 50_000, billing_key: key() });
      expect(res.status).toBe(422);
      expect(res.body.message).toMatch(message);
      expect(res.body.errors.coupon_id).toBeDefined();
      expect(await balance(user.id)).toBe(50_000);
    });

    it("another user's coupon", async () => {
      const owner = await customer(ctx, 0, [{}]);
      const { token } = await customer(ctx);
      const res = await order(token, { month: 12, coupon_id: owner.holdings[0], billing_key: key() });
      expect(res.status).toBe(422);
      expect(res.body.message).toMatch(/보유하지 않은/);
      expect(await couponUsed(ctx, owner.holdings[0])).toBe(false);
    });

    it('a car that is not subscriptable or not yet available, or unknown', async () => {
      const db = ctx.database.db;
      const { token } = await customer(ctx);
      const off = (await insertTestCar(db, { model: 'Off', isSubscriptable: false })).car;
      const later = (await insertTestCar(db, { model: 'Later', subscriptionAvailableFrom: day(10) })).car;
      const a = await order(token, { month: 12, billing_key: key() }, off.id);
      expect(a.status).toBe(422);
      expect(a.body.message).toMatch(/구독 신청을 받지 않는/);
      const b = await order(token, { month: 12, billing_key: key() }, later.id);
      expect(b.status).toBe(422);
      expect(b.body.message).toMatch(/부터 구독할 수 있는/);
      expect((await order(token, { month: 12, billing_key: key() }, 999_999)).status).toBe(404);
    });
  });
});

describe('requests: list, detail, edit, cancel', () => {
  it('lists the user own requests only, newest first, and 404s others', async () => {
    const a = await customer(ctx);
    const b = await customer(ctx);
    const r1 = (await order(a.token, { month: 12, billing_key: key() })).body.data.subscription_request;
    const r2 = (await order(a.token, { month: 24, billing_key: key() })).body.data.subscription_request;
    const list = await ctx.call('GET', '/subscriptions/requests', { token: a.token });
    expect(list.body.data.subscription_requests.map((r: any) => r.id)).toEqual([r2.id, r1.id]);
    expect((await ctx.call('GET', `/subscriptions/requests/${r1.id}`, { token: a.token })).body.data.subscription_request.id).toBe(r1.id);
    expect((await ctx.call('GET', `/subscriptions/requests/${r1.id}`, { token: b.token })).status).toBe(404);
    expect((await ctx.call('DELETE', `/subscriptions/requests/${r1.id}`, { token: b.token })).status).toBe(404);
    expect((await ctx.call('GET', '/subscriptions/requests', { token: b.token })).body.data.subscription_requests).toEqual([]);
  });

  it('lists each request as its own page answers it: its own coupon and first charge', async () => {
    const { token, holdings } = await customer(ctx, 0, [{ discountType: 'PERCENTAGE', discountRate: 10 }, { discountType: 'FIXED', discount: 50_000 }]);
    const ids = [];
    for (const body of [{ month: 12, coupon_id: holdings[0] }, { month: 24 }, { month: 12, coupon_id: holdings[1] }]) {
      ids.push((await order(token, { ...body, billing_key: key() })).body.data.subscription_request.id);
    }
    const list = (await ctx.call('GET', '/subscriptions/requests', { token })).body.data.subscription_requests;
    const pages = [];
    for (const id of [...ids].reverse()) pages.push((await ctx.call('GET', `/subscriptions/requests/${id}`, { token })).body.data.subscription_request);
    expect(list).toEqual(pages);
    expect(list.map((r: any) => r.coupon?.id ?? null)).toEqual([holdings[1], null, holdings[0]]);
    expect(list.every((r: any) => r.payment?.status === 'PAID')).toBe(true);
  });

  it('cancel returns the coupon and refunds the points once, and is irreversible', async () => {
    const { user, token, holdings } = await customer(ctx, 100_000, [{}]);
    const r = (await order(token, { month: 12, coupon_id: holdings[0], point_amount: 100_000, billing_key: key() })).body.data.subscription_request;
    expect(await balance(user.id)).toBe(0);
    const [x, y] = await Promise.all([
      ctx.call('DELETE', `/subscriptions/requests/${r.id}`, { token }),
      ctx.call('DELETE', `/subscriptions/requests/${r.id}`, { token }),
    ]);
    expect([x.status, y.status].sort()).toEqual([200, 404]);
    expect(await balance(user.id)).toBe(100_000);
    expect(await couponUsed(ctx, holdings[0])).toBe(false);
    // The cancelled request stays visible with its state, and nothing changes it any more.
    expect((await ctx.call('GET', '/subscriptions/requests', { token })).body.data.subscription_requests).toEqual([expect.objectContaining({ id: r.id, status: 'CANCELLED' })]);
    expect((await ctx.call('GET', `/subscriptions/requests/${r.id}`, { token })).body.data.subscription_request).toMatchObject({ id: r.id, status: 'CANCELLED' });
    expect((await ctx.call('PUT', `/subscriptions/requests/${r.id}`, { token, json: { month: 12, coupon_id: 0, point_amount: 0, billing_key: key() } })).status).toBe(404);
    expect((await ctx.call('DELETE', `/subscriptions/requests/${r.id}`, { token })).status).toBe(404);
  });

  it('edit re-prices: changes term, swaps coupon and settles the point difference', async () => {
    const { user, token, holdings } = await customer(ctx, 200_000, [{ discountType: 'FIXED', discount: 100_000 }, { discountType: 'PERCENTAGE', discountRate: 50 }]);
    const billing_key = key();
    const r = (await order(token, { month: 12, coupon_id: holdings[0], point_amount: 100_000, billing_key })).body.data.subscription_request;
    const res = await ctx.call('PUT', `/subscriptions/requests/${r.id}`, { token, json: { month: 24, coupon_id: holdings[1], point_amount: 200_000, billing_key: r.billing_key } });
    expect(res.status).toBe(200);
    expect(res.body.data.subscription_request).toMatchObject({ month: 24, fee: 2_700_000, coupon_discount: 1_350_000, point_used: 200_000, final_fee: 1_150_000 });
    expect(await balance(user.id)).toBe(0);
    expect(await couponUsed(ctx, holdings[0])).toBe(false);
    expect(await couponUsed(ctx, holdings[1])).toBe(true);
    const down = await ctx.call('PUT', `/subscriptions/requests/${r.id}`, { token, json: { month: 24, coupon_id: 0, point_amount: 0, billing_key } });
    expect(down.body.data.subscription_request).toMatchObject({ coupon: null, point_used: 0, final_fee: 2_700_000 });
    expect(await balance(user.id)).toBe(200_000);
    expect(await couponUsed(ctx, holdings[1])).toBe(false);
  });

  it('edit rejects like creation and changes nothing', async () => {
    const { user, token, holdings } = await customer(ctx, 100_000, [{ maxPrice: 2_800_000 }]);
    const r = (await order(token, { month: 24, coupon_id: holdings[0], point_amount: 50_000, billing_key: key() })).body.data.subscription_request;
    const put = (json: Record<string, unknown>) => ctx.call('PUT', `/subscriptions/requests/${r.id}`, { token, json: { month: 24, coupon_id: holdings[0], point_amount: 50_000, billing_key: r.billing_key, ...json } });
    expect((await put({ month: 6 })).status).toBe(422);
    expect((await put({ month: 12 })).body.message).toMatch(/금액 범위/); // coupon max 2.8M < 3M fee
    expect((await put({ point_amount: 160_000 })).body.message).toMatch(/포인트가 부족/);
    expect((await put({ point_amount: 5_000 })).status).toBe(422);
    expect((await put({ billing_key: 'forged' })).status).toBe(422);
    expect((await put({ month: 0 })).status).toBe(400);
    const after = (await ctx.call('GET', `/subscriptions/requests/${r.id}`, { token })).body.data.subscription_request;
    expect(after).toMatchObject({ month: 24, point_used: 50_000, coupon: { id: holdings[0] } });
    expect(await balance(user.id)).toBe(50_000);
    expect(await couponUsed(ctx, holdings[0])).toBe(true);
  });
});

describe('staff confirmation and subscriptions', () => {
  it('turns a request into a subscription; then it can no longer be cancelled', async () => {
    const { token } = await customer(ctx);
    const r = (await order(token, { month: 12, billing_key: key() })).body.data.subscription_request;
    expect((await ctx.call('GET', '/subscriptions', { token })).body.data.subscriptions).toEqual([]);
    const start = todayInKorea(new Date());
    expect((await ctx.call('POST', `/admin/subscription-requests/${r.id}/confirm`, { json: { start_date: start } })).status).toBe(403);
    const res = await ctx.call('POST', `/admin/subscription-requests/${r.id}/confirm`, { token: TEST_ADMIN_TOKEN, json: { start_date: '2026-01-31' } });
    expect(res.status).toBe(201);
    expect(res.body.data.subscription).toMatchObject({ start_date: '2026-01-31', end_date: '2027-01-30' });
    expect((await ctx.call('POST', `/admin/subscription-requests/${r.id}/confirm`, { token: TEST_ADMIN_TOKEN, json: { start_date: start } })).status).toBe(409);
    const subs = (await ctx.call('GET', '/subscriptions', { token })).body.data.subscriptions;
    expect(subs).toHaveLength(1);
    expect(subs[0]).toMatchObject({ is_active: true, request: { id: r.id, month: 12 } });
    expect(subs[0].request.car.model.name).toBeTruthy();
    expect((await ctx.call('DELETE', `/subscriptions/requests/${r.id}`, { token })).status).toBe(409);
    const detail = (await ctx.call('GET', `/subscriptions/requests/${r.id}`, { token })).body.data.subscription_request;
    expect(detail).toMatchObject({ status: 'CONFIRMED', start_date: '2026-01-31', end_date: '2027-01-30' });
    const off = await ctx.call('PATCH', `/admin/subscriptions/${subs[0].id}`, { token: TEST_ADMIN_TOKEN, json: { is_active: false } });
    expect(off.body.data.subscription.is_active).toBe(false);
  });
});

describe('billing-key sandbox', () => {
  it('serves a labelled test page and returns with the PortOne query contract, keeping the query', async () => {
    const redirectUrl = 'http://localhost/inquire?month=12&carId=1';
    const page = await ctx.call('GET', `/sandbox/billing-key?redirectUrl=${encodeURIComponent(redirectUrl)}&issueName=test&amount=3000000`, { headers: { host: 'localhost' } });
    expect(page.status).toBe(200);
    expect(page.body).toContain('테스트 환경');
    const approve = await ctx.app.request('/sandbox/billing-key/approve', { method: 'POST', headers: { host: 'localhost', 'content-type': 'application/x-www-form-urlencoded' }, body: `redirectUrl=${encodeURIComponent(redirectUrl)}` });
    expect(approve.status).toBe(303);
    const back = new URL(approve.headers.get('location')!, 'http://localhost');
    expect(back.pathname).toBe('/inquire');
    expect(back.searchParams.get('month')).toBe('12');
    expect(back.searchParams.get('carId')).toBe('1');
    expect(back.searchParams.get('transactionType')).toBe('ISSUE_BILLING_KEY');
    expect(back.searchParams.get('code')).toBeNull();
    const { token } = await customer(ctx);
    expect((await order(token, { month: 12, billing_key: back.searchParams.get('billingKey') })).status).toBe(201);
    const fail = await ctx.app.request('/sandbox/billing-key/fail', { method: 'POST', headers: { host: 'localhost', 'content-type': 'application/x-www-form-urlencoded' }, body: `redirectUrl=${encodeURIComponent(redirectUrl)}` });
    const failed = new URL(fail.headers.get('location')!, 'http://localhost');
    expect(failed.searchParams.get('code')).not.toBe('SUCCESS');
    expect(failed.searchParams.get('message')).toBeTruthy();
    expect(failed.searchParams.get('billingKey')).toBeNull();
  });

  it('refuses to return to another site', async () => {
    const res = await ctx.call('GET', `/sandbox/billing-key?redirectUrl=${encodeURIComponent('https://evil.example/x')}`, { headers: { host: 'localhost' } });
    expect(res.status).toBe(400);
  });
});

describe('the card shown for a request (issue 49)', () => {
  it('ordering stores the card (issuer, last four digits); the views show it, never the billing key; an edit with a new card updates it', async () => {
    const { token } = await customer(ctx, 0, []);
    const first = key();
    const res = await order(token, { month: 12, billing_key: first });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const r = res.body.data.subscription_request;
    const stored = sandboxCardInfo('approve', first);
    expect(stored).toEqual({ issuer: '샌드박스카드', last4: expect.stringMatching(/^\d{4}$/) });
    expect(r.card).toEqual(stored);
    const [row] = await ctx.database.db.select().from(subscriptionRequests).where(eq(subscriptionRequests.id, r.id));
    expect([row.cardIssuer, row.cardLast4]).toEqual([stored.issuer, stored.last4]);
    const view = await ctx.call('GET', `/subscriptions/requests/${r.id}`, { token });
    expect(view.body.data.subscription_request.card).toEqual(stored);
    expect(JSON.stringify(view.body)).not.toContain(first);
    expect(JSON.stringify((await ctx.call('GET', '/subscriptions/requests', { token })).body)).not.toContain(first);

    // The masked key sent back keeps the card; a new key brings its own.
    const kept = await ctx.call('PUT', `/subscriptions/requests/${r.id}`, { token, json: { month: 12, coupon_id: 0, point_amount: 0, billing_key: r.billing_key } });
    expect(kept.body.data.subscription_request.card).toEqual(stored);
    const next = issueSandboxBillingKey(ctx.config, 'insufficient');
    const edited = await ctx.call('PUT', `/subscriptions/requests/${r.id}`, { token, json: { month: 12, coupon_id: 0, point_amount: 0, billing_key: next } });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body.data.subscription_request.card).toEqual(sandboxCardInfo('insufficient', next));
    expect(edited.body.data.subscription_request.card!.issuer).toBe('샌드박스잔액부족카드');
    expect(JSON.stringify(edited.body)).not.toContain(next);
  });

  it('a request from before issue 49 (no card stored) shows card null', async () => {
    const { token } = await customer(ctx, 0, []);
    const r = (await order(token, { month: 12, billing_key: key() })).body.data.subscription_request;
    await ctx.database.db.update(subscriptionRequests).set({ cardIssuer: null, cardLast4: null }).where(eq(subscriptionRequests.id, r.id));
    expect((await ctx.call('GET', `/subscriptions/requests/${r.id}`, { token })).body.data.subscription_request.card).toBeNull();
  });
});
