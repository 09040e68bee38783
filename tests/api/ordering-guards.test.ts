import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../src/domain/error-codes';
import { addDays, todayInKorea } from '../../src/domain/dates';
import { insertButlerCar, insertModel, insertTestCar, insertUser, upsertBrand } from '../../src/api/seed/factories';
import { openSession } from '../../src/api/accounts/sessions';
import { anotherPlate, billingKey, createTestContext, sandboxVerify, type TestContext } from './helpers';

/** Issue 12 "Robustness": what refuses an order before the card window opens, and who may order at all. */

let ctx: TestContext;
let carId: number;
let laterCarId: number;
let closedCarId: number;
let butlerCarId: number;

beforeAll(async () => {
  ctx = await createTestContext();
  const db = ctx.database.db;
  ({ car: { id: carId } } = await insertTestCar(db, { fees: { subscription_fee_12: 3_000_000 } }));
  ({ car: { id: laterCarId } } = await insertTestCar(db, { subscriptionAvailableFrom: addDays(todayInKorea(new Date()), 30), brand: 'Later', brandSlug: 'later', model: 'Later' }));
  ({ car: { id: closedCarId } } = await insertTestCar(db, { isSubscriptable: false, brand: 'Closed', brandSlug: 'closed', model: 'Closed' }));
  const brand = await upsertBrand(db, { name: 'Mercedes Benz', slug: 'mercedes' });
  const modelId = (await insertModel(db, { brandId: brand.id, name: 'S-Class' })).id;
  butlerCarId = (await insertButlerCar(db, modelId, { subModel: 'S 580', butlerFee: 700_000, butlerOvertimeFee: null })).id;
});
afterAll(() => ctx.close());

async function account(verified: boolean) {
  const user = await insertUser(ctx.database.db, { ciVerified: verified });
  return { user, token: (await openSession(ctx.database.db, ctx.config, user.id)).access_token };
}
// One plate per order (issue 38: one car is not ordered twice for the same days).
const order = async (token: string, car: number, key = billingKey(ctx)) => ctx.call('POST', `/subscriptions/cars/${car === carId ? await anotherPlate(ctx, car) : car}/request`, { token, json: { month: 12, billing_key: key } });
const at = (days: number, time: string) => `${addDays(todayInKorea(new Date()), days)}T${time}:00+09:00`;
const butlerBody = (key: string) => ({
  start_at: at(12, '09:00'), end_at: at(12, '17:00'), start_location: '서울 강남구 테헤란로 152', end_location: '인천 중구 공항로 272',
  way_point_requests: [], passenger_count: 2, purpose: '비즈니스 미팅', memo: '', driver_preference: 'any', coupon_id: null, point_amount: null, billing_key: key,
});

describe('a car that cannot be ordered now', () => {
  it('is refused with the words the pages show, and the card key stays free for another order', async () => {
    const { token } = await account(true);
    const key = billingKey(ctx);
    const later = await order(token, laterCarId, key);
    expect(later.status).toBe(422);
    expect(later.body.message).toBe(`${addDays(todayInKorea(new Date()), 30)}부터 구독할 수 있는 차량입니다.`);
    const closed = await order(token, closedCarId, key);
    expect(closed.status).toBe(422);
    expect(closed.body.message).toBe('현재 구독 신청을 받지 않는 차량입니다.');
    expect((await order(token, carId, key)).status).toBe(201);
  });
});

describe('an account without identity verification', () => {
  it('cannot order a subscription: 403 IDENTITY_REQUIRED in Korean, nothing claimed', async () => {
    const { token } = await account(false);
    const key = billingKey(ctx);
    const res = await order(token, carId, key);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: ErrorCode.IDENTITY_REQUIRED, errors: { identity: expect.any(Array) } });
    expect(res.body.message).toMatch(/본인인증을 마친 회원만 구독 서비스를 신청할 수 있습니다/);
    const other = await account(true);
    expect((await order(other.token, carId, key)).status).toBe(201);
  });

  it('cannot book a butler either', async () => {
    const { token } = await account(false);
    const res = await ctx.call('POST', `/butlers/cars/${butlerCarId}/request`, { token, json: butlerBody(billingKey(ctx)) });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe(ErrorCode.IDENTITY_REQUIRED);
    expect(res.body.message).toMatch(/의전 서비스/);
  });

  it('orders once the identity is attached through the verification the page leads to', async () => {
    const { user, token } = await account(false);
    const me = await ctx.call('GET', '/accounts', { token });
    expect(me.body.data.ci_verified).toBe(false);
    const identity_code = await sandboxVerify(ctx, { name: user.name!, phone: '01055501234' });
    const attached = await ctx.call('POST', '/accounts/portone', { token, json: { identity_code } });
    expect(attached.status).toBe(200);
    expect((await ctx.call('GET', '/accounts', { token })).body.data.ci_verified).toBe(true);
    // Then the order page's 운전면허 확인, by the name and birth date the verification gave.
    const licence = await ctx.call('POST', '/subscriptions/licences', { token, json: { role: 'HOLDER', number: '11-08-654321-01', type: 'CLASS2_ORDINARY' } });
    expect(licence.status, JSON.stringify(licence.body)).toBe(201);
    expect(licence.body.data.licence).toMatchObject({ name: user.name, birth_date: '1990-01-01' });
    expect((await order(token, carId)).status).toBe(201);
  });
});
