import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { quoteButler } from '../../src/domain/butler';
import { addDays, todayInKorea } from '../../src/domain/dates';
import { insertButlerCar, insertCoupon, insertModel, insertTestCar, insertUser, upsertBrand } from '../../src/api/seed/factories';
import { butlerRequests, butlerReservedDates, userCoupons } from '../../src/api/db/schema';
import { sandboxCardInfo } from '../../src/api/billing/sandbox-provider';
import { creditPoints, pointBalance } from '../../src/api/wallet/points';
import { openSession } from '../../src/api/accounts/sessions';
import { TEST_ADMIN_TOKEN } from '../../src/api/env';
import { apiTools, createTestContext, type TestContext } from './helpers';

let ctx: TestContext;
let modelId: number;
const ADMIN = TEST_ADMIN_TOKEN;

beforeAll(async () => {
  ctx = await createTestContext();
  const brand = await upsertBrand(ctx.database.db, { name: 'Mercedes Benz', slug: 'mercedes' });
  modelId = (await insertModel(ctx.database.db, { brandId: brand.id, name: 'S-Class' })).id;
});
afterAll(() => ctx.close());

/** A fresh butler car (700,000 won for 8 h; no overtime fee → 70,000 won per hour), so each test owns its days. */
async function newCar(overrides: Parameters<typeof insertButlerCar>[2] = {}) {
  return insertButlerCar(ctx.database.db, modelId, { subModel: 'S 580 (4인승)', butlerFee: 700_000, butlerOvertimeFee: null, ...overrides });
}

/** A user with a token, some points and BUTLER coupons held (holding ids returned). */
async function customer(points = 0, couponOverrides: Parameters<typeof insertCoupon>[1][] = []) {
  const db = ctx.database.db;
  const user = await insertUser(db);
  if (points) await creditPoints(db, { userId: user.id, amount: points, reason: 'ADMIN' });
  const holdings: number[] = [];
  for (const o of couponOverrides) {
    const c = await insertCoupon(db, { service: 'BUTLER', ...o });
    const [h] = await db.insert(userCoupons).values({ userId: user.id, couponId: c.id }).returning();
    holdings.push(h.id);
  }
  return { user, token: (await openSession(db, ctx.config, user.id)).access_token, holdings };
}

const { card } = apiTools(() => ctx);
/** An ISO time `days` Korean days from today at a Korean wall-clock time. */
const at = (days: number, time: string) => `${addDays(todayInKorea(new Date()), days)}T${time}:00+09:00`;
const dayOf = (days: number) => addDays(todayInKorea(new Date()), days);
/** A reservation payload; without an explicit end_at the trip ends 8 hours after its start. */
const body = (overrides: Record<string, unknown> & { start_at?: string } = {}) => ({
  start_at: at(10, '09:00'),
  start_location: '서울 강남구 테헤란로 152',
  end_at: new Date(new Date(overrides.start_at ?? at(10, '09:00')).getTime() + 8 * 3_600_000).toISOString(),
  end_location: '인천 중구 공항로 272',
  way_point_requests: [],
  passenger_count: 2,
  purpose: '비즈니스 미팅',
  memo: '',
  driver_preference: 'any',
  coupon_id: null,
  point_amount: null,
  billing_key: card(),
  ...overrides,
});
const book = (token: string, carId: number, json: unknown) => ctx.call('POST', `/butlers/cars/${carId}/request`, { token, json });
const balance = (userId: number) => pointBalance(ctx.database.db, userId);
const couponUsed = async (id: number) => (await ctx.database.db.select().from(userCoupons).where(eq(userCoupons.id, id)))[0].isUsed;
const reserved = async (carId: number) =>
  (await ctx.database.db.select().from(butlerReservedDates).where(eq(butlerReservedDates.butlerCarId, carId))).map((r) => ({ date: r.date, request: r.butlerRequestId })).sort((a, b) => a.date.localeCompare(b.date));
const requestsOf = async (userId: number) => ctx.database.db.select().from(butlerRequests).where(eq(butlerRequests.userId, userId));
const carTerms = { butler_fee: 700_000, butler_overtime_fee: null };

