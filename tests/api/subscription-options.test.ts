import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { insertLicence, insertTestCar } from '../../src/api/seed/factories';
import { auditLog, driverLicences, payments, subscriptionRequests } from '../../src/api/db/schema';
import { setStaffRole } from '../../src/api/accounts/staff';
import { TEST_ADMIN_TOKEN } from '../../src/api/env';
import { REGIONAL_DELIVERY_FEE, type CarOptionPrices } from '../../src/domain/subscription-price';
import { anotherPlate, billingKey, createTestContext, customer, koreaDay, type TestContext } from './helpers';

/**
 * Issue 38: options and the whole price on the server. The order API prices the options itself with
 * quoteSubscriptionOrder, charges that first payment, refuses a page that showed another price and
 * an option the car does not offer (Korean 4xx), stores the choice; staff price options (audited).
 */
let ctx: TestContext;
let carId: number;
let staff: string;
let staffEmail: string;
let customerToken: string;

const prices: CarOptionPrices = {
  mileage_plans: [{ km: 1_500, monthly: -100_000 }, { km: 2_500, monthly: 0 }, { km: 4_000, monthly: 200_000 }],
  overage_per_km: 900,
  young_driver_monthly: 300_000,
  extra_driver_monthly: 50_000,
  extra_driver_max: 2,
  deposit: 5_000_000,
  prepayment_max: 6_000_000,
  deductible: 500_000,
};
const pickup = { mileage_km: 2_500, driver_age: 'AGE_26', extra_drivers: 0, handover: 'PICKUP', prepayment: 0 } as const;

beforeAll(async () => {
  ctx = await createTestContext();
  ({ car: { id: carId } } = await insertTestCar(ctx.database.db, { fees: { subscription_fee_12: 3_000_000, subscription_fee_24: 2_700_000 }, optionPrices: prices }));
  const s = await customer(ctx);
  staffEmail = s.user.email!;
  await setStaffRole(ctx.database.db, staffEmail, true);
  staff = s.token;
  customerToken = (await customer(ctx)).token;
});
afterAll(() => ctx.close());

const order = async (token: string, body: Record<string, unknown>, car?: number) =>
  ctx.call('POST', `/subscriptions/cars/${car ?? (await anotherPlate(ctx, carId))}/request`, { token, json: { billing_key: billingKey(ctx), ...body } });
const paymentsOf = async (requestId: number) => ctx.database.db.select().from(payments).where(eq(payments.refId, requestId));

