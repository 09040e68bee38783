import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertTestCar } from '../../src/api/seed/factories';
import { TEST_ADMIN_TOKEN } from '../../src/api/env';
import { billingKey, createTestContext, customer, sandboxVerify, type TestContext } from './helpers';

/**
 * Bad input is the Korean 400 envelope, never a 500 from the database: NUL bytes (rejected once
 * in src/api/http.ts), integers beyond int4, strings beyond their column, impossible dates.
 */
let ctx: TestContext;
let modelId: number;
let carId: number;
beforeAll(async () => {
  ctx = await createTestContext();
  const { model, car } = await insertTestCar(ctx.database.db);
  modelId = model.id;
  carId = car.id;
});
afterAll(() => ctx.close());

const korean = /[가-힣]/;
function refused(res: { status: number; body: any }, label: string, field?: string) {
  expect(res.status, `${label}: ${JSON.stringify(res.body)}`).toBe(400);
  expect(res.body.code, label).toBe(1001);
  expect(res.body.message, label).toMatch(korean);
  expect(res.body.errors, label).toBeTypeOf('object');
  if (field) expect(Object.keys(res.body.errors), label).toContain(field);
}
const admin = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };
const contact = { name: '홍길동', email: 'a@example.com', subject: '구독 문의', message: '문의드립니다.' };

