import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayInKorea } from '../../src/domain/dates';
import { insertButlerCar, insertModel, upsertBrand } from '../../src/api/seed/factories';
import { butlerRequests, notificationMessages, payments, sandboxPayments } from '../../src/api/db/schema';
import { issueSandboxBillingKey } from '../../src/api/billing/sandbox-provider';
import { apiTools, createTestContext, customer, type TestContext } from './helpers';
import { driverAccount } from './driver-helpers';

/**
 * Waiting (issue 50): the driver's 도착 → 탑승 is waiting; beyond the free minutes (60 at an
 * airport pickup, 15 elsewhere) each started 30 minutes is charged at the car's hourly rate, once,
 * in the one charge after the trip with the overtime. The customer's page, the payment list and
 * the payment message say what the amount is made of.
 */

let ctx: TestContext;
let modelId: number;

beforeAll(async () => {
  ctx = await createTestContext();
  const brand = await upsertBrand(ctx.database.db, { name: '마이바흐', slug: 'maybach-waiting' });
  modelId = (await insertModel(ctx.database.db, { brandId: brand.id, name: 'S680' })).id;
});
afterAll(() => ctx.close());
afterEach(() => setClock(null));

const { admin: staff, setClock, runJobs } = apiTools(() => ctx);
const at = (days: number, time: string) => `${addDays(todayInKorea(new Date()), days)}T${time}:00+09:00`;
const tap = (token: string, id: number, stage: string, json: unknown = {}) => ctx.call('POST', `/driver/trips/${id}/stages/${stage}`, { token, json });


