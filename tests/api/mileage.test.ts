import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertTestCar } from '../../src/api/seed/factories';
import { auditLog, cars, jobs, notificationMessages, odometerReadings, payments, sandboxPayments, subscriptionRequests, subscriptions } from '../../src/api/db/schema';
import { TEST_ADMIN_TOKEN } from '../../src/api/env';
import { recordOdometerReading } from '../../src/api/billing/mileage';
import { inTransaction } from '../../src/api/db/client';
import { defaultOptionPrices } from '../../src/domain/subscription-price';
import { anotherPlate, apiTools, createTestContext, customer, type TestContext } from './helpers';

let ctx: TestContext;
let carId: number;
const ADMIN = TEST_ADMIN_TOKEN;
const PER_KM = 200;

beforeAll(async () => {
  ctx = await createTestContext();
  ({ car: { id: carId } } = await insertTestCar(ctx.database.db, { fees: { subscription_fee_1: 900_000, subscription_fee_3: 800_000, subscription_fee_12: 555_000 } }));
  // The car's option prices as staff set them: the 2,500km plan, 200원 a km over it.
  await ctx.database.db.update(cars).set({ optionPrices: { ...defaultOptionPrices({ subscription_fee_minimum: 555_000 }), overage_per_km: PER_KM } }).where(eq(cars.id, carId));
});
afterAll(() => ctx.close());

const { setClock, card, runJobs } = apiTools(() => ctx);
const mileageCharges = async (subscriptionId: number) =>
  (await ctx.database.db.select().from(payments).where(and(eq(payments.refId, subscriptionId), eq(payments.purpose, 'SUBSCRIPTION_MILEAGE')))).sort((a, b) => a.id.localeCompare(b.id));
const staffRead = (subscriptionId: number, json: Record<string, unknown>) => ctx.call('POST', `/admin/subscriptions/${subscriptionId}/odometer`, { token: ADMIN, json });

/** A confirmed 12-month subscription starting on `start` (the clock set to that morning), the 2,500km plan. */
async function subscription(start: string) {
  await setClock(`${start}T08:00:00+09:00`);
  const { user, token } = await customer(ctx);
  const req = await ctx.call('POST', `/subscriptions/cars/${await anotherPlate(ctx, carId)}/request`, { token, json: { month: 12, billing_key: card() } });
  expect(req.status).toBe(201);
  const sub = (await ctx.call('POST', `/admin/subscription-requests/${req.body.data.subscription_request.id}/confirm`, { token: ADMIN, json: { start_date: start } })).body.data.subscription;
  return { user, token, subscriptionId: sub.id, requestId: req.body.data.subscription_request.id };
}

