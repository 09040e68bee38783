import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertButlerCar, insertModel, insertTestCar, upsertBrand } from '../../src/api/seed/factories';
import { butlerRequests, companies, companyInvites, companyInvoices, companyMembers, odometerReadings, payments, policyDocuments, subscriptionHandovers, subscriptionRequests, subscriptionSwaps, subscriptions, tripMessages, tripRatings } from '../../src/api/db/schema';
import { TEST_ADMIN_TOKEN } from '../../src/api/env';
import { TERMS_SEED } from '../../src/api/seed/content-data';
import { billingKey, createTestContext, customer, type TestContext } from './helpers';
import { insertConfirmedSwap } from './swap-fixtures';
import { newCompany } from './company-helpers';

/**
 * A stranger on another machine of the network (a customer account of their own, or none) tries
 * every route that reads, changes or charges one customer's subscription: the contract, the card,
 * the owed month, early exit, the request itself, the payment. Each answers as if the thing did
 * not exist (404) or refuses (401/403), and nothing changes: no payment, no subscription edit.
 * The owner gets the same routes answered, so a 404 here is the ownership check, not a missing row.
 *
 * The list of routes is the app's route table (as the fuzz test reads it): every customer route
 * that names a thing by id is in OWNED with the body a stranger would send, or in NOT_OWNED with
 * the reason it is no one's; every route without an id is in OWN_ACCOUNT (it acts on the caller's
 * own account), or its stranger test is in another file (TESTED_ELSEWHERE). A new route in none of them fails
 * 'every route of the app has a stranger expectation' until its expectation is written here.
 */

/** A request as @hono/node-server hands it over from another machine (203.0.113.0/24: documentation range). */
const fromStranger = { incoming: { socket: { remoteAddress: '203.0.113.9', remotePort: 40000, remoteFamily: 'IPv4' } } };

let ctx: TestContext;
let owner: { token: string; requestId: number; subscriptionId: number; paymentId: string; handoverId: number; swapId: number; pairIds: number[]; butlerId: number; butlerCarId: number; companyId: number; statementId: number };
let stranger: { token: string };

async function asStranger(method: string, path: string, token: string | undefined, json?: unknown) {
  const headers: Record<string, string> = { host: 'luxe.example' };
  if (token) headers.authorization = `Bearer ${token}`;
  if (json !== undefined) headers['content-type'] = 'application/json';
  const res = await ctx.app.request(path, { method, headers, body: json === undefined ? undefined : JSON.stringify(json) }, fromStranger);
  const text = await res.text();
  return { status: res.status, text };
}

