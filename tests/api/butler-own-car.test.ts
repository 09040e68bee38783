import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayInKorea } from '../../src/domain/dates';
import { FLEET_ONLY_MESSAGE, OWN_CAR_ONLY_MESSAGE } from '../../src/domain/butler-legal';
import { OWN_CAR_INSURANCE_MESSAGE, PLATE_MESSAGE } from '../../src/domain/butler-own-car';
import { insertButlerCar, insertModel, insertTestCar, insertUser, upsertBrand } from '../../src/api/seed/factories';
import { butlerRequests, butlerReservedDates, notificationMessages, payments } from '../../src/api/db/schema';
import { issueSandboxBillingKey } from '../../src/api/billing/sandbox-provider';
import { openSession } from '../../src/api/accounts/sessions';
import { TEST_ADMIN_TOKEN } from '../../src/api/env';
import { OWN_CAR_CHAT_TEXT } from '../../src/api/chat/assistant';
import { anotherPlate, countQueries, createTestContext, newPerson, type TestContext } from './helpers';

/**
 * BUTLER_LEGAL_MODEL=own-car (docs/decisions/legal.md §2): a driver for the customer's own car or
 * their active LUXE subscription car, priced at the driver-only hourly rate; never a fleet car,
 * never another customer's subscription car. Staff, the driver and the messages name the car.
 */
const RATE = 45_000;
const PARTNER = { name: '테스트 고급택시(주)', licence: '서울-고급-0042' };
const ADMIN = { token: TEST_ADMIN_TOKEN };
let ctx: TestContext;
let fleetCarId: number;
let subCarId: number;
const day = (d: number) => addDays(todayInKorea(new Date()), d);
const at = (d: number, time: string) => `${day(d)}T${time}:00+09:00`;

beforeAll(async () => {
  ctx = await createTestContext({ butlerLegal: { model: 'own-car', partner: PARTNER, ownCarHourlyRate: RATE } });
  const brand = await upsertBrand(ctx.database.db, { name: 'Mercedes Benz', slug: 'mercedes-own-car' });
  const modelId = (await insertModel(ctx.database.db, { brandId: brand.id, name: 'S-Class' })).id;
  fleetCarId = (await insertButlerCar(ctx.database.db, modelId, { subModel: 'S 580', butlerFee: 700_000 })).id;
  ({ car: { id: subCarId } } = await insertTestCar(ctx.database.db, { fees: { subscription_fee_1: 4_000_000, subscription_fee_12: 3_000_000 } }));
});
afterAll(() => ctx.close());

async function newCustomer() {
  const user = await insertUser(ctx.database.db);
  return { id: user.id, token: (await openSession(ctx.database.db, ctx.config, user.id)).access_token };
}

/** A customer with a confirmed subscription from `start` to `end` (its car has a plate). */
async function subscriber(start = day(-1), end = day(29), who?: { id: number; token: string }) {
  const c = who ?? (await newCustomer());
  const r = await ctx.call('POST', `/subscriptions/cars/${await anotherPlate(ctx, subCarId)}/request`, { token: c.token, json: { month: 1, billing_key: issueSandboxBillingKey(ctx.config) } });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  const confirmed = await ctx.call('POST', `/admin/subscription-requests/${r.body.data.subscription_request.id}/confirm`, { ...ADMIN, json: { start_date: start, end_date: end } });
  expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(201);
  const [sub] = (await ctx.call('GET', '/subscriptions', { token: c.token })).body.data.subscriptions;
  return { ...c, subscriptionId: sub.id, car: sub.request.car as { license_plate: string } };
}

const trip = (overrides: Record<string, unknown> = {}) => ({
  start_at: at(10, '09:00'),
  end_at: at(10, '19:30'),
  start_location: '서울 강남구 테헤란로 152',
  end_location: '인천 중구 공항로 272',
  way_point_requests: [{ address: '서울 중구 세종대로 110', scheduled_time: null }],
  memo: '트렁크에 골프백',
  flight_number: 'KE123',
  billing_key: issueSandboxBillingKey(ctx.config),
  ...overrides,
});
const ownCar = { kind: 'own', make_model: 'BMW 520i', plate: '12 가 3456', insured: true };
const book = (token: string, body: Record<string, unknown>, headers?: Record<string, string>) => ctx.call('POST', '/butlers/own-car/request', { token, json: body, headers });
const rowsOf = (userId: number) => ctx.database.db.select().from(butlerRequests).where(eq(butlerRequests.userId, userId));

