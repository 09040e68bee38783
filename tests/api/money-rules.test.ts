import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayInKorea } from '../../src/domain/dates';
import { insertButlerCar, insertModel, insertTestCar, upsertBrand } from '../../src/api/seed/factories';
import { butlerRequests, payments } from '../../src/api/db/schema';
import { TEST_ADMIN_TOKEN } from '../../src/api/env';
import { won } from '../../src/domain/money';
import { splitVat } from '../../src/domain/vat';
import { anotherPlate, apiTools, createTestContext, customer, type TestContext } from './helpers';

/**
 * Money rules (issue 35): a first month refunded in full is never confirmed; a staff refund is a
 * positive whole number of won within what is left; a trip is recorded only once it started, and
 * overtime charged only once its end has passed (with a preview for the console's confirm step).
 */

let ctx: TestContext;
let carId: number;
let modelId: number;
const ADMIN = TEST_ADMIN_TOKEN;

beforeAll(async () => {
  ctx = await createTestContext();
  ({ car: { id: carId } } = await insertTestCar(ctx.database.db, { fees: { subscription_fee_1: 900_000, subscription_fee_3: 800_000, subscription_fee_12: 555_000 } }));
  const brand = await upsertBrand(ctx.database.db, { name: '벤틀리', slug: 'bentley-money-rules' });
  modelId = (await insertModel(ctx.database.db, { brandId: brand.id, name: '플라잉스퍼' })).id;
});
afterAll(() => ctx.close());
afterEach(async () => {
  await ctx.call('POST', '/admin/test-clock', { token: ADMIN, json: {} });
});

const { setClock, card } = apiTools(() => ctx);
const refund = (paymentId: string, json: Record<string, unknown>) => ctx.call('POST', `/admin/payments/${paymentId}/refund`, { token: ADMIN, json });
const confirm = (requestId: number) => ctx.call('POST', `/admin/subscription-requests/${requestId}/confirm`, { token: ADMIN, json: { start_date: addDays(todayInKorea(new Date()), 3) } });

/** A pending subscription request of 12 months, its first month (555,000원) paid. */
async function paidRequest() {
  const { user, token } = await customer(ctx);
  const res = await ctx.call('POST', `/subscriptions/cars/${await anotherPlate(ctx, carId)}/request`, { token, json: { month: 12, billing_key: card() } });
  expect(res.status).toBe(201);
  return { user, token, requestId: res.body.data.subscription_request.id, paymentId: res.body.data.payment!.id };
}

describe('confirming a request whose first month was refunded', () => {
  it('refunded in full: 409 in Korean, nothing confirmed, no subscription', async () => {
    const { token, requestId, paymentId } = await paidRequest();
    expect((await refund(paymentId, { reason: '고객 요청 전액 환불' })).body.data.payment).toMatchObject({ status: 'CANCELLED', refunded_amount: 555_000 });
    const res = await confirm(requestId);
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/전액 환불된 신청은 확정할 수 없습니다/);
    expect((await ctx.call('GET', '/subscriptions', { token })).body.data.subscriptions ?? []).toEqual([]);
    expect((await ctx.call('GET', `/subscriptions/requests/${requestId}`, { token })).body.data.subscription_request.status).toBe('PENDING');
  });

  it('refunded in part (a compensation): the month is still paid, so it may be confirmed', async () => {
    const { requestId, paymentId } = await paidRequest();
    expect((await refund(paymentId, { amount: 55_000, reason: '인도 지연 보상' })).status).toBe(200);
    const res = await confirm(requestId);
    expect(res.status).toBe(201);
    expect(res.body.data.subscription).toMatchObject({ request_id: requestId, is_active: true });
  });
});

describe('the staff refund amount', () => {
  it('is a positive whole number of won within what is left; anything else is refused before the provider is asked', async () => {
    const { paymentId } = await paidRequest();
    for (const amount of ['50만', '오십만원', '500,000', '500000', 500_000.5, 0, -1, 1e12, 555_001, null, true, [1]]) {
      const res = await refund(paymentId, { amount, reason: '확인' });
      expect(res.status, `amount ${JSON.stringify(amount)}`).toBeGreaterThanOrEqual(400);
      expect(res.status, `amount ${JSON.stringify(amount)}`).toBeLessThan(500);
      expect(res.body.errors?.amount ?? res.body.message, `amount ${JSON.stringify(amount)}`).toBeTruthy();
    }
    const [row] = await ctx.database.db.select().from(payments).where(eq(payments.id, paymentId));
    expect(row).toMatchObject({ status: 'PAID', cancelledAmount: 0 });
    // Exactly what was asked is refunded, and the answer names it.
    const ok = await refund(paymentId, { amount: 500_000, reason: '확인' });
    expect(ok.status).toBe(200);
    expect(ok.body.data.refund).toMatchObject({ amount: 500_000 });
    expect(ok.body.data.payment).toMatchObject({ status: 'PARTIAL_CANCELLED', refunded_amount: 500_000 });
    // Past the rest (55,000원 left) is refused.
    expect((await refund(paymentId, { amount: 55_001, reason: '확인' })).status).toBe(422);
  });
});

