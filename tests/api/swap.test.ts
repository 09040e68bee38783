import { createHash } from 'node:crypto';
import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertTestCar } from '../../src/api/seed/factories';
import { auditLog, jobs, paymentRefunds, payments, sandboxPayments, subscriptionSwapAnnexes, subscriptionSwaps, subscriptions } from '../../src/api/db/schema';
import { TEST_ADMIN_TOKEN } from '../../src/api/env';
import { carsTakenOn } from '../../src/api/catalogue/inventory';
import { anotherPlate, apiTools, createTestContext, customer, type TestContext } from './helpers';

let ctx: TestContext;
/** The order's car (12 months: 1,200,000), a dearer one (1,500,000), a cheaper one (900,000) and one at the same fee. */
let baseCar: number;
let dearCar: number;
let cheapCar: number;
let sameCar: number;
const ADMIN = TEST_ADMIN_TOKEN;

beforeAll(async () => {
  ctx = await createTestContext();
  ({ car: { id: baseCar } } = await insertTestCar(ctx.database.db, { fees: { subscription_fee_1: 1_900_000, subscription_fee_12: 1_200_000 } }));
  ({ car: { id: dearCar } } = await insertTestCar(ctx.database.db, { brand: 'Porsche', model: 'Taycan', fees: { subscription_fee_12: 1_500_000 } }));
  ({ car: { id: cheapCar } } = await insertTestCar(ctx.database.db, { brand: 'BMW', model: 'i5', fees: { subscription_fee_12: 900_000 } }));
  ({ car: { id: sameCar } } = await insertTestCar(ctx.database.db, { brand: 'Audi', model: 'e-tron GT', fees: { subscription_fee_12: 1_200_000 } }));
});
afterAll(() => ctx.close());

const { setClock, card, runJobs } = apiTools(() => ctx);
const swapsOf = (subscriptionId: number) => ctx.database.db.select().from(subscriptionSwaps).where(eq(subscriptionSwaps.subscriptionId, subscriptionId));
const swapCharges = (subscriptionId: number) =>
  ctx.database.db.select().from(payments).where(and(eq(payments.refType, 'subscription'), eq(payments.refId, subscriptionId), eq(payments.purpose, 'SUBSCRIPTION_SWAP')));
const monthCharges = async (subscriptionId: number) =>
  (await ctx.database.db.select().from(payments).where(and(eq(payments.refType, 'subscription'), eq(payments.refId, subscriptionId), eq(payments.purpose, 'SUBSCRIPTION_MONTH'))))
    .sort((a, b) => a.month! - b.month!)
    .map((p) => [p.month, p.amount, p.status]);

/** A confirmed 12-month subscription starting on `start` on a plate of its own (the clock set to that morning). */
async function subscription(start: string) {
  await setClock(`${start}T08:00:00+09:00`);
  const { user, token } = await customer(ctx);
  const plate = await anotherPlate(ctx, baseCar);
  const req = await ctx.call('POST', `/subscriptions/cars/${plate}/request`, { token, json: { month: 12, billing_key: card() } });
  expect(req.status).toBe(201);
  const sub = (await ctx.call('POST', `/admin/subscription-requests/${req.body.data.subscription_request.id}/confirm`, { token: ADMIN, json: { start_date: start } })).body.data.subscription;
  return { user, token, subscriptionId: sub.id, carId: plate, requestId: req.body.data.subscription_request.id };
}

/** A car of its own copied from `car` (each test swaps to a plate nobody else holds). */
const plateOf = (car: number) => anotherPlate(ctx, car);

