import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quoteButler } from '../../src/domain/butler';
import { addDays, todayInKorea } from '../../src/domain/dates';
import { insertButlerCar, insertModel, upsertBrand } from '../../src/api/seed/factories';
import { auditLog, billingKeyUses, butlerRequests, butlerReservedDates, payments, sandboxPayments } from '../../src/api/db/schema';
import { TEST_ADMIN_TOKEN } from '../../src/api/env';
import { sandboxCardInfo } from '../../src/api/billing/sandbox-provider';
import { apiTools, couponUsed, createTestContext, customer, pointsOf, type TestContext } from './helpers';

/**
 * Butler money after booking: staff record the trip's actual start and end
 * (POST /admin/butler-requests/{id}/trip) and overtime is charged once, as
 * `butler-{id}-overtime`, for the quote difference; a declined overtime is retried by staff or
 * paid by the customer with another card (POST /butlers/requests/{id}/pay).
 * And at booking: a declined card spends nothing, and a client-sent amount is ignored.
 */

let ctx: TestContext;
let modelId: number;
const ADMIN = TEST_ADMIN_TOKEN;
const LIMIT = '카드 한도가 초과되었습니다. 다른 카드로 결제해주세요.';
/** 800,000원 for 8 hours, 100,000원 per started hour after. */
const terms = { butler_fee: 800_000, butler_overtime_fee: 100_000 };

beforeAll(async () => {
  ctx = await createTestContext();
  const brand = await upsertBrand(ctx.database.db, { name: '롤스로이스', slug: 'rolls-overtime' });
  modelId = (await insertModel(ctx.database.db, { brandId: brand.id, name: '고스트' })).id;
});
afterAll(() => ctx.close());

const newCar = () => insertButlerCar(ctx.database.db, modelId, { butlerFee: terms.butler_fee, butlerOvertimeFee: terms.butler_overtime_fee });
const { card } = apiTools(() => ctx);
/** An ISO instant `days` Korean days from today at a Korean wall-clock time. */
const at = (days: number, time: string) => `${addDays(todayInKorea(new Date()), days)}T${time}:00+09:00`;
const book = (token: string, carId: number, json: Record<string, unknown>) =>
  ctx.call('POST', `/butlers/cars/${carId}/request`, {
    token,
    json: { start_location: '서울 강남구 테헤란로 152', end_location: '인천 중구 공항로 272', way_point_requests: [], passenger_count: 2, billing_key: card(), ...json },
  });
const confirm = (id: number) => ctx.call('POST', `/admin/butler-requests/${id}/confirm`, { token: ADMIN });
/**
 * Records a trip as staff do once it is over: the business clock is moved just past the end (a trip
 * is recorded only after it happened), then back to real time for the next booking.
 */
async function trip(id: number, start: string, end: string, token = ADMIN, times = 1) {
  const later = Math.max(Date.parse(start), Date.parse(end));
  if (Number.isFinite(later)) await ctx.call('POST', '/admin/test-clock', { token: ADMIN, json: { now: new Date(later + 60_000).toISOString() } });
  try {
    // `times` records sent at once, under one clock (one call's reset must not reach a call still waiting on the row lock).
    const all = await Promise.all(Array.from({ length: times }, () => ctx.call('POST', `/admin/butler-requests/${id}/trip`, { token, json: { actual_start_at: start, actual_end_at: end } })));
    return Object.assign(all[0], { all });
  } finally {
    await ctx.call('POST', '/admin/test-clock', { token: ADMIN, json: {} });
  }
}
/** The booking as the console's order desk lists it (newest first: a booking just made is on page 1). */
const deskRow = async (id: number) => ((await ctx.call('GET', '/admin/butler-requests', { token: ADMIN })).body.data.requests as { id: number }[]).find((r) => r.id === id);
const retry = (paymentId: string) => ctx.call('POST', `/admin/payments/${paymentId}/retry`, { token: ADMIN });
const chargesOf = async (requestId: number) =>
  // In charge order: the booking, then each purpose's attempts (an overtime is recorded at the business clock's time, after the trip).
  (await ctx.database.db.select().from(payments).where(and(eq(payments.refType, 'butler_request'), eq(payments.refId, requestId)))).sort((a, b) => Number(a.purpose !== 'BUTLER') - Number(b.purpose !== 'BUTLER') || a.attempt - b.attempt || a.requestedAt.getTime() - b.requestedAt.getTime() || a.id.localeCompare(b.id));
