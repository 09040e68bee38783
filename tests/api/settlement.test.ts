import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertTestCar } from '../../src/api/seed/factories';
import { auditLog, cars, jobs, notificationMessages, paymentRefunds, payments, sandboxPayments, subscriptionSettlements, subscriptions } from '../../src/api/db/schema';
import { TEST_ADMIN_TOKEN } from '../../src/api/env';
import { defaultOptionPrices } from '../../src/domain/subscription-price';
import { FUEL_SHORTFALL_PER_PERCENT } from '../../src/domain/settlement';
import { createClock } from '../../src/api/jobs/clock';
import { createPaymentProvider } from '../../src/api/billing/providers';
import { refundPayment } from '../../src/api/billing/refunds';
import { refundFollowUp } from '../../src/api/charge-outcomes';
import { anotherPlate, apiTools, createTestContext, customer, holdNthSelect, type TestContext } from './helpers';

let ctx: TestContext;
let depositCar: number;
let plainCar: number;
let prepayCar: number;
const ADMIN = TEST_ADMIN_TOKEN;
const PER_KM = 200;
const DEPOSIT = 500_000;
const DEDUCTIBLE = 300_000;

beforeAll(async () => {
  ctx = await createTestContext();
  const fees = { subscription_fee_1: 900_000, subscription_fee_3: 800_000, subscription_fee_12: 555_000 };
  ({ car: { id: depositCar } } = await insertTestCar(ctx.database.db, { fees }));
  ({ car: { id: plainCar } } = await insertTestCar(ctx.database.db, { fees }));
  ({ car: { id: prepayCar } } = await insertTestCar(ctx.database.db, { fees }));
  const prices = defaultOptionPrices({ subscription_fee_minimum: 555_000 });
  // The deposit car: 보증금 500,000원, 자기부담금 300,000원; the other takes no deposit.
  await ctx.database.db.update(cars).set({ optionPrices: { ...prices, overage_per_km: PER_KM, deposit: DEPOSIT, deductible: DEDUCTIBLE } }).where(eq(cars.id, depositCar));
  await ctx.database.db.update(cars).set({ optionPrices: { ...prices, overage_per_km: PER_KM, deposit: null, deductible: DEDUCTIBLE } }).where(eq(cars.id, plainCar));
  // The prepay car: 보증금 500,000원 and 선납금 up to 6,000,000원.
  await ctx.database.db.update(cars).set({ optionPrices: { ...prices, overage_per_km: PER_KM, deposit: DEPOSIT, deductible: DEDUCTIBLE, prepayment_max: 6_000_000 } }).where(eq(cars.id, prepayCar));
});
afterAll(() => ctx.close());

const { setClock, card } = apiTools(() => ctx);
const staffRead = (subscriptionId: number, json: Record<string, unknown>) => ctx.call('POST', `/admin/subscriptions/${subscriptionId}/odometer`, { token: ADMIN, json });
const settleUrl = (id: number) => `/admin/subscriptions/${id}/settlement` as const;
const settleCharges = async (subscriptionId: number) =>
  (await ctx.database.db.select().from(payments).where(and(eq(payments.refId, subscriptionId), eq(payments.purpose, 'SUBSCRIPTION_SETTLEMENT')))).sort((a, b) => a.id.localeCompare(b.id));

let drivers = 0;
/**
 * A handover booked on the board and recorded on `date` (the clock set to that morning): the
 * odometer becomes the HANDOVER or RETURN reading, the fuel the record the shortfall is read from.
 */