describe('odometer readings', () => {
  it('self-report once per billing month, never lower; strangers 404; bad input a Korean 400, never 500', async () => {
    const { token, subscriptionId } = await subscription('2032-01-10');
    const url = `/subscriptions/${subscriptionId}/odometer` as const;
    const empty = await ctx.call('GET', url, { token });
    expect(empty.status).toBe(200);
    expect(empty.body.data).toMatchObject({ terms: { monthly_km: 2_500, overage_per_km: PER_KM, basis: 'ORDER' }, readings: [], estimate: null, settlement: null, self_report: { billing_month: 1, refusal: null } });
    expect((await staffRead(subscriptionId, { km: 1_000, source: 'HANDOVER', read_on: '2032-01-10' })).status).toBe(200);

    await setClock('2032-01-20T10:00:00+09:00');
    const first = await ctx.call('POST', url, { token, json: { km: 1_800 } });
    expect(first.status).toBe(201);
    expect(first.body.data.readings.map((r: { km: number; source: string; read_on: string }) => [r.km, r.source, r.read_on])).toEqual([[1_000, 'HANDOVER', '2032-01-10'], [1_800, 'SELF', '2032-01-20']]);
    expect(first.body.data.estimate).toMatchObject({ months: 1, allowance_km: 2_500, driven_km: 800, overage_km: 0 });
    expect(first.body.data.self_report).toMatchObject({ reported: true, next_open: '2032-02-10' });
    // A second report in the same billing month is refused (not replaced).
    const again = await ctx.call('POST', url, { token, json: { km: 1_900 } });
    expect([again.status, again.body.message]).toEqual([409, '이번 달 주행거리는 이미 입력하셨습니다. 2032-02-10부터 다시 입력할 수 있습니다.']);

    // Next month: lower than the last reading is a Korean 400; higher is taken.
    await setClock('2032-02-11T10:00:00+09:00');
    const lower = await ctx.call('POST', url, { token, json: { km: 1_700 } });
    expect(lower.status).toBe(400);
    expect(lower.body.message).toBe('주행거리는 줄어들 수 없습니다. 이전 기록(1,800km)보다 크거나 같게 입력해주세요.');
    for (const json of [{ km: 'abc' }, { km: -1 }, { km: 1.5 }, {}, { km: 1e12 }, { km: null }]) {
      const bad = await ctx.call('POST', url, { token, json });
      expect(bad.status, JSON.stringify(json)).toBe(400);
      expect(bad.body.message).toMatch(/[가-힣]/);
    }
    expect((await ctx.call('POST', url, { token, body: '{not json', headers: { 'content-type': 'application/json' } })).status).toBe(400);
    expect((await ctx.call('POST', url, { token, json: { km: 4_200 } })).status).toBe(201);

    // Another customer: 404 on read and report; no login: 401; an unknown or malformed id: 404 / 400.
    const other = await customer(ctx);
    expect((await ctx.call('GET', url, { token: other.token })).status).toBe(404);
    expect((await ctx.call('POST', url, { token: other.token, json: { km: 9_999 } })).status).toBe(404);
    expect((await ctx.call('GET', url)).status).toBe(401);
    expect((await ctx.call('GET', '/subscriptions/99999999/odometer', { token })).status).toBe(404);
    expect((await ctx.call('GET', '/subscriptions/abc/odometer', { token })).status).toBe(400);
    const rows = await ctx.database.db.select().from(odometerReadings).where(eq(odometerReadings.subscriptionId, subscriptionId));
    expect(rows.map((r) => [r.km, r.source, r.billingMonth])).toEqual([[1_000, 'HANDOVER', 1], [1_800, 'SELF', 1], [4_200, 'SELF', 2]]);
    // Nobody else's readings were written by the stranger.
    expect(rows.every((r) => r.recordedBy !== `customer:${other.user.id}`)).toBe(true);
  });

  it('staff: HANDOVER is idempotent (same km) and refuses another km; bad source or a future day is a 400; audited', async () => {
    const { subscriptionId } = await subscription('2032-03-10');
    await setClock('2032-03-12T10:00:00+09:00');
    expect((await staffRead(subscriptionId, { km: 500, source: 'HANDOVER', read_on: '2032-03-10' })).body.data.created).toBe(true);
    const repeat = await staffRead(subscriptionId, { km: 500, source: 'HANDOVER', read_on: '2032-03-10' });
    expect([repeat.status, repeat.body.data.created]).toEqual([200, false]);
    const clash = await staffRead(subscriptionId, { km: 600, source: 'HANDOVER' });
    expect([clash.status, clash.body.message]).toEqual([409, '인도 주행거리는 이미 500km로 기록되어 있습니다.']);
    expect((await staffRead(subscriptionId, { km: 700, source: 'SELF' })).status).toBe(400);
    expect((await staffRead(subscriptionId, { km: 700, source: 'STAFF', read_on: '2032-03-20' })).body.message).toBe('기록일은 오늘 이후일 수 없습니다.');
    expect((await staffRead(subscriptionId, { km: 700, source: 'STAFF', read_on: '2032-02-30' })).status).toBe(400);
    expect((await staffRead(subscriptionId, { km: 400, source: 'STAFF' })).status).toBe(400);
    expect((await staffRead(99_999_999, { km: 400, source: 'STAFF' })).status).toBe(404);
    expect([401, 403]).toContain((await ctx.call('POST', `/admin/subscriptions/${subscriptionId}/odometer`, { json: { km: 1, source: 'STAFF' } })).status);
    // A customer token is not staff.
    const { token } = await customer(ctx);
    expect([401, 403]).toContain((await ctx.call('POST', `/admin/subscriptions/${subscriptionId}/odometer`, { token, json: { km: 900, source: 'STAFF' } })).status);
    const audits = await ctx.database.db.select().from(auditLog).where(and(eq(auditLog.action, 'odometer'), eq(auditLog.entityId, String(subscriptionId))));
    expect(audits).toHaveLength(1);
  });

  it('recordOdometerReading inside a caller’s transaction: HANDOVER twice is one row; a rollback keeps none', async () => {
    const { subscriptionId } = await subscription('2032-04-10');
    const now = new Date('2032-04-10T10:00:00+09:00');
    const input = { subscriptionId, km: 3_000, source: 'HANDOVER' as const, recordedBy: { userId: null, name: 'handover' }, now };
    const [a, b] = await Promise.all([inTransaction(ctx.database.db, (tx) => recordOdometerReading(tx, input)), recordOdometerReading(ctx.database.db, input)]);
    expect([a.created, b.created].sort()).toEqual([false, true]);
    expect(a.reading.id).toBe(b.reading.id);
    await expect(inTransaction(ctx.database.db, async (tx) => {
      await recordOdometerReading(tx, { ...input, source: 'STAFF', km: 3_100 });
      throw new Error('handover record failed');
    })).rejects.toThrow('handover record failed');
    expect(await ctx.database.db.select().from(odometerReadings).where(eq(odometerReadings.subscriptionId, subscriptionId))).toHaveLength(1);
  });
});