describe('the order API prices the options itself', () => {
  it('charges today: first month with the options, coupon and points, 탁송비, 보증금 and 선납금; later months at the optioned fee', async () => {
    const { user, token, holdings } = await customer(ctx, 100_000, [{ discountType: 'FIXED', discount: 200_000 }]);
    // A driver of 만 21~25세 (the checked licence's birth date decides the band) and one additional driver's licence.
    await ctx.database.db.update(driverLicences).set({ birthDate: '2003-06-01' }).where(eq(driverLicences.userId, user.id));
    const extra = await insertLicence(ctx.database.db, user.id, { role: 'EXTRA', name: '박추가', birthDate: '1980-01-01' });
    const options = { mileage_km: 4_000, driver_age: 'AGE_21', extra_drivers: 1, handover: 'DELIVERY', delivery_address: '부산 해운대구 우동 1408', delivery_window: 'AFTERNOON', prepayment: 1_000_000 };
    // monthly = 3,000,000 + 200,000 + 300,000 + 50,000 − 1,000,000 / 12 (83,333) = 3,466,667
    const monthly = 3_466_667;
    const today = monthly - 200_000 - 100_000 + REGIONAL_DELIVERY_FEE + 5_000_000 + 1_000_000;
    const res = await order(token, { month: 12, coupon_id: holdings[0], point_amount: 100_000, options, quoted_first_payment: today, extra_driver_licence_ids: [extra.id] });
    expect(res.status).toBe(201);
    const r = res.body.data.subscription_request;
    expect(r).toMatchObject({ fee: monthly, coupon_discount: 200_000, point_used: 100_000, final_fee: today });
    expect(r.options!.options).toMatchObject({ mileage_km: 4_000, driver_age: 'AGE_21', extra_drivers: 1, handover: 'DELIVERY', delivery_address: '부산 해운대구 우동 1408', delivery_window: 'AFTERNOON', prepayment: 1_000_000 });
    expect(r.options!.prices).toEqual(prices);
    expect(r.options!.quote).toMatchObject({ monthly, paid_today: today, delivery_fee: REGIONAL_DELIVERY_FEE, deposit: 5_000_000, prepayment_credit: 83_333, term_total: today - 5_000_000 + monthly * 11 });
    expect(res.body.data.payment).toMatchObject({ amount: today, status: 'PAID' });
    expect((await paymentsOf(r.id)).map((p) => p.amount)).toEqual([today]);

    // Confirmed, month 2 is charged the monthly fee with the options (no coupon, points, deposit or prepayment again).
    const start = koreaDay(30);
    expect((await ctx.call('POST', `/admin/subscription-requests/${r.id}/confirm`, { token: TEST_ADMIN_TOKEN, json: { start_date: start } })).status).toBe(201);
    const subs = (await ctx.call('GET', '/subscriptions', { token })).body.data.subscriptions;
    expect(subs[0].billing).toMatchObject({ next_charge_amount: monthly });
  });

  it('free 탁송 to 서울·경기; the order without options takes the car’s defaults (pickup, 2,500km) and its 보증금', async () => {
    const { token } = await customer(ctx);
    const seoul = await order(token, { month: 24, options: { ...pickup, handover: 'DELIVERY', delivery_address: '서울 중구 세종대로 110', delivery_window: 'MORNING' } });
    expect(seoul.status).toBe(201);
    expect(seoul.body.data.subscription_request).toMatchObject({ fee: 2_700_000, final_fee: 2_700_000 + 5_000_000 });
    expect(seoul.body.data.subscription_request.options!.quote.delivery_fee).toBe(0);
    const plain = await order(token, { month: 24 });
    expect(plain.status).toBe(201);
    expect(plain.body.data.subscription_request.options!.options).toMatchObject({ mileage_km: 2_500, handover: 'PICKUP', driver_age: 'AGE_26', extra_drivers: 0, prepayment: 0 });
  });

  it('a car staff have not priced takes the defaults derived from its fee, with no 보증금: the first payment is the first month', async () => {
    const { car } = await insertTestCar(ctx.database.db, { fees: { subscription_fee_12: 2_000_000 } });
    const { token } = await customer(ctx);
    const res = await order(token, { month: 12, options: { ...pickup, mileage_km: 1_500 } }, car.id);
    expect(res.status).toBe(201);
    expect(res.body.data.subscription_request).toMatchObject({ fee: 1_900_000, final_fee: 1_900_000 });
    expect(res.body.data.subscription_request.options!.prices).toMatchObject({ deposit: null, prepayment_max: null, overage_per_km: 400 });
  });

  it('never trusts a client price: a tampered quoted price is refused (409, Korean) before any charge; price fields are ignored', async () => {
    const { token, user } = await customer(ctx, 50_000);
    const car = await anotherPlate(ctx, carId);
    const tampered = await order(token, { month: 12, point_amount: 50_000, options: pickup, quoted_first_payment: 1_000 }, car);
    expect(tampered.status).toBe(409);
    expect(tampered.body.message).toBe('결제 금액이 변경되었습니다. 오늘 결제 금액은 7,950,000원입니다. 금액을 확인한 뒤 다시 신청해주세요.');
    expect(tampered.body.errors.quoted_first_payment).toBeDefined();
    const rows = await ctx.database.db.select().from(subscriptionRequests).where(eq(subscriptionRequests.userId, user.id));
    expect(rows).toHaveLength(0);
    // Price fields a client might add are not read: the server's price is charged.
    const sneaky = await order(token, { month: 12, options: pickup, fee: 1, final_fee: 1, amount: 1, paid_today: 1, quote: { paid_today: 1 } }, car);
    expect(sneaky.status).toBe(201);
    expect(sneaky.body.data.payment!.amount).toBe(8_000_000);
  });

  it('refuses an option the car does not offer, in Korean (400), before the card', async () => {
    const { token, user } = await customer(ctx);
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ ...pickup, mileage_km: 3_000 }, 'options.mileage_km', /주행거리 플랜/],
      [{ ...pickup, extra_drivers: 3 }, 'options.extra_drivers', /최대 2명/],
      [{ ...pickup, prepayment: 7_000_000 }, 'options.prepayment', /최대 6,000,000원/],
      [{ ...pickup, prepayment: 1_500_000 }, 'options.prepayment', /1,000,000원 단위/],
      [{ ...pickup, handover: 'DELIVERY' }, 'options.delivery_address', /탁송 받을 주소/],
      [{ ...pickup, handover: 'DELIVERY', delivery_address: '서울 중구 세종대로 110' }, 'options.delivery_window', /탁송 시간대/],
    ];
    for (const [options, field, message] of cases) {
      const res = await order(token, { month: 12, options });
      expect(res.status, JSON.stringify(options)).toBe(400);
      expect(res.body.message).toMatch(message);
      expect(Object.keys(res.body.errors)).toContain(field);
    }
    // A 선납금 whose credit passes half the monthly fee on a short term.
    const shortCar = await insertTestCar(ctx.database.db, { fees: { subscription_fee_1: 3_000_000 }, optionPrices: prices });
    const short = await order(token, { month: 1, options: { ...pickup, prepayment: 2_000_000 } }, shortCar.car.id);
    expect(short.status).toBe(400);
    expect(short.body.message).toContain('50%');
    // Malformed options are a 400 from the schema, never a 500.
    for (const options of [{ ...pickup, driver_age: 'AGE_18' }, { ...pickup, handover: 'DRONE' }, { ...pickup, extra_drivers: -1 }, { ...pickup, prepayment: 'lots' }, 'x', { ...pickup, delivery_address: 'a'.repeat(201), handover: 'DELIVERY', delivery_window: 'MORNING' }]) {
      const res = await order(token, { month: 12, options });
      expect(res.status, JSON.stringify(options)).toBe(400);
      expect(res.body.message).toMatch(/[가-힣]/);
    }
    expect(await ctx.database.db.select().from(subscriptionRequests).where(eq(subscriptionRequests.userId, user.id))).toHaveLength(0);
  });

  it('an edit of the term re-prices with the options as ordered (the 선납금 spread over the new term)', async () => {
    const { token } = await customer(ctx);
    const created = await order(token, { month: 12, options: { ...pickup, prepayment: 1_000_000 } });
    expect(created.status).toBe(201);
    const r = created.body.data.subscription_request;
    const edited = await ctx.call('PUT', `/subscriptions/requests/${r.id}`, { token, json: { month: 24, coupon_id: null, point_amount: 0, billing_key: r.billing_key } });
    expect(edited.status).toBe(200);
    // 2,700,000 − 1,000,000 / 24 (41,666) = 2,658,334; today: that + 보증금 + 선납금.
    expect(edited.body.data.subscription_request).toMatchObject({ month: 24, fee: 2_658_334, final_fee: 2_658_334 + 5_000_000 + 1_000_000 });
    expect(edited.body.data.subscription_request.options!.options.prepayment).toBe(1_000_000);
  });
});