beforeAll(async () => {
  ctx = await createTestContext({ env: 'development' });
  await ctx.database.db.insert(policyDocuments).values({ kind: 'terms', ...TERMS_SEED, effectiveDate: '2026-01-01' });
  await ctx.call('POST', '/admin/test-clock', { token: TEST_ADMIN_TOKEN, json: { now: '2029-05-02T08:00:00+09:00' } });
  const { car } = await insertTestCar(ctx.database.db, { fees: { subscription_fee_12: 555_000 } });
  const { token } = await customer(ctx);
  const order = await ctx.call('POST', `/subscriptions/cars/${car.id}/request`, { token, json: { month: 12, billing_key: billingKey(ctx) } });
  expect(order.status, JSON.stringify(order.body)).toBe(201);
  const requestId = order.body.data.subscription_request.id;
  const confirmed = await ctx.call('POST', `/admin/subscription-requests/${requestId}/confirm`, { token: TEST_ADMIN_TOKEN, json: { start_date: '2029-05-03' } });
  expect(confirmed.status).toBe(201);
  // The contract job and the rest of the queue.
  expect((await ctx.call('POST', '/admin/billing/run', { token: TEST_ADMIN_TOKEN })).status).toBe(200);
  const subscriptionId = confirmed.body.data.subscription.id;
  // The subscription's own delivery and a 차량 교체's pair (the old car's return, the new car's delivery).
  const driver = await ctx.call('POST', '/admin/drivers', { token: TEST_ADMIN_TOKEN, json: { name: '탁송기사', phone: '010-5555-1234', gender: 'male' } });
  const driverId = driver.body.data.driver.id;
  const own = await ctx.call('POST', `/admin/subscriptions/${subscriptionId}/handovers`, { token: TEST_ADMIN_TOKEN, json: { kind: 'DELIVERY', driver_id: driverId, date: '2029-05-03', window_start: '10:00', window_end: '11:00' } });
  expect(own.status).toBe(201);
  const { car: newCar } = await insertTestCar(ctx.database.db, { fees: { subscription_fee_12: 555_000 } });
  const swap = await insertConfirmedSwap(ctx.database.db, { subscriptionId, toCarId: newCar.id, swapDate: '2029-05-10' });
  const pair = await ctx.call('POST', `/admin/subscriptions/${subscriptionId}/swaps/${swap.id}/handovers`, { token: TEST_ADMIN_TOKEN, json: { driver_id: driverId, window_start: '10:00', window_end: '12:00' } });
  expect(pair.status, JSON.stringify(pair.body)).toBe(201);
  // A 의전 booking of the same customer, assigned to the driver (its thread, position, rating and payment).
  const brand = await upsertBrand(ctx.database.db, { name: '마이바흐', slug: 'maybach-strangers' });
  const model = await insertModel(ctx.database.db, { brandId: brand.id, name: 'S680' });
  const butlerCar = await insertButlerCar(ctx.database.db, model.id, { butlerFee: 800_000, butlerOvertimeFee: 100_000, licensePlate: '12가 9911' });
  const butler = await ctx.call('POST', `/butlers/cars/${butlerCar.id}/request`, {
    token,
    json: { start_at: '2029-05-06T09:00:00+09:00', end_at: '2029-05-06T17:00:00+09:00', start_location: '서울 강남구 테헤란로 152', end_location: '인천 중구 공항로 272', passenger_count: 1, billing_key: billingKey(ctx) },
  });
  expect(butler.status, JSON.stringify(butler.body)).toBe(201);
  const butlerId = butler.body.data.butler_request.id;
  expect((await ctx.call('POST', `/admin/butler-requests/${butlerId}/assign`, { token: TEST_ADMIN_TOKEN, json: { driver_id: driverId } })).status).toBe(200);
  // 법인: the owner's company (they are its admin) and a month's statement of it.
  const company = await newCompany(ctx, token);
  const [statement] = await ctx.database.db
    .insert(companyInvoices)
    .values({ companyId: company.id, month: '2029-04', supplyAmount: 0, vatAmount: 0, totalAmount: 0, dueDate: '2029-05-25', status: 'ISSUED', issuedAt: new Date() })
    .returning();
  owner = {
    token, requestId, subscriptionId, paymentId: order.body.data.payment!.id, handoverId: own.body.data.handover.id, swapId: swap.id,
    pairIds: pair.body.data.handovers.map((h: { id: number }) => h.id), butlerId, butlerCarId: butlerCar.id, companyId: company.id, statementId: statement.id,
  };
  stranger = { token: (await customer(ctx)).token };
});
afterAll(() => ctx.close());

/** The body a stranger sends; a function when it names the owner's ids (made once the owner exists). */
type Owned = { json?: unknown };
const bodyOf = (r: Owned) => (typeof r.json === 'function' ? (r.json as () => unknown)() : r.json);

/**
 * Every customer route that names one customer's thing by id, keyed as the route table writes it,
 * with the body a stranger would send (valid, so the answer is the ownership check, not the body's).
 * Each answers a stranger 404 and a caller without a token 401.
 */
