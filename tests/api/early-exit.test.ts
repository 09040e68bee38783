import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertTestCar } from '../../src/api/seed/factories';
import { auditLog, jobs, payments, sandboxPayments, subscriptionExitDocuments, subscriptions } from '../../src/api/db/schema';
import { TEST_ADMIN_TOKEN } from '../../src/api/env';
import { anotherPlate, apiTools, createTestContext, customer, type TestContext } from './helpers';
import { pdfText } from '../pdf-text';

let ctx: TestContext;
let carId: number;
const ADMIN = TEST_ADMIN_TOKEN;

beforeAll(async () => {
  ctx = await createTestContext();
  ({ car: { id: carId } } = await insertTestCar(ctx.database.db, { fees: { subscription_fee_1: 900_000, subscription_fee_3: 800_000, subscription_fee_12: 555_000 } }));
});
afterAll(() => ctx.close());

const { setClock, card } = apiTools(() => ctx);
const chargesOf = async (subscriptionId: number) =>
  (await ctx.database.db.select().from(payments).where(and(eq(payments.refType, 'subscription'), eq(payments.refId, subscriptionId)))).sort((a, b) => a.id.localeCompare(b.id));

/** A confirmed 12-month subscription starting on `start` (the clock set to that morning). */
async function subscription(start: string) {
  await setClock(`${start}T08:00:00+09:00`);
  const { user, token } = await customer(ctx);
  const req = await ctx.call('POST', `/subscriptions/cars/${await anotherPlate(ctx, carId)}/request`, { token, json: { month: 12, billing_key: card() } });
  expect(req.status).toBe(201);
  const sub = (await ctx.call('POST', `/admin/subscription-requests/${req.body.data.subscription_request.id}/confirm`, { token: ADMIN, json: { start_date: start } })).body.data.subscription;
  return { user, token, subscriptionId: sub.id };
}