describe('staff set option prices in the console', () => {
  it('a staff edit is stored, audited, and served with the car', async () => {
    const { car } = await insertTestCar(ctx.database.db, { fees: { subscription_fee_12: 3_000_000 } });
    expect((await ctx.call('GET', `/subscriptions/cars/${car.id}`)).body.data.car.option_prices).toBeNull();
    const mine = { ...prices, deposit: 3_000_000, mileage_plans: [{ km: 2_000, monthly: 0 }, { km: 5_000, monthly: 400_000 }] };
    const res = await ctx.call('PATCH', `/admin/cars/${car.id}`, { token: staff, json: { option_prices: mine } });
    expect(res.status).toBe(200);
    expect((await ctx.call('GET', `/subscriptions/cars/${car.id}`)).body.data.car.option_prices).toEqual(mine);
    const audit = await ctx.database.db.select().from(auditLog).where(eq(auditLog.entityId, String(car.id)));
    expect(audit.at(-1)).toMatchObject({ actor: staffEmail, action: 'update', entity: 'car' });
    expect((audit.at(-1)!.after as { option_prices: CarOptionPrices }).option_prices).toEqual(mine);
    expect((audit.at(-1)!.before as { option_prices: CarOptionPrices | null }).option_prices).toBeNull();
    // The next order is priced with them; null puts the derived defaults back.
    const { token } = await customer(ctx);
    const placed = await order(token, { month: 12, options: { ...pickup, mileage_km: 5_000 } }, car.id);
    expect(placed.body.data.subscription_request).toMatchObject({ fee: 3_400_000, final_fee: 3_400_000 + 3_000_000 });
    expect((await ctx.call('PATCH', `/admin/cars/${car.id}`, { token: staff, json: { option_prices: null } })).status).toBe(200);
    expect((await ctx.call('GET', `/subscriptions/cars/${car.id}`)).body.data.car.option_prices).toBeNull();
  });

  it('refuses invalid option prices in Korean (400) and changes nothing', async () => {
    const bad: Record<string, unknown>[] = [
      { ...prices, mileage_plans: [] },
      { ...prices, mileage_plans: [{ km: 4_000, monthly: 0 }, { km: 2_500, monthly: 0 }] },
      { ...prices, overage_per_km: -1 },
      { ...prices, extra_driver_max: 9 },
      { ...prices, deposit: 0 },
      { ...prices, deductible: 'many' },
      { mileage_plans: prices.mileage_plans },
    ];
    for (const option_prices of bad) {
      const res = await ctx.call('PATCH', `/admin/cars/${carId}`, { token: staff, json: { option_prices } });
      expect(res.status, JSON.stringify(option_prices)).toBe(400);
      expect(res.body.message).toMatch(/[가-힣]/);
    }
    expect((await ctx.call('GET', `/subscriptions/cars/${carId}`)).body.data.car.option_prices).toEqual(prices);
  });

  it('a customer or a stranger cannot edit them (403)', async () => {
    const refused = await ctx.call('PATCH', `/admin/cars/${carId}`, { token: customerToken, json: { option_prices: null } });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toMatch(/권한이 없습니다/);
    expect((await ctx.call('PATCH', `/admin/cars/${carId}`, { json: { option_prices: null } })).status).toBe(403);
    expect((await ctx.call('GET', `/subscriptions/cars/${carId}`)).body.data.car.option_prices).toEqual(prices);
  });
});