const OWNED: Record<string, Owned> = {
  'GET /subscriptions/requests/:id': {},
  'GET /subscriptions/requests/:id/contract': {},
  'GET /subscriptions/requests/:id/contract/sha256': {},
  'PUT /subscriptions/requests/:id': { json: { month: 12, coupon_id: null, point_amount: 0, billing_key: 'sandbox-billing-key-stranger' } },
  'DELETE /subscriptions/requests/:id': {},
  'GET /subscriptions/requests/:id/delivery': {},
  'PATCH /subscriptions/requests/:id/delivery': { json: { delivery_address: '서울 중구 세종대로 110', delivery_address_detail: '1층' } },
  'POST /subscriptions/:id/card': { json: { billing_key: 'sandbox-billing-key-stranger' } },
  'POST /subscriptions/:id/pay': { json: {} },
  'GET /subscriptions/:id/withdrawal': {},
  'POST /subscriptions/:id/withdrawal': { json: { quoted_refund: 0 } },
  'GET /subscriptions/:id/early-exit': {},
  'POST /subscriptions/:id/early-exit': { json: { date: '2029-05-20' } },
  'GET /subscriptions/:id/early-exit/document': {},
  'GET /subscriptions/:id/odometer': {},
  'POST /subscriptions/:id/odometer': { json: { km: 12_345 } },
  'GET /subscriptions/:id/settlement': {},
  'GET /subscriptions/:id/extension': {},
  'POST /subscriptions/:id/extension': { json: { months: 3, quoted_fee: 555_000 } },
  'GET /subscriptions/:id/extensions/:extensionId/annex': {},
  'GET /subscriptions/:id/delivery': {},
  'PATCH /subscriptions/:id/delivery': { json: { delivery_address: '서울 중구 세종대로 110', delivery_address_detail: '1층' } },
  // 차량 교체: the quote, the confirmation, its annex and its cancellation (which would move money back).
  'GET /subscriptions/:id/swap': {},
  'POST /subscriptions/:id/swap': { json: { date: '2029-05-20', car_id: 1, quoted_adjustment: 0, quoted_fee: 555_000 } },
  'GET /subscriptions/:id/swaps/:swapId/annex': {},
  'POST /subscriptions/:id/swaps/:swapId/cancel': {},
  'GET /payments/:id': {},
  // 탁송·반납 and a swap's pair: the acknowledgement and the condition photos (the customer's side).
  'POST /handovers/:id/acknowledge': { json: { name: '홍길동' } },
  'GET /handovers/:id/photos': {},
  'GET /handovers/:id/photos/:photoId': {},
  // 의전: the booking, its change and cancellation, the trip thread, the live position, the rating, the payment.
  'GET /butlers/requests/:id': {},
  'PUT /butlers/requests/:id': { json: { start_at: '2029-05-06T10:00:00+09:00', end_at: '2029-05-06T18:00:00+09:00', start_location: '서울 강남구 테헤란로 152', end_location: '인천 중구 공항로 272', passenger_count: 1 } },
  'GET /butlers/requests/:id/cancel-preview': {},
  'DELETE /butlers/requests/:id': {},
  'GET /butlers/requests/:id/messages': {},
  'POST /butlers/requests/:id/messages': { json: { body: '안녕하세요' } },
  'GET /butlers/requests/:id/position': {},
  'POST /butlers/requests/:id/rating': { json: { score: 5 } },
  'POST /butlers/requests/:id/pay': { json: {} },
  // 법인: the owner's company, its members, invites, card, trips and statements.
  'GET /companies/:id': {},
  'PUT /companies/:id/settings': { json: { approval_threshold: 1_000_000 } },
  'PUT /companies/:id/card': { json: { billing_key: 'sandbox-billing-key-stranger' } },
  'GET /companies/:id/members': {},
  'POST /companies/:id/invites': { json: { channel: 'email', email: 'stranger-invite@example.com', role: 'BOOKER' } },
  'DELETE /companies/:id/invites/:inviteId': {},
  'PUT /companies/:id/members/:userId': { json: { role: 'BOOKER' } },
  'DELETE /companies/:id/members/:userId': {},
  'GET /companies/:id/trips': {},
  'PUT /companies/:id/trips/:tripId': { json: { start_at: '2029-05-06T10:00:00+09:00', end_at: '2029-05-06T18:00:00+09:00', start_location: '서울 강남구 테헤란로 152', end_location: '인천 중구 공항로 272' } },
  'POST /companies/:id/trips/:tripId/approval': { json: { decision: 'approve' } },
  'GET /companies/:companyId/statements/:id': {},
  // 재직·위임 증빙: the list, an upload (no body: the membership is checked before it is read), a file and its removal.
  'GET /companies/:id/authority-documents': {},
  'POST /companies/:id/authority-documents': {},
  'GET /companies/:id/authority-documents/:documentId': {},
  'DELETE /companies/:id/authority-documents/:documentId': {},
  // A booking in the owner's company's name (the body names the company).
  'POST /butlers/cars/:carId/company-request': {
    json: () => ({
      start_at: '2029-06-01T09:00:00+09:00', end_at: '2029-06-01T17:00:00+09:00', start_location: '서울 강남구 테헤란로 152', end_location: '인천 중구 공항로 272',
      passenger_count: 1, purpose: '고객 의전', driver_preference: 'any', company: { company_id: owner.companyId, request_key: 'stranger-booking-0001' },
    }),
  },
  // 법인 장기 구독: an order in the owner's company's name (the body names it; the path's id is any car), its list and contracts.
  'POST /subscriptions/cars/:id/company-request': { json: () => ({ month: 12, company: { company_id: owner.companyId, request_key: 'stranger-subscription-0001', driver_user_id: 1 } }) },
  'GET /companies/:id/subscriptions': {},
  'GET /companies/:id/subscriptions/:requestId/contract': {},
  'DELETE /companies/:id/subscriptions/:requestId': {},
};