describe('creating a butler request', () => {
  it('needs a login', async () => {
    const car = await newCar();
    const res = await ctx.call('POST', `/butlers/cars/${car.id}/request`, { json: body() });
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('로그인이 필요합니다.');
  });

  it('prices on the server exactly as quoteButler does, spends coupon and points, reserves the day', async () => {
    const car = await newCar();
    const { user, token, holdings } = await customer(150_000, [{ discountType: 'PERCENTAGE', discountRate: 10 }]);
    const start = at(12, '09:00');
    const end = at(12, '19:30'); // 10 h 30 → 3 started overtime hours
    const cardKey = card();
    const res = await book(token, car.id, body({
      start_at: start, end_at: end, coupon_id: holdings[0], point_amount: 100_000, billing_key: cardKey,
      way_point_requests: [{ address: '서울역', scheduled_time: at(12, '10:00') }, { address: '  ', scheduled_time: null }, { address: '코엑스', scheduled_time: null }],
    }));
    expect(res.status).toBe(201);
    expect(res.body.code).toBe(0);
    expect(res.body.data.created).toBe(true);
    const r = res.body.data.butler_request;
    const q = quoteButler(carTerms, start, end, { discount_type: 'PERCENTAGE', discount_rate: 10, discount: null }, 100_000);
    expect(q).toMatchObject({ overtimeHours: 3, overtimeFee: 210_000, total: 910_000, couponDiscount: 91_000, final: 719_000 });
    expect(r).toMatchObject({
      status: 'PENDING', base_fee: q.baseFee, overtime_hours: q.overtimeHours, overtime_fee: q.overtimeFee,
      coupon_discount: q.couponDiscount, point_used: 100_000, final_price: q.final,
      start_at: new Date(start).toISOString(), end_at: new Date(end).toISOString(),
      start_location: '서울 강남구 테헤란로 152', end_location: '인천 중구 공항로 272',
      passenger_count: 2, purpose: '비즈니스 미팅', memo: null, driver_preference: 'any', description: null,
      coupon: { id: holdings[0], coupon: { name: '테스트 쿠폰' } },
    });
    expect(r.car).toMatchObject({ id: car.id, butler_fee: 700_000, model: { name: 'S-Class', brand: { name: 'Mercedes Benz' } } });
    expect(r.car.butler_reservated_dates).toContain(dayOf(12));
    expect(r.way_points.map((w: any) => w.address)).toEqual(['서울역', '코엑스']);
    expect(r.way_points[0].id).toBeTypeOf('number');
    expect(r.way_points[0].scheduled_time).toBe(new Date(at(12, '10:00')).toISOString());
    // Issue 49: the card (issuer, last four digits) is stored and shown; the billing key is not in the view at all.
    expect(r.card).toEqual(sandboxCardInfo('approve', cardKey));
    expect(r.card!.issuer).toBe('샌드박스카드');
    expect(r).not.toHaveProperty('billing_key');
    expect(JSON.stringify(res.body)).not.toContain(cardKey);
    const [row] = await requestsOf(user.id);
    expect([row.cardIssuer, row.cardLast4]).toEqual([r.card!.issuer, r.card!.last4]);
    const detail = await ctx.call('GET', `/butlers/requests/${r.id}`, { token });
    expect(detail.body.data.butler_request.card).toEqual(r.card);
    expect(JSON.stringify(detail.body)).not.toContain(cardKey);
    expect(await balance(user.id)).toBe(50_000);
    expect(await couponUsed(holdings[0])).toBe(true);
    expect(await reserved(car.id)).toEqual([{ date: dayOf(12), request: r.id }]);
  });

  it('applies FIXED and FREE coupons to the total with overtime, never below 0, and uses the overtime fee when set', async () => {
    const car = await newCar({ butlerFee: 1_200_000, butlerOvertimeFee: 150_000 });
    const { token, holdings } = await customer(0, [{ discountType: 'FREE' }, { discountType: 'FIXED', discount: 5_000_000 }, { discountType: 'FIXED', discount: 100_000 }]);
    const free = (await book(token, car.id, body({ start_at: at(20, '09:00'), end_at: at(20, '18:00'), coupon_id: holdings[0] }))).body.data.butler_request;
    expect(free).toMatchObject({ base_fee: 1_200_000, overtime_hours: 1, overtime_fee: 150_000, coupon_discount: 1_350_000, final_price: 0 });
    const big = (await book(token, car.id, body({ start_at: at(21, '09:00'), end_at: at(21, '17:01'), coupon_id: holdings[1] }))).body.data.butler_request;
    expect(big).toMatchObject({ overtime_hours: 1, coupon_discount: 1_350_000, final_price: 0 });
    const fixed = (await book(token, car.id, body({ start_at: at(22, '09:00'), end_at: at(22, '17:00'), coupon_id: holdings[2] }))).body.data.butler_request;
    expect(fixed).toMatchObject({ overtime_hours: 0, overtime_fee: 0, coupon_discount: 100_000, final_price: 1_100_000 });
  });

  it('without an end: no overtime, end_at null, the start day reserved; across midnight both days are reserved', async () => {
    const car = await newCar();
    const { token } = await customer();
    const open = (await book(token, car.id, body({ start_at: at(30, '09:00'), end_at: null }))).body.data.butler_request;
    expect(open).toMatchObject({ end_at: null, overtime_hours: 0, final_price: 700_000 });
    const night = (await book(token, car.id, body({ start_at: at(31, '20:00'), end_at: at(32, '02:00') }))).body.data.butler_request;
    expect(night.final_price).toBe(700_000);
    const multi = (await book(token, car.id, body({ start_at: at(40, '09:00'), end_at: at(42, '09:00') }))).body.data.butler_request;
    expect(multi).toMatchObject({ overtime_hours: 40, overtime_fee: 2_800_000, final_price: 3_500_000 });
    expect(await reserved(car.id)).toEqual([
      { date: dayOf(30), request: open.id }, { date: dayOf(31), request: night.id }, { date: dayOf(32), request: night.id },
      { date: dayOf(40), request: multi.id }, { date: dayOf(41), request: multi.id }, { date: dayOf(42), request: multi.id },
    ]);
  });

  it('checks a coupon’s min/max against the base fee, not the total with overtime', async () => {
    const car = await newCar();
    const { user, token, holdings } = await customer(0, [{ minPrice: 800_000 }, { maxPrice: 750_000, discountType: 'PERCENTAGE', discountRate: 10 }]);
    // 12 h: total 980,000 ≥ 800,000, but the base fee 700,000 is under the minimum.
    const under = await book(token, car.id, body({ start_at: at(50, '08:00'), end_at: at(50, '20:00'), coupon_id: holdings[0] }));
    expect(under.status).toBe(422);
    expect(under.body.message).toBe('이 의전 요금에는 사용할 수 없는 쿠폰입니다. (적용 가능 금액 범위를 확인해주세요)');
    expect(await couponUsed(holdings[0])).toBe(false);
    expect(await requestsOf(user.id)).toHaveLength(0);
    // total 980,000 > max 750,000 but the base fee is within: accepted, 10% of the total.
    const within = await book(token, car.id, body({ start_at: at(50, '08:00'), end_at: at(50, '20:00'), coupon_id: holdings[1] }));
    expect(within.status).toBe(201);
    expect(within.body.data.butler_request).toMatchObject({ overtime_fee: 280_000, coupon_discount: 98_000, final_price: 882_000 });
  });

  it('answers 404 for an unknown car, with nothing spent', async () => {
    const { user, token } = await customer(50_000);
    const res = await book(token, 999_999, body({ point_amount: 50_000 }));
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('차량 정보를 찾을 수 없습니다.');
    expect(await balance(user.id)).toBe(50_000);
  });

  it('takes the car from the path, not from car_id in the body', async () => {
    const car = await newCar();
    const other = await newCar();
    const { token } = await customer();
    const res = await book(token, car.id, body({ car_id: other.id, start_at: at(60, '09:00'), end_at: null }));
    expect(res.body.data.butler_request.car.id).toBe(car.id);
    expect(await reserved(other.id)).toEqual([]);
  });

  it('accepts the last bookable day and a time without an offset as Korean time', async () => {
    const car = await newCar();
    const { token } = await customer();
    const res = await book(token, car.id, body({ start_at: `${dayOf(180)}T23:00`, end_at: null }));
    expect(res.status).toBe(201);
    expect(res.body.data.butler_request.start_at).toBe(new Date(`${dayOf(180)}T23:00:00+09:00`).toISOString());
    expect(await reserved(car.id)).toEqual([{ date: dayOf(180), request: res.body.data.butler_request.id }, { date: dayOf(181), request: res.body.data.butler_request.id }]);
  });
});