describe('trip records and overtime only for trips that happened', () => {
  /** A confirmed booking of 09:00–17:00 (8 h, 800,000원) on day `d` from today. */
  async function booking(d: number) {
    const car = await insertButlerCar(ctx.database.db, modelId, { butlerFee: 800_000, butlerOvertimeFee: 100_000 });
    const { token } = await customer(ctx, 0, [], 'BUTLER');
    const res = await ctx.call('POST', `/butlers/cars/${car.id}/request`, {
      token,
      json: { start_location: '서울 강남구 테헤란로 152', end_location: '인천 중구 공항로 272', way_point_requests: [], passenger_count: 2, billing_key: card(), start_at: at(d, '09:00'), end_at: at(d, '17:00') },
    });
    expect(res.status).toBe(201);
    const id = res.body.data.butler_request.id;
    expect((await ctx.call('POST', `/admin/butler-requests/${id}/confirm`, { token: ADMIN })).status).toBe(201);
    return id;
  }
  const at = (days: number, time: string) => `${addDays(todayInKorea(new Date()), days)}T${time}:00+09:00`;
  const trip = (id: number, json: Record<string, unknown>) => ctx.call('POST', `/admin/butler-requests/${id}/trip`, { token: ADMIN, json });
  const overtimeCharges = (id: number) => ctx.database.db.select().from(payments).where(and(eq(payments.refId, id), eq(payments.purpose, 'BUTLER_OVERTIME')));
  const row = async (id: number) => (await ctx.database.db.select().from(butlerRequests).where(eq(butlerRequests.id, id)))[0];

  it('a trip in the future is refused (start or end not reached) and charges nothing', async () => {
    const id = await booking(40);
    const future = await trip(id, { actual_start_at: at(40, '09:00'), actual_end_at: at(40, '20:00') });
    expect(future.status).toBe(422);
    expect(future.body.errors.actual_start_at).toBeDefined();
    // Under way: the start has passed, the end has not.
    await setClock(at(40, '12:00'));
    const early = await trip(id, { actual_start_at: at(40, '09:00'), actual_end_at: at(40, '20:00') });
    expect(early.status).toBe(422);
    expect(early.body.errors.actual_end_at).toBeDefined();
    expect(early.body.message).toMatch(/끝나지 않은 운행/);
    expect(await overtimeCharges(id)).toEqual([]);
    expect((await row(id)).actualEndAt).toBeNull();
  });

  it('the start is recorded alone (운행 중), the end later; overtime is previewed, then charged once after the end', async () => {
    const id = await booking(41);
    await setClock(at(41, '09:20'));
    const started = await trip(id, { actual_start_at: at(41, '09:10') });
    expect(started.status).toBe(200);
    expect(started.body.data).toEqual({ overtime_amount: 0, payment: null, preview: false, finished: false });
    expect((await row(id)).actualStartAt?.toISOString()).toBe(new Date(at(41, '09:10')).toISOString());
    expect((await row(id)).actualEndAt).toBeNull();
    const desk = ((await ctx.call('GET', '/admin/butler-requests', { token: ADMIN })).body.data.requests as { id: number; actual_start_at: string | null; actual_end_at: string | null }[]).find((r) => r.id === id);
    expect(desk).toMatchObject({ actual_start_at: new Date(at(41, '09:10')).toISOString(), actual_end_at: null });

    await setClock(at(41, '20:00'));
    // 09:10–19:40: 10 h 30 → 3 started hours over → 300,000원; the preview saves and charges nothing.
    const preview = await trip(id, { actual_start_at: at(41, '09:10'), actual_end_at: at(41, '19:40'), preview: true });
    expect(preview.status).toBe(200);
    expect(preview.body.data).toEqual({ overtime_amount: 300_000, payment: null, preview: true, finished: true });
    expect(await overtimeCharges(id)).toEqual([]);
    expect((await row(id)).actualEndAt).toBeNull();

    const done = await trip(id, { actual_start_at: at(41, '09:10'), actual_end_at: at(41, '19:40') });
    expect(done.status).toBe(200);
    expect(done.body.data).toMatchObject({ overtime_amount: 300_000, preview: false, finished: true, payment: { status: 'PAID', amount: 300_000 } });
    expect(await overtimeCharges(id)).toHaveLength(1);
    // The charge is dated by the business clock, like every payment time.
    expect((await overtimeCharges(id))[0].requestedAt.getTime()).toBeGreaterThanOrEqual(Date.parse(at(41, '20:00')));
    expect((await trip(id, { actual_start_at: at(41, '09:10'), actual_end_at: at(41, '19:40') })).status).toBe(409);
  });
});