/** Customer routes with an id or a code that names no customer's thing, and why. */
const NOT_OWNED: Record<string, string> = {
  'GET /subscriptions/cars/:id': 'the catalogue',
  'GET /subscriptions/models/:id': 'the catalogue',
  'GET /butlers/cars/:id': 'the catalogue',
  'POST /subscriptions/cars/:id/request': 'orders a car from the catalogue for the caller',
  'POST /butlers/cars/:carId/request': 'books a car from the catalogue for the caller',
  'GET /services/faqs/:id': 'published content',
  'GET /services/terms/:id': 'published content',
  'GET /services/privacy-policies/:id': 'published content',
  'GET /subscriptions/coupons/:code': 'a coupon code, checked for the caller',
  'POST /subscriptions/coupons/:code': 'a coupon code, registered to the caller',
  'POST /users/point-coupons/:code': 'a point coupon code, registered to the caller',
  'POST /users/referrals/:code': "someone's referral code, used by the caller",
  'POST /accounts/:provider{kakao|google|naver|apple}': 'social sign-in',
  'GET /uploads/:name': 'public images by unguessable name',
  'GET /images/:name': 'public images by unguessable name',
  'GET /driver/invites/:code': 'an invite code, shown to whoever holds it',
  'POST /sandbox/billing-key/:outcome{approve|fail|cancel}': 'the payment sandbox, refused to other machines (below)',
  'POST /sandbox/identity/:outcome{verify|fail|cancel}': 'the identity sandbox, refused to other machines',
  'GET /sandbox/receipts/:id': 'the payment sandbox, refused to other machines',
  'POST /sandbox/console/payments/:id/cancel': 'the payment sandbox, refused to other machines',
  'GET /sandbox/tax-invoices/:id': 'the tax-invoice sandbox: its keyed link, this machine or staff only (company-invoices.test.ts)',
  'GET /companies/invites/:code': 'an invite by its secret code (hashed, single use); a wrong or used code is 404 (companies.test.ts)',
  'GET /butlers/guest-thread/:token': "a company trip's guest link, an HMAC of the trip and its guest's phone; a forged one is 404 (company-guest-thread.test.ts)",
  'POST /butlers/guest-thread/:token/messages': "the guest's reply through the same link: another trip's, a forged or a voided token is 404, writes nothing (company-guest-thread.test.ts)",
};

/**
 * Routes whose stranger test lives in another file, because they open only under another setting:
 * the file must name the route.
 */