describe('refusals: Korean message, nothing spent, nothing reserved', () => {
  const D = 70;
  it.each([
    ['a start in the past', { start_at: at(-1, '09:00'), end_at: at(-1, '17:00') }, 422, '출발 시간은 현재 시각 이후로 선택해주세요.', 'start_at'],
    ['a start more than 180 days ahead', { start_at: at(181, '09:00'), end_at: null }, 422, '출발일은 오늘부터 180일 이내로 선택해주세요.', 'start_at'],
    ['an end before the start', { start_at: at(D, '09:00'), end_at: at(D, '08:00') }, 422, '도착 시간은 출발 시간 이후로 선택해주세요.', 'end_at'],
    ['an end equal to the start', { start_at: at(D, '09:00'), end_at: at(D, '09:00') }, 422, '도착 시간은 출발 시간 이후로 선택해주세요.', 'end_at'],
    ['a trip over 72 hours', { start_at: at(D, '09:00'), end_at: at(D + 3, '10:00') }, 422, '이용 시간은 최대 72시간까지 예약할 수 있습니다.', 'end_at'],
    ['a waypoint before the start', { way_point_requests: [{ address: '서울역', scheduled_time: at(D, '08:00') }] }, 422, '경유지 시간은 출발 시간과 도착 시간 사이로 선택해주세요.', 'way_point_requests.0.scheduled_time'],
    ['a waypoint after the end', { way_point_requests: [{ address: '서울역', scheduled_time: null }, { address: '코엑스', scheduled_time: at(D, '17:30') }] }, 422, '경유지 시간은 출발 시간과 도착 시간 사이로 선택해주세요.', 'way_point_requests.1.scheduled_time'],
    ['a waypoint after start + 8 h when no end is given', { end_at: null, way_point_requests: [{ address: '서울역', scheduled_time: at(D, '17:01') }] }, 422, '경유지 시간은 출발 시간과 도착 시간 사이로 선택해주세요.', 'way_point_requests.0.scheduled_time'],
    ['21 passengers', { passenger_count: 21 }, 400, '입력값을 확인해주세요.', 'passenger_count'],
    ['0 passengers', { passenger_count: 0 }, 400, '입력값을 확인해주세요.', 'passenger_count'],
    ['a blank start location', { start_location: '   ' }, 400, '입력값을 확인해주세요.', 'start_location'],
    ['a blank end location', { end_location: '' }, 400, '입력값을 확인해주세요.', 'end_location'],
    ['points not in 10,000 steps', { point_amount: 15_000 }, 422, '포인트는 10,000P 단위로 사용할 수 있습니다.', 'point_amount'],
    ['points over the balance', { point_amount: 200_000 }, 422, '보유 포인트가 부족합니다.', 'point_amount'],
    ['a forged billing key', { billing_key: 'sandbox-bk-abc.def' }, 422, '유효하지 않은 결제 수단(빌링키)입니다. 카드를 다시 등록해주세요.', 'billing_key'],
    ['a missing billing key', { billing_key: '' }, 400, '입력값을 확인해주세요.', 'billing_key'],
  ])('%s', async (_name, patch, status, message, field) => {
    const car = await newCar();
    const { user, token, holdings } = await customer(100_000, [{ discountType: 'FIXED', discount: 50_000 }]);
    const res = await book(token, car.id, body({ start_at: at(D, '09:00'), end_at: at(D, '17:00'), coupon_id: holdings[0], point_amount: 50_000, ...patch }));
    expect(res.status).toBe(status);
    expect(res.body.code).not.toBe(0);
    expect(res.body.message).toBe(message);
    expect(res.body.errors[field]).toBeDefined();
    expect(await balance(user.id)).toBe(100_000);
    expect(await couponUsed(holdings[0])).toBe(false);
    expect(await reserved(car.id)).toEqual([]);
    expect(await requestsOf(user.id)).toHaveLength(0);
  });

  it('points beyond the price after the coupon', async () => {
    const car = await newCar();
    const { user, token, holdings } = await customer(1_000_000, [{ discountType: 'FIXED', discount: 100_000 }]);
    const res = await book(token, car.id, body({ start_at: at(D, '09:00'), coupon_id: holdings[0], point_amount: 610_000 }));
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('사용 포인트가 결제 금액을 넘을 수 없습니다.');
    expect(await balance(user.id)).toBe(1_000_000);
    expect(await couponUsed(holdings[0])).toBe(false);
    expect(await reserved(car.id)).toEqual([]);
    // exactly the price after the coupon is fine: final 0
    const okRes = await book(token, car.id, body({ start_at: at(D, '09:00'), coupon_id: holdings[0], point_amount: 600_000 }));
    expect(okRes.body.data.butler_request.final_price).toBe(0);
  });

  it.each([
    ['for the subscription service', { service: 'SUBSCRIBE' }, false, '의전 서비스에 사용할 수 없는 쿠폰입니다.'],
    ['already used', {}, true, '이미 사용한 쿠폰입니다.'],
    ['expired', { validFrom: dayOf(-30), validTo: dayOf(-1) }, false, '사용 기간이 지났거나 아직 사용할 수 없는 쿠폰입니다.'],
    ['with a minimum above the base fee', { minPrice: 700_001 }, false, '이 의전 요금에는 사용할 수 없는 쿠폰입니다. (적용 가능 금액 범위를 확인해주세요)'],
    ['with a maximum below the base fee', { maxPrice: 699_999 }, false, '이 의전 요금에는 사용할 수 없는 쿠폰입니다. (적용 가능 금액 범위를 확인해주세요)'],
  ])('a coupon %s', async (_n, overrides, used, message) => {
    const car = await newCar();
    const { user, token, holdings } = await customer(50_000, [overrides]);
    if (used) await ctx.database.db.update(userCoupons).set({ isUsed: true }).where(eq(userCoupons.id, holdings[0]));
    const res = await book(token, car.id, body({ start_at: at(D, '09:00'), coupon_id: holdings[0], point_amount: 50_000 }));
    expect(res.status).toBe(422);
    expect(res.body.message).toBe(message);
    expect(res.body.errors.coupon_id).toBeDefined();
    expect(await balance(user.id)).toBe(50_000);
    expect(await couponUsed(holdings[0])).toBe(used);
    expect(await reserved(car.id)).toEqual([]);
  });

  it("another user's coupon", async () => {
    const car = await newCar();
    const owner = await customer(0, [{}]);
    const { token } = await customer();
    const res = await book(token, car.id, body({ start_at: at(D, '09:00'), coupon_id: owner.holdings[0] }));
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('보유하지 않은 쿠폰입니다.');
    expect(await couponUsed(owner.holdings[0])).toBe(false);
    expect(await reserved(car.id)).toEqual([]);
  });

  it('a day already reserved (a staff block or another booking), also as the second day of a trip', async () => {
    const db = ctx.database.db;
    const car = await newCar();
    await db.insert(butlerReservedDates).values({ butlerCarId: car.id, date: dayOf(D + 1) });
    const { user, token, holdings } = await customer(100_000, [{}]);
    const same = await book(token, car.id, body({ start_at: at(D + 1, '09:00'), end_at: null, coupon_id: holdings[0], point_amount: 100_000 }));
    expect(same.status).toBe(409);
    expect(same.body.message).toBe('선택한 날짜에 이미 예약된 차량입니다.');
    const spanning = await book(token, car.id, body({ start_at: at(D, '20:00'), end_at: at(D + 1, '03:00'), coupon_id: holdings[0], point_amount: 100_000 }));
    expect(spanning.status).toBe(409);
    expect(spanning.body.message).toBe('선택한 날짜에 이미 예약된 차량입니다.');
    expect(await balance(user.id)).toBe(100_000);
    expect(await couponUsed(holdings[0])).toBe(false);
    expect(await reserved(car.id)).toEqual([{ date: dayOf(D + 1), request: null }]);
    expect(await requestsOf(user.id)).toHaveLength(0);
    // another car that day is free
    const other = await newCar();
    expect((await book(token, other.id, body({ start_at: at(D + 1, '09:00'), end_at: null }))).status).toBe(201);
  });
});

