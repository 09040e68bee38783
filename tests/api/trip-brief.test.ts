import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayInKorea } from '../../src/domain/dates';
import { insertButlerCar, insertModel, upsertBrand } from '../../src/api/seed/factories';
import { apiTools, billingKey, createTestContext, customer, type TestContext } from './helpers';

/**
 * What the customer wrote reaches staff and the driver: the memo ("유아 카시트 1개"), purpose,
 * passengers, driver preference and waypoint times are in the order desk's list, on the dispatch
 * board and on the driver's run sheet; none of these answers anyone but staff.
 */
let ctx: TestContext;
let modelId: number;
const { admin: staff } = apiTools(() => ctx);
const at = (days: number, time: string) => `${addDays(todayInKorea(new Date()), days)}T${time}:00+09:00`;
const iso = (s: string) => new Date(s).toISOString();

beforeAll(async () => {
  ctx = await createTestContext();
  const brand = await upsertBrand(ctx.database.db, { name: '벤틀리', slug: 'bentley-brief' });
  modelId = (await insertModel(ctx.database.db, { brandId: brand.id, name: '플라잉스퍼' })).id;
});
afterAll(() => ctx.close());

async function bookWithMemo(days: number, extra: Record<string, unknown> = {}) {
  const car = await insertButlerCar(ctx.database.db, modelId, { subModel: 'V8', licensePlate: `33허 ${1000 + days}` });
  const who = await customer(ctx);
  const res = await ctx.call('POST', `/butlers/cars/${car.id}/request`, {
    token: who.token,
    json: {
      start_at: at(days, '09:00'), end_at: at(days, '17:00'), start_location: '서울 강남구 테헤란로 152', end_location: '인천 중구 공항로 272',
      way_point_requests: [{ address: '서울역', scheduled_time: at(days, '10:30') }, { address: '코엑스', scheduled_time: null }],
      passenger_count: 3, purpose: '가족 행사', memo: '유아 카시트 1개', driver_preference: 'female', billing_key: billingKey(ctx), ...extra,
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id: res.body.data.butler_request.id, who };
}

const brief = {
  passenger_count: 3,
  purpose: '가족 행사',
  memo: '유아 카시트 1개',
  driver_preference: 'female',
};

describe("the customer's memo and wishes reach staff and the driver", () => {
  it('GET /admin/butler-requests answers memo, purpose, passengers, preference and waypoint times', async () => {
    const { id } = await bookWithMemo(6);
    const res = await staff('GET', '/admin/butler-requests?status=PENDING');
    expect(res.status).toBe(200);
    const row = res.body.data.requests.find((r: { id: number }) => r.id === id);
    expect(row).toMatchObject({ ...brief, waypoints: [{ address: '서울역', scheduled_time: iso(at(6, '10:30')) }, { address: '코엑스', scheduled_time: null }] });
  });

  it('the dispatch board and the run sheet carry them once a driver is assigned', async () => {
    const { id } = await bookWithMemo(7);
    const board = await staff('GET', `/admin/dispatch?from=${addDays(todayInKorea(new Date()), 7)}&days=1`);
    expect(board.status).toBe(200);
    const unassigned = board.body.data.trips.find((t: { id: number }) => t.id === id);
    expect(unassigned).toMatchObject({ ...brief, way_points: ['서울역', '코엑스'], waypoints: [{ address: '서울역', scheduled_time: iso(at(7, '10:30')) }, { address: '코엑스', scheduled_time: null }] });

    const driver = (await staff('POST', '/admin/drivers', { name: '한기사', phone: '010-7777-1234', gender: 'female' })).body.data.driver;
    const assigned = await staff('POST', `/admin/butler-requests/${id}/assign`, { driver_id: driver.id });
    expect(assigned.status).toBe(200);
    expect(assigned.body.data.trip).toMatchObject(brief);

    const sheet = await staff('GET', `/admin/dispatch/run-sheet?driver_id=${driver.id}&date=${addDays(todayInKorea(new Date()), 7)}`);
    expect(sheet.status).toBe(200);
    expect(sheet.body.data.trips).toHaveLength(1);
    expect(sheet.body.data.trips[0]).toMatchObject({ id, ...brief, waypoints: [{ address: '서울역', scheduled_time: iso(at(7, '10:30')) }, { address: '코엑스', scheduled_time: null }] });
  });

  it('an edit of the memo shows on the desk at once; a trip without one answers null', async () => {
    const { id, who } = await bookWithMemo(8, { memo: '', purpose: null, way_point_requests: [] });
    let row = (await staff('GET', '/admin/butler-requests')).body.data.requests.find((r: { id: number }) => r.id === id);
    expect(row).toMatchObject({ memo: null, purpose: null, waypoints: [] });
    const edit = await ctx.call('PUT', `/butlers/requests/${id}`, { token: who.token, json: { start_at: at(8, '09:00'), start_location: '서울 강남구 테헤란로 152', end_location: '인천 중구 공항로 272', memo: '휠체어 탑승' } });
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);
    row = (await staff('GET', '/admin/butler-requests')).body.data.requests.find((r: { id: number }) => r.id === id);
    expect(row!.memo).toBe('휠체어 탑승');
  });

  it('customers and strangers do not read the desk, the board or a run sheet', async () => {
    const { who } = await bookWithMemo(9);
    for (const path of ['/admin/butler-requests', `/admin/dispatch?from=${addDays(todayInKorea(new Date()), 9)}&days=1`, `/admin/dispatch/run-sheet?driver_id=1&date=${addDays(todayInKorea(new Date()), 9)}`] as const) {
      expect((await ctx.call('GET', path, { token: who.token })).status, path).toBe(403);
      expect((await ctx.call('GET', path)).status, path).toBe(403);
    }
  });
});

describe('the flight number of an airport pickup', () => {
  it('is kept in its written form and shown to staff (desk, board) and the driver (run sheet), and to the customer', async () => {
    const { id, who } = await bookWithMemo(10, { flight_number: 'ke 123', start_location: '인천국제공항 제1여객터미널' });
    const mine = await ctx.call('GET', `/butlers/requests/${id}`, { token: who.token });
    expect(mine.body.data.butler_request.flight_number).toBe('KE123');
    const row = (await staff('GET', '/admin/butler-requests')).body.data.requests.find((r: { id: number }) => r.id === id);
    expect(row!.flight_number).toBe('KE123');
    const day = addDays(todayInKorea(new Date()), 10);
    const trip = (await staff('GET', `/admin/dispatch?from=${day}&days=1`)).body.data.trips.find((t: { id: number }) => t.id === id);
    expect(trip!.flight_number).toBe('KE123');
    const driver = (await staff('POST', '/admin/drivers', { name: '공항기사', phone: '010-7777-4321', gender: 'female' })).body.data.driver;
    expect((await staff('POST', `/admin/butler-requests/${id}/assign`, { driver_id: driver.id })).status).toBe(200);
    const sheet = await staff('GET', `/admin/dispatch/run-sheet?driver_id=${driver.id}&date=${day}`);
    expect(sheet.body.data.trips[0].flight_number).toBe('KE123');
  });

  it('is optional, may be changed on a pending booking, and a malformed one is refused in Korean on its field', async () => {
    const { id, who } = await bookWithMemo(11);
    expect((await ctx.call('GET', `/butlers/requests/${id}`, { token: who.token })).body.data.butler_request.flight_number).toBeNull();
    const edit = (flight: unknown) =>
      ctx.call('PUT', `/butlers/requests/${id}`, { token: who.token, json: { start_at: at(11, '09:00'), start_location: '김포공항', end_location: '서울역', flight_number: flight } });
    expect((await edit('7c1101')).body.data.butler_request.flight_number).toBe('7C1101');
    const bad = await edit('KE-ABC');
    expect(bad.status).toBe(400);
    expect(bad.body.errors.flight_number[0]).toMatch(/항공편명/);
    expect((await edit(null)).body.data.butler_request.flight_number).toBeNull();

    const car = await insertButlerCar(ctx.database.db, modelId, { licensePlate: null });
    const refused = await ctx.call('POST', `/butlers/cars/${car.id}/request`, {
      token: who.token,
      json: { start_at: at(12, '09:00'), start_location: '인천공항', end_location: '서울역', flight_number: 12345, billing_key: billingKey(ctx) },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.errors.flight_number[0]).toMatch(/항공편명/);
  });
});