const TESTED_ELSEWHERE: Record<string, string> = {
  // 내 차 기사 (a stranger naming the owner's subscription car in the body): open only under BUTLER_LEGAL_MODEL=own-car.
  'POST /butlers/own-car/request': 'butler-own-car.test.ts',
};

/** Routes without an id: they act on the caller's own account (or on nobody's), so a stranger reaches only their own. */
const OWN_ACCOUNT = new Set([
  'GET /health', 'GET /health/ready', 'GET /health/live', 'GET /metrics', 'GET /catalogue',
  'GET /subscriptions/cars', 'GET /subscriptions/garages', 'GET /subscriptions/models', 'GET /subscriptions/availability',
  'GET /butlers/cars', 'GET /butlers', 'GET /butlers/legal', 'GET /butlers/coupons', 'GET /butlers/own-car/cars', 'GET /butlers/requests',
  'GET /handovers', 'GET /services/faqs', 'GET /services/terms', 'GET /services/privacy-policies', 'POST /services/contacts', 'POST /services/gpt/1',
  'GET /subscriptions/licences', 'POST /subscriptions/licences', 'GET /subscriptions', 'GET /subscriptions/requests', 'GET /subscriptions/coupons',
  'GET /users/point-transactions', 'GET /users/referrals', 'GET /payments', 'POST /payments/webhook',
  'GET /accounts', 'POST /accounts', 'POST /accounts/signup', 'PUT /accounts', 'GET /accounts/withdrawal', 'DELETE /accounts',
  'POST /accounts/check-email', 'POST /accounts/login', 'POST /accounts/refresh', 'POST /accounts/logout', 'POST /accounts/portone',
  'POST /accounts/reset-password', 'POST /accounts/send-code', 'POST /accounts/verify-code',
  'GET /notifications/unsubscribe', 'POST /notifications/unsubscribe',
  'POST /driver/invites/accept',
  'GET /companies', 'POST /companies', 'GET /companies/statements', 'POST /companies/invites/accept',
  'GET /sandbox/billing-key', 'GET /sandbox/console', 'GET /sandbox/identity', 'GET /sandbox/outbox', 'GET /sandbox/outbox/page',
]);

/** The app's routes, once each (the route table repeats a path for each middleware). */
function appRoutes(): string[] {
  return [...new Set(ctx.app.routes.filter((r) => r.method !== 'ALL').map((r) => `${r.method} ${r.path}`))];
}

/** Staff (/admin) and driver (/driver) routes are refused to a customer by their prefix ('every staff and driver route…'). */
const byPrefix = (key: string) => / \/(admin|driver)\//.test(key) && !(key in NOT_OWNED) && !OWN_ACCOUNT.has(key);

/** A route pattern with the owner's ids: /handovers/:id for each of the owner's handovers. */
function fill(key: string): { method: string; path: string }[] {
  const [method, pattern] = key.split(' ');
  const ids = pattern.startsWith('/subscriptions/requests/') ? [owner.requestId]
    : pattern.startsWith('/subscriptions/') ? [owner.subscriptionId]
    : pattern.startsWith('/payments/') ? [owner.paymentId]
    : pattern.startsWith('/handovers/') ? [owner.handoverId, ...owner.pairIds]
    : pattern.startsWith('/butlers/requests/') ? [owner.butlerId]
    : pattern.startsWith('/butlers/cars/') ? [owner.butlerCarId]
    : pattern.startsWith('/companies/:companyId/statements/') ? [owner.statementId]
    : pattern.startsWith('/companies/') ? [owner.companyId]
    : [];
  if (!ids.length) throw new Error(`${key}: no owner's id for this path; teach fill() which thing it names`);
  return ids.map((id) => ({ method, path: pattern.replace(':companyId', String(owner.companyId)).replace(':carId', String(owner.butlerCarId)).replace(':id', String(id)).replace(':swapId', String(owner.swapId)).replace(/:\w+(\{[^}]*\})?/g, '1') }));
}

const routes = () => [
  ...Object.entries(OWNED).flatMap(([key, r]) => fill(key).map((route) => ({ ...route, json: bodyOf(r) }))),
];