describe('one clock: payment times, request dates and the refund preview follow the business clock', () => {
  const near = (iso: string | null | undefined, at: string) => expect(Math.abs(Date.parse(iso ?? '') - Date.parse(at))).toBeLessThan(60_000);

  it('with the test clock moved, the request date, 결제 일시 and the refund times are the clock\'s', async () => {
    const at = '2030-05-01T12:00:00+09:00';
    await setClock(at);
    const { token, requestId, paymentId } = await paidRequest();
    const mine = (await ctx.call('GET', `/payments/${paymentId}`, { token })).body.data.payment;
    near(mine.requested_at, at);
    near(mine.paid_at, at);
    near((await ctx.call('GET', `/subscriptions/requests/${requestId}`, { token })).body.data.subscription_request.created_at, at);
    const refunded = await refund(paymentId, { amount: 5_000, reason: '시계 확인' });
    near(refunded.body.data.refund.created_at, at);
    near(refunded.body.data.refund.completed_at, at);
    near(refunded.body.data.payment.cancelled_at, at);
    // The sandbox's own record (its receipt) says the same time.
    const receipt = await ctx.app.request(`/sandbox/receipts/${paymentId}`, { headers: { host: 'localhost' } });
    const receiptText = await receipt.text();
    expect(receiptText).toMatch(/2030/);
    // The seller's identity on the receipt (전자상거래법 제13조): 상호, 대표자, 사업자등록번호, 통신판매업 신고번호.
    for (const s of ['판매자 정보', '대표자', '사업자등록번호', ctx.config.company.businessNumber, '통신판매업 신고번호', ctx.config.company.mailOrderNumber, '개인정보 보호책임자']) expect(receiptText).toContain(s);
    // 공급가액 and 부가세 of what stays paid (src/domain/vat.ts: the one split).
    const net = mine.amount - 5_000;
    const split = splitVat(net);
    expect(split.supply + split.vat).toBe(net);
    expect(receiptText).toContain(`공급가액 (취소 후)</dt><dd>${won(split.supply)}`);
    expect(receiptText).toContain(`부가세 (취소 후)</dt><dd>${won(split.vat)}`);
  });

  it('the butler cancel preview is the server\'s, on its clock, and DELETE refunds exactly that', async () => {
    const car = await insertButlerCar(ctx.database.db, modelId, { butlerFee: 800_000, butlerOvertimeFee: 100_000 });
    const { token } = await customer(ctx, 0, [], 'BUTLER');
    const day = addDays(todayInKorea(new Date()), 42);
    const res = await ctx.call('POST', `/butlers/cars/${car.id}/request`, {
      token,
      json: { start_location: '서울 강남구 테헤란로 152', end_location: '인천 중구 공항로 272', way_point_requests: [], passenger_count: 2, billing_key: card(), start_at: `${day}T09:00:00+09:00`, end_at: `${day}T17:00:00+09:00` },
    });
    expect(res.status).toBe(201);
    const id = res.body.data.butler_request.id;
    const preview = (path = `/butlers/requests/${id}/cancel-preview` as const) => ctx.call('GET', path, { token });
    expect((await preview()).body.data).toMatchObject({ paid_amount: 800_000, refund_amount: 800_000, refund_percent: 100 });
    // 21 hours before the start on the business clock: half back, whatever the browser's clock says.
    const at = `${addDays(day, -1)}T12:00:00+09:00`;
    await setClock(at);
    const late = (await preview()).body.data;
    expect(late).toMatchObject({ paid_amount: 800_000, refund_amount: 400_000, refund_percent: 50 });
    near(late.now, at);
    expect((await ctx.call('GET', `/butlers/requests/${id}/cancel-preview`, { token: (await customer(ctx)).token })).status).toBe(404);
    const cancelled = await ctx.call('DELETE', `/butlers/requests/${id}`, { token });
    expect(cancelled.body.data).toMatchObject({ refunded_amount: 400_000, refund_percent: 50 });
    expect((await preview()).status).toBe(404);
  });
});