/** A paid, confirmed booking of 09:00–19:00 on day `d` (10 h: 1,200,000원 for 8 h + 2 h at 150,000원 = 1,500,000원), assigned. */
/** Numbers each test car's plate. */
let seq = 0;
async function trip(d: number, driverId: number, pickup: { start_location: string; flight_number?: string }) {
  const car = await insertButlerCar(ctx.database.db, modelId, { butlerFee: 1_200_000, butlerOvertimeFee: 150_000, licensePlate: `12가 ${7700 + ++seq}` });
  const owner = await customer(ctx);
  const res = await ctx.call('POST', `/butlers/cars/${car.id}/request`, {
    token: owner.token,
    json: { start_at: at(d, '09:00'), end_at: at(d, '19:00'), end_location: '서울 강남구 테헤란로 152', passenger_count: 1, way_point_requests: [], billing_key: issueSandboxBillingKey(ctx.config), ...pickup },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  expect(res.body.data.butler_request.final_price).toBe(1_500_000);
  const id = res.body.data.butler_request.id;
  expect((await staff('POST', `/admin/butler-requests/${id}/assign`, { driver_id: driverId })).status).toBe(200);
  return { id, owner };
}

const overtimeRows = (id: number) => ctx.database.db.select().from(payments).where(and(eq(payments.refId, id), eq(payments.purpose, 'BUTLER_OVERTIME')));

describe('waiting at the pickup', () => {
  it('an airport pickup waited 80 min and ran 30 min over: one charge of both, a replay charges nothing more, every view says the parts', async () => {
    const { driver, token } = await driverAccount(ctx, { consents: true });
    const { id, owner } = await trip(2, driver.id, { start_location: '인천광역시 중구 공항로 272 인천국제공항 제1여객터미널', flight_number: 'KE123' });
    await setClock(at(2, '07:30'));
    expect((await tap(token, id, 'departed', { tapped_at: at(2, '07:30') })).status).toBe(201);
    // The flight is late: the driver is there at 09:10, the passenger boards at 10:30 (80 min of waiting).
    await setClock(at(2, '09:10'));
    expect((await tap(token, id, 'arrived', { tapped_at: at(2, '09:10') })).status).toBe(201);
    await setClock(at(2, '10:30'));
    expect((await tap(token, id, 'boarded', { tapped_at: at(2, '10:30') })).status).toBe(201);
    // 10 h booked, 탑승 10:30 → 21:00 is 10 h 30: one started hour over (150,000원), and 20 min of waiting beyond the free 60 (one 30-min step, 75,000원).
    await setClock(at(2, '21:00'));
    const [a, b] = await Promise.all([tap(token, id, 'ended', { tapped_at: at(2, '21:00') }), tap(token, id, 'ended')]);
    expect([a.status, b.status].sort()).toEqual([200, 201]);
    expect(a.body.data.overtime!.amount).toBe(225_000);
    // A replay later (an offline tap sent again) and staff's own record: nothing more.
    await setClock(at(2, '21:30'));
    expect((await tap(token, id, 'ended', { tapped_at: at(2, '21:00') })).status).toBe(200);
    expect((await staff('POST', `/admin/butler-requests/${id}/trip`, { actual_start_at: at(2, '10:30'), actual_end_at: at(2, '21:00') })).status).toBe(409);
    await runJobs();
    const charged = await overtimeRows(id);
    expect(charged.map((p) => [p.id, p.status, p.amount, p.orderName])).toEqual([[`butler-${id}-overtime`, 'PAID', 225_000, `LUXE 의전 #${id} 초과 이용·대기 요금`]]);
    expect(await ctx.database.db.select().from(sandboxPayments).where(eq(sandboxPayments.paymentId, `butler-${id}-overtime`))).toHaveLength(1);

    // The customer's booking: the breakdown as charged.
    const view = (await ctx.call('GET', `/butlers/requests/${id}`, { token: owner.token })).body.data.butler_request;
    expect(view.trip_charge).toMatchObject({
      booked_hours: 10, used_hours: 11, used_minutes: 630, overtime_hours: 1, overtime_rate: 150_000, overtime_amount: 150_000,
      airport: true, waiting_minutes: 80, free_minutes: 60, waiting_steps: 1, step_price: 75_000, waiting_amount: 75_000, prepaid: 1_500_000, amount: 225_000,
    });
    expect(view.overtime_payment).toMatchObject({ status: 'PAID', amount: 225_000, label: '의전 초과 이용·대기 요금 (초과 1시간 · 대기 20분)' });
    expect(view.overtime_payment!.lines).toEqual([
      { label: '초과 이용 1시간 × 150,000원', amount: 150_000 },
      { label: '대기 20분 (30분 단위 1회 × 75,000원)', amount: 75_000 },
      { label: '합계', amount: 225_000 },
    ]);
    // Another customer cannot read it.
    const stranger = await customer(ctx);
    expect((await ctx.call('GET', `/butlers/requests/${id}`, { token: stranger.token })).status).toBe(404);

    // /my/payments names the charge by its parts.
    const list = (await ctx.call('GET', '/payments', { token: owner.token })).body.data.payments as { id: string; label: string; lines: unknown[] | null }[];
    expect(list.find((p) => p.id === `butler-${id}-overtime`)).toMatchObject({ label: '의전 초과 이용·대기 요금 (초과 1시간 · 대기 20분)', lines: view.overtime_payment!.lines });

    // The payment message says booked, used, waiting, prepaid and the charge, once per channel.
    const sent = await ctx.database.db.select().from(notificationMessages).where(eq(notificationMessages.key, `payment.succeeded:butler-${id}-overtime`));
    expect(sent.map((m) => m.channel).sort()).toEqual(['email', 'kakao']);
    for (const m of sent) {
      expect(m.text).toContain('의전 초과 이용·대기 요금 (초과 1시간 · 대기 20분) 225,000원');
      expect(m.text).toContain('선결제한 10시간을 넘은 1시간과 무료 대기 시간을 넘은 20분이 청구됩니다.');
      expect(m.text).toContain('10시간');
      expect(m.text).toContain('10시간 30분');
      expect(m.text).toContain('80분 (공항 무료 60분 제외 20분)');
      expect(m.text).toContain('1,500,000원 (10시간)');
      expect(m.text).toContain('225,000원 = 초과 1시간 × 150,000원 + 대기 30분 단위 1회 × 75,000원');
    }
  });

  it('elsewhere 15 min are free; a trip within its prepaid hours is charged its waiting only', async () => {
    const { driver, token } = await driverAccount(ctx, { consents: true });
    const { id, owner } = await trip(3, driver.id, { start_location: '서울 중구 세종대로 110' });
    await setClock(at(3, '08:30'));
    await tap(token, id, 'departed', { tapped_at: at(3, '08:30') });
    // Came early (08:50): waiting counts from the booked 09:00; boards 09:40 → 40 min, 25 beyond the free 15: one step.
    await setClock(at(3, '08:50'));
    await tap(token, id, 'arrived', { tapped_at: at(3, '08:50') });
    await setClock(at(3, '09:40'));
    await tap(token, id, 'boarded', { tapped_at: at(3, '09:40') });
    // 6 h of the 10 prepaid: no overtime and nothing back.
    await setClock(at(3, '15:40'));
    const end = await tap(token, id, 'ended', { tapped_at: at(3, '15:40') });
    expect(end.status).toBe(201);
    expect(end.body.data.overtime!.amount).toBe(75_000);
    const view = (await ctx.call('GET', `/butlers/requests/${id}`, { token: owner.token })).body.data.butler_request;
    expect(view.trip_charge).toMatchObject({ booked_hours: 10, used_hours: 6, overtime_hours: 0, airport: false, waiting_minutes: 40, free_minutes: 15, waiting_amount: 75_000, amount: 75_000 });
    expect(view.overtime_payment).toMatchObject({ label: '의전 대기 요금 (대기 25분)', amount: 75_000 });
    expect((await overtimeRows(id)).map((p) => p.orderName)).toEqual([`LUXE 의전 #${id} 대기 요금`]);
  });

  it('within the free time and the booked hours: nothing is charged, and the breakdown says so', async () => {
    const { driver, token } = await driverAccount(ctx, { consents: true });
    const { id, owner } = await trip(4, driver.id, { start_location: '김포공항 국내선', flight_number: 'OZ8901' });
    await setClock(at(4, '08:30'));
    await tap(token, id, 'departed', { tapped_at: at(4, '08:30') });
    await setClock(at(4, '09:00'));
    await tap(token, id, 'arrived', { tapped_at: at(4, '09:00') });
    await setClock(at(4, '09:55'));
    await tap(token, id, 'boarded', { tapped_at: at(4, '09:55') });
    await setClock(at(4, '18:00'));
    expect((await tap(token, id, 'ended', { tapped_at: at(4, '18:00') })).body.data.overtime!.amount).toBe(0);
    expect(await overtimeRows(id)).toHaveLength(0);
    const [row] = await ctx.database.db.select({ tripCharge: butlerRequests.tripCharge }).from(butlerRequests).where(eq(butlerRequests.id, id));
    expect(row.tripCharge).toMatchObject({ waiting_minutes: 55, free_minutes: 60, waiting_steps: 0, amount: 0 });
    const view = (await ctx.call('GET', `/butlers/requests/${id}`, { token: owner.token })).body.data.butler_request;
    expect(view.trip_charge!.amount).toBe(0);
    expect(view.overtime_payment).toBeNull();
  });
});