/** The staff and driver routes of handovers and a swap's pair: a customer's token is not staff nor a driver (403). */
const staffRoutes = () => [
  { method: 'POST', path: `/admin/subscriptions/${owner.subscriptionId}/swaps/${owner.swapId}/handovers`, json: { driver_id: 1, window_start: '13:00', window_end: '14:00' } },
  { method: 'DELETE', path: `/admin/subscriptions/${owner.subscriptionId}/swaps/${owner.swapId}/handovers` },
  { method: 'POST', path: `/admin/subscriptions/${owner.subscriptionId}/handovers`, json: { kind: 'RETURN', driver_id: 1, date: '2030-05-01', window_start: '10:00', window_end: '11:00' } },
  { method: 'GET', path: '/admin/handovers' },
  ...[owner.handoverId, ...owner.pairIds].flatMap((id) => [
    { method: 'POST', path: `/admin/handovers/${id}/record`, json: { odometer_km: 1, fuel_percent: 1 } },
    { method: 'POST', path: `/admin/handovers/${id}/photos`, json: {} },
    { method: 'GET', path: `/admin/handovers/${id}/photos` },
    { method: 'DELETE', path: `/admin/handovers/${id}` },
    { method: 'POST', path: `/driver/handovers/${id}/record`, json: { odometer_km: 1, fuel_percent: 1 } },
    { method: 'POST', path: `/driver/handovers/${id}/photos`, json: {} },
  ]),
];