async function recordHandover(subscriptionId: number, kind: 'DELIVERY' | 'RETURN', date: string, km: number, fuel: number, ackToken?: string) {
  drivers += 1;
  const driver = await ctx.call('POST', '/admin/drivers', { token: ADMIN, json: { name: `정산기사${drivers}`, phone: `010-5555-${String(1000 + drivers)}`, gender: 'male' } });
  expect(driver.status).toBe(201);
  await setClock(`${date}T09:00:00+09:00`);
  const booked = await ctx.call('POST', `/admin/subscriptions/${subscriptionId}/handovers`, { token: ADMIN, json: { kind, driver_id: driver.body.data.driver.id, date, window_start: '10:00', window_end: '12:00', address: null } });
  expect(booked.status, JSON.stringify(booked.body)).toBeLessThan(300);
  const rec = await ctx.call('POST', `/admin/handovers/${booked.body.data.handover.id}/record`, { token: ADMIN, json: { odometer_km: km, fuel_percent: fuel } });
  expect(rec.status, JSON.stringify(rec.body)).toBe(200);
  // The customer confirms the record (the settlement waits for it).
  if (ackToken) expect((await ctx.call('POST', `/handovers/${booked.body.data.handover.id}/acknowledge`, { token: ackToken, json: { name: '홍길동' } })).status).toBe(200);
  return booked.body.data.handover.id;
}

/**
 * A confirmed 12-month subscription from `start`, its handover at 1,000km and its return on
 * `returnOn` at `returnKm`: typed readings, or (with `fuel`: [at the delivery, at the return])
 * recorded handovers.
 */
async function returned(carId: number, start: string, returnOn: string, returnKm: number, fuel?: [number, number]) {
  await setClock(`${start}T08:00:00+09:00`);
  const { user, token } = await customer(ctx);
  const req = await ctx.call('POST', `/subscriptions/cars/${await anotherPlate(ctx, carId)}/request`, { token, json: { month: 12, billing_key: card() } });
  expect(req.status).toBe(201);
  const requestId = req.body.data.subscription_request.id;
  const sub = (await ctx.call('POST', `/admin/subscription-requests/${requestId}/confirm`, { token: ADMIN, json: { start_date: start } })).body.data.subscription;
  const subscriptionId = sub.id;
  if (fuel) {
    await recordHandover(subscriptionId, 'DELIVERY', start, 1_000, fuel[0]);
    await recordHandover(subscriptionId, 'RETURN', returnOn, returnKm, fuel[1], token);
    await setClock(`${returnOn}T10:00:00+09:00`);
    return { user, token, subscriptionId, requestId };
  }
  expect((await staffRead(subscriptionId, { km: 1_000, source: 'HANDOVER', read_on: start })).status).toBe(200);
  await setClock(`${returnOn}T10:00:00+09:00`);
  expect((await staffRead(subscriptionId, { km: returnKm, source: 'RETURN' })).status).toBe(200);
  return { user, token, subscriptionId, requestId };
}