const remote = (paymentId: string) => ctx.database.db.select().from(sandboxPayments).where(eq(sandboxPayments.paymentId, paymentId));
const requestRow = async (id: number) => (await ctx.database.db.select().from(butlerRequests).where(eq(butlerRequests.id, id)))[0];
const reservedOf = async (carId: number) => ctx.database.db.select().from(butlerReservedDates).where(eq(butlerReservedDates.butlerCarId, carId));

/** A paid and staff-confirmed booking of 09:00–17:00 (8 h, no overtime) on day `d`. */
async function confirmedBooking(d: number, extra: { points?: number; coupon?: boolean } = {}) {
  const car = await newCar();
  const { user, token, holdings } = await customer(ctx, extra.points ?? 0, extra.coupon ? [{ discountType: 'PERCENTAGE', discountRate: 10 }] : [], 'BUTLER');
  const res = await book(token, car.id, { start_at: at(d, '09:00'), end_at: at(d, '17:00'), coupon_id: holdings[0] ?? null, point_amount: extra.points || null });
  expect(res.status).toBe(201);
  const r = res.body.data.butler_request;
  expect(res.body.data.payment).toMatchObject({ id: `butler-${r.id}`, status: 'PAID', amount: r.final_price });
  expect((await confirm(r.id)).status).toBe(201);
  return { car, user, token, request: r as { id: number; final_price: number } };
}