describe('idempotency per billing key', () => {
  it('the same key twice returns the first request with 200 and spends nothing more', async () => {
    const car = await newCar();
    const { user, token } = await customer(100_000);
    const billing_key = card();
    const first = await book(token, car.id, body({ start_at: at(80, '09:00'), point_amount: 50_000, billing_key }));
    expect(first.status).toBe(201);
    const again = await book(token, car.id, body({ start_at: at(81, '09:00'), end_at: null, point_amount: 50_000, billing_key }));
    expect(again.status).toBe(200);
    expect(again.body.data.created).toBe(false);
    expect(again.body.data.butler_request.id).toBe(first.body.data.butler_request.id);
    expect(again.body.data.butler_request.start_at).toBe(first.body.data.butler_request.start_at);
    expect(await balance(user.id)).toBe(50_000);
    expect(await reserved(car.id)).toEqual([{ date: dayOf(80), request: first.body.data.butler_request.id }]);
  });

  it('concurrent double submits make one request', async () => {
    const car = await newCar();
    const { user, token } = await customer(100_000);
    const json = body({ start_at: at(82, '09:00'), point_amount: 100_000 });
    const results = await Promise.all([book(token, car.id, json), book(token, car.id, json), book(token, car.id, json)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 201]);
    expect(new Set(results.map((r) => r.body.data.butler_request.id)).size).toBe(1);
    expect(await balance(user.id)).toBe(0);
    expect(await requestsOf(user.id)).toHaveLength(1);
  });

  it('a key used by another user is 409', async () => {
    const car = await newCar();
    const a = await customer();
    const b = await customer();
    const billing_key = card();
    expect((await book(a.token, car.id, body({ start_at: at(83, '09:00'), billing_key }))).status).toBe(201);
    const res = await book(b.token, car.id, body({ start_at: at(84, '09:00'), billing_key }));
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('이미 사용된 빌링키입니다. 카드를 다시 등록해주세요.');
    expect(await requestsOf(b.user.id)).toHaveLength(0);
  });

  it('a key already behind a subscription order is 409, and the other way round: one key, one order, across services', async () => {
    const db = ctx.database.db;
    const { car: subCar } = await insertTestCar(db, { model: 'Roma' });
    const car = await newCar();
    const { user, token } = await customer(50_000);
    const k1 = card();
    expect((await ctx.call('POST', `/subscriptions/cars/${subCar.id}/request`, { token, json: { month: 12, billing_key: k1 } })).status).toBe(201);
    const res = await book(token, car.id, body({ start_at: at(85, '09:00'), point_amount: 50_000, billing_key: k1 }));
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('이미 사용된 빌링키입니다. 카드를 다시 등록해주세요.');
    expect(await balance(user.id)).toBe(50_000);
    expect(await reserved(car.id)).toEqual([]);
    const k2 = card();
    expect((await book(token, car.id, body({ start_at: at(85, '09:00'), billing_key: k2 }))).status).toBe(201);
    expect((await ctx.call('POST', `/subscriptions/cars/${subCar.id}/request`, { token, json: { month: 12, billing_key: k2 } })).status).toBe(409);
  });
});