describe('own-car booking', () => {
  it('GET /butlers/legal names the model and the hourly rate', async () => {
    expect((await ctx.call('GET', '/butlers/legal')).body.data).toMatchObject({ model: 'own-car', partner: null, cases: [], own_car: { hourly_rate: RATE, min_hours: 8 } });
  });

  it('refuses a fleet car with a driver', async () => {
    const c = await newCustomer();
    const res = await ctx.call('POST', `/butlers/cars/${fleetCarId}/request`, { token: c.token, json: trip() });
    expect(res.status).toBe(422);
    expect(res.body.message).toBe(OWN_CAR_ONLY_MESSAGE);
    expect(await rowsOf(c.id)).toEqual([]);
  });

  it('books a driver for the customer’s own car at the hourly rate, keeping waypoints, memo and flight; no fleet day is reserved; a repeat charges once', async () => {
    const c = await newCustomer();
    const body = { ...trip(), customer_car: ownCar };
    const res = await book(c.token, body);
    const repeat = await book(c.token, body);
    expect(repeat.status).toBe(200);
    expect(repeat.body.data.butler_request.id).toBe(res.body.data.butler_request.id);
    expect(await rowsOf(c.id)).toHaveLength(1);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const r = res.body.data.butler_request;
    // 09:00–19:30: 8 h included + 3 started hours, all at 45,000원.
    expect(r).toMatchObject({ base_fee: 360_000, overtime_hours: 3, overtime_fee: 135_000, final_price: 495_000, memo: '트렁크에 골프백', flight_number: 'KE123' });
    expect(r.way_points.map((w: { address: string }) => w.address)).toEqual(['서울 중구 세종대로 110']);
    expect(r.customer_car).toEqual({ kind: 'own', name: 'BMW 520i', plate: '12가3456', insured: true });
    expect(r.car).toMatchObject({ id: 0, model: { name: 'BMW 520i', brand: { name: '고객 차량' } } });
    expect(r.legal.model).toBe('own-car');
    expect(res.body.data.payment).toMatchObject({ amount: 495_000, status: 'PAID' });
    expect(await ctx.database.db.select().from(butlerReservedDates).where(eq(butlerReservedDates.butlerRequestId, r.id))).toEqual([]);
  });

  it('refuses a plate that is not Korean, or no insurance statement, before paying', async () => {
    const c = await newCustomer();
    const badPlate = await book(c.token, { ...trip(), customer_car: { ...ownCar, plate: 'ABC-123' } });
    expect(badPlate.status).toBe(422);
    expect(badPlate.body.message).toBe(PLATE_MESSAGE);
    expect(badPlate.body.errors).toHaveProperty(['customer_car.plate']);
    const uninsured = await book(c.token, { ...trip(), customer_car: { ...ownCar, insured: false } });
    expect(uninsured.status).toBe(422);
    expect(uninsured.body.message).toBe(OWN_CAR_INSURANCE_MESSAGE);
    const none = await book(c.token, trip());
    expect(none.status).toBe(400);
    expect(none.body.errors).toHaveProperty(['customer_car']);
    expect(await rowsOf(c.id)).toEqual([]);
  });

  it('offers the customer’s active subscription car and books a driver for it', async () => {
    const s = await subscriber();
    const cars = await ctx.call('GET', '/butlers/own-car/cars', { token: s.token });
    expect(cars.status).toBe(200);
    expect(cars.body.data.cars).toEqual([expect.objectContaining({ subscription_id: s.subscriptionId, car_id: expect.any(Number), plate: s.car.license_plate })]);
    const res = await book(s.token, { ...trip({ end_at: at(10, '15:00') }), customer_car: { kind: 'subscription', subscription_id: s.subscriptionId } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data.butler_request).toMatchObject({ final_price: 360_000, customer_car: { kind: 'subscription', subscription_id: s.subscriptionId, plate: s.car.license_plate } });
    // A trip outside the subscription's days is refused.
    const late = await book(s.token, { ...trip({ start_at: at(40, '09:00'), end_at: at(40, '17:00') }), customer_car: { kind: 'subscription', subscription_id: s.subscriptionId } });
    expect(late.status).toBe(422);
    expect(late.body.message).toMatch(/구독 기간/);
  });

  it('lists the subscription cars in as many queries for 3 subscriptions as for 1 (issue 51)', async () => {
    const list = async (token: string) => {
      const { result, queries } = await countQueries(ctx.database.db, () => ctx.call('GET', '/butlers/own-car/cars', { token }));
      expect(result.status).toBe(200);
      return { cars: result.body.data.cars, queries };
    };
    const one = await subscriber();
    const three = await newCustomer();
    const subs = [];
    for (let i = 0; i < 3; i++) subs.push(await subscriber(day(-1), day(29), three));
    const single = await list(one.token);
    const many = await list(three.token);
    expect(single.cars.map((c) => c.subscription_id)).toEqual([one.subscriptionId]);
    expect(many.cars.map((c) => [c.subscription_id, c.plate])).toEqual(subs.reverse().map((s) => [s.subscriptionId, s.car.license_plate]));
    expect(many.queries.length, many.queries.join('\n')).toBe(single.queries.length);
  });

  it('a stranger cannot book a driver for someone else’s subscription car (404, nothing charged)', async () => {
    const owner = await subscriber();
    const stranger = await newCustomer();
    const before = (await ctx.database.db.select().from(payments)).length;
    const res = await book(stranger.token, { ...trip(), customer_car: { kind: 'subscription', subscription_id: owner.subscriptionId } });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('구독을 찾을 수 없습니다.');
    expect((await ctx.call('GET', '/butlers/own-car/cars', { token: stranger.token })).body.data.cars).toEqual([]);
    expect(await rowsOf(stranger.id)).toEqual([]);
    expect((await ctx.database.db.select().from(payments)).length).toBe(before);
  });

  it('an ended subscription is not offered nor bookable', async () => {
    const s = await subscriber(day(-40), day(-1));
    expect((await ctx.call('GET', '/butlers/own-car/cars', { token: s.token })).body.data.cars).toEqual([]);
    const res = await book(s.token, { ...trip(), customer_car: { kind: 'subscription', subscription_id: s.subscriptionId } });
    expect(res.status).toBe(422);
    expect(res.body.message).toMatch(/이용 중인 구독 차량/);
  });

  it('an edit reprices at the booking’s hourly rate', async () => {
    const c = await newCustomer();
    const { id } = (await book(c.token, { ...trip(), customer_car: ownCar })).body.data.butler_request;
    const res = await ctx.call('PUT', `/butlers/requests/${id}`, { token: c.token, json: { start_at: at(11, '09:00'), end_at: at(11, '18:00'), start_location: '서울역', end_location: '인천공항' } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.butler_request).toMatchObject({ base_fee: 360_000, overtime_fee: 45_000, final_price: 405_000, customer_car: { plate: '12가3456' } });
  });

  it('overtime at the trip’s end is charged at the booking’s hourly rate', async () => {
    const c = await newCustomer();
    const { id } = (await book(c.token, { ...trip({ start_at: at(13, '09:00'), end_at: at(13, '17:00') }), customer_car: ownCar })).body.data.butler_request;
    expect((await ctx.call('POST', `/admin/butler-requests/${id}/confirm`, ADMIN)).status).toBe(201);
    const end = at(13, '19:10');
    await ctx.call('POST', '/admin/test-clock', { ...ADMIN, json: { now: new Date(Date.parse(end) + 60_000).toISOString() } });
    try {
      const res = await ctx.call('POST', `/admin/butler-requests/${id}/trip`, { ...ADMIN, json: { actual_start_at: at(13, '09:00'), actual_end_at: end } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      // 10 h 10 min: 3 started hours beyond the 8 booked, at 45,000원.
      expect(res.body.data.overtime_amount).toBe(135_000);
    } finally {
      await ctx.call('POST', '/admin/test-clock', { ...ADMIN, json: {} });
    }
  });

  it('staff (desk, dispatch board), the driver’s phone and the messages name the customer’s car', async () => {
    const c = await newCustomer();
    const res = await book(c.token, { ...trip({ start_at: at(1, '09:00'), end_at: at(1, '17:00') }), customer_car: ownCar });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const id = res.body.data.butler_request.id;
    const desk = (await ctx.call('GET', '/admin/butler-requests', ADMIN)).body.data.requests.find((r: { id: number }) => r.id === id);
    expect(desk!.customer_car).toMatchObject({ name: 'BMW 520i', plate: '12가3456' });
    expect(desk!.car).toMatchObject({ brand: '고객 차량', model: 'BMW 520i', license_plate: '12가3456' });
    const board = (await ctx.call('GET', `/admin/dispatch?from=${day(1)}&days=1`, ADMIN)).body.data.trips.find((t: { id: number }) => t.id === id);
    expect(board!.car).toEqual({ id: 0, name: '고객 차량 BMW 520i', license_plate: '12가3456' });

    // The driver's phone.
    const driver = (await ctx.call('POST', '/admin/drivers', { ...ADMIN, json: { name: '김기사', phone: '010-6262-3030', gender: 'male' } })).body.data.driver as { id: number };
    const email = newPerson('own-car-driver').email;
    expect((await ctx.call('POST', `/admin/drivers/${driver.id}/invite`, { ...ADMIN, json: { channel: 'email', email } })).status).toBe(201);
    await ctx.call('POST', '/admin/billing/run', ADMIN);
    const [invite] = await ctx.database.db.select().from(notificationMessages).where(and(eq(notificationMessages.event, 'driver.invited'), eq(notificationMessages.to, email)));
    const code = /\/driver\?invite=([\w-]+)/.exec(invite.text)![1];
    const driverToken = (await ctx.call('POST', '/driver/invites/accept', { json: { code, password: 'driver123' } })).body.data.access_token;
    expect((await ctx.call('POST', `/admin/butler-requests/${id}/assign`, { ...ADMIN, json: { driver_id: driver.id } })).status).toBe(200);
    const trips = (await ctx.call('GET', '/driver/trips', { token: driverToken })).body.data;
    const mine = trips.trips.find((t) => t.id === id);
    expect(mine?.car ?? JSON.stringify(trips)).toEqual({ name: '고객 차량 BMW 520i', license_plate: '12가3456' });

    // The confirmation message names the car.
    await ctx.call('POST', '/admin/billing/run', ADMIN);
    const told = (await ctx.database.db.select().from(notificationMessages)).filter((m) => m.text.includes('고객 차량 BMW 520i'));
    expect(told.map((m) => m.event), JSON.stringify((await ctx.database.db.select().from(notificationMessages)).filter((m) => m.event.startsWith('staff.butler')).map((m) => m.text))).toEqual(expect.arrayContaining(['butler.requested', 'butler.confirmed']));
  });
});

describe('the chat under own-car', () => {
  it('offers no fleet car and explains the model; under partner it still answers about the fleet', async () => {
    const ask = (headers: Record<string, string> = {}) =>
      ctx.call('POST', '/services/gpt/1', { body: JSON.stringify({ message: '내일 오후 2시 인천공항에서 강남역까지 S-Class로 3명', state: {} }), headers: { 'content-type': 'application/json', accept: 'application/json', 'x-forwarded-for': '10.9.9.9', ...headers } });
    const res = await ask();
    expect(res.status).toBe(200);
    expect(res.body.data.message_text).toBe(OWN_CAR_CHAT_TEXT);
    expect(res.body.data.updates).toEqual({});
    const partner = await ask({ 'x-test-butler-model': 'partner' });
    expect(partner.body.data.message_text).not.toBe(OWN_CAR_CHAT_TEXT);
  });
});

describe('the other models', () => {
  it('partner: no driver-only booking; the fleet booking is unchanged', async () => {
    const c = await newCustomer();
    const res = await book(c.token, { ...trip(), customer_car: ownCar }, { 'x-test-butler-model': 'partner' });
    expect(res.status).toBe(422);
    expect(res.body.message).toBe(FLEET_ONLY_MESSAGE);
    const fleet = await ctx.call('POST', `/butlers/cars/${fleetCarId}/request`, { token: c.token, json: trip({ start_at: at(12, '09:00'), end_at: at(12, '17:00') }), headers: { 'x-test-butler-model': 'partner' } });
    expect(fleet.status, JSON.stringify(fleet.body)).toBe(201);
    expect(fleet.body.data.butler_request).toMatchObject({ customer_car: null, final_price: 700_000, legal: { model: 'partner', partner: PARTNER } });
  });

  it('exemptions: no driver-only booking either', async () => {
    const c = await newCustomer();
    const res = await book(c.token, { ...trip(), customer_car: ownCar }, { 'x-test-butler-model': 'exemptions' });
    expect(res.status).toBe(422);
    expect(res.body.message).toBe(FLEET_ONLY_MESSAGE);
  });
});