describe('POST /admin/butler-requests/{id}/trip (overtime settlement)', () => {
  it('charges the quote difference once as butler-{id}-overtime; a second record is 409 and never charges again', async () => {
    const { token, request: r } = await confirmedBooking(50, { points: 100_000, coupon: true });
    const coupon = { discount_type: 'PERCENTAGE' as const, discount_rate: 10, discount: null };
    // Booked: 800,000 − 10% − 100,000P = 620,000원.
    expect(r.final_price).toBe(quoteButler(terms, at(50, '09:00'), at(50, '17:00'), coupon, 100_000).final);
    expect(r.final_price).toBe(620_000);
    // Actually 09:10–19:40: 10 h 30 → 3 started hours over → 1,100,000 − 10% − 100,000P = 890,000원.
    const actual = quoteButler(terms, at(50, '09:10'), at(50, '19:40'), coupon, 100_000);
    expect(actual).toMatchObject({ overtimeHours: 3, overtimeFee: 300_000, final: 890_000 });

    expect((await trip(r.id, at(50, '09:10'), at(50, '19:40'), token)).status).toBe(403);
    const res = await trip(r.id, at(50, '09:10'), at(50, '19:40'));
    expect(res.status).toBe(200);
    expect(res.body.data.overtime_amount).toBe(actual.final - r.final_price);
    expect(res.body.data.overtime_amount).toBe(270_000);
    expect(res.body.data.payment).toMatchObject({ id: `butler-${r.id}-overtime`, status: 'PAID', amount: 270_000, purpose: 'BUTLER_OVERTIME', ref_type: 'butler_request', ref_id: r.id });
    expect(await remote(`butler-${r.id}-overtime`)).toEqual([expect.objectContaining({ amount: 270_000, status: 'PAID' })]);
    const row = await requestRow(r.id);
    expect([row.actualStartAt?.toISOString(), row.actualEndAt?.toISOString()]).toEqual([new Date(at(50, '09:10')).toISOString(), new Date(at(50, '19:40')).toISOString()]);
    expect(row.status).toBe('CONFIRMED');
    // The console's order desk shows the recorded trip and its overtime charge after a reload.
    expect(await deskRow(r.id)).toMatchObject({
      status: 'CONFIRMED',
      actual_start_at: new Date(at(50, '09:10')).toISOString(),
      actual_end_at: new Date(at(50, '19:40')).toISOString(),
      overtime_payment: { id: `butler-${r.id}-overtime`, status: 'PAID', amount: 270_000, purpose: 'BUTLER_OVERTIME' },
    });
    // The customer sees it among their payments.
    const mine = (await ctx.call('GET', '/payments', { token })).body.data.payments;
    expect(mine).toEqual(expect.arrayContaining([expect.objectContaining({ id: `butler-${r.id}-overtime`, status: 'PAID', amount: 270_000 })]));
    // Audited.
    const audits = await ctx.database.db.select().from(auditLog).where(and(eq(auditLog.entity, 'butler_request'), eq(auditLog.entityId, String(r.id)), eq(auditLog.action, 'trip')));
    expect(audits).toHaveLength(1);

    // A second record (even a longer trip) is refused; nothing new is charged, the first record stands.
    const again = await trip(r.id, at(50, '09:00'), at(50, '23:00'));
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('이미 초과 요금을 정산한 예약입니다.');
    expect((await chargesOf(r.id)).map((p) => [p.id, p.status, p.amount])).toEqual([[`butler-${r.id}`, 'PAID', 620_000], [`butler-${r.id}-overtime`, 'PAID', 270_000]]);
    expect((await requestRow(r.id)).actualEndAt?.toISOString()).toBe(new Date(at(50, '19:40')).toISOString());
    // Two staff recording at once: still one charge.
    const twin = await confirmedBooking(51);
    const both = (await trip(twin.request.id, at(51, '09:00'), at(51, '18:30'), ADMIN, 2)).all;
    expect(both.map((b) => b.status).sort()).toEqual([200, 409]);
    expect(await remote(`butler-${twin.request.id}-overtime`)).toEqual([expect.objectContaining({ amount: 200_000, status: 'PAID' })]);
  });

  it('a trip within the booked time charges nothing (overtime 0, no payment)', async () => {
    const { request: r } = await confirmedBooking(52);
    expect(await deskRow(r.id)).toMatchObject({ status: 'CONFIRMED', actual_start_at: null, actual_end_at: null, overtime_payment: null });
    const res = await trip(r.id, at(52, '09:30'), at(52, '16:45'));
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ overtime_amount: 0, payment: null, preview: false, finished: true });
    // Recorded again (no charge was made): ending exactly at the booked 17:00 is still no overtime.
    expect((await trip(r.id, at(52, '09:00'), at(52, '17:00'))).body.data).toEqual({ overtime_amount: 0, payment: null, preview: false, finished: true });
    expect((await chargesOf(r.id)).map((p) => p.id)).toEqual([`butler-${r.id}`]);
    expect(await remote(`butler-${r.id}-overtime`)).toEqual([]);
    expect((await requestRow(r.id)).actualEndAt?.toISOString()).toBe(new Date(at(52, '17:00')).toISOString());
    expect(await deskRow(r.id)).toMatchObject({ actual_start_at: new Date(at(52, '09:00')).toISOString(), actual_end_at: new Date(at(52, '17:00')).toISOString(), overtime_payment: null });
  });

  it('refuses an end before the start (422), a pending booking (409) and an unknown one (404), with Korean messages', async () => {
    const { request: r } = await confirmedBooking(53);
    const backwards = await trip(r.id, at(53, '18:00'), at(53, '09:00'));
    expect(backwards.status).toBe(422);
    expect(backwards.body).toMatchObject({ message: '종료 시각은 시작 시각 이후여야 합니다.', errors: { actual_end_at: ['종료 시각은 시작 시각 이후여야 합니다.'] } });
    const malformed = await ctx.call('POST', `/admin/butler-requests/${r.id}/trip`, { token: ADMIN, json: { actual_start_at: '어제', actual_end_at: at(53, '18:00') } });
    expect(malformed.status).toBe(400);
    expect(malformed.body.errors.actual_start_at[0]).toContain('실제 출발 시간 형식이 올바르지 않습니다.');
    const car = await newCar();
    const { token } = await customer(ctx);
    const pending = (await book(token, car.id, { start_at: at(54, '09:00'), end_at: at(54, '17:00') })).body.data.butler_request;
    const early = await trip(pending.id, at(54, '09:00'), at(54, '20:00'));
    expect(early.status).toBe(409);
    expect(early.body.message).toBe('확정된 예약만 운행 기록을 남길 수 있습니다.');
    expect((await trip(999_999, at(54, '09:00'), at(54, '20:00'))).status).toBe(404);
    expect((await chargesOf(r.id)).map((p) => p.id)).toEqual([`butler-${r.id}`]);
  });

  it('a declined overtime is FAILED with the Korean reason; staff retry charges it under its retry id, once', async () => {
    const { token, request: r } = await confirmedBooking(55);
    // The card on file starts declining after the booking was paid (the sandbox's card is in its key).
    await ctx.database.db.update(butlerRequests).set({ billingKey: card('decline-limit') }).where(eq(butlerRequests.id, r.id));
    const res = await trip(r.id, at(55, '09:00'), at(55, '19:00'));
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ overtime_amount: 200_000, payment: { id: `butler-${r.id}-overtime`, status: 'FAILED', amount: 200_000, failure_reason: LIMIT } });
    expect(await deskRow(r.id)).toMatchObject({ overtime_payment: { id: `butler-${r.id}-overtime`, status: 'FAILED', failure_reason: LIMIT } });
    // The booking stands (only a declined booking fee undoes a booking).
    expect((await requestRow(r.id)).status).toBe('CONFIRMED');
    // Recording again does not charge again: staff retry instead.
    expect((await trip(r.id, at(55, '09:00'), at(55, '19:00'))).status).toBe(409);
    const still = await retry(`butler-${r.id}-overtime`);
    expect([still.status, still.body.message]).toEqual([422, LIMIT]);
    // The card issuer lifts the limit: in the sandbox the card is its key, so the key on file becomes an approving one.
    await ctx.database.db.update(payments).set({ billingKey: card() }).where(and(eq(payments.refType, 'butler_request'), eq(payments.refId, r.id), eq(payments.purpose, 'BUTLER_OVERTIME')));
    const paid = await retry(`butler-${r.id}-overtime-r1`);
    expect(paid.status).toBe(200);
    expect(paid.body.data.payment).toMatchObject({ id: `butler-${r.id}-overtime-r2`, status: 'PAID', amount: 200_000, purpose: 'BUTLER_OVERTIME' });
    // The desk shows the last attempt: the overtime is paid.
    expect(await deskRow(r.id)).toMatchObject({ actual_end_at: new Date(at(55, '19:00')).toISOString(), overtime_payment: { id: `butler-${r.id}-overtime-r2`, status: 'PAID', amount: 200_000 } });
    const done = await retry(`butler-${r.id}-overtime`);
    expect([done.status, done.body.message]).toEqual([409, '이미 결제된 요금입니다.']);
    expect((await chargesOf(r.id)).map((p) => [p.id, p.status])).toEqual([
      [`butler-${r.id}`, 'PAID'], [`butler-${r.id}-overtime`, 'FAILED'], [`butler-${r.id}-overtime-r1`, 'FAILED'], [`butler-${r.id}-overtime-r2`, 'PAID'],
    ]);
    const provider = await ctx.database.db.select().from(sandboxPayments);
    expect(provider.filter((p) => p.paymentId.startsWith(`butler-${r.id}-overtime`) && p.status === 'PAID').map((p) => [p.paymentId, p.amount])).toEqual([[`butler-${r.id}-overtime-r2`, 200_000]]);
    const mine = (await ctx.call('GET', '/payments', { token })).body.data.payments;
    expect(mine.filter((p: { status: string }) => p.status === 'PAID').map((p: { id: string }) => p.id).sort()).toEqual([`butler-${r.id}`, `butler-${r.id}-overtime-r2`]);
  });
});