describe("a stranger on the network and one customer's subscription", () => {
  it('every route of the app has a stranger expectation (a new route fails here until it has one)', () => {
    const all = appRoutes();
    expect(all.length).toBeGreaterThan(100);
    const missing = all.filter((key) => !(key in OWNED) && !(key in NOT_OWNED) && !(key in TESTED_ELSEWHERE) && !OWN_ACCOUNT.has(key) && !byPrefix(key));
    expect(missing, 'routes without a stranger expectation: add each to OWNED with its body, or say in NOT_OWNED / OWN_ACCOUNT why it is no one\'s').toEqual([]);
    // An id in the path of a route said to act on the caller's own account would name someone's thing.
    expect([...OWN_ACCOUNT].filter((key) => key.includes(':'))).toEqual([]);
    const stale = [...Object.keys(OWNED), ...Object.keys(NOT_OWNED), ...Object.keys(TESTED_ELSEWHERE), ...OWN_ACCOUNT].filter((key) => !all.includes(key));
    expect(stale, 'expectations for routes the app no longer has').toEqual([]);
    for (const [key, file] of Object.entries(TESTED_ELSEWHERE)) expect(readFileSync(join(import.meta.dirname, file), 'utf8'), `${file} tests ${key}`).toContain(key.split(' ')[1]);
  });

  it('the owner is answered on the read routes (so the 404s below are the ownership check)', async () => {
    for (const path of [`/subscriptions/${owner.subscriptionId}/odometer`, `/subscriptions/${owner.subscriptionId}/settlement`, `/subscriptions/requests/${owner.requestId}`, `/subscriptions/requests/${owner.requestId}/contract`, `/subscriptions/${owner.subscriptionId}/early-exit?date=2029-05-20`, `/payments/${owner.paymentId}`, `/butlers/requests/${owner.butlerId}`, `/butlers/requests/${owner.butlerId}/messages`, ...[owner.handoverId, ...owner.pairIds].map((id) => `/handovers/${id}/photos`)]) {
      const res = await ctx.app.request(path, { headers: { authorization: `Bearer ${owner.token}` } });
      expect(res.status, path).toBe(200);
    }
  });

  it('signed in as themselves: every route answers 404, never the data, and nothing changes', async () => {
    const before = await state();
    for (const r of routes()) {
      const res = await asStranger(r.method, r.path, stranger.token, r.json);
      expect(res.status, `${r.method} ${r.path}: ${res.text}`).toBe(404);
      expect(res.text).not.toMatch(/555,?000/);
      expect(res.text).not.toMatch(/%PDF-/);
    }
    expect(await state()).toEqual(before);
  });

  it('without an account: 401 on every route, and nothing changes', async () => {
    const before = await state();
    for (const r of routes()) {
      const res = await asStranger(r.method, r.path, undefined, r.json);
      expect(res.status, `${r.method} ${r.path}`).toBe(401);
    }
    expect(await state()).toEqual(before);
  });

  it("a customer's token on the staff routes (confirm, refund, switching a subscription off) is refused with 403", async () => {
    const before = await state();
    for (const [path, json] of [
      [`/admin/subscription-requests/${owner.requestId}/confirm`, { start_date: '2029-06-01' }],
      [`/admin/payments/${owner.paymentId}/refund`, { amount: 1_000, reason: '고객 요청' }],
      [`/admin/subscriptions/${owner.subscriptionId}/odometer`, { km: 99_999, source: 'RETURN' }],
      [`/admin/subscriptions/${owner.subscriptionId}/mileage/settle`, {}],
      [`/admin/subscriptions/${owner.subscriptionId}/settlement`, { damages: [{ description: '긁힘', amount: 1_000 }], fuel_shortfall_percent: 10 }],
    ] as const) {
      const res = await asStranger('POST', path, stranger.token, json);
      expect(res.status, `${path}: ${res.text}`).toBe(403);
    }
    const off = await asStranger('PATCH', `/admin/subscriptions/${owner.subscriptionId}`, stranger.token, { is_active: false });
    expect(off.status).toBe(403);
    expect(await state()).toEqual(before);
  });

  it("the handovers' and the swap pair's staff and driver routes: a customer's token 403, none refused (staff 403, driver 401), and nothing changes", async () => {
    const before = await state();
    for (const r of staffRoutes()) {
      const res = await asStranger(r.method, r.path, stranger.token, r.json);
      expect(res.status, `${r.method} ${r.path}: ${res.text}`).toBe(403);
      // No token: the staff guard answers 403 (requireAdmin), the driver's routes 401 (requireUser).
      expect((await asStranger(r.method, r.path, undefined, r.json)).status, `${r.method} ${r.path}`).toBe(r.path.startsWith('/admin/') ? 403 : 401);
    }
    // The customer's list shows the stranger none of the owner's handovers.
    const list = await asStranger('GET', '/handovers', stranger.token);
    expect([list.status, JSON.parse(list.text).data.handovers]).toEqual([200, []]);
    expect(await state()).toEqual(before);
  });

  // An empty body: the role is checked before the body is read, so even a malformed request is told 403.
  it("every staff and driver route of the route table refuses a customer's token (403), and nothing changes", async () => {
    const before = await state();
    const guarded = appRoutes().filter(byPrefix);
    expect(guarded.length).toBeGreaterThan(80);
    for (const key of guarded) {
      const [method, pattern] = key.split(' ');
      const path = pattern.replace(':stage', 'departed').replace(/:\w+(\{[^}]*\})?/g, '1');
      const res = await asStranger(method, path, stranger.token, method === 'GET' ? undefined : {});
      expect(res.status, `${key}: ${res.text}`).toBe(403);
    }
    expect(await state()).toEqual(before);
  });
});

/** This machine's first non-loopback IPv4 address: a connection to it arrives on a real, non-loopback socket. */
function networkAddress(): string | undefined {
  return Object.values(networkInterfaces())
    .flat()
    .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;
}