describe('one car, one day, many customers at once', () => {
  it('50 concurrent bookings of one car-day: exactly one wins, 49 get 409, one reserved row, nothing else spent', async () => {
    const car = await newCar();
    const people = await Promise.all(Array.from({ length: 50 }, () => customer(10_000)));
    const results = await Promise.all(people.map((p) => book(p.token, car.id, body({ start_at: at(90, '10:00'), end_at: at(90, '15:00'), point_amount: 10_000 }))));
    const won = results.filter((r) => r.status === 201);
    const lost = results.filter((r) => r.status === 409);
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(49);
    for (const r of lost) expect(r.body.message).toBe('선택한 날짜에 이미 예약된 차량입니다.');
    const winner = won[0].body.data.butler_request;
    expect(await reserved(car.id)).toEqual([{ date: dayOf(90), request: winner.id }]);
    const balances = await Promise.all(people.map((p) => balance(p.user.id)));
    expect(balances.filter((b) => b === 0)).toHaveLength(1);
    expect(balances.filter((b) => b === 10_000)).toHaveLength(49);
    const rows = await ctx.database.db.select().from(butlerRequests).where(eq(butlerRequests.butlerCarId, car.id));
    expect(rows).toHaveLength(1);
  });
});

describe('lists, coupons and butler subscriptions', () => {
  it('lists the user own live requests newest first; coupons are the BUTLER holdings only', async () => {
    const car = await newCar();
    const a = await customer(0, [{ discountType: 'PERCENTAGE', discountRate: 5 }, { service: 'SUBSCRIBE' }]);
    const b = await customer();
    const r1 = (await book(a.token, car.id, body({ start_at: at(100, '09:00') }))).body.data.butler_request;
    const r2 = (await book(a.token, car.id, body({ start_at: at(101, '09:00') }))).body.data.butler_request;
    const r3 = (await book(a.token, car.id, body({ start_at: at(102, '09:00') }))).body.data.butler_request;
    expect((await ctx.call('DELETE', `/butlers/requests/${r3.id}`, { token: a.token })).status).toBe(200);
    const list = await ctx.call('GET', '/butlers/requests', { token: a.token });
    expect(list.status).toBe(200);
    expect(list.body.data.butler_requests.map((r: any) => r.id)).toEqual([r2.id, r1.id]);
    expect((await ctx.call('GET', '/butlers/requests', { token: b.token })).body.data.butler_requests).toEqual([]);
    expect((await ctx.call('GET', '/butlers/requests')).status).toBe(401);
    const coupons = await ctx.call('GET', '/butlers/coupons', { token: a.token });
    expect(coupons.body.data.coupons).toHaveLength(1);
    expect(coupons.body.data.coupons[0]).toMatchObject({ id: a.holdings[0], is_used: false, is_valid: true, coupon: { service: 'BUTLER', discount_type: 'PERCENTAGE', discount_rate: 5 } });
    expect((await ctx.call('GET', '/butlers/coupons')).status).toBe(401);
  });

  it('the public fleet stays open next to the user routes', async () => {
    const car = await newCar();
    expect((await ctx.call('GET', '/butlers/cars')).status).toBe(200);
    const one = await ctx.call('GET', `/butlers/cars/${car.id}`);
    expect(one.status).toBe(200);
    expect(one.body.data.car.id).toBe(car.id);
    expect((await ctx.call('GET', '/butlers')).status).toBe(401);
  });

  it('staff confirmation makes a butler subscription; confirmed requests can no longer be edited or cancelled by the user', async () => {
    const car = await newCar();
    const { user, token, holdings } = await customer(20_000, [{}]);
    const r = (await book(token, car.id, body({ start_at: at(110, '09:00'), coupon_id: holdings[0], point_amount: 20_000 }))).body.data.butler_request;
    expect((await ctx.call('GET', '/butlers', { token })).body.data.butlers).toEqual([]);
    expect((await ctx.call('POST', `/admin/butler-requests/${r.id}/confirm`, { token })).status).toBe(403);
    const res = await ctx.call('POST', `/admin/butler-requests/${r.id}/confirm`, { token: ADMIN });
    expect(res.status).toBe(201);
    const sub = res.body.data.butler_subscription;
    expect(sub).toMatchObject({ request: { id: r.id, status: 'CONFIRMED' } });
    expect(Object.keys(sub).sort()).toEqual(['created_at', 'id', 'modified_at', 'request']);
    // The audit row keeps the request as it was and the subscription it became.
    const [audit] = (await ctx.call('GET', `/admin/audit?entity=butler_request&entity_id=${r.id}`, { token: ADMIN })).body.data.entries;
    expect(audit).toMatchObject({ action: 'confirm', before: { id: r.id, status: 'PENDING' }, after: { id: sub.id, request: { status: 'CONFIRMED' } } });
    expect(audit.before).not.toHaveProperty('billingKey');
    const again = await ctx.call('POST', `/admin/butler-requests/${r.id}/confirm`, { token: ADMIN });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('이미 확정된 의전 요청입니다.');
    expect((await ctx.call('POST', '/admin/butler-requests/999999/confirm', { token: ADMIN })).status).toBe(404);
    const butlers = (await ctx.call('GET', '/butlers', { token })).body.data.butlers;
    expect(butlers).toHaveLength(1);
    expect(butlers[0]).toMatchObject({ id: sub.id, request: { id: r.id, car: { id: car.id }, coupon: { id: holdings[0] }, point_used: 20_000 } });
    const put = await ctx.call('PUT', `/butlers/requests/${r.id}`, { token, json: { month: 1, billing_key: 'temp', start_at: at(111, '09:00'), start_location: 'a', end_location: 'b' } });
    expect(put.status).toBe(409);
    expect(put.body.message).toBe('확정된 의전 요청은 수정할 수 없습니다. 고객센터로 문의해주세요.');
    // Confirmed, the customer may still cancel by the rule shown before paying: this far ahead, in full.
    const preview = await ctx.call('GET', `/butlers/requests/${r.id}/cancel-preview`, { token });
    expect(preview.status).toBe(200);
    expect(preview.body.data).toMatchObject({ refund_percent: 100, refund_amount: r.final_price });
    expect((await ctx.call('GET', `/butlers/requests/${r.id}`, { token })).body.data.butler_request.status).toBe('CONFIRMED');
    expect(await balance(user.id)).toBe(0);
    // staff may still cancel (e.g. no deposit): refunds once, frees the day, the subscription leaves the list
    const cancel = await ctx.call('POST', `/admin/butler-requests/${r.id}/cancel`, { token: ADMIN });
    expect(cancel.status).toBe(200);
    // Staff cancels refund everything paid (here the fee after the coupon and points) with the coupon and points.
    expect(cancel.body.data).toEqual({ id: r.id, refunded_points: 20_000, coupon_returned: true, refunded_amount: r.final_price, refund_percent: 100 });
    expect((await ctx.call('POST', `/admin/butler-requests/${r.id}/cancel`, { token: ADMIN })).status).toBe(409);
    expect(await balance(user.id)).toBe(20_000);
    expect(await couponUsed(holdings[0])).toBe(false);
    expect(await reserved(car.id)).toEqual([]);
    expect((await ctx.call('GET', '/butlers', { token })).body.data.butlers).toEqual([]);
    const cancelled = await ctx.call('POST', `/admin/butler-requests/${r.id}/confirm`, { token: ADMIN });
    expect(cancelled.status).toBe(409);
    expect(cancelled.body.message).toBe('취소된 의전 요청입니다.');
  });
});