describe('POST /butlers/requests/{id}/pay (the customer pays a declined overtime)', () => {
  const NOTHING_OWED = '결제할 미납 요금이 없습니다.';
  const pay = (id: number, token: string, billingKey?: string) => ctx.call('POST', `/butlers/requests/${id}/pay`, { token, json: billingKey === undefined ? {} : { billing_key: billingKey } });
  const detail = async (id: number, token: string) => (await ctx.call('GET', `/butlers/requests/${id}`, { token })).body.data.butler_request;
  /** A confirmed booking whose card on file declines (limit) the 200,000원 overtime of a 09:00–19:00 trip on day `d`. */
  async function declinedOvertime(d: number) {
    const booked = await confirmedBooking(d);
    const declining = card('decline-limit');
    await ctx.database.db.update(butlerRequests).set({ billingKey: declining }).where(eq(butlerRequests.id, booked.request.id));
    const res = await trip(booked.request.id, at(d, '09:00'), at(d, '19:00'));
    expect(res.body.data.payment).toMatchObject({ status: 'FAILED', amount: 200_000, failure_reason: LIMIT });
    return { ...booked, declining };
  }

  it('the customer sees the failed charge, pays it with a new card (PAID under the next attempt id); the old card is not charged again', async () => {
    const { user, token, request: r, declining } = await declinedOvertime(64);
    const base = `butler-${r.id}-overtime`;
    expect(await detail(r.id, token)).toMatchObject({ status: 'CONFIRMED', overtime_payment: { id: base, status: 'FAILED', amount: 200_000, failure_reason: LIMIT, purpose: 'BUTLER_OVERTIME' } });
    // No card given: the card on file, declined again (422, the Korean reason, as the subscription's pay).
    const same = await pay(r.id, token);
    expect([same.status, same.body.code, same.body.message]).toEqual([422, 1202, LIMIT]);
    // A new card that declines: its reason, and the overtime stays owed.
    const rejecting = card('decline-rejected');
    const rejected = await pay(r.id, token, rejecting);
    expect(rejected.status).toBe(422);
    expect(rejected.body.message).toContain('카드사에서 결제를 거절했습니다');
    expect(await detail(r.id, token)).toMatchObject({ overtime_payment: { id: `${base}-r2`, status: 'FAILED' } });
    // Another new card that approves.
    const approving = card();
    const paid = await pay(r.id, token, approving);
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({ code: 0, message: 'OK', data: { payment: { id: `${base}-r3`, status: 'PAID', amount: 200_000, purpose: 'BUTLER_OVERTIME', ref_id: r.id } } });
    expect(await detail(r.id, token)).toMatchObject({ overtime_payment: { id: `${base}-r3`, status: 'PAID' }, paid_amount: r.final_price + 200_000 });
    expect(await deskRow(r.id)).toMatchObject({ overtime_payment: { id: `${base}-r3`, status: 'PAID' } });
    // Each attempt on the card it was made with; the earlier rows are as they were.
    expect((await chargesOf(r.id)).map((p) => [p.id, p.status, p.billingKey])).toEqual([
      [`butler-${r.id}`, 'PAID', expect.any(String)], [base, 'FAILED', declining], [`${base}-r1`, 'FAILED', declining], [`${base}-r2`, 'FAILED', rejecting], [`${base}-r3`, 'PAID', approving],
    ]);
    // The approving card is the booking's now, claimed for it; the provider charged it once and the old card never.
    expect((await requestRow(r.id)).billingKey).toBe(approving);
    // Issue 49: the booking shows the new card (issuer, last four digits), never its key.
    expect(await requestRow(r.id)).toMatchObject({ cardIssuer: '샌드박스카드', cardLast4: sandboxCardInfo('approve', approving).last4 });
    const shown = await ctx.call('GET', `/butlers/requests/${r.id}`, { token });
    expect(shown.body.data.butler_request.card).toEqual(sandboxCardInfo('approve', approving));
    expect(JSON.stringify(shown.body)).not.toContain(approving);
    expect(await ctx.database.db.select().from(billingKeyUses).where(eq(billingKeyUses.billingKey, approving))).toEqual([expect.objectContaining({ service: 'BUTLER', userId: user.id, orderId: r.id })]);
    const provider = (await ctx.database.db.select().from(sandboxPayments)).filter((p) => p.paymentId.startsWith(base));
    expect(provider.filter((p) => p.status === 'PAID').map((p) => [p.paymentId, p.billingKey, p.amount])).toEqual([[`${base}-r3`, approving, 200_000]]);
    expect(provider.filter((p) => p.billingKey === declining).map((p) => p.status)).toEqual(['FAILED', 'FAILED']);
    // Paid: nothing is owed any more, and staff retry of an old attempt does not charge again.
    const again = await pay(r.id, token, card());
    expect([again.status, again.body.message]).toEqual([409, NOTHING_OWED]);
    expect((await retry(base)).status).toBe(409);
    expect((await chargesOf(r.id))).toHaveLength(5);
  });

  it("another user's booking is 404; nothing owed is 409; a billing key backing another order is refused", async () => {
    const { token, request: r } = await declinedOvertime(65);
    const other = await customer(ctx);
    const foreign = await pay(r.id, other.token, card());
    expect([foreign.status, foreign.body.message]).toEqual([404, '요청을 찾을 수 없습니다.']);
    expect((await pay(999_999, token)).status).toBe(404);
    // Nothing owed: a booking without a recorded trip, and one whose overtime was paid.
    const plain = await confirmedBooking(66);
    const none = await pay(plain.request.id, plain.token, card());
    expect([none.status, none.body.message]).toEqual([409, NOTHING_OWED]);
    expect((await trip(plain.request.id, at(66, '09:00'), at(66, '18:00'))).body.data.payment).toMatchObject({ status: 'PAID' });
    expect((await pay(plain.request.id, plain.token)).body.message).toBe(NOTHING_OWED);
    // A key that already backs an order (the other booking's card) is refused before any charge.
    const [taken] = await ctx.database.db.select().from(billingKeyUses).where(eq(billingKeyUses.orderId, plain.request.id));
    expect(taken.service).toBe('BUTLER');
    const reused = await pay(r.id, token, taken.billingKey);
    expect(reused.status).toBe(409);
    expect(reused.body).toMatchObject({ message: '이미 사용된 빌링키입니다. 카드를 다시 등록해주세요.', errors: { billing_key: ['이미 사용된 빌링키입니다.'] } });
    // An unknown key is refused by the provider's check; a malformed body by the schema.
    expect((await pay(r.id, token, 'not-a-key')).status).toBe(422);
    const blank = await ctx.call('POST', `/butlers/requests/${r.id}/pay`, { token, json: { billing_key: '  ' } });
    expect([blank.status, blank.body.errors?.billing_key]).toEqual([400, ['빌링키를 입력해주세요.']]);
    expect((await chargesOf(r.id)).map((p) => p.id)).toEqual([`butler-${r.id}`, `butler-${r.id}-overtime`]);
    expect((await detail(r.id, token)).overtime_payment).toMatchObject({ status: 'FAILED', failure_reason: LIMIT });
  });

  it('10 concurrent pays with a new card meet on one attempt id: the provider charges once', async () => {
    const { token, request: r } = await declinedOvertime(67);
    const approving = card();
    // The provider answers slowly here, and 9 callers start once the first attempt is recorded and in
    // flight (PENDING): they meet on it instead of making attempts of their own.
    const latency = ctx.config.payments.sandboxLatencyMs;
    ctx.config.payments.sandboxLatencyMs = 300;
    let answers: Awaited<ReturnType<typeof pay>>[];
    try {
      const first = pay(r.id, token, approving);
      for (let i = 0; i < 500 && !(await chargesOf(r.id)).some((p) => p.id === `butler-${r.id}-overtime-r1`); i++) await new Promise((done) => setTimeout(done, 2));
      answers = await Promise.all([first, ...Array.from({ length: 9 }, () => pay(r.id, token, approving))]);
    } finally {
      ctx.config.payments.sandboxLatencyMs = latency;
    }
    const paid = answers.filter((a) => a.status === 200);
    expect(paid.length).toBeGreaterThan(0);
    expect(new Set(paid.map((a) => a.body.data.payment.id))).toEqual(new Set([`butler-${r.id}-overtime-r1`]));
    expect(paid.every((a) => a.body.data.payment.status === 'PAID')).toBe(true);
    // The rest came after it was paid: nothing owed.
    expect(answers.filter((a) => a.status !== 200).map((a) => [a.status, a.body.message])).toEqual(answers.filter((a) => a.status !== 200).map(() => [409, NOTHING_OWED]));
    const provider = (await ctx.database.db.select().from(sandboxPayments)).filter((p) => p.paymentId.startsWith(`butler-${r.id}-overtime`) && p.status === 'PAID');
    expect(provider.map((p) => [p.paymentId, p.amount])).toEqual([[`butler-${r.id}-overtime-r1`, 200_000]]);
    expect((await chargesOf(r.id)).map((p) => [p.id, p.status])).toEqual([[`butler-${r.id}`, 'PAID'], [`butler-${r.id}-overtime`, 'FAILED'], [`butler-${r.id}-overtime-r1`, 'PAID']]);
  });
});