describe('차량 교체 (swap)', () => {
  it('quotes by the rule, confirms a dearer car once under two concurrent clicks and a repeat, charges once and bills the new fee', async () => {
    const { token, subscriptionId, carId: oldCar } = await subscription('2029-03-10');
    const newCar = await plateOf(dearCar);
    await setClock('2029-03-20T10:00:00+09:00');
    const all = await ctx.call('GET', `/subscriptions/${subscriptionId}/swap`, { token });
    expect(all.status).toBe(200);
    expect(all.body.data).toMatchObject({ first: '2029-03-23', last: '2029-04-09', date: '2029-03-23', quote: null });
    expect(all.body.data.rule.join(' ')).toContain('일할 계산');
    const choice = all.body.data.cars.find((c: { id: number }) => c.id === newCar);
    expect(choice).toMatchObject({ id: newCar, brand: 'Porsche', base_fee: 1_500_000, new_fee: 1_500_000, taken_from: null });
    expect(all.body.data.cars.some((c: { id: number }) => c.id === oldCar)).toBe(false);
    const fees = all.body.data.cars.map((c: { new_fee: number }) => c.new_fee);
    expect(fees).toEqual([...fees].sort((a, b) => a - b));

    // Month 1 runs 03-10 … 04-09 (31 days); 03-28 → 04-10 is 13 days: 300,000 × 13/31 = 125,806 → 125,800.
    const quoted = await ctx.call('GET', `/subscriptions/${subscriptionId}/swap?date=2029-03-28&car_id=${newCar}`, { token });
    expect(quoted.status).toBe(200);
    expect(quoted.body.data.quote).toMatchObject({
      swap_date: '2029-03-28', billing_month: 1, old_fee: 1_200_000, new_fee: 1_500_000, prorate_days: 13, month_days: 31, adjustment: 125_800,
      first_new_month: 2, new_fee_from: '2029-04-10', car_id: newCar, taken_from: null,
      arithmetic: '(월 1,500,000원 − 월 1,200,000원) × 13/31일 = 125,800원 추가 결제',
    });
    // A quote other than today's: 409 with the new quote, nothing changed.
    const stale = await ctx.call('POST', `/subscriptions/${subscriptionId}/swap`, { token, json: { date: '2029-03-28', car_id: newCar, quoted_adjustment: 100_000, quoted_fee: 1_500_000, price_consent: 1_500_000 } });
    expect(stale.status).toBe(409);
    expect(stale.body.message).toContain('견적이 바뀌었습니다');
    expect((stale.body.data as unknown as { quote: unknown }).quote).toMatchObject({ adjustment: 125_800 });
    expect(await swapsOf(subscriptionId)).toEqual([]);
    // 가격 변경 동의: the new car's fee without the customer's consent to exactly it is 422, nothing changed.
    const unconsented = await ctx.call('POST', `/subscriptions/${subscriptionId}/swap`, { token, json: { date: '2029-03-28', car_id: newCar, quoted_adjustment: 125_800, quoted_fee: 1_500_000 } });
    expect(unconsented.status).toBe(422);
    expect(unconsented.body.message).toContain('1,500,000원으로 바뀝니다. 변경된 월 구독료에 동의해주세요.');
    expect(await swapsOf(subscriptionId)).toEqual([]);

    const body = { date: '2029-03-28', car_id: newCar, quoted_adjustment: 125_800, quoted_fee: 1_500_000, price_consent: 1_500_000 };
    const [a, b] = await Promise.all([1, 2].map(() => ctx.call('POST', `/subscriptions/${subscriptionId}/swap`, { token, json: body })));
    for (const r of [a, b]) expect([200, 409]).toContain(r.status);
    const answers = [a, b].filter((r) => r.status === 200);
    expect(answers.length).toBeGreaterThanOrEqual(1);
    const swaps = await swapsOf(subscriptionId);
    expect(swaps.map((s) => [s.status, s.fromCarId, s.toCarId, s.swapDate, s.adjustment, s.firstNewMonth])).toEqual([['CONFIRMED', oldCar, newCar, '2029-03-28', 125_800, 2]]);
    const swapId = swaps[0].id;
    for (const r of answers) {
      expect(r.body.data).toMatchObject({
        swap: { id: swapId, status: 'CONFIRMED', swap_date: '2029-03-28', to_car: { id: newCar }, adjustment: 125_800, annex_path: `/subscriptions/${subscriptionId}/swaps/${swapId}/annex` },
        payment: { id: `sub-${subscriptionId}-swap-${swapId}`, status: 'PAID', amount: 125_800, purpose: 'SUBSCRIPTION_SWAP' },
        refund: null,
      });
    }
    // A repeat (a retry after a timeout) answers the same swap and charges nothing more.
    const again = await ctx.call('POST', `/subscriptions/${subscriptionId}/swap`, { token, json: body });
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(answers[0].body.data);
    expect((await swapCharges(subscriptionId)).map((p) => [p.id, p.status, p.amount])).toEqual([[`sub-${subscriptionId}-swap-${swapId}`, 'PAID', 125_800]]);
    expect(await ctx.database.db.select().from(sandboxPayments).where(like(sandboxPayments.paymentId, `sub-${subscriptionId}-swap-%`))).toHaveLength(1);

    // Audited; the customer (with the arithmetic) and staff are told once each.
    expect(await ctx.database.db.select().from(auditLog).where(and(eq(auditLog.entity, 'subscription'), eq(auditLog.entityId, String(subscriptionId))))).toHaveLength(1);
    const told = await ctx.database.db.select().from(jobs).where(eq(jobs.key, `notify:subscription.swapped:${swapId}`));
    expect(told).toHaveLength(1);
    expect(told[0].payload).toMatchObject({ arithmetic: '(월 1,500,000원 − 월 1,200,000원) × 13/31일 = 125,800원 추가 결제', newFee: 1_500_000, firstNewMonth: 2, newFeeFrom: '2029-04-10' });
    expect(await ctx.database.db.select().from(jobs).where(eq(jobs.key, `notify:staff.subscription_swapped:${swapId}`))).toHaveLength(1);

    // My page lists the scheduled swap; another swap is refused while it is ahead.
    const mine = (await ctx.call('GET', '/subscriptions', { token })).body.data.subscriptions.find((s: { id: number }) => s.id === subscriptionId);
    expect(mine!.swaps).toMatchObject([{ id: swapId, status: 'CONFIRMED', swap_date: '2029-03-28', to_car: { id: newCar } }]);
    const open = await ctx.call('GET', `/subscriptions/${subscriptionId}/swap`, { token });
    expect([open.status, open.body.message]).toEqual([409, '2029-03-28에 차량 교체가 이미 예정되어 있습니다. 교체가 끝난 뒤 다시 신청해주세요.']);

    // Availability: the old car is free from the day after the swap, the new car taken from the swap day to the end.
    const freeFrom = async (id: number) => (await ctx.call('GET', `/subscriptions/availability?ids=${id}`)).body.data.availability[0].available_from;
    expect(await freeFrom(oldCar)).toBe('2029-03-29');
    const takenOn = async (day: string) => carsTakenOn(ctx.database.db, day, new Date('2029-03-20T01:00:00Z'));
    expect([(await takenOn('2029-03-28')).has(oldCar), (await takenOn('2029-03-28')).has(newCar)]).toEqual([true, true]);
    expect([(await takenOn('2029-03-29')).has(oldCar), (await takenOn('2029-03-29')).has(newCar)]).toEqual([false, true]);
    expect([(await takenOn('2029-03-27')).has(oldCar), (await takenOn('2029-03-27')).has(newCar)]).toEqual([true, false]);
    expect((await takenOn('2030-03-09')).has(newCar)).toBe(true);
    const other = await customer(ctx);
    const orderOld = await ctx.call('POST', `/subscriptions/cars/${oldCar}/request`, { token: other.token, json: { month: 1, billing_key: card(), start_date: '2029-03-29' } });
    expect(orderOld.status).toBe(201);
    const third = await customer(ctx);
    for (const start of ['2029-03-28', '2029-03-27', '2029-10-01', '2030-03-09']) {
      const r = await ctx.call('POST', `/subscriptions/cars/${newCar}/request`, { token: third.token, json: { month: 12, billing_key: card(), start_date: start } });
      expect(r.status, start).toBe(409);
    }
    expect((await ctx.call('POST', `/subscriptions/cars/${newCar}/request`, { token: third.token, json: { month: 12, billing_key: card(), start_date: '2030-03-10' } })).status).toBe(201);

    // Month 2 is charged at the new fee (and its reminder shows it); the annex is issued once.
    await setClock('2029-04-10T10:00:00+09:00');
    await runJobs();
    expect(await monthCharges(subscriptionId)).toEqual([[2, 1_500_000, 'PAID']]);
    const annexes = await ctx.database.db.select().from(subscriptionSwapAnnexes).where(eq(subscriptionSwapAnnexes.swapId, swapId));
    expect(annexes).toHaveLength(1);
    const pdf = await ctx.app.request(`/subscriptions/${subscriptionId}/swaps/${swapId}/annex`, { headers: { authorization: `Bearer ${token}` } });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(createHash('sha256').update(new Uint8Array(await pdf.arrayBuffer())).digest('hex')).toBe(annexes[0].sha256);
    expect(pdf.headers.get('content-disposition')).toMatch(/LUXE-S-\d{6}-C01\.pdf/);
    expect((await ctx.app.request(`/subscriptions/${subscriptionId}/swaps/${swapId}/annex`, { headers: { authorization: `Bearer ${other.token}` } })).status).toBe(404);
    await expect(ctx.database.db.update(subscriptionSwapAnnexes).set({ byteSize: 1 }).where(eq(subscriptionSwapAnnexes.swapId, swapId))).rejects.toThrow();
    expect((await ctx.database.db.select().from(jobs).where(eq(jobs.key, `notify:subscription.swapped:${swapId}`)))[0].status).toBe('done');
  });

  it('a declined card answers 422 with its reason: the swap is withdrawn and the new car free; another card then pays under the new swap id', async () => {
    const { token, subscriptionId } = await subscription('2029-06-10');
    const newCar = await plateOf(dearCar);
    await setClock('2029-06-20T10:00:00+09:00');
    await ctx.database.db.update(subscriptions).set({ billingKey: card('insufficient') }).where(eq(subscriptions.id, subscriptionId));
    // Month 1 runs 06-10 … 07-09 (30 days); 06-28 → 07-10 is 12 days: 300,000 × 12/30 = 120,000.
    const body = { date: '2029-06-28', car_id: newCar, quoted_adjustment: 120_000, quoted_fee: 1_500_000, price_consent: 1_500_000 };
    const declined = await ctx.call('POST', `/subscriptions/${subscriptionId}/swap`, { token, json: body });
    expect(declined.status).toBe(422);
    expect(declined.body.message).toMatch(/잔액/);
    expect((await swapsOf(subscriptionId)).map((s) => s.status)).toEqual(['CANCELLED']);
    expect((await ctx.database.db.select().from(subscriptions).where(eq(subscriptions.id, subscriptionId)))[0]).toMatchObject({ billingStatus: 'ACTIVE', endDate: '2030-06-09' });
    const quote = await ctx.call('GET', `/subscriptions/${subscriptionId}/swap?date=2029-06-28`, { token });
    expect(quote.body.data.cars.find((c) => c.id === newCar)!.taken_from).toBeNull();
    expect((await ctx.database.db.select().from(jobs).where(like(jobs.key, `notify:subscription.swapped:%`))).filter((j) => (j.payload as { subscriptionId: number }).subscriptionId === subscriptionId)).toEqual([]);

    await ctx.database.db.update(subscriptions).set({ billingKey: card() }).where(eq(subscriptions.id, subscriptionId));
    const paid = await ctx.call('POST', `/subscriptions/${subscriptionId}/swap`, { token, json: body });
    expect(paid.status).toBe(200);
    const live = (await swapsOf(subscriptionId)).find((s) => s.status === 'CONFIRMED')!;
    expect(paid.body.data.payment).toMatchObject({ id: `sub-${subscriptionId}-swap-${live.id}`, status: 'PAID', amount: 120_000 });
  });

  it('a cheaper car refunds the difference once from the prorated month payment; next month is charged the new fee', async () => {
    const { token, subscriptionId, requestId } = await subscription('2029-09-10');
    const newCar = await plateOf(cheapCar);
    await setClock('2029-09-20T10:00:00+09:00');
    // Month 1 runs 09-10 … 10-09 (30 days); 09-28 → 10-10 is 12 days: −300,000 × 12/30 = −120,000.
    const q = await ctx.call('GET', `/subscriptions/${subscriptionId}/swap?date=2029-09-28&car_id=${newCar}`, { token });
    expect(q.body.data.quote).toMatchObject({ adjustment: -120_000, arithmetic: '(월 900,000원 − 월 1,200,000원) × 12/30일 = 120,000원 환불' });
    const body = { date: '2029-09-28', car_id: newCar, quoted_adjustment: -120_000, quoted_fee: 900_000, price_consent: 900_000 };
    const [a, b] = await Promise.all([1, 2].map(() => ctx.call('POST', `/subscriptions/${subscriptionId}/swap`, { token, json: body })));
    for (const r of [a, b]) expect([200, 409]).toContain(r.status);
    const ok = [a, b].find((r) => r.status === 200)!;
    const [swap] = await swapsOf(subscriptionId);
    expect(ok.body.data).toMatchObject({ swap: { status: 'CONFIRMED', adjustment: -120_000 }, payment: null, refund: { amount: 120_000, status: 'SUCCEEDED' } });
    const again = await ctx.call('POST', `/subscriptions/${subscriptionId}/swap`, { token, json: body });
    expect(again.body.data).toEqual(ok.body.data);
    const refunds = await ctx.database.db.select().from(paymentRefunds).where(eq(paymentRefunds.key, `swap:refund:${swap.id}`));
    expect(refunds.map((r) => [r.paymentId, r.amount, r.status])).toEqual([[`subreq-${requestId}`, 120_000, 'SUCCEEDED']]);
    const [first] = await ctx.database.db.select().from(payments).where(eq(payments.id, `subreq-${requestId}`));
    expect([first.status, first.cancelledAmount]).toEqual(['PARTIAL_CANCELLED', 120_000]);
    expect(await ctx.database.db.select().from(paymentRefunds).where(eq(paymentRefunds.paymentId, `subreq-${requestId}`))).toHaveLength(1);
    expect(await swapCharges(subscriptionId)).toEqual([]);
    await setClock('2029-10-10T10:00:00+09:00');
    await runJobs();
    expect(await monthCharges(subscriptionId)).toEqual([[2, 900_000, 'PAID']]);
    // Early exit after the swap sums the remaining months at the new fee: 10 × 900,000 × 20% = 1,800,000.
    await setClock('2029-10-20T10:00:00+09:00');
    const exit = await ctx.call('GET', `/subscriptions/${subscriptionId}/early-exit?date=2029-11-01`, { token });
    expect(exit.body.data.quote).toMatchObject({ remaining_months: 10, monthly_fee: 900_000, fee: 1_800_000 });
  });

  it('equal fees move no money: applied at once; a swap month limit and the open swap are enforced', async () => {
    const { token, subscriptionId } = await subscription('2029-12-10');
    const newCar = await plateOf(sameCar);
    await setClock('2029-12-12T10:00:00+09:00');
    const res = await ctx.call('POST', `/subscriptions/${subscriptionId}/swap`, { token, json: { date: '2029-12-15', car_id: newCar, quoted_adjustment: 0, quoted_fee: 1_200_000, price_consent: 1_200_000 } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ swap: { status: 'CONFIRMED', adjustment: 0 }, payment: null, refund: null });
    expect(await swapCharges(subscriptionId)).toEqual([]);
    // 중도 해지 returns the new car: its day comes after the swap's.
    const before = await ctx.call('GET', `/subscriptions/${subscriptionId}/early-exit?date=2029-12-15`, { token });
    expect([before.status, before.body.message]).toEqual([422, '반납일은 차량 교체일(2029-12-15) 다음 날부터 선택해주세요.']);
    expect((await ctx.call('GET', `/subscriptions/${subscriptionId}/early-exit?date=2029-12-16`, { token })).status).toBe(200);
    // After the swap day, another swap in the same billing month (12-10 … 2030-01-09) is refused; the car held now is the new one.
    await setClock('2029-12-20T10:00:00+09:00');
    const list = await ctx.call('GET', `/subscriptions/${subscriptionId}/swap?date=2030-01-05`, { token });
    expect(list.status).toBe(422);
    expect(list.body.message).toContain('결제 월마다 1번까지');
    await setClock('2030-01-10T10:00:00+09:00');
    await runJobs();
    const next = await ctx.call('GET', `/subscriptions/${subscriptionId}/swap?date=2030-01-20`, { token });
    expect(next.status).toBe(200);
    expect(next.body.data.cars.some((c: { id: number }) => c.id === newCar)).toBe(false);
    const back = await ctx.call('POST', `/subscriptions/${subscriptionId}/swap`, { token, json: { date: '2030-01-20', car_id: newCar, quoted_adjustment: 0, quoted_fee: 1_200_000, price_consent: 1_200_000 } });
    expect([back.status, back.body.message]).toEqual([422, '지금 이용 중인 차량과 다른 차량을 선택해주세요.']);
    // 구독 연장 after the swap extends the car held at the end: the new car's terms (12 months only), not the order car's (1 and 12).
    await setClock('2030-11-01T10:00:00+09:00');
    const extension = await ctx.call('GET', `/subscriptions/${subscriptionId}/extension`, { token });
    expect(extension.status).toBe(200);
    expect(extension.body.data.choices.map((c: { months: number; monthly_fee: number }) => [c.months, c.monthly_fee])).toEqual([[12, 1_200_000]]);
  });

  it('two replicas confirming at once make one swap and one charge', async () => {
    const { token, subscriptionId } = await subscription('2030-02-10');
    const newCar = await plateOf(dearCar);
    const replica = await ctx.openReplicaApp();
    const other = replica.app;
    await setClock('2030-02-15T10:00:00+09:00');
    // Month 1 runs 02-10 … 03-09 (28 days); 02-20 → 03-10 is 18 days: 300,000 × 18/28 = 192,857 → 192,850.
    const body = JSON.stringify({ date: '2030-02-20', car_id: newCar, quoted_adjustment: 192_850, quoted_fee: 1_500_000, price_consent: 1_500_000 });
    const post = (app: typeof ctx.app) => app.request(`/subscriptions/${subscriptionId}/swap`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body });
    try {
      const answers = await Promise.all([post(ctx.app), post(other), post(ctx.app), post(other)]);
      for (const r of answers) expect([200, 409]).toContain(r.status);
      expect(answers.some((r) => r.status === 200)).toBe(true);
    } finally {
      await replica.close();
    }
    const swaps = await swapsOf(subscriptionId);
    expect(swaps.map((s) => s.status)).toEqual(['CONFIRMED']);
    expect((await swapCharges(subscriptionId)).map((p) => [p.status, p.amount])).toEqual([['PAID', 192_850]]);
    expect(await ctx.database.db.select().from(sandboxPayments).where(like(sandboxPayments.paymentId, `sub-${subscriptionId}-swap-%`))).toHaveLength(1);
  });

  it('another customer gets 404, no login 401; bad input is a Korean 400, never 500; overdue, exiting and late days are refused', async () => {
    const { token, subscriptionId } = await subscription('2030-05-10');
    const newCar = await plateOf(dearCar);
    await setClock('2030-05-12T10:00:00+09:00');
    const other = await customer(ctx);
    const body = { date: '2030-05-20', car_id: newCar, quoted_adjustment: 1, quoted_fee: 1, price_consent: 1 };
    expect((await ctx.call('GET', `/subscriptions/${subscriptionId}/swap`, { token: other.token })).status).toBe(404);
    expect((await ctx.call('POST', `/subscriptions/${subscriptionId}/swap`, { token: other.token, json: body })).status).toBe(404);
    expect((await ctx.call('POST', `/subscriptions/${subscriptionId}/swap`, { json: body })).status).toBe(401);
    expect((await ctx.call('GET', `/subscriptions/${subscriptionId}/swap`)).status).toBe(401);
    expect([401, 403, 404]).toContain((await ctx.call('GET', `/subscriptions/${subscriptionId}/swap`, { token: ADMIN })).status);
    expect((await ctx.app.request(`/subscriptions/${subscriptionId}/swaps/1/annex`, { headers: { authorization: `Bearer ${other.token}` } })).status).toBe(404);
    for (const q of ['date=soon', 'date=2030-02-30', 'car_id=abc', 'car_id=0', 'car_id=-1', 'car_id=99999999999999']) {
      const r = await ctx.call('GET', `/subscriptions/${subscriptionId}/swap?${q}`, { token });
      expect(r.status, q).toBe(400);
      expect(r.body.message).toMatch(/[가-힣]/);
    }
    for (const json of [{}, { date: '2030-05-20' }, { ...body, date: 'soon' }, { ...body, car_id: 'x' }, { ...body, quoted_adjustment: 1.5 }, { ...body, quoted_fee: -1 }, { ...body, quoted_adjustment: '1' }, [], null]) {
      const r = await ctx.call('POST', `/subscriptions/${subscriptionId}/swap`, { token, json });
      expect(r.status, JSON.stringify(json)).toBe(400);
      expect(r.body.message).toMatch(/[가-힣]/);
    }
    expect((await ctx.call('GET', '/subscriptions/abc/swap', { token })).status).toBe(400);
    expect((await ctx.call('GET', `/subscriptions/${subscriptionId}/swaps/abc/annex`, { token })).status).toBe(400);
    // Too soon, past the paid month, an unknown car: 422 in Korean.
    expect((await ctx.call('GET', `/subscriptions/${subscriptionId}/swap?date=2030-05-14`, { token })).body.message).toBe('교체일은 2030-05-15 이후로 선택해주세요.');
    expect((await ctx.call('GET', `/subscriptions/${subscriptionId}/swap?date=2030-06-10`, { token })).status).toBe(422);
    expect((await ctx.call('GET', `/subscriptions/${subscriptionId}/swap?date=2030-05-20&car_id=2147483647`, { token })).status).toBe(422);
    expect((await ctx.call('POST', `/subscriptions/${subscriptionId}/swap`, { token, json: { ...body, car_id: 2147483647 } })).status).toBe(422);
    await ctx.database.db.update(subscriptions).set({ billingStatus: 'OVERDUE' }).where(eq(subscriptions.id, subscriptionId));
    const overdue = await ctx.call('POST', `/subscriptions/${subscriptionId}/swap`, { token, json: body });
    expect([overdue.status, overdue.body.message]).toEqual([409, '연체된 요금을 먼저 결제해주세요.']);
    await ctx.database.db.update(subscriptions).set({ billingStatus: 'ACTIVE', exitDate: '2030-05-25' }).where(eq(subscriptions.id, subscriptionId));
    expect((await ctx.call('GET', `/subscriptions/${subscriptionId}/swap`, { token })).status).toBe(409);
    expect(await swapsOf(subscriptionId)).toEqual([]);
  });
});