describe('editing a request', () => {
  const put = (token: string, id: number, json: unknown) => ctx.call('PUT', `/butlers/requests/${id}`, { token, json });

  it('re-prices (coupon recomputed on the new total), accepts and ignores month and the temporary billing key', async () => {
    const car = await newCar();
    const { token, holdings } = await customer(0, [{ discountType: 'PERCENTAGE', discountRate: 10 }]);
    const r = (await book(token, car.id, body({ start_at: at(120, '09:00'), end_at: at(120, '17:00'), coupon_id: holdings[0] }))).body.data.butler_request;
    expect(r).toMatchObject({ overtime_fee: 0, coupon_discount: 70_000, final_price: 630_000 });
    const res = await put(token, r.id, {
      month: 1, billing_key: 'temporary-key', start_at: at(120, '09:00'), end_at: at(120, '20:00'),
      start_location: '서울 중구 세종대로 110', end_location: '김포공항', description: 'VIP 2명',
      way_points: [{ address: '광화문', scheduled_time: at(120, '12:00') }, { address: '여의도', scheduled_time: null }],
    });
    expect(res.status).toBe(200);
    const q = quoteButler(carTerms, at(120, '09:00'), at(120, '20:00'), { discount_type: 'PERCENTAGE', discount_rate: 10, discount: null }, 0);
    expect(res.body.data.butler_request).toMatchObject({
      overtime_hours: 3, overtime_fee: q.overtimeFee, coupon_discount: q.couponDiscount, final_price: q.final,
      start_location: '서울 중구 세종대로 110', end_location: '김포공항', description: 'VIP 2명',
      card: r.card, coupon: { id: holdings[0] }, passenger_count: 2, purpose: '비즈니스 미팅',
    });
    expect(q).toMatchObject({ total: 910_000, couponDiscount: 91_000, final: 819_000 });
    const wp = res.body.data.butler_request.way_points;
    expect(wp.map((w: any) => w.address)).toEqual(['광화문', '여의도']);
    expect(new Date(res.body.data.butler_request.modified_at).getTime()).toBeGreaterThanOrEqual(new Date(r.modified_at).getTime());
    // way_points left out keep the waypoints; way_points: [] removes them
    const kept = await put(token, r.id, { start_at: at(120, '09:00'), end_at: at(120, '20:00'), start_location: 'a', end_location: 'b' });
    expect(kept.body.data.butler_request.way_points).toEqual(wp);
    expect(kept.body.data.butler_request.description).toBe('VIP 2명');
    const cleared = await put(token, r.id, { start_at: at(120, '09:00'), end_at: null, start_location: 'a', end_location: 'b', way_points: [] });
    expect(cleared.body.data.butler_request).toMatchObject({ way_points: [], end_at: null, overtime_fee: 0, final_price: 630_000 });
  });

  it('moves days: onto another request’s day is 409 with nothing changed; a move frees the old days', async () => {
    const car = await newCar();
    const a = await customer();
    const b = await customer();
    const ra = (await book(a.token, car.id, body({ start_at: at(130, '20:00'), end_at: at(131, '04:00') }))).body.data.butler_request;
    const rb = (await book(b.token, car.id, body({ start_at: at(133, '09:00'), end_at: null }))).body.data.butler_request;
    const onto = await put(a.token, ra.id, { start_at: at(132, '20:00'), end_at: at(133, '02:00'), start_location: 'x', end_location: 'y' });
    expect(onto.status).toBe(409);
    expect(onto.body.message).toBe('선택한 날짜에 이미 예약된 차량입니다.');
    const unchanged = (await ctx.call('GET', `/butlers/requests/${ra.id}`, { token: a.token })).body.data.butler_request;
    expect(unchanged).toMatchObject({ start_at: ra.start_at, end_at: ra.end_at, start_location: ra.start_location });
    expect(await reserved(car.id)).toEqual([{ date: dayOf(130), request: ra.id }, { date: dayOf(131), request: ra.id }, { date: dayOf(133), request: rb.id }]);
    // a move that keeps one own day and adds another
    const moved = await put(a.token, ra.id, { start_at: at(131, '09:00'), end_at: at(132, '10:00'), start_location: 'x', end_location: 'y' });
    expect(moved.status).toBe(200);
    expect(await reserved(car.id)).toEqual([{ date: dayOf(131), request: ra.id }, { date: dayOf(132), request: ra.id }, { date: dayOf(133), request: rb.id }]);
    expect((await book(b.token, car.id, body({ start_at: at(130, '09:00'), end_at: null }))).status).toBe(201);
  });

  it('when the new price is below the points used, keeps the largest 10,000 step and refunds the rest once', async () => {
    const car = await newCar();
    const { user, token } = await customer(980_000);
    const r = (await book(token, car.id, body({ start_at: at(140, '08:00'), end_at: at(140, '20:00'), point_amount: 980_000 }))).body.data.butler_request;
    expect(r).toMatchObject({ point_used: 980_000, final_price: 0 });
    expect(await balance(user.id)).toBe(0);
    const res = await put(token, r.id, { start_at: at(140, '08:00'), end_at: at(140, '16:00'), start_location: 'a', end_location: 'b' });
    expect(res.body.data.butler_request).toMatchObject({ point_used: 700_000, final_price: 0, overtime_fee: 0 });
    expect(await balance(user.id)).toBe(280_000);
    const longer = await put(token, r.id, { start_at: at(140, '08:00'), end_at: at(140, '18:00'), start_location: 'a', end_location: 'b' });
    expect(longer.body.data.butler_request).toMatchObject({ point_used: 700_000, final_price: 140_000 });
    expect(await balance(user.id)).toBe(280_000);
    const del = await ctx.call('DELETE', `/butlers/requests/${r.id}`, { token });
    // The longer trip charged 140,000 won more; the cancel, 140 days ahead, refunds it all.
    expect(del.body.data).toEqual({ id: r.id, refunded_points: 700_000, coupon_returned: false, refunded_amount: 140_000, refund_percent: 100 });
    expect(await balance(user.id)).toBe(980_000);
  });

  it('refuses like creation and changes nothing', async () => {
    const car = await newCar();
    const { token } = await customer();
    const r = (await book(token, car.id, body({ start_at: at(150, '09:00'), way_point_requests: [{ address: '서울역', scheduled_time: at(150, '10:00') }] }))).body.data.butler_request;
    const base = { start_at: at(150, '09:00'), end_at: at(150, '17:00'), start_location: 'a', end_location: 'b' };
    const cases: [Record<string, unknown>, number, string][] = [
      [{ start_at: at(-2, '09:00'), end_at: null }, 422, '출발 시간은 현재 시각 이후로 선택해주세요.'],
      [{ start_at: at(190, '09:00'), end_at: null }, 422, '출발일은 오늘부터 180일 이내로 선택해주세요.'],
      [{ end_at: at(150, '08:00') }, 422, '도착 시간은 출발 시간 이후로 선택해주세요.'],
      [{ end_at: at(154, '09:00') }, 422, '이용 시간은 최대 72시간까지 예약할 수 있습니다.'],
      [{ start_at: at(150, '11:00'), end_at: null }, 422, '경유지 시간은 출발 시간과 도착 시간 사이로 선택해주세요.'], // the kept waypoint at 10:00
      [{ way_points: [{ address: '  ', scheduled_time: null }] }, 400, '입력값을 확인해주세요.'],
      [{ start_location: '' }, 400, '입력값을 확인해주세요.'],
      [{ start_at: 'tomorrow' }, 400, '입력값을 확인해주세요.'],
      [{ passenger_count: 25 }, 400, '입력값을 확인해주세요.'],
    ];
    for (const [patch, status, message] of cases) {
      const res = await put(token, r.id, { ...base, ...patch });
      expect([JSON.stringify(patch), res.status, res.body.message]).toEqual([JSON.stringify(patch), status, message]);
    }
    const after = (await ctx.call('GET', `/butlers/requests/${r.id}`, { token })).body.data.butler_request;
    expect(after).toEqual(r);
    expect(await reserved(car.id)).toEqual([{ date: dayOf(150), request: r.id }]);
  });
});