describe('NUL bytes', () => {
  it('in a query string, a path parameter or a query key', async () => {
    refused(await ctx.call('GET', '/subscriptions/garages?brand=%00'), 'brand', 'brand');
    refused(await ctx.call('GET', '/subscriptions/garages?brand=ferrari&brand=a%00b'), 'second brand', 'brand.1');
    refused(await ctx.call('GET', '/subscriptions/garages?br%00and=x'), 'query key');
    refused(await ctx.call('GET', '/services/faqs/1%00'), 'id', 'id');
    const { token } = await customer(ctx);
    refused(await ctx.call('GET', '/subscriptions/coupons/WELCOME%00', { token }), 'code', 'code');
    refused(await ctx.call('POST', '/users/referrals/AB%00CD', { token }), 'referral code', 'code');
  });

  it('in any string of a JSON body, nested or as a key', async () => {
    refused(await ctx.call('POST', '/services/contacts', { json: { ...contact, email: 'a\u0000@example.com' } }), 'contact email', 'email');
    refused(await ctx.call('POST', '/services/contacts', { json: { ...contact, message: '안녕\u0000하세요' } }), 'contact message', 'message');
    refused(await ctx.call('POST', '/services/contacts', { json: { ...contact, ['x\u0000']: 1 } }), 'key');
    const ip = { 'x-forwarded-for': '10.9.0.1' };
    refused(await ctx.call('POST', '/accounts', { json: { name: '홍\u0000', mobile: '01012345678', email: 'n@example.com', password: 'secret123', identity_code: 'x' }, headers: ip }), 'signup', 'name');
    refused(await ctx.call('POST', '/accounts/login', { json: { email: 'n@example.com', password: 'secret\u0000' }, headers: ip }), 'login', 'password');
    refused(await ctx.call('POST', '/accounts/portone', { json: { identity_code: 'identity-\u0000' }, headers: ip }), 'portone', 'identity_code');
    refused(await ctx.call('POST', '/accounts/reset-password', { json: { identityVerificationId: '\u0000' }, headers: ip }), 'reset-password', 'identityVerificationId');
    const { token } = await customer(ctx);
    refused(await ctx.call('POST', `/subscriptions/cars/${carId}/request`, { token, json: { month: 12, billing_key: `${billingKey(ctx)}\u0000` } }), 'order', 'billing_key');
    refused(await ctx.call('PUT', '/accounts', { token, json: { name: 'a\u0000' } }), 'account', 'name');
    refused(await ctx.call('POST', '/admin/cars', { headers: admin, json: { model_id: modelId, color: '\u0000', images: ['/a.jpg', '\u0000'] } }), 'admin car', 'color');
    refused(await ctx.call('POST', '/admin/test-users', { headers: admin, json: { name: '\u0000' } }), 'test user', 'name');
    refused(await ctx.call('POST', '/services/gpt/1', { json: { message: '서울역\u0000', state: {} }, headers: ip }), 'chat', 'message');
  });

  it('in a sandbox form: 400, and nothing is recorded', async () => {
    const form = (path: string, fields: Record<string, string>) =>
      ctx.app.request(path, { method: 'POST', headers: { host: 'localhost', 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });
    const id = 'identity-verification-nul00001';
    const res = await form('/sandbox/identity/verify', { identityVerificationId: id, redirectUrl: '/signup', name: '홍\u0000길동', phone: '01012345678', birthDate: '1990-01-01' });
    expect(res.status).toBe(400);
    refused({ status: res.status, body: await res.json() }, 'identity form', 'name');
    // The verification was not recorded: signing up with it is refused.
    const signup = await ctx.call('POST', '/accounts/portone', { json: { identity_code: id }, headers: { 'x-forwarded-for': '10.9.0.2' } });
    expect(signup.status).not.toBe(200);
    const billing = await form('/sandbox/billing-key/approve', { redirectUrl: '/inquire\u0000' });
    refused({ status: billing.status, body: await billing.json() }, 'billing form', 'redirectUrl');
  });
});

describe('integers beyond the int4 column', () => {
  it('in a query, a path and a body', async () => {
    refused(await ctx.call('GET', '/subscriptions/garages?model=2147483648'), 'model', 'model.0');
    refused(await ctx.call('GET', '/subscriptions/cars/2147483648'), 'car id', 'id');
    refused(await ctx.call('GET', '/butlers/cars/2147483648'), 'butler car id', 'id');
    refused(await ctx.call('POST', '/admin/cars', { headers: admin, json: { model_id: 2147483648 } }), 'model_id', 'model_id');
    refused(await ctx.call('POST', '/admin/cars', { headers: admin, json: { model_id: modelId, mileage: 2147483648 } }), 'mileage', 'mileage');
    refused(await ctx.call('PATCH', `/admin/cars/${carId}`, { headers: admin, json: { mileage: 1e300 } }), 'mileage 1e300', 'mileage');
    refused(await ctx.call('POST', '/admin/cars', { headers: admin, json: { model_id: -2147483649 } }), 'negative model_id', 'model_id');
    // The largest int4 is a value, not an error.
    expect((await ctx.call('GET', '/subscriptions/garages?model=2147483647')).status).toBe(200);
    expect((await ctx.call('PATCH', `/admin/cars/${carId}`, { headers: admin, json: { mileage: 2147483647 } })).status).toBe(200);
  });
});

describe('ids and numbers in paths and queries are decimal digits only', () => {
  it('1e1, 0x10, +1, a blank, 7.0 and an exponent are 400, never read as another number', async () => {
    const cars = await Promise.all(Array.from({ length: 20 }, () => insertTestCar(ctx.database.db)));
    const sixteen = cars.find((c) => c.car.id === 16) ?? cars[15];
    for (const bad of ['1e1', '0x10', '+1', '%2016', '16.0', '0b10', '1_6', '１６']) {
      refused(await ctx.call('DELETE', `/admin/cars/${bad}`, { headers: admin }), `DELETE /admin/cars/${bad}`, 'id');
      refused(await ctx.call('GET', `/subscriptions/cars/${bad}`), `GET /subscriptions/cars/${bad}`, 'id');
      refused(await ctx.call('GET', `/subscriptions/garages?page=${bad}`), `garage page=${bad}`, 'page');
      refused(await ctx.call('GET', `/subscriptions/garages?model=${bad}`), `garage model=${bad}`);
      refused(await ctx.call('GET', `/subscriptions/garages?month=${bad}`), `garage month=${bad}`);
    }
    expect((await ctx.call('GET', `/subscriptions/cars/${sixteen.car.id}`)).status).toBe(200);
    expect((await ctx.call('GET', '/subscriptions/garages?page=2&model=1&month=12')).status).toBe(200);
  });
});

describe('strings bounded by their column', () => {
  it('a contact email of 312 characters is a 400 on email', async () => {
    refused(await ctx.call('POST', '/services/contacts', { json: { ...contact, email: `${'a'.repeat(300)}@example.com` } }), 'long email', 'email');
  });
  it('admin car texts', async () => {
    refused(await ctx.call('PATCH', `/admin/cars/${carId}`, { headers: admin, json: { license_plate: '1'.repeat(21) } }), 'plate', 'license_plate');
    refused(await ctx.call('PATCH', `/admin/cars/${carId}`, { headers: admin, json: { color: 'c'.repeat(61) } }), 'color', 'color');
  });
});

describe('impossible calendar dates', () => {
  it('in the admin car form', async () => {
    for (const day of ['2024-02-30', '2023-02-29', '0000-01-01', '2024-13-01', '2024-00-10', '99999-01-01']) {
      refused(await ctx.call('PATCH', `/admin/cars/${carId}`, { headers: admin, json: { release_date: day } }), day, 'release_date');
      refused(await ctx.call('PATCH', `/admin/cars/${carId}`, { headers: admin, json: { subscription_available_from: day } }), day, 'subscription_available_from');
    }
    expect((await ctx.call('PATCH', `/admin/cars/${carId}`, { headers: admin, json: { release_date: '2024-02-29' } })).status).toBe(200);
  });

  it('in the staff confirmation of a subscription request: dates whose term end would overflow are refused before the request is read', async () => {
    for (const day of ['2024-02-30', '0000-01-01', '9999-12-31']) {
      refused(await ctx.call('POST', '/admin/subscription-requests/424242/confirm', { headers: admin, json: { start_date: day } }), day, 'start_date');
      refused(await ctx.call('POST', '/admin/subscription-requests/424242/confirm', { headers: admin, json: { start_date: '2026-01-01', end_date: day } }), day, 'end_date');
    }
    expect((await ctx.call('POST', '/admin/subscription-requests/424242/confirm', { headers: admin, json: { start_date: '2026-01-01' } })).status).toBe(404);
  });

  it('in the identity sandbox: the form is shown again with 400', async () => {
    const form = (birthDate: string) =>
      ctx.app.request('/sandbox/identity/verify', {
        method: 'POST',
        headers: { host: 'localhost', 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ identityVerificationId: 'identity-verification-date0001', redirectUrl: '/signup', name: '홍길동', phone: '01012345678', birthDate }).toString(),
      });
    for (const day of ['2024-02-30', '0000-01-01', '1990-02-29']) expect((await form(day)).status, day).toBe(400);
    expect(await sandboxVerify(ctx, { name: '홍길동', phone: '01012345678', birthDate: '1992-02-29' })).toMatch(/^identity-verification-/);
  });
});