describe('반납 정산', () => {
  it('the deposit covers everything: the remainder refunded once, even with two replicas at once; the customer sees it; a stranger does not', async () => {
    // Month 3 on 2033-03-20: 7,500km allowed, 8,000 driven → 500km × 200원 = 100,000원.
    // Fuel from the records: 90% at the delivery, 80% at the return → 10%.
    const { token, subscriptionId, requestId } = await returned(depositCar, '2033-01-10', '2033-03-20', 9_000, [90, 80]);
    const entry = { damages: [{ description: '앞범퍼 긁힘', amount: 120_000 }] };
    // A shortfall typed by hand is not read: the records decide it.
    const preview = await ctx.call('GET', `${settleUrl(subscriptionId)}?damages=${encodeURIComponent(JSON.stringify(entry.damages))}&fuel_shortfall_percent=50`, { token: ADMIN });
    expect(preview.status).toBe(200);
    expect(preview.body.data.settlement).toMatchObject({ fuel_shortfall_percent: 10, fuel_arithmetic: '인도 90% → 반납 80%' });
    expect(preview.body.data.settlement.lines.find((l) => l.kind === 'FUEL')!.detail).toBe('인도 90% → 반납 80% = 10% × 1%당 3,000원');
    const total = 100_000 + 120_000 + 10 * FUEL_SHORTFALL_PER_PERCENT;
    expect(preview.body.data.settlement).toMatchObject({ status: 'PREVIEW', total, deposit: DEPOSIT, from_deposit: total, to_charge: 0, to_refund: DEPOSIT - total });
    expect(preview.body.data.settlement.lines.map((l: { label: string }) => l.label)).toEqual(['초과 주행 요금', '손상: 앞범퍼 긁힘', '연료·충전 부족']);
    // A preview writes nothing.
    expect(await ctx.database.db.select().from(subscriptionSettlements).where(eq(subscriptionSettlements.subscriptionId, subscriptionId))).toEqual([]);

    const replica = await ctx.openReplicaApp();
    const other = replica.app;
    const post = (app: typeof ctx.app) => app.request(settleUrl(subscriptionId), { method: 'POST', headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' }, body: JSON.stringify({ ...entry, fuel_shortfall_percent: 50, quoted_total: total }) });
    try {
      const answers = await Promise.all([post(ctx.app), post(other), post(ctx.app), post(other)]);
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    } finally {
      await replica.close();
    }
    const rows = await ctx.database.db.select().from(subscriptionSettlements).where(eq(subscriptionSettlements.subscriptionId, subscriptionId));
    expect(rows.map((r) => [r.status, r.total, r.toRefund])).toEqual([['DONE', total, DEPOSIT - total]]);
    const refunds = await ctx.database.db.select().from(paymentRefunds).where(eq(paymentRefunds.key, `settle:deposit:${subscriptionId}`));
    expect(refunds.map((r) => [r.paymentId, r.amount, r.status])).toEqual([[`subreq-${requestId}`, DEPOSIT - total, 'SUCCEEDED']]);
    const [first] = await ctx.database.db.select().from(payments).where(eq(payments.id, `subreq-${requestId}`));
    expect(first.cancelledAmount).toBe(DEPOSIT - total);
    expect(await settleCharges(subscriptionId)).toEqual([]);
    // The same POST again answers the stored settlement (a new body does not settle again).
    const again = await ctx.call('POST', settleUrl(subscriptionId), { token: ADMIN, json: { damages: [] } });
    expect(again.body.data.settlement).toMatchObject({ status: 'DONE', total, fuel_shortfall_percent: 10, fuel_arithmetic: '인도 90% → 반납 80% = 10% × 1%당 3,000원', to_refund: DEPOSIT - total, refund: { status: 'SUCCEEDED', amount: DEPOSIT - total } });
    expect(await ctx.database.db.select().from(auditLog).where(and(eq(auditLog.action, 'settle'), eq(auditLog.entityId, String(subscriptionId))))).toHaveLength(1);
    // The overage is not charged on its own any more.
    expect((await ctx.call('POST', `/admin/subscriptions/${subscriptionId}/mileage/settle`, { token: ADMIN })).status).toBe(409);

    // The customer: my page and /payments; the message with the lines and the arithmetic, once per channel.
    const mine = await ctx.call('GET', `/subscriptions/${subscriptionId}/settlement`, { token });
    expect(mine.body.data.settlement).toMatchObject({ status: 'DONE', total, from_deposit: total, to_refund: DEPOSIT - total, summary: `보증금 500,000원 − 정산 합계 ${total.toLocaleString('ko-KR')}원 = 보증금 환불 ${(DEPOSIT - total).toLocaleString('ko-KR')}원` });
    const list = (await ctx.call('GET', '/payments', { token })).body.data;
    expect(list.refunds.find((r: { payment_id: string }) => r.payment_id === `subreq-${requestId}`)).toMatchObject({ amount: DEPOSIT - total, reason: '반납 정산 보증금 환불', status: 'SUCCEEDED' });
    expect((await ctx.call('POST', '/admin/billing/run', { token: ADMIN })).status).toBe(200);
    const messages = await ctx.database.db.select().from(notificationMessages).where(eq(notificationMessages.key, `subscription.settlement:${subscriptionId}`));
    expect(messages.map((m) => m.channel).sort()).toEqual(['email', 'kakao']);
    for (const m of messages) {
      expect(m.text).toContain('손상: 앞범퍼 긁힘 120,000원');
      expect(m.text).toContain('보증금 환불');
    }
    // A stranger: 404 on my page's read; a customer on the staff routes: 401/403; no login: 401.
    const stranger = await customer(ctx);
    expect((await ctx.call('GET', `/subscriptions/${subscriptionId}/settlement`, { token: stranger.token })).status).toBe(404);
    expect([401, 403]).toContain((await ctx.call('POST', settleUrl(subscriptionId), { token: stranger.token, json: entry })).status);
    expect([401, 403]).toContain((await ctx.call('GET', settleUrl(subscriptionId), { token })).status);
    expect((await ctx.call('GET', `/subscriptions/${subscriptionId}/settlement`)).status).toBe(401);
  });

  it('the deposit falls short: the rest charged once; each damage capped at the 자기부담금', async () => {
    // Within the allowance; two damages: 800,000원 → 300,000원 (cap), 250,000원 → 250,000원.
    const { token, subscriptionId } = await returned(depositCar, '2033-04-10', '2033-05-20', 3_000);
    const json = { damages: [{ description: '좌측 도어 찌그러짐', amount: 800_000 }, { description: '휠 긁힘', amount: 250_000 }] };
    const [a, b] = await Promise.all([ctx.call('POST', settleUrl(subscriptionId), { token: ADMIN, json }), ctx.call('POST', settleUrl(subscriptionId), { token: ADMIN, json })]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.data.settlement.lines.map((l: { amount: number; detail: string }) => [l.amount, l.detail])).toEqual([
      [300_000, '수리 견적 800,000원 → 자기부담금 한도 300,000원'],
      [250_000, '수리 견적 250,000원'],
    ]);
    expect(a.body.data.settlement).toMatchObject({ total: 550_000, from_deposit: DEPOSIT, to_charge: 50_000, to_refund: 0, status: 'DONE', payment: { id: `sub-${subscriptionId}-settle`, status: 'PAID', amount: 50_000, purpose: 'SUBSCRIPTION_SETTLEMENT' } });
    expect((await settleCharges(subscriptionId)).map((p) => [p.id, p.status, p.amount])).toEqual([[`sub-${subscriptionId}-settle`, 'PAID', 50_000]]);
    expect(await ctx.database.db.select().from(sandboxPayments).where(eq(sandboxPayments.paymentId, `sub-${subscriptionId}-settle`))).toHaveLength(1);
    expect((await ctx.call('POST', settleUrl(subscriptionId), { token: ADMIN, json })).body.data.settlement.payment!.id).toBe(`sub-${subscriptionId}-settle`);
    expect(await settleCharges(subscriptionId)).toHaveLength(1);
    const mine = (await ctx.call('GET', '/payments', { token })).body.data.payments;
    expect(mine.find((p: { id: string }) => p.id === `sub-${subscriptionId}-settle`)).toMatchObject({ purpose: 'SUBSCRIPTION_SETTLEMENT', amount: 50_000, status: 'PAID' });
  });

  it('no deposit: everything charged; a declined card is a Korean 422, and the retry charges under a new id', async () => {
    // 500km over → 100,000원, plus 5% fuel (100% at the delivery, 95% at the return).
    const { subscriptionId } = await returned(plainCar, '2033-06-10', '2033-08-20', 9_000, [100, 95]);
    await ctx.database.db.update(subscriptions).set({ billingKey: card('insufficient') }).where(eq(subscriptions.id, subscriptionId));
    const json = { damages: [] };
    const declined = await ctx.call('POST', settleUrl(subscriptionId), { token: ADMIN, json });
    expect(declined.status).toBe(422);
    expect(declined.body.message).toMatch(/잔액/);
    const pending = await ctx.call('GET', settleUrl(subscriptionId), { token: ADMIN });
    expect(pending.body.data.settlement).toMatchObject({ status: 'PENDING', deposit: 0, to_charge: 100_000 + 5 * FUEL_SHORTFALL_PER_PERCENT, payment: { status: 'FAILED' } });
    await ctx.database.db.update(subscriptions).set({ billingKey: card() }).where(eq(subscriptions.id, subscriptionId));
    const retried = await ctx.call('POST', settleUrl(subscriptionId), { token: ADMIN, json });
    expect(retried.body.data.settlement).toMatchObject({ status: 'DONE', payment: { id: `sub-${subscriptionId}-settle-r1`, status: 'PAID', amount: 100_000 + 5 * FUEL_SHORTFALL_PER_PERCENT } });
    expect((await settleCharges(subscriptionId)).map((p) => [p.id, p.status])).toEqual([[`sub-${subscriptionId}-settle`, 'FAILED'], [`sub-${subscriptionId}-settle-r1`, 'PAID']]);
    expect((await ctx.database.db.select().from(auditLog).where(eq(auditLog.entityId, String(subscriptionId))).orderBy(auditLog.id)).map((a) => a.action).filter((a) => a === 'settle' || a === 'retry')).toEqual(['settle', 'retry']);
    const notify = await ctx.database.db.select().from(jobs).where(eq(jobs.key, `notify:subscription.settlement:${subscriptionId}`));
    expect(notify).toHaveLength(1);
  });

  it('an overage already charged on its own is not counted again', async () => {
    const { subscriptionId } = await returned(depositCar, '2033-09-10', '2033-11-20', 9_000);
    expect((await ctx.call('POST', `/admin/subscriptions/${subscriptionId}/mileage/settle`, { token: ADMIN })).body.data.settlement.payment).toMatchObject({ status: 'PAID', amount: 100_000 });
    const done = await ctx.call('POST', settleUrl(subscriptionId), { token: ADMIN, json: { damages: [] } });
    expect(done.body.data.settlement).toMatchObject({ total: 0, to_refund: DEPOSIT, lines: [{ kind: 'OVERAGE', amount: 0, detail: '주행 8,000km − 약정 7,500km = 초과 500km × 1km당 200원 = 100,000원 − 이미 결제 100,000원' }] });
    // The label is never repeated inside its own detail (issue 49).
    expect(done.body.data.settlement.lines[0].detail).not.toContain('초과 주행 요금');
  });

  it('bad input is a Korean 400, never 500; no RETURN reading or a changed total is a 409; an unknown subscription 404', async () => {
    await setClock('2033-12-10T08:00:00+09:00');
    const { token } = await customer(ctx);
    const req = await ctx.call('POST', `/subscriptions/cars/${await anotherPlate(ctx, plainCar)}/request`, { token, json: { month: 12, billing_key: card() } });
    const sub = (await ctx.call('POST', `/admin/subscription-requests/${req.body.data.subscription_request.id}/confirm`, { token: ADMIN, json: { start_date: '2033-12-10' } })).body.data.subscription;
    const url = settleUrl(sub.id);
    for (const json of [
      { damages: 'x' }, { damages: [{ description: '', amount: 1 }] }, { damages: [{ description: '긁힘', amount: -5 }] }, { damages: [{ description: '긁힘', amount: 1.5 }] },
      { damages: [{ description: '긁힘' }] },
      { damages: Array.from({ length: 21 }, () => ({ description: '긁힘', amount: 1 })) }, { damages: [{ description: '\ud800', amount: 1 }] }, { quoted_total: -1 }, { damages: [{ description: 'x'.repeat(101), amount: 1 }] },
    ]) {
      const bad = await ctx.call('POST', url, { token: ADMIN, json });
      expect(bad.status, JSON.stringify(json)).toBe(400);
      expect(bad.body.message).toMatch(/[가-힣]/);
    }
    expect((await ctx.call('POST', url, { token: ADMIN, body: '{not json', headers: { 'content-type': 'application/json' } })).status).toBe(400);
    expect((await ctx.call('GET', `${url}?damages=%7Bnope`, { token: ADMIN })).status).toBe(400);
    expect((await ctx.call('GET', `${url}?damages=${encodeURIComponent('[{"description":"a\\u0000b","amount":1}]')}`, { token: ADMIN })).status).toBe(400);
    const noReturn = await ctx.call('POST', url, { token: ADMIN, json: {} });
    expect([noReturn.status, noReturn.body.message]).toEqual([409, '반납 주행거리를 먼저 기록해야 정산할 수 있습니다.']);
    expect((await ctx.call('POST', settleUrl(99_999_999), { token: ADMIN, json: {} })).status).toBe(404);
    expect((await ctx.call('POST', '/admin/subscriptions/abc/settlement', { token: ADMIN, json: {} })).status).toBe(400);
    await staffRead(sub.id, { km: 100, source: 'HANDOVER', read_on: '2033-12-10' });
    await staffRead(sub.id, { km: 200, source: 'RETURN' });
    const changed = await ctx.call('POST', url, { token: ADMIN, json: { quoted_total: 1 } });
    expect(changed.status).toBe(409);
    expect(await ctx.database.db.select().from(subscriptionSettlements).where(eq(subscriptionSettlements.subscriptionId, sub.id))).toEqual([]);
  });

  describe('미사용 선납금', () => {
    const PREPAY = 3_000_000;
    /** A 12-month order with 선납금 3,000,000원 from `start`, left early on `exitOn` (billing month 1: 11 months unused), returned that day. */
    async function exitedEarly(start: string, exitOn: string, fuel: [number, number] = [60, 60]) {
      await setClock(`${start}T08:00:00+09:00`);
      const { token } = await customer(ctx);
      const options = { mileage_km: 2_500, driver_age: 'AGE_26', extra_drivers: 0, handover: 'PICKUP', prepayment: PREPAY };
      const req = await ctx.call('POST', `/subscriptions/cars/${await anotherPlate(ctx, prepayCar)}/request`, { token, json: { month: 12, billing_key: card(), options } });
      expect(req.status).toBe(201);
      const requestId = req.body.data.subscription_request.id;
      const subscriptionId = (await ctx.call('POST', `/admin/subscription-requests/${requestId}/confirm`, { token: ADMIN, json: { start_date: start } })).body.data.subscription.id;
      await recordHandover(subscriptionId, 'DELIVERY', start, 1_000, fuel[0]);
      await setClock(`${start}T12:00:00+09:00`);
      const exit = await ctx.call('POST', `/subscriptions/${subscriptionId}/early-exit`, { token, json: { date: exitOn } });
      expect(exit.body.data.early_exit).toMatchObject({ end_date: exitOn, billing_status: 'CANCELLED' });
      await recordHandover(subscriptionId, 'RETURN', exitOn, 2_000, fuel[1], token);
      await setClock(`${exitOn}T10:00:00+09:00`);
      const [first] = await ctx.database.db.select().from(payments).where(eq(payments.id, `subreq-${requestId}`));
      return { token, subscriptionId, requestId, first };
    }

    it('after an early exit the unused share is refunded with the deposit in one refund, once, even with two replicas at once', async () => {
      // Delivered with 60% and returned with 50%: the records give a 10% shortfall.
      const { token, subscriptionId, requestId, first } = await exitedEarly('2034-01-10', '2034-01-25', [60, 50]);
      const unused = (PREPAY * 11) / 12; // 2,750,000
      const fuel = 10 * FUEL_SHORTFALL_PER_PERCENT;
      const preview = (await ctx.call('GET', settleUrl(subscriptionId), { token: ADMIN })).body.data.settlement;
      expect(preview).toMatchObject({ status: 'PREVIEW', total: fuel, deposit: DEPOSIT, prepayment_refund: unused, from_deposit: fuel, to_charge: 0, to_refund: DEPOSIT - fuel + unused });
      expect(preview.lines.at(-1)).toEqual({ kind: 'PREPAYMENT', label: '미사용 선납금 환급', amount: -unused, detail: '선납금 3,000,000원 × 미사용 11개월 / 12개월 = 2,750,000원' });

      const replica = await ctx.openReplicaApp();
      const other = replica.app;
      const post = (app: typeof ctx.app) => app.request(settleUrl(subscriptionId), { method: 'POST', headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' }, body: JSON.stringify({ damages: [], quoted_total: fuel }) });
      try {
        const answers = await Promise.all([post(ctx.app), post(other), post(ctx.app), post(other)]);
        expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
      } finally {
        await replica.close();
      }
      const refund = DEPOSIT - fuel + unused;
      const refunds = await ctx.database.db.select().from(paymentRefunds).where(eq(paymentRefunds.paymentId, `subreq-${requestId}`));
      expect(refunds.map((r) => [r.key, r.amount, r.status, r.reason])).toEqual([[`settle:deposit:${subscriptionId}`, refund, 'SUCCEEDED', '반납 정산 보증금·미사용 선납금 환불']]);
      const [after] = await ctx.database.db.select().from(payments).where(eq(payments.id, `subreq-${requestId}`));
      expect(after.cancelledAmount - first.cancelledAmount).toBe(refund);
      expect(await settleCharges(subscriptionId)).toEqual([]);
      // A retry answers the stored settlement and refunds nothing more.
      expect((await ctx.call('POST', settleUrl(subscriptionId), { token: ADMIN, json: { damages: [] } })).body.data.settlement).toMatchObject({ status: 'DONE', prepayment_refund: unused, to_refund: refund });
      expect(await ctx.database.db.select().from(paymentRefunds).where(eq(paymentRefunds.paymentId, `subreq-${requestId}`))).toHaveLength(1);

      // The customer sees the line and the arithmetic; the message carries them, once per channel.
      const mine = (await ctx.call('GET', `/subscriptions/${subscriptionId}/settlement`, { token })).body.data.settlement;
      expect(mine).toMatchObject({ prepayment_refund: unused, to_refund: refund, summary: '보증금 500,000원 + 미사용 선납금 2,750,000원 − 정산 합계 30,000원 = 환불 3,220,000원' });
      expect((await ctx.call('POST', '/admin/billing/run', { token: ADMIN })).status).toBe(200);
      const messages = await ctx.database.db.select().from(notificationMessages).where(eq(notificationMessages.key, `subscription.settlement:${subscriptionId}`));
      expect(messages.map((m) => m.channel).sort()).toEqual(['email', 'kakao']);
      for (const m of messages) expect(m.text).toContain('미사용 선납금 환급 −2,750,000원');
    });

    it('waits for a 중도 해지 in flight: its end date decides the unused months', async () => {
      const { subscriptionId } = await returned(depositCar, '2034-05-10', '2034-05-20', 1_500);
      // The early-exit charge is still being confirmed: the exit date is set, the subscription not yet ended.
      await ctx.database.db.update(subscriptions).set({ exitDate: '2034-05-25' }).where(eq(subscriptions.id, subscriptionId));
      const refused = await ctx.call('POST', settleUrl(subscriptionId), { token: ADMIN, json: { damages: [] } });
      expect([refused.status, refused.body.message]).toEqual([409, '중도 해지 수수료 결제를 확인하고 있습니다. 해지가 끝난 뒤 정산해주세요.']);
      expect(await ctx.database.db.select().from(subscriptionSettlements).where(eq(subscriptionSettlements.subscriptionId, subscriptionId))).toEqual([]);
    });

    it('a repeat whose reads straddle the first call’s refund answers that refund, never 422 (the two-replica race of issue 54)', async () => {
      const { requestId, first } = await exitedEarly('2034-02-10', '2034-02-25');
      const provider = createPaymentProvider(ctx.database.db, ctx.config);
      // More than half of what the payment holds, as a settlement's deposit and 선납금 refund is.
      const amount = first.amount - first.cancelledAmount - 100_000;
      const refundOf = (db: typeof ctx.database.db) => refundPayment({ db, payments: provider, clock: createClock(), log: () => {}, refunded: refundFollowUp }, { paymentId: first.id, amount, reason: '테스트', actor: 'system', key: `test:race:${requestId}` });
      // The repeat sends its first read, then waits before its second while the first call refunds in full.
      let open!: () => void;
      const released = new Promise<void>((resolve) => (open = resolve));
      let atSecondRead!: () => void;
      const paused = new Promise<void>((resolve) => (atSecondRead = resolve));
      const repeat = refundOf(holdNthSelect(ctx.database.db, 2, released, atSecondRead));
      await paused;
      expect((await refundOf(ctx.database.db))?.status).toBe('SUCCEEDED');
      open();
      expect(await repeat).toMatchObject({ status: 'SUCCEEDED', amount });
      expect(await ctx.database.db.select().from(paymentRefunds).where(eq(paymentRefunds.key, `test:race:${requestId}`))).toHaveLength(1);
      const [after] = await ctx.database.db.select().from(payments).where(eq(payments.id, first.id));
      expect(after.cancelledAmount - first.cancelledAmount).toBe(amount);
    });

    it('never refunds more than the first payment still holds', async () => {
      const { subscriptionId, requestId, first } = await exitedEarly('2034-03-10', '2034-03-25');
      // An earlier partial refund of the first payment leaves it holding 1,000,000원.
      const left = first.amount - first.cancelledAmount;
      const provider = createPaymentProvider(ctx.database.db, ctx.config);
      const earlier = await refundPayment({ db: ctx.database.db, payments: provider, clock: createClock(), log: () => {}, refunded: refundFollowUp }, { paymentId: first.id, amount: left - 1_000_000, reason: '테스트', actor: 'system', key: `test:partial:${requestId}` });
      expect(earlier?.status).toBe('SUCCEEDED');
      const done = (await ctx.call('POST', settleUrl(subscriptionId), { token: ADMIN, json: { damages: [] } })).body.data.settlement;
      expect(done).toMatchObject({ status: 'DONE', total: 0, deposit: DEPOSIT, prepayment_refund: 500_000, to_refund: 1_000_000 });
      expect(done.lines.at(-1)!.detail).toBe('선납금 3,000,000원 × 미사용 11개월 / 12개월 = 2,750,000원 → 첫 결제 잔액 한도 500,000원');
      const [after] = await ctx.database.db.select().from(payments).where(eq(payments.id, first.id));
      expect(after.amount - after.cancelledAmount).toBe(0);
    });
  });

  it('waits for the customer to acknowledge the return record: before the wait ends staff settle only with a reason (audited); after it, as recorded (issue 49)', async () => {
    const { subscriptionId, token } = await returned(plainCar, '2035-01-10', '2035-02-20', 3_000);
    // A return recorded on the board, not yet acknowledged.
    const returnId = await recordHandover(subscriptionId, 'RETURN', '2035-02-20', 3_000, 100);
    await setClock('2035-02-20T10:00:00+09:00');
    const preview = (await ctx.call('GET', settleUrl(subscriptionId), { token: ADMIN })).body.data.settlement;
    expect(preview.acknowledgement).toMatchObject({ state: 'WAITING', acknowledged_at: null });
    const refused = await ctx.call('POST', settleUrl(subscriptionId), { token: ADMIN, json: { damages: [] } });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('고객이 반납 기록을 아직 확인하지 않았습니다. 2035.02.22 09:00까지(기록 후 48시간) 기다리거나, 확인 없이 정산하는 사유를 남겨주세요.');
    expect(await ctx.database.db.select().from(subscriptionSettlements).where(eq(subscriptionSettlements.subscriptionId, subscriptionId))).toEqual([]);
    expect((await ctx.call('POST', settleUrl(subscriptionId), { token: ADMIN, json: { damages: [], acknowledgement_override: ' ' } })).status).toBe(400);
    const overridden = await ctx.call('POST', settleUrl(subscriptionId), { token: ADMIN, json: { damages: [], acknowledgement_override: '고객이 전화로 기록을 확인함' } });
    expect(overridden.status, JSON.stringify(overridden.body)).toBe(200);
    const [audit] = await ctx.database.db.select().from(auditLog).where(and(eq(auditLog.action, 'settle'), eq(auditLog.entityId, String(subscriptionId))));
    expect((audit.after as { acknowledgement: unknown }).acknowledgement).toMatchObject({ state: 'WAITING', override: '고객이 전화로 기록을 확인함' });

    // Another return: after 48 hours unacknowledged the record stands; acknowledged, no wait at all.
    const late = await returned(plainCar, '2035-03-10', '2035-04-20', 3_000);
    await recordHandover(late.subscriptionId, 'RETURN', '2035-04-20', 3_000, 100);
    await setClock('2035-04-22T09:30:00+09:00');
    expect((await ctx.call('GET', settleUrl(late.subscriptionId), { token: ADMIN })).body.data.settlement.acknowledgement!.state).toBe('TIMED_OUT');
    expect((await ctx.call('POST', settleUrl(late.subscriptionId), { token: ADMIN, json: { damages: [] } })).status).toBe(200);
    expect((await ctx.call('POST', `/handovers/${returnId}/acknowledge`, { token, json: { name: '홍길동' } })).status).toBe(200);
  });
});