describe('cancelling and other users', () => {
  it('DELETE returns the coupon and refunds the points exactly once, frees the day, and is irreversible', async () => {
    const car = await newCar();
    const { user, token, holdings } = await customer(100_000, [{}]);
    const r = (await book(token, car.id, body({ start_at: at(160, '09:00'), coupon_id: holdings[0], point_amount: 100_000 }))).body.data.butler_request;
    expect(await balance(user.id)).toBe(0);
    const [x, y] = await Promise.all([ctx.call('DELETE', `/butlers/requests/${r.id}`, { token }), ctx.call('DELETE', `/butlers/requests/${r.id}`, { token })]);
    expect([x.status, y.status].sort()).toEqual([200, 404]);
    const done = x.status === 200 ? x : y;
    expect(done.body.data).toEqual({ id: r.id, refunded_points: 100_000, coupon_returned: true, refunded_amount: r.final_price, refund_percent: 100 });
    expect((await ctx.call('DELETE', `/butlers/requests/${r.id}`, { token })).body.message).toBe('요청을 찾을 수 없습니다.');
    expect(await balance(user.id)).toBe(100_000);
    expect(await couponUsed(holdings[0])).toBe(false);
    expect(await reserved(car.id)).toEqual([]);
    expect((await ctx.call('GET', `/butlers/requests/${r.id}`, { token })).status).toBe(404);
    expect((await ctx.call('PUT', `/butlers/requests/${r.id}`, { token, json: { start_at: at(161, '09:00'), start_location: 'a', end_location: 'b' } })).status).toBe(404);
    const [row] = await ctx.database.db.select().from(butlerRequests).where(and(eq(butlerRequests.id, r.id)));
    expect(row.status).toBe('CANCELLED');
    // the coupon and the day can be used again
    const again = await book(token, car.id, body({ start_at: at(160, '09:00'), coupon_id: holdings[0], point_amount: 100_000 }));
    expect(again.status).toBe(201);
    expect(await balance(user.id)).toBe(0);
  });

  it("another user's request is 404 for GET, PUT and DELETE and stays as it was", async () => {
    const car = await newCar();
    const owner = await customer(10_000);
    const other = await customer();
    const r = (await book(owner.token, car.id, body({ start_at: at(165, '09:00'), point_amount: 10_000 }))).body.data.butler_request;
    const get = await ctx.call('GET', `/butlers/requests/${r.id}`, { token: other.token });
    expect(get.status).toBe(404);
    expect(get.body).toEqual({ code: 1004, message: '요청을 찾을 수 없습니다.', errors: {} });
    const put = await ctx.call('PUT', `/butlers/requests/${r.id}`, { token: other.token, json: { start_at: at(166, '09:00'), start_location: 'a', end_location: 'b' } });
    expect(put.status).toBe(404);
    expect((await ctx.call('DELETE', `/butlers/requests/${r.id}`, { token: other.token })).status).toBe(404);
    expect((await ctx.call('GET', `/butlers/requests/${r.id}`, { token: owner.token })).body.data.butler_request).toEqual(r);
    expect(await balance(owner.user.id)).toBe(0);
    expect((await ctx.call('GET', '/butlers', { token: other.token })).body.data.butlers).toEqual([]);
  });
});

