import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayInKorea } from '../../src/domain/dates';
import { insertButlerCar, insertModel, upsertBrand } from '../../src/api/seed/factories';
import { TEST_ADMIN_TOKEN } from '../../src/api/env';
import { issueSandboxBillingKey } from '../../src/api/billing/sandbox-provider';
import { apiTools, createTestContext, customer, type TestContext } from './helpers';
import { driverAccount } from './driver-helpers';

/**
 * The e2e fixture POST /admin/test-trip-earlier: a confirmed trip and its recorded 출발/도착 moved
 * back by whole minutes, so an e2e day (tests/e2e/butler-day.spec.ts) can have passed without the
 * business clock every spec shares. Fixtures only; refused once 탑승 is recorded.
 */

let ctx: TestContext;
let modelId: number;
const { admin: staff } = apiTools(() => ctx);
const at = (days: number, time: string) => `${addDays(todayInKorea(new Date()), days)}T${time}:00+09:00`;

beforeAll(async () => {
  ctx = await createTestContext();
  const brand = await upsertBrand(ctx.database.db, { name: '마이바흐', slug: 'maybach-trip-earlier' });
  modelId = (await insertModel(ctx.database.db, { brandId: brand.id, name: 'S680' })).id;
});
afterAll(() => ctx.close());

describe('POST /admin/test-trip-earlier', () => {
  it('moves a confirmed trip, its waypoints and its recorded 출발 back; refused after 탑승, for customers and without fixtures', async () => {
    const car = await insertButlerCar(ctx.database.db, modelId, { butlerFee: 800_000, butlerOvertimeFee: 100_000, licensePlate: '34나 7701' });
    const owner = await customer(ctx);
    const made = await ctx.call('POST', `/butlers/cars/${car.id}/request`, {
      token: owner.token,
      json: {
        start_at: at(3, '23:50'), end_at: null, start_location: '인천 중구 공항로 272', end_location: '서울 중구 세종대로 110', passenger_count: 1,
        way_point_requests: [{ address: '서울 종로구 사직로 161', scheduled_time: at(4, '00:30') }], flight_number: 'KE123', billing_key: issueSandboxBillingKey(ctx.config),
      },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const id = made.body.data.butler_request.id;
    const { driver, token } = await driverAccount(ctx);
    expect((await staff('POST', `/admin/butler-requests/${id}/assign`, { driver_id: driver.id })).status).toBe(200);
    await staff('POST', '/admin/test-clock', { now: new Date(Date.parse(at(3, '23:00'))).toISOString() });
    try {
      expect((await ctx.call('POST', `/driver/trips/${id}/stages/departed`, { token, json: {} })).status).toBe(201);
      expect((await ctx.call('POST', '/admin/test-trip-earlier', { token: owner.token, json: { butler_request_id: id, minutes: 60 } })).status).toBe(403);
      expect((await staff('POST', '/admin/test-trip-earlier', { butler_request_id: id, minutes: 0 })).status).toBe(400);

      const res = await staff('POST', '/admin/test-trip-earlier', { butler_request_id: id, minutes: 600 });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data.start_at).toBe(new Date(Date.parse(at(3, '13:50'))).toISOString());
      const mine = (await ctx.call('GET', `/butlers/requests/${id}`, { token: owner.token })).body.data.butler_request;
      expect(mine.start_at).toBe(new Date(Date.parse(at(3, '13:50'))).toISOString());
      expect(mine.end_at).toBeNull();
      expect(mine.way_points[0].scheduled_time).toBe(new Date(Date.parse(at(3, '14:30'))).toISOString());
      const trip = ((await ctx.call('GET', '/driver/trips', { token })).body.data.trips as { id: number; times: { departed: string } }[]).find((t) => t.id === id)!;
      // 출발 was tapped at 23:00 by the (ticking) test clock: ten hours earlier now.
      expect(Math.abs(Date.parse(trip.times.departed) - Date.parse(at(3, '13:00')))).toBeLessThan(60_000);

      for (const stage of ['arrived', 'boarded']) expect((await ctx.call('POST', `/driver/trips/${id}/stages/${stage}`, { token, json: {} })).status).toBe(201);
      const refused = await staff('POST', '/admin/test-trip-earlier', { butler_request_id: id, minutes: 60 });
      expect(refused.status).toBe(409);
      expect(refused.body.message).toBe('탑승이 기록된 운행은 옮길 수 없습니다.');
      expect((await staff('POST', '/admin/test-trip-earlier', { butler_request_id: 99_999_999, minutes: 60 })).status).toBe(404);
    } finally {
      await staff('POST', '/admin/test-clock', {});
    }

    const off = await createTestContext({ testFixtures: false });
    try {
      expect((await off.call('POST', '/admin/test-trip-earlier', { token: TEST_ADMIN_TOKEN, json: { butler_request_id: id, minutes: 60 } })).status).toBe(404);
    } finally {
      await off.close();
    }
  });
});