describe('중도 해지 (early exit)', () => {
  it('quotes by the rule, charges once under two concurrent confirms, ends the subscription and cancels the later charges', async () => {
    const { token, subscriptionId } = await subscription('2029-03-10');
    await setClock('2029-03-20T10:00:00+09:00');
    // Month 1 runs 3/10–4/09: a return on 4/05 leaves 11 months; 11 × 555,000 × 20% = 1,221,000.
    const quote = await ctx.call('GET', `/subscriptions/${subscriptionId}/early-exit?date=2029-04-05`, { token });
    expect(quote.status).toBe(200);
    expect(quote.body.data).toEqual({
      quote: { exit_date: '2029-04-05', exit_month: 1, term_months: 12, remaining_months: 11, monthly_fee: 555_000, percent: 20, fee: 1_221_000 },
      earliest: '2029-03-23', latest: '2029-04-09',
    });
    // Without a day: only the days one can choose.
    expect((await ctx.call('GET', `/subscriptions/${subscriptionId}/early-exit`, { token })).body.data).toEqual({ quote: null, earliest: '2029-03-23', latest: '2029-04-09' });
    // Too soon, past the paid month, bad input: Korean 422 / 400, never 500.
    expect((await ctx.call('GET', `/subscriptions/${subscriptionId}/early-exit?date=2029-03-22`, { token })).status).toBe(422);
    expect((await ctx.call('GET', `/subscriptions/${subscriptionId}/early-exit?date=2029-04-10`, { token })).status).toBe(422);
    const bad = await ctx.call('GET', `/subscriptions/${subscriptionId}/early-exit?date=soon`, { token });
    expect(bad.status).toBe(400);

    const [a, b] = await Promise.all([
      ctx.call('POST', `/subscriptions/${subscriptionId}/early-exit`, { token, json: { date: '2029-04-05' } }),
      ctx.call('POST', `/subscriptions/${subscriptionId}/early-exit`, { token, json: { date: '2029-04-05' } }),
    ]);
    const answers = [a, b].filter((r) => r.status === 200);
    expect(answers.length).toBeGreaterThanOrEqual(1);
    // A click that met the charge still in flight is told so (409), never a second charge or a 500.
    for (const r of [a, b]) expect([200, 409]).toContain(r.status);
    for (const r of answers) {
      expect(r.body.data.early_exit).toMatchObject({ end_date: '2029-04-05', billing_status: 'CANCELLED', quote: { remaining_months: 11, fee: 1_221_000 }, payment: { id: `sub-${subscriptionId}-exit`, status: 'PAID', amount: 1_221_000, purpose: 'SUBSCRIPTION_EARLY_EXIT' } });
    }
    // A repeat (double click after the fact) answers the same and charges nothing more.
    const again = await ctx.call('POST', `/subscriptions/${subscriptionId}/early-exit`, { token, json: { date: '2029-04-06' } });
    expect(again.status).toBe(200);
    expect(again.body.data.early_exit).toEqual(answers[0].body.data.early_exit);
    const exits = (await chargesOf(subscriptionId)).filter((p) => p.purpose === 'SUBSCRIPTION_EARLY_EXIT');
    expect(exits.map((p) => [p.id, p.status, p.amount])).toEqual([[`sub-${subscriptionId}-exit`, 'PAID', 1_221_000]]);
    expect(await ctx.database.db.select().from(sandboxPayments).where(eq(sandboxPayments.paymentId, `sub-${subscriptionId}-exit`))).toHaveLength(1);

    // The subscription ends on the return day; month 2's charge is gone and the later months are never charged.
    const [row] = await ctx.database.db.select().from(subscriptions).where(eq(subscriptions.id, subscriptionId));
    expect(row).toMatchObject({ endDate: '2029-04-05', billingStatus: 'CANCELLED' });
    expect(await ctx.database.db.select().from(jobs).where(and(eq(jobs.key, `charge:sub:${subscriptionId}:m2`), eq(jobs.status, 'queued')))).toEqual([]);
    await setClock('2029-06-15T12:00:00+09:00');
    expect((await ctx.call('POST', '/admin/billing/run', { token: ADMIN })).status).toBe(200);
    expect((await chargesOf(subscriptionId)).filter((p) => p.purpose === 'SUBSCRIPTION_MONTH')).toEqual([]);
    // Audited, and the customer's message shows the arithmetic.
    const audits = await ctx.database.db.select().from(auditLog).where(and(eq(auditLog.entity, 'subscription'), eq(auditLog.entityId, String(subscriptionId))));
    expect(audits).toHaveLength(1);
    const notify = await ctx.database.db.select().from(jobs).where(eq(jobs.key, `notify:subscription.early_exit:${subscriptionId}`));
    expect(notify).toHaveLength(1);
    expect(notify[0].payload).toMatchObject({ remainingMonths: 11, monthlyFee: 555_000, percent: 20, fee: 1_221_000, exitDate: '2029-04-05' });
    // Staff see it in the console's list: 해지, ending on the return day.
    const desk = (await ctx.call('GET', '/admin/subscription-requests', { token: ADMIN })).body.data.requests;
    expect(desk.find((r: { subscription: { id: number } | null }) => r.subscription?.id === subscriptionId)!.subscription).toEqual({ id: subscriptionId, end_date: '2029-04-05', billing_status: 'CANCELLED', exit_date: '2029-04-05' });
    const mine = (await ctx.call('GET', '/subscriptions', { token })).body.data.subscriptions[0];
    expect(mine).toMatchObject({ end_date: '2029-04-05', billing: { status: 'CANCELLED' } });
  });

  it('issues a 중도 해지 확인서 once: the seller, the return day, the arithmetic and the payment; the owner\'s only (issue 49)', async () => {
    const { token, subscriptionId } = await subscription('2029-11-10');
    const path = `/subscriptions/${subscriptionId}/early-exit/document` as const;
    // Before the exit there is none.
    expect((await ctx.call('GET', path, { token })).status).toBe(404);
    await setClock('2029-12-01T10:00:00+09:00');
    expect((await ctx.call('POST', `/subscriptions/${subscriptionId}/early-exit`, { token, json: { date: '2029-12-05' } })).status).toBe(200);
    const get = async (t?: string) => {
      const res = await ctx.app.request(path, { headers: t ? { authorization: `Bearer ${t}` } : {} });
      return { status: res.status, type: res.headers.get('content-type'), sha: res.headers.get('x-content-sha256'), disposition: res.headers.get('content-disposition'), bytes: new Uint8Array(await res.arrayBuffer()) };
    };
    const first = await get(token);
    expect(first).toMatchObject({ status: 200, type: 'application/pdf' });
    expect(first.sha).toBe(createHash('sha256').update(first.bytes).digest('hex'));
    expect(first.disposition).toMatch(/LUXE-S-\d{6}-X01\.pdf/);
    const text = await pdfText(first.bytes);
    for (const s of ['자동차 구독 중도 해지 확인서', '사업자등록번호', ctx.config.company.businessNumber, '대표자', '2029.12.05', '남은 11개월 × 월 555,000원 × 20% = 1,221,000원', `sub-${subscriptionId}-exit`, '반납 정산']) expect(text).toContain(s);
    // Issued once: the same bytes later, whatever the clock says; stored unchangeable.
    await setClock('2030-01-15T10:00:00+09:00');
    const later = await get(token);
    expect(later.sha).toBe(first.sha);
    expect(await ctx.database.db.select({ id: subscriptionExitDocuments.id }).from(subscriptionExitDocuments).where(eq(subscriptionExitDocuments.subscriptionId, subscriptionId))).toHaveLength(1);
    await expect(ctx.database.db.delete(subscriptionExitDocuments).where(eq(subscriptionExitDocuments.subscriptionId, subscriptionId))).rejects.toThrow();
    // Another customer 404, no login 401, a bad id 400.
    const other = await customer(ctx);
    expect((await get(other.token)).status).toBe(404);
    expect((await get()).status).toBe(401);
    expect((await ctx.call('GET', '/subscriptions/abc/early-exit/document', { token })).status).toBe(400);
  });

  it('a declined card answers 422 in Korean and changes nothing; another card then pays under a new attempt id', async () => {
    const { token, subscriptionId } = await subscription('2029-05-10');
    await setClock('2029-05-12T10:00:00+09:00');
    await ctx.database.db.update(subscriptions).set({ billingKey: card('insufficient') }).where(eq(subscriptions.id, subscriptionId));
    const declined = await ctx.call('POST', `/subscriptions/${subscriptionId}/early-exit`, { token, json: { date: '2029-05-20' } });
    expect(declined.status).toBe(422);
    expect(declined.body.message).toMatch(/잔액/);
    const [row] = await ctx.database.db.select().from(subscriptions).where(eq(subscriptions.id, subscriptionId));
    expect(row).toMatchObject({ endDate: '2030-05-09', billingStatus: 'ACTIVE', exitDate: null });
    expect(await ctx.database.db.select().from(jobs).where(and(eq(jobs.key, `charge:sub:${subscriptionId}:m2`), eq(jobs.status, 'queued')))).toHaveLength(1);
    await ctx.database.db.update(subscriptions).set({ billingKey: card() }).where(eq(subscriptions.id, subscriptionId));
    const paid = await ctx.call('POST', `/subscriptions/${subscriptionId}/early-exit`, { token, json: { date: '2029-05-20' } });
    expect(paid.status).toBe(200);
    expect(paid.body.data.early_exit.payment).toMatchObject({ id: `sub-${subscriptionId}-exit-r1`, status: 'PAID' });
  });

  it('in the last billing month nothing remains: no charge, the exit applies at once', async () => {
    const { token, subscriptionId } = await subscription('2029-09-10');
    await ctx.database.db.update(subscriptions).set({ paidMonths: 12 }).where(eq(subscriptions.id, subscriptionId));
    await setClock('2030-08-20T10:00:00+09:00');
    const res = await ctx.call('POST', `/subscriptions/${subscriptionId}/early-exit`, { token, json: { date: '2030-09-01' } });
    expect(res.status).toBe(200);
    expect(res.body.data.early_exit).toMatchObject({ end_date: '2030-09-01', billing_status: 'CANCELLED', payment: null, quote: { exit_month: 12, remaining_months: 0, fee: 0 } });
    expect((await chargesOf(subscriptionId)).filter((p) => p.purpose === 'SUBSCRIPTION_EARLY_EXIT')).toEqual([]);
  });

  it('another customer gets 404, no login 401; overdue is refused with 409 until paid', async () => {
    const { token, subscriptionId } = await subscription('2029-07-10');
    await setClock('2029-07-12T10:00:00+09:00');
    const other = await customer(ctx);
    expect((await ctx.call('GET', `/subscriptions/${subscriptionId}/early-exit?date=2029-07-20`, { token: other.token })).status).toBe(404);
    expect((await ctx.call('POST', `/subscriptions/${subscriptionId}/early-exit`, { token: other.token, json: { date: '2029-07-20' } })).status).toBe(404);
    expect((await ctx.call('POST', `/subscriptions/${subscriptionId}/early-exit`, { json: { date: '2029-07-20' } })).status).toBe(401);
    await ctx.database.db.update(subscriptions).set({ billingStatus: 'OVERDUE' }).where(eq(subscriptions.id, subscriptionId));
    const overdue = await ctx.call('POST', `/subscriptions/${subscriptionId}/early-exit`, { token, json: { date: '2029-07-20' } });
    expect([overdue.status, overdue.body.message]).toEqual([409, '연체된 요금을 먼저 결제해주세요.']);
    expect((await ctx.call('GET', `/subscriptions/${subscriptionId}/early-exit`, { token })).status).toBe(409);
    expect(await chargesOf(subscriptionId)).toEqual([]);
  });
});