describe('malformed input: 400 with a Korean envelope, never 500', () => {
  const korean = /[가-힣]/;
  it.each([
    ['broken JSON', { body: '{"start_at":' }],
    ['a JSON array', { json: [1, 2] }],
    ['null', { json: null }],
    ['numbers as strings', { json: { passenger_count: '2', point_amount: '10000' } }],
    ['a NUL byte in the memo', { json: { memo: 'a\u0000b' } }],
    ['a 201-character location', { json: { start_location: '가'.repeat(201) } }],
    ['a 101-character purpose', { json: { purpose: 'p'.repeat(101) } }],
    ['a 1001-character memo', { json: { memo: 'm'.repeat(1001) } }],
    ['a day that does not exist', { json: { start_at: '2026-02-30T09:00:00+09:00' } }],
    ['hour 24', { json: { start_at: '2026-03-01T24:00:00+09:00' } }],
    ['eleven waypoints', { json: { way_point_requests: Array.from({ length: 11 }, (_, i) => ({ address: `경유지 ${i}`, scheduled_time: null })) } }],
    ['a waypoint that is not an object', { json: { way_point_requests: ['서울역'] } }],
    ['points beyond 32 bits', { json: { point_amount: 2_147_483_648 } }],
    ['a fractional coupon id', { json: { coupon_id: 1.5 } }],
    ['an unknown driver preference', { json: { driver_preference: 'robot' } }],
    ['a boolean location', { json: { start_location: true } }],
  ])('%s', async (_name, input) => {
    const car = await newCar();
    const { token } = await customer();
    const opts = 'body' in input ? { token, body: input.body, headers: { 'content-type': 'application/json' } } : { token, json: input.json === null || Array.isArray(input.json) ? input.json : body(input.json) };
    const res = await ctx.call('POST', `/butlers/cars/${car.id}/request`, opts);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(1001);
    expect(res.body.message).toMatch(korean);
    for (const messages of Object.values<string[]>(res.body.errors ?? {})) for (const m of messages) expect(m).toMatch(korean);
    expect(await reserved(car.id)).toEqual([]);
  });

  it('bad ids in the path are 400, unknown ids 404', async () => {
    const { token } = await customer();
    for (const path of ['/butlers/cars/abc/request', '/butlers/cars/0/request', '/butlers/cars/99999999999/request'] as const) {
      const res = await ctx.call('POST', path, { token, json: body() });
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(korean);
    }
    expect((await ctx.call('GET', '/butlers/requests/abc', { token })).status).toBe(400);
    expect((await ctx.call('PUT', '/butlers/requests/-1', { token, json: {} })).status).toBe(400);
    expect((await ctx.call('DELETE', '/butlers/requests/99999999999', { token })).status).toBe(400);
    expect((await ctx.call('GET', '/butlers/requests/424242', { token })).status).toBe(404);
    const empty = await ctx.call('PUT', '/butlers/requests/424242', { token, body: '' });
    expect(empty.status).toBe(400);
    expect(empty.body.errors.start_at).toBeDefined();
  });
});