/** One request over TCP to `address` (node:http, so the Host header is ours to set). */
function overTheNetwork(address: string, port: number, method: string, path: string, token?: string, json?: unknown, accept = 'application/json') {
  const body = json === undefined ? undefined : JSON.stringify(json);
  const headers: Record<string, string> = { host: 'luxe.example', accept };
  if (token) headers.authorization = `Bearer ${token}`;
  if (body) Object.assign(headers, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) });
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = httpRequest({ host: address, port, method, path, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * The same stranger, through a listening server reached at this machine's network address: the
 * socket's peer is a real non-loopback address (not a stand-in object), as from another machine.
 */
describe.skipIf(!networkAddress())('a stranger over a real network socket', () => {
  const address = networkAddress()!;
  let server: ReturnType<typeof serve>;
  let port: number;
  const send = (method: string, path: string, token?: string, json?: unknown, accept?: string) => overTheNetwork(address, port, method, path, token, json, accept);

  beforeAll(async () => {
    server = serve({ fetch: ctx.app.fetch, port: 0, hostname: '0.0.0.0' });
    await new Promise((r) => server.once('listening', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((r) => server.close(r)));

  it("the owner's own token works over the network (the refusals below are not the socket)", async () => {
    const res = await send('GET', `/subscriptions/requests/${owner.requestId}`, owner.token);
    expect(res.status, res.text).toBe(200);
  });

  it("another customer's token: 404 on every route of the owner's subscription; no token: 401; nothing changes", async () => {
    const before = await state();
    for (const r of routes()) {
      const signedIn = await send(r.method, r.path, stranger.token, r.json);
      expect(signedIn.status, `${r.method} ${r.path}: ${signedIn.text}`).toBe(404);
      expect(signedIn.text).not.toMatch(/555,?000/);
      const anonymous = await send(r.method, r.path, undefined, r.json);
      expect(anonymous.status, `${r.method} ${r.path}`).toBe(401);
    }
    expect(await state()).toEqual(before);
  });

  it("everyone's messages and the provider's console are refused to another machine, the test card page too", async () => {
    for (const path of ['/sandbox/outbox', '/sandbox/console']) {
      const res = await send('GET', path, stranger.token);
      expect(res.status, `${path}: ${res.text}`).toBe(403);
      expect(res.text).not.toContain(owner.paymentId);
    }
    const page = await send('GET', '/sandbox/console', undefined, undefined, 'text/html');
    expect([page.status, page.text]).toEqual([403, expect.stringContaining('이 기기에서는 사용할 수 없습니다')]);
    const card = await send('GET', '/sandbox/billing-key?customer_key=stranger', stranger.token);
    expect(card.status).toBe(403);
  });
});

/** What a stranger must not be able to change: the owner's payments, request and subscription. */
async function state() {
  const db = ctx.database.db;
  const [req] = await db.select().from(subscriptionRequests).where(eq(subscriptionRequests.id, owner.requestId));
  const [sub] = await db.select().from(subscriptions).where(eq(subscriptions.id, owner.subscriptionId));
  const paid = await db.select({ id: payments.id, status: payments.status, cancelled: payments.cancelledAmount }).from(payments).where(eq(payments.userId, req.userId));
  const readings = await db.select().from(odometerReadings).where(eq(odometerReadings.subscriptionId, owner.subscriptionId));
  const handovers = await db.select().from(subscriptionHandovers).where(eq(subscriptionHandovers.subscriptionId, owner.subscriptionId)).orderBy(subscriptionHandovers.id);
  const swaps = await db.select().from(subscriptionSwaps).where(eq(subscriptionSwaps.subscriptionId, owner.subscriptionId)).orderBy(subscriptionSwaps.id);
  const [butler] = await db.select().from(butlerRequests).where(eq(butlerRequests.id, owner.butlerId));
  const thread = await db.select().from(tripMessages).where(eq(tripMessages.butlerRequestId, owner.butlerId));
  const ratings = await db.select().from(tripRatings).where(eq(tripRatings.butlerRequestId, owner.butlerId));
  const [company] = await db.select().from(companies).where(eq(companies.id, owner.companyId));
  const members = await db.select().from(companyMembers).where(eq(companyMembers.companyId, owner.companyId));
  const invites = await db.select().from(companyInvites).where(eq(companyInvites.companyId, owner.companyId));
  const companyTrips = await db.select({ id: butlerRequests.id }).from(butlerRequests).where(eq(butlerRequests.companyId, owner.companyId));
  return { req, sub, readings, handovers, swaps, butler, thread, ratings, company, members, invites, companyTrips, paid: paid.sort((a, b) => a.id.localeCompare(b.id)) };
}