describe('overage at the return', () => {
  it('charges once under a retry and two replicas; the message shows the arithmetic; /payments lists it', async () => {
    const { token, subscriptionId } = await subscription('2032-05-10');
    expect((await staffRead(subscriptionId, { km: 1_000, source: 'HANDOVER', read_on: '2032-05-10' })).status).toBe(200);
    // Returned on 7/20, in billing month 3 (7/10–8/09): 3 × 2,500 = 7,500km allowed; 8,200km driven → 700km × 200원 = 140,000원.
    await setClock('2032-07-20T10:00:00+09:00');
    const ret = await staffRead(subscriptionId, { km: 9_200, source: 'RETURN' });
    expect(ret.status).toBe(200);
    // The RETURN reading only records: the overage is settled by 반납 정산 (deposit first), or on its own when staff ask.
    expect(ret.body.data.odometer.settlement).toMatchObject({ result: { amount: 140_000 }, payment: null });
    expect(await mileageCharges(subscriptionId)).toEqual([]);
    const alone = await ctx.call('POST', `/admin/subscriptions/${subscriptionId}/mileage/settle`, { token: ADMIN });
    expect(alone.status).toBe(200);
    expect(alone.body.data.settlement).toMatchObject({
      result: { months: 3, allowance_km: 7_500, driven_km: 8_200, overage_km: 700, per_km: 200, amount: 140_000, arithmetic: '주행 8,200km − 약정 7,500km = 초과 700km × 1km당 200원 = 140,000원' },
      payment: { id: `sub-${subscriptionId}-mileage-1`, status: 'PAID', amount: 140_000, purpose: 'SUBSCRIPTION_MILEAGE' },
    });
    // The same RETURN again (a retried request) and settles from two replicas at once: nothing more is charged.
    const replica = await ctx.openReplicaApp();
    const other = replica.app;
    const settle = (app: typeof ctx.app) => app.request(`/admin/subscriptions/${subscriptionId}/mileage/settle`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN}` } });
    try {
      const answers = await Promise.all([settle(ctx.app), settle(other), settle(ctx.app), settle(other), staffRead(subscriptionId, { km: 9_200, source: 'RETURN' })]);
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    } finally {
      await replica.close();
    }
    expect((await mileageCharges(subscriptionId)).map((p) => [p.id, p.status, p.amount])).toEqual([[`sub-${subscriptionId}-mileage-1`, 'PAID', 140_000]]);
    expect(await ctx.database.db.select().from(sandboxPayments).where(eq(sandboxPayments.paymentId, `sub-${subscriptionId}-mileage-1`))).toHaveLength(1);
    // A different RETURN km is refused, and nothing is recorded after the return.
    expect((await staffRead(subscriptionId, { km: 9_300, source: 'RETURN' })).status).toBe(409);
    expect((await ctx.call('POST', `/subscriptions/${subscriptionId}/odometer`, { token, json: { km: 9_500 } })).status).toBe(409);

    // The customer's message (email + 알림톡), once, with the arithmetic.
    await runJobs();
    const messages = await ctx.database.db.select().from(notificationMessages).where(eq(notificationMessages.key, `subscription.mileage:${subscriptionId}`));
    expect(messages.map((m) => m.channel).sort()).toEqual(['email', 'kakao']);
    for (const m of messages) {
      expect(m.text).toContain('주행 8,200km − 약정 7,500km = 초과 700km × 1km당 200원 = 140,000원');
      expect(m.text).toContain('월 2,500km × 3개월 = 7,500km');
    }
    // My payments: labelled by purpose; my page: the settlement.
    const mine = (await ctx.call('GET', '/payments', { token })).body.data.payments;
    expect(mine.find((p: { id: string }) => p.id === `sub-${subscriptionId}-mileage-1`)).toMatchObject({ purpose: 'SUBSCRIPTION_MILEAGE', amount: 140_000, status: 'PAID' });
    expect((await ctx.call('GET', `/subscriptions/${subscriptionId}/odometer`, { token })).body.data.settlement).toMatchObject({ result: { amount: 140_000 }, payment: { status: 'PAID' } });
  });

  it('under the allowance nothing is charged; the customer is told so once', async () => {
    const { subscriptionId } = await subscription('2032-06-10');
    await staffRead(subscriptionId, { km: 2_000, source: 'HANDOVER', read_on: '2032-06-10' });
    await setClock('2032-08-11T10:00:00+09:00');
    const ret = await staffRead(subscriptionId, { km: 9_500, source: 'RETURN' });
    expect(ret.body.data.odometer.settlement).toMatchObject({ result: { months: 3, allowance_km: 7_500, driven_km: 7_500, overage_km: 0, amount: 0 }, payment: null });
    const settled = (await ctx.call('POST', `/admin/subscriptions/${subscriptionId}/mileage/settle`, { token: ADMIN })).body.data.settlement;
    expect(settled).toMatchObject({ result: { amount: 0 }, payment: null });
    expect((await ctx.call('POST', `/admin/subscriptions/${subscriptionId}/mileage/settle`, { token: ADMIN })).body.data.settlement.payment).toBeNull();
    expect(await mileageCharges(subscriptionId)).toEqual([]);
    const notify = await ctx.database.db.select().from(jobs).where(eq(jobs.key, `notify:subscription.mileage:${subscriptionId}`));
    expect(notify).toHaveLength(1);
    expect(notify[0].payload).toMatchObject({ paymentId: null, drivenKm: 7_500, allowanceKm: 7_500, overageKm: 0, amount: 0 });
  });

  it('a declined card (the overage settled on its own): 422 in Korean, the reading kept; a retry charges under a new attempt id', async () => {
    const { subscriptionId } = await subscription('2032-09-10');
    await staffRead(subscriptionId, { km: 0, source: 'HANDOVER', read_on: '2032-09-10' });
    await ctx.database.db.update(subscriptions).set({ billingKey: card('insufficient') }).where(eq(subscriptions.id, subscriptionId));
    await setClock('2032-09-30T10:00:00+09:00');
    expect((await staffRead(subscriptionId, { km: 2_600, source: 'RETURN' })).status).toBe(200);
    const declined = await ctx.call('POST', `/admin/subscriptions/${subscriptionId}/mileage/settle`, { token: ADMIN });
    expect(declined.status).toBe(422);
    expect(declined.body.message).toMatch(/잔액/);
    expect((await mileageCharges(subscriptionId)).map((p) => [p.id, p.status])).toEqual([[`sub-${subscriptionId}-mileage-1`, 'FAILED']]);
    await ctx.database.db.update(subscriptions).set({ billingKey: card() }).where(eq(subscriptions.id, subscriptionId));
    const retried = await ctx.call('POST', `/admin/subscriptions/${subscriptionId}/mileage/settle`, { token: ADMIN });
    expect(retried.body.data.settlement.payment).toMatchObject({ id: `sub-${subscriptionId}-mileage-1-r1`, status: 'PAID', amount: 100 * PER_KM });
  });

  it('settling needs a RETURN and a HANDOVER (409); an order from before options uses the contract’s 2,500km and the car’s rate', async () => {
    const { subscriptionId, requestId } = await subscription('2032-10-10');
    expect((await ctx.call('POST', `/admin/subscriptions/${subscriptionId}/mileage/settle`, { token: ADMIN })).status).toBe(409);
    await ctx.database.db.update(subscriptionRequests).set({ options: null }).where(eq(subscriptionRequests.id, requestId));
    await setClock('2032-10-20T10:00:00+09:00');
    expect((await staffRead(subscriptionId, { km: 3_000, source: 'RETURN' })).status).toBe(200);
    const noHandover = await ctx.call('POST', `/admin/subscriptions/${subscriptionId}/mileage/settle`, { token: ADMIN });
    expect(noHandover.status).toBe(409);
    expect(noHandover.body.message).toMatch(/인도 시 주행거리/);
    const view = (await ctx.call('GET', `/admin/subscriptions/${subscriptionId}/odometer`, { token: ADMIN })).body.data;
    expect(view.terms).toEqual({ monthly_km: 2_500, overage_per_km: PER_KM, basis: 'CONTRACT' });
  });
});