describe('POST /butlers/cars/{id}/request (the fee at booking)', () => {
  it('a declined card answers 422 with the Korean reason and spends nothing; another card then books the same day', async () => {
    const car = await newCar();
    const { user, token, holdings } = await customer(ctx, 100_000, [{ discountType: 'FIXED', discount: 50_000 }], 'BUTLER');
    const json = { start_at: at(60, '09:00'), end_at: at(60, '17:00'), coupon_id: holdings[0], point_amount: 100_000 };
    const declined = card('decline-limit');
    const res = await book(token, car.id, { ...json, billing_key: declined });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: 1202, message: LIMIT });
    expect(await pointsOf(ctx, user.id)).toBe(100_000);
    expect(await couponUsed(ctx, holdings[0])).toBe(false);
    expect(await reservedOf(car.id)).toEqual([]);
    expect(await ctx.database.db.select().from(billingKeyUses).where(eq(billingKeyUses.billingKey, declined))).toEqual([]);
    // No booking is left waiting: the row made for the charge is cancelled, its only charge FAILED.
    const rows = await ctx.database.db.select().from(butlerRequests).where(eq(butlerRequests.userId, user.id));
    expect(rows.map((r) => r.status)).toEqual(['CANCELLED']);
    expect((await chargesOf(rows[0].id)).map((p) => [p.id, p.status, p.amount, p.failureReason])).toEqual([[`butler-${rows[0].id}`, 'FAILED', 650_000, LIMIT]]);
    expect((await ctx.call('GET', '/butlers/requests', { token })).body.data.butler_requests).toEqual([]);
    for (const [c, reason] of [['decline-rejected', '카드사에서 결제를 거절했습니다'], ['insufficient', '잔액이 부족합니다']] as const) {
      const again = await book(token, car.id, { ...json, billing_key: card(c) });
      expect([again.status, again.body.message]).toEqual([422, expect.stringContaining(reason)]);
    }
    expect(await pointsOf(ctx, user.id)).toBe(100_000);
    const ok = await book(token, car.id, json);
    expect(ok.status).toBe(201);
    expect(ok.body.data.payment).toMatchObject({ status: 'PAID', amount: 650_000 });
    expect(await pointsOf(ctx, user.id)).toBe(0);
    expect(await couponUsed(ctx, holdings[0])).toBe(true);
    expect((await reservedOf(car.id)).map((d) => d.butlerRequestId)).toEqual([ok.body.data.butler_request.id]);
  });

  it('ignores a client-sent amount: the fee charged is the server quote', async () => {
    const car = await newCar();
    const { token } = await customer(ctx);
    const res = await book(token, car.id, { start_at: at(62, '09:00'), end_at: at(62, '18:00'), amount: 1, final_price: 1, base_fee: 1, overtime_fee: 0, coupon_discount: 799_999 });
    expect(res.status).toBe(201);
    const expected = quoteButler(terms, at(62, '09:00'), at(62, '18:00'), null, 0).final;
    expect(expected).toBe(900_000);
    expect(res.body.data.butler_request).toMatchObject({ base_fee: 800_000, overtime_fee: 100_000, coupon_discount: 0, final_price: expected });
    const id = res.body.data.butler_request.id;
    expect(res.body.data.payment).toMatchObject({ id: `butler-${id}`, status: 'PAID', amount: expected });
    expect(await remote(`butler-${id}`)).toEqual([expect.objectContaining({ amount: expected, status: 'PAID' })]);
  });
});
