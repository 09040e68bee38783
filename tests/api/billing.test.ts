import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertButlerCar, insertModel, insertTestCar, upsertBrand } from '../../src/api/seed/factories';
import { auditLog, jobs, notificationMessages, paymentRefunds, payments, sandboxPayments } from '../../src/api/db/schema';
import { createClock } from '../../src/api/jobs/clock';
import { createPaymentProvider } from '../../src/api/billing/providers';
import type { PaymentProvider } from '../../src/api/payment-provider';
import { refundPayment } from '../../src/api/billing/refunds';
import { refundFollowUp } from '../../src/api/charge-outcomes';
import { TEST_ADMIN_TOKEN, testConfig } from '../../src/api/env';
import { issueSandboxBillingKey, sandboxWebhookSecret, type SandboxCard } from '../../src/api/billing/sandbox-provider';
import { signStandardWebhook } from '../../src/api/billing/webhook-signing';
import { anotherPlate, apiTools, couponUsed, createTestContext, customer, pointsOf, type TestContext } from './helpers';

let ctx: TestContext;
let carId: number;
let butlerCarId: number;
const ADMIN = TEST_ADMIN_TOKEN;
const STAFF_EMAIL = 'billing-staff@luxe.test';

beforeAll(async () => {
  // A staff address, so staff messages (staff.subscription_overdue) have someone to go to.
  ctx = await createTestContext({ notifications: { ...testConfig().notifications, staffEmails: [STAFF_EMAIL] } });
  ({ car: { id: carId } } = await insertTestCar(ctx.database.db, { fees: { subscription_fee_1: 900_000, subscription_fee_3: 800_000, subscription_fee_12: 555_000 } }));
  const brand = await upsertBrand(ctx.database.db, { name: '벤틀리', slug: 'bentley-billing' });
  const model = await insertModel(ctx.database.db, { brandId: brand.id, name: '플라잉스퍼' });
  ({ id: butlerCarId } = await insertButlerCar(ctx.database.db, model.id, { butlerFee: 800_000, butlerOvertimeFee: 100_000 }));
});
afterAll(() => ctx.close());

const { setClock, card, runJobs } = apiTools(() => ctx);
// One plate per order (issue 38: one car is not ordered twice for the same days).
const order = async (token: string, body: Record<string, unknown>) => ctx.call('POST', `/subscriptions/cars/${await anotherPlate(ctx, carId)}/request`, { token, json: body });
const confirm = (requestId: number, start: string) => ctx.call('POST', `/admin/subscription-requests/${requestId}/confirm`, { token: ADMIN, json: { start_date: start } });
const chargesOf = async (subscriptionId: number) =>
  (await ctx.database.db.select().from(payments).where(and(eq(payments.refType, 'subscription'), eq(payments.refId, subscriptionId)))).sort((a, b) => a.requestedAt.getTime() - b.requestedAt.getTime());

/** A confirmed subscription of `month` months starting on `start`, its first month paid with `c`. */
async function subscription(month: number, start: string, c: SandboxCard = 'approve') {
  const { user, token } = await customer(ctx);
  const req = await order(token, { month, billing_key: card(c === 'approve' ? 'approve' : 'approve') });
  expect(req.status).toBe(201);
  const sub = (await confirm(req.body.data.subscription_request.id, start)).body.data.subscription;
  return { user, token, requestId: req.body.data.subscription_request.id, subscriptionId: sub.id };
}

describe('the first month is charged with the request', () => {
  it('charges the final amount (after coupon and points) under our payment id, ignores a client-sent amount, and lists it', async () => {
    const { user, token, holdings } = await customer(ctx, 100_000, [{ discountType: 'FIXED', discount: 55_000 }]);
    const res = await order(token, { month: 12, coupon_id: holdings[0], point_amount: 100_000, billing_key: card(), amount: 1, final_fee: 1 });
    expect(res.status).toBe(201);
    const { subscription_request: r, payment } = res.body.data;
    expect(payment).toMatchObject({ id: `subreq-${r.id}`, status: 'PAID', amount: 400_000, purpose: 'SUBSCRIPTION_FIRST', receipt_url: expect.stringMatching(new RegExp(`^/api/sandbox/receipts/subreq-${r.id}\\?key=`)) });
    expect(r.payment).toMatchObject({ id: payment!.id, status: 'PAID' });
    const [remote] = await ctx.database.db.select().from(sandboxPayments).where(eq(sandboxPayments.paymentId, payment!.id));
    expect(remote).toMatchObject({ amount: 400_000, status: 'PAID' });
    const mine = (await ctx.call('GET', '/payments', { token })).body.data.payments;
    expect(mine).toEqual([expect.objectContaining({ id: payment!.id, status: 'PAID', amount: 400_000, receipt_url: payment!.receipt_url })]);
    expect((await ctx.call('GET', `/payments/${payment!.id}`, { token })).body.data.payment).toMatchObject({ id: payment!.id });
    // The receipt prints from the sandbox.
    const receipt = await ctx.app.request(payment!.receipt_url!.replace('/api', ''), { headers: { host: 'localhost' } });
    expect(receipt.status).toBe(200);
    expect(await receipt.text()).toMatch(/400,000원/);
    // Another user sees none of it.
    const other = await customer(ctx);
    expect((await ctx.call('GET', '/payments', { token: other.token })).body.data.payments).toEqual([]);
    expect((await ctx.call('GET', `/payments/${payment!.id}`, { token: other.token })).status).toBe(404);
    expect(await pointsOf(ctx, user.id)).toBe(0);
  });

  it('a declined card refuses the request with the reason in Korean and spends nothing; another card then succeeds', async () => {
    const { user, token, holdings } = await customer(ctx, 50_000, [{ discountType: 'FIXED', discount: 10_000 }]);
    const declined = card('decline-limit');
    const res = await order(token, { month: 12, coupon_id: holdings[0], point_amount: 50_000, billing_key: declined });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: 1202, message: '카드 한도가 초과되었습니다. 다른 카드로 결제해주세요.' });
    expect(await pointsOf(ctx, user.id)).toBe(50_000);
    expect(await couponUsed(ctx, holdings[0])).toBe(false);
    // The declined request stays in the list, read-only, with its declined payment (it was never received).
    expect((await ctx.call('GET', '/subscriptions/requests', { token })).body.data.subscription_requests).toEqual([expect.objectContaining({ status: 'CANCELLED', payment: expect.objectContaining({ status: 'FAILED' }) })]);
    const failed = (await ctx.call('GET', '/payments', { token })).body.data.payments;
    expect(failed).toEqual([expect.objectContaining({ status: 'FAILED', failure_reason: '카드 한도가 초과되었습니다. 다른 카드로 결제해주세요.' })]);
    for (const [c, reason] of [['decline-rejected', '카드사에서 결제를 거절했습니다'], ['insufficient', '잔액이 부족합니다']] as const) {
      const r = await order(token, { month: 12, billing_key: card(c) });
      expect([r.status, r.body.message]).toEqual([422, expect.stringContaining(reason)]);
    }
    const ok = await order(token, { month: 12, coupon_id: holdings[0], point_amount: 50_000, billing_key: card() });
    expect(ok.status).toBe(201);
    expect(ok.body.data.payment).toMatchObject({ status: 'PAID', amount: 495_000 });
  });

  it('a charge that outlasts the timeout is answered PENDING and settled by the reconcile job with the same payment id', async () => {
    const slow = await createTestContext({ payments: { ...ctx.config.payments, timeoutMs: 200, sandboxSlowMs: 600 } });
    try {
      const { insertTestCar: insert } = await import('../../src/api/seed/factories');
      const { car } = await insert(slow.database.db, { fees: { subscription_fee_1: 300_000 } });
      const { token } = await customer(slow);
      const res = await slow.call('POST', `/subscriptions/cars/${car.id}/request`, { token, json: { month: 1, billing_key: issueSandboxBillingKey(slow.config, 'slow') } });
      expect(res.status).toBe(201);
      expect(res.body.data.payment).toMatchObject({ status: 'PENDING', amount: 300_000 });
      await new Promise((r) => setTimeout(r, 800));
      await slow.call('POST', '/admin/test-clock', { token: ADMIN, json: { now: new Date(Date.now() + 5 * 60_000).toISOString() } });
      await slow.call('POST', '/admin/billing/run', { token: ADMIN });
      const payment = (await slow.call('GET', `/payments/${res.body.data.payment!.id}`, { token })).body.data.payment;
      expect(payment.status).toBe('PAID');
      expect(await slow.database.db.select().from(sandboxPayments)).toHaveLength(1);
    } finally {
      await slow.close();
    }
  });
});

describe('reconcile jobs', () => {
  it('a charge whose answer came back leaves no reconcile job; a refund whose answer is lost in a crash is settled from the provider by its own job', async () => {
    await setClock(new Date().toISOString());
    const { token } = await customer(ctx);
    const res = await order(token, { month: 12, billing_key: card() });
    const paymentId = res.body.data.payment!.id;
    const queuedJob = async (key: string) => (await ctx.database.db.select().from(jobs).where(and(eq(jobs.key, key), eq(jobs.status, 'queued')))).length;
    expect(await queuedJob(`reconcile:${paymentId}`)).toBe(0);

    // The provider refunds, then the process dies before the answer is recorded.
    const provider = createPaymentProvider(ctx.database.db, ctx.config);
    const crashing: PaymentProvider = { ...provider, cancel: async (req) => (await provider.cancel(req), new Promise<never>(() => {})) };
    void refundPayment({ db: ctx.database.db, payments: crashing, clock: createClock(), log: () => {}, refunded: refundFollowUp }, { paymentId, reason: '테스트', actor: 'system', key: `refund:crash:${paymentId}` });
    const refunded = async () => (await ctx.database.db.select().from(sandboxPayments).where(eq(sandboxPayments.paymentId, paymentId)))[0].cancelledAmount;
    for (let i = 0; i < 100 && (await refunded()) === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(await refunded()).toBe(555_000);
    expect((await ctx.call('GET', `/payments/${paymentId}`, { token })).body.data.payment.status).toBe('PAID');

    await setClock(new Date(Date.now() + 2 * 60_000).toISOString());
    await runJobs();
    expect((await ctx.call('GET', `/payments/${paymentId}`, { token })).body.data.payment.status).toBe('CANCELLED');
    const [refund] = await ctx.database.db.select().from(paymentRefunds).where(eq(paymentRefunds.key, `refund:crash:${paymentId}`));
    expect(refund).toMatchObject({ status: 'SUCCEEDED', amount: 555_000 });
  });
});

describe('monthly billing', () => {
  it('charges months 2…12 on the start’s day (31st → the month’s last day, Feb 29 in a leap year) and nothing after the term', async () => {
    await setClock('2027-12-01T00:00:00+09:00');
    const { subscriptionId, token } = await subscription(12, '2027-12-31');
    const dates: string[] = [];
    for (let day = Date.parse('2027-12-31T12:00:00+09:00'); day <= Date.parse('2029-02-28T12:00:00+09:00'); day += 86_400_000) {
      const iso = new Date(day).toISOString();
      // Runs only on days something can be due, and on month ends, to keep the test quick.
      const kst = new Date(day + 9 * 3600_000).toISOString().slice(0, 10);
      const last = new Date(Date.UTC(Number(kst.slice(0, 4)), Number(kst.slice(5, 7)), 0)).getUTCDate();
      if (Number(kst.slice(8)) !== last) continue;
      await setClock(iso);
      await runJobs();
      dates.push(kst);
    }
    const charges = await chargesOf(subscriptionId);
    expect(charges.map((c) => [c.id, c.status, c.amount])).toEqual(Array.from({ length: 11 }, (_, i) => [`sub-${subscriptionId}-m${i + 2}`, 'PAID', 555_000]));
    const days = charges.map((c) => new Date(c.requestedAt.getTime() + 9 * 3600_000).toISOString().slice(0, 10));
    expect(days).toEqual(['2028-01-31', '2028-02-29', '2028-03-31', '2028-04-30', '2028-05-31', '2028-06-30', '2028-07-31', '2028-08-31', '2028-09-30', '2028-10-31', '2028-11-30']);
    const [sub] = (await ctx.call('GET', '/subscriptions', { token })).body.data.subscriptions;
    expect(sub.billing).toMatchObject({ status: 'ACTIVE', paid_months: 12, term_months: 12, next_charge_date: null });
    expect(dates.length).toBeGreaterThan(13);
  });

  // The test above bills only on month ends, so a charge due early would still pass there. These
  // follow each month's job: due on the right day at 09:00 Korean time, nothing the day before, once on the day.
  it.each([
    ['2028-01-31', 'a leap year: February is charged on the 29th', ['2028-02-29', '2028-03-31', '2028-04-30', '2028-05-31', '2028-06-30', '2028-07-31', '2028-08-31', '2028-09-30', '2028-10-31', '2028-11-30', '2028-12-31']],
    ['2027-01-31', 'a common year: February is charged on the 28th', ['2027-02-28', '2027-03-31', '2027-04-30', '2027-05-31', '2027-06-30', '2027-07-31', '2027-08-31', '2027-09-30', '2027-10-31', '2027-11-30', '2027-12-31']],
  ])('a 12-month subscription starting %s (%s): each month’s job is due that day at 09:00 KST; the day before charges nothing, the day charges once', async (start, _, dues) => {
    await setClock(`${start}T08:00:00+09:00`);
    const { subscriptionId, token } = await subscription(12, start);
    const jobOf = async (month: number) => ctx.database.db.select().from(jobs).where(eq(jobs.key, `charge:sub:${subscriptionId}:m${month}`));
    const kstDay = (d: Date) => new Date(d.getTime() + 9 * 3600_000).toISOString().slice(0, 10);
    for (const [i, due] of dues.entries()) {
      const month = i + 2;
      const [job] = await jobOf(month);
      expect([month, job?.kind, job?.status, job?.runAt.toISOString()]).toEqual([month, 'charge-month', 'queued', new Date(`${due}T09:00:00+09:00`).toISOString()]);
      const billing = (await ctx.call('GET', '/subscriptions', { token })).body.data.subscriptions.find((s) => s.id === subscriptionId)!.billing;
      expect([month, billing.next_charge_date, billing.paid_months]).toEqual([month, due, month - 1]);
      // The last minute of the day before (Korean time): nothing is charged.
      const dayBefore = new Date(Date.parse(`${due}T00:00:00+09:00`) - 60_000).toISOString();
      await setClock(dayBefore);
      await runJobs();
      expect([month, (await chargesOf(subscriptionId)).length]).toEqual([month, month - 2]);
      // The due day at 09:00, and again later that day: charged once.
      await setClock(`${due}T09:00:00+09:00`);
      await runJobs();
      await setClock(`${due}T23:00:00+09:00`);
      await runJobs();
      const charges = await chargesOf(subscriptionId);
      expect(charges.map((c) => [c.id, c.status, kstDay(c.requestedAt)])).toEqual(dues.slice(0, i + 1).map((d, j) => [`sub-${subscriptionId}-m${j + 2}`, 'PAID', d]));
      expect((await jobOf(month))[0]).toMatchObject({ status: 'done' });
    }
    // The term is paid: no month 13 is scheduled, and a month later nothing more is charged.
    expect(await jobOf(13)).toEqual([]);
    await setClock(`${Number(start.slice(0, 4)) + 1}-02-28T12:00:00+09:00`);
    await runJobs();
    expect(await chargesOf(subscriptionId)).toHaveLength(11);
    const [sub] = (await ctx.call('GET', '/subscriptions', { token })).body.data.subscriptions.filter((s: { id: number }) => s.id === subscriptionId);
    expect(sub.billing).toMatchObject({ status: 'ACTIVE', paid_months: 12, next_charge_date: null });
  });

  it('two replicas with 20 concurrent billing runs charge each due month once', async () => {
    await setClock('2030-01-01T12:00:00+09:00');
    const subs = [];
    for (let i = 0; i < 6; i++) subs.push(await subscription(3, '2030-01-01'));
    const replica = await ctx.openReplicaApp();
    const other = replica.app;
    const call = async (app: typeof ctx.app) => await app.request('/admin/billing/run', { method: 'POST', headers: { authorization: `Bearer ${ADMIN}` } });
    await setClock('2030-02-01T12:00:00+09:00');
    try {
      const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => call(i % 2 ? other : ctx.app)));
      expect(answers.every((a) => a.status === 200)).toBe(true);
    } finally {
      await replica.close();
    }
    for (const s of subs) {
      const charges = await chargesOf(s.subscriptionId);
      expect(charges.map((c) => [c.id, c.status])).toEqual([[`sub-${s.subscriptionId}-m2`, 'PAID']]);
      expect(await ctx.database.db.select().from(sandboxPayments).where(eq(sandboxPayments.paymentId, `sub-${s.subscriptionId}-m2`))).toHaveLength(1);
    }
  });

  it('a declined month is retried 1, 3 and 7 days later, then overdue; the customer pays with another card and billing goes on', async () => {
    await setClock('2031-01-10T12:00:00+09:00');
    const { subscriptionId, token, requestId } = await subscription(3, '2031-01-10');
    // The card on file starts declining: staff see it through the provider; here the subscription's key is swapped for a declining one.
    const { subscriptions } = await import('../../src/api/db/schema');
    await ctx.database.db.update(subscriptions).set({ billingKey: card('insufficient') }).where(eq(subscriptions.id, subscriptionId));
    const step = async (iso: string) => {
      await setClock(iso);
      await runJobs();
      return (await ctx.call('GET', '/subscriptions', { token })).body.data.subscriptions.find((s) => s.id === subscriptionId)!.billing;
    };
    expect(await step('2031-02-10T12:00:00+09:00')).toMatchObject({ status: 'PAST_DUE', retry_date: '2031-02-11', failed_payment: { id: `sub-${subscriptionId}-m2`, failure_reason: expect.stringContaining('잔액') } });
    expect(await step('2031-02-11T12:00:00+09:00')).toMatchObject({ status: 'PAST_DUE', retry_date: '2031-02-13' });
    expect(await step('2031-02-12T12:00:00+09:00')).toMatchObject({ status: 'PAST_DUE', retry_date: '2031-02-13' });
    expect(await step('2031-02-13T12:00:00+09:00')).toMatchObject({ status: 'PAST_DUE', retry_date: '2031-02-17' });
    const overdue = await step('2031-02-17T12:00:00+09:00');
    expect(overdue).toMatchObject({ status: 'OVERDUE', retry_date: null, failed_payment: { id: `sub-${subscriptionId}-m2-r3` } });
    expect((await chargesOf(subscriptionId)).map((c) => c.status)).toEqual(['FAILED', 'FAILED', 'FAILED', 'FAILED']);
    const staff = (await ctx.call('GET', '/admin/subscriptions/overdue', { token: ADMIN })).body.data.subscriptions;
    expect(staff).toEqual(expect.arrayContaining([expect.objectContaining({ id: subscriptionId, billing_status: 'OVERDUE', month: 2, failures: 4 })]));
    // Each declined attempt told the customer (the billing run sends the notify jobs it causes):
    // the reason and the retry date, and after the last one that automatic retries are over.
    const m2 = `sub-${subscriptionId}-m2`;
    const told = [
      [m2, '2031.02.11에 같은 카드로 다시 결제를 시도합니다.'],
      [`${m2}-r1`, '2031.02.13에 같은 카드로 다시 결제를 시도합니다.'],
      [`${m2}-r2`, '2031.02.17에 같은 카드로 다시 결제를 시도합니다.'],
      [`${m2}-r3`, '자동 재시도가 끝났습니다. 카드를 변경해 결제해주세요.'],
    ];
    const failedMessages = await ctx.database.db
      .select()
      .from(notificationMessages)
      .where(inArray(notificationMessages.key, told.map(([id]) => `payment.failed:${id}`)));
    for (const [id, retry] of told) {
      const mine = failedMessages.filter((m) => m.key === `payment.failed:${id}`);
      expect(mine.length, `payment.failed for ${id}`).toBeGreaterThan(0);
      for (const m of mine) {
        expect(m).toMatchObject({ event: 'payment.failed', subject: '[LUXE] 결제 실패 안내' });
        expect(m.text).toContain('잔액');
        expect(m.text).toContain(retry);
      }
    }
    // Only the last failure made it overdue, and staff were told once.
    const overdueMessages = await ctx.database.db.select().from(notificationMessages).where(eq(notificationMessages.event, 'staff.subscription_overdue'));
    expect(overdueMessages.filter((m) => m.key === `staff.subscription_overdue:${subscriptionId}:2`)).toEqual([
      expect.objectContaining({ userId: null, channel: 'email', to: STAFF_EMAIL, subject: `[LUXE 운영] 구독 #${subscriptionId} 연체` }),
    ]);
    expect(overdueMessages.filter((m) => m.key.startsWith(`staff.subscription_overdue:${subscriptionId}:`))).toHaveLength(1);
    // The alert names the month and what is owed, not only that it is overdue.
    const alert = overdueMessages.find((m) => m.key === `staff.subscription_overdue:${subscriptionId}:2`)!;
    expect(alert.text).toContain('2개월 차 요금 800,000원이 마지막 재시도까지 결제되지 않았습니다.');
    expect(alert.text).toMatch(/미납 회차: 2개월 차 \(\d{4}\.\d{2}\.\d{2} 청구분\)/);
    // The customer pays with a new card.
    const paid = await ctx.call('POST', `/subscriptions/${subscriptionId}/pay`, { token, json: { billing_key: card() } });
    expect(paid.status).toBe(200);
    expect(paid.body.data.payment).toMatchObject({ id: `sub-${subscriptionId}-m2-r4`, status: 'PAID', amount: 800_000 });
    expect(await step('2031-02-20T12:00:00+09:00')).toMatchObject({ status: 'ACTIVE', paid_months: 2, next_charge_date: '2031-03-10' });
    expect(await step('2031-03-10T12:00:00+09:00')).toMatchObject({ status: 'ACTIVE', paid_months: 3, next_charge_date: null });
    expect((await ctx.call('POST', `/subscriptions/${subscriptionId}/pay`, { token, json: {} })).status).toBe(409);
    // Another user cannot pay (or see) it.
    const other = await customer(ctx);
    expect((await ctx.call('POST', `/subscriptions/${subscriptionId}/pay`, { token: other.token, json: {} })).status).toBe(404);
    expect(requestId).toBeGreaterThan(0);
  });

  it('해지 (staff switch off) drops the future charges; the paid month is kept', async () => {
    await setClock('2032-01-05T12:00:00+09:00');
    const { subscriptionId } = await subscription(12, '2032-01-05');
    const off = await ctx.call('PATCH', `/admin/subscriptions/${subscriptionId}`, { token: ADMIN, json: { is_active: false } });
    expect(off.body.data.subscription).toMatchObject({ is_active: false, billing_status: 'CANCELLED' });
    await setClock('2032-03-05T12:00:00+09:00');
    await runJobs();
    expect(await chargesOf(subscriptionId)).toEqual([]);
    const queued = await ctx.database.db.select().from(jobs).where(eq(jobs.key, `charge:sub:${subscriptionId}:m2`));
    expect(queued).toEqual([]);
  });
});

describe('refunds', () => {
  it('cancelling a pending request refunds the first charge in full and restores the coupon and points', async () => {
    const { user, token, holdings } = await customer(ctx, 30_000, [{ discountType: 'FIXED', discount: 5_000 }]);
    const r = (await order(token, { month: 12, coupon_id: holdings[0], point_amount: 30_000, billing_key: card() })).body.data;
    expect(r.payment!.amount).toBe(520_000);
    const del = await ctx.call('DELETE', `/subscriptions/requests/${r.subscription_request.id}`, { token });
    expect(del.body.data).toEqual({ id: r.subscription_request.id, refunded_points: 30_000, coupon_returned: true, refunded_amount: 520_000 });
    expect(await pointsOf(ctx, user.id)).toBe(30_000);
    expect(await couponUsed(ctx, holdings[0])).toBe(false);
    const mine = (await ctx.call('GET', '/payments', { token })).body.data;
    expect(mine.payments[0]).toMatchObject({ status: 'CANCELLED', refunded_amount: 520_000 });
    expect(mine.refunds).toEqual([expect.objectContaining({ payment_id: r.payment!.id, amount: 520_000, status: 'SUCCEEDED' })]);
    const [remote] = await ctx.database.db.select().from(sandboxPayments).where(eq(sandboxPayments.paymentId, r.payment!.id));
    expect(remote).toMatchObject({ status: 'CANCELLED', cancelledAmount: 520_000 });
  });

  it('a butler cancel refunds by the policy: all until 24 h before, half after, nothing once started', async () => {
    const book = async (token: string, startIso: string) =>
      (await ctx.call('POST', `/butlers/cars/${butlerCarId}/request`, { token, json: { start_at: startIso, end_at: null, start_location: '청담', end_location: '인천공항', way_point_requests: [], passenger_count: 2, billing_key: card() } })).body.data;
    const cancel = (token: string, id: number) => ctx.call('DELETE', `/butlers/requests/${id}`, { token });
    const { token } = await customer(ctx);
    await setClock(new Date().toISOString());
    const far = await book(token, new Date(Date.now() + 3 * 86_400_000).toISOString());
    expect(far.payment).toMatchObject({ status: 'PAID', amount: 800_000 });
    expect((await cancel(token, far.butler_request.id)).body.data).toMatchObject({ refunded_amount: 800_000, refund_percent: 100 });
    const soon = await book(token, new Date(Date.now() + 10 * 86_400_000).toISOString());
    await setClock(new Date(Date.now() + 10 * 86_400_000 - 3 * 3600_000).toISOString());
    expect((await cancel(token, soon.butler_request.id)).body.data).toMatchObject({ refunded_amount: 400_000, refund_percent: 50 });
    await setClock(new Date().toISOString());
    const started = await book(token, new Date(Date.now() + 20 * 86_400_000).toISOString());
    await setClock(new Date(Date.now() + 20 * 86_400_000 + 3600_000).toISOString());
    expect((await cancel(token, started.butler_request.id)).body.data).toMatchObject({ refunded_amount: 0, refund_percent: 0 });
    await ctx.call('POST', '/admin/test-clock', { token: ADMIN, json: {} });
  });

  it('staff refund part of a payment with a reason (audited); the customer sees 부분 환불 then the rest', async () => {
    const { token } = await customer(ctx);
    const { payment } = (await order(token, { month: 1, billing_key: card() })).body.data;
    const part = await ctx.call('POST', `/admin/payments/${payment!.id}/refund`, { token: ADMIN, json: { amount: 100_000, reason: '차량 인도 지연 보상' } });
    expect(part.status).toBe(200);
    expect(part.body.data.payment).toMatchObject({ status: 'PARTIAL_CANCELLED', refunded_amount: 100_000 });
    expect((await ctx.call('POST', `/admin/payments/${payment!.id}/refund`, { token: ADMIN, json: { amount: 900_000, reason: '초과' } })).status).toBe(422);
    expect((await ctx.call('POST', `/admin/payments/${payment!.id}/refund`, { token: ADMIN, json: { reason: '' } })).status).toBe(400);
    const rest = await ctx.call('POST', `/admin/payments/${payment!.id}/refund`, { token: ADMIN, json: { reason: '신청 취소 합의' } });
    expect(rest.body.data.payment).toMatchObject({ status: 'CANCELLED', refunded_amount: 900_000 });
    const audits = await ctx.database.db.select().from(auditLog).where(and(eq(auditLog.entity, 'payment'), eq(auditLog.entityId, payment!.id)));
    expect(audits.map((a) => (a.after as { reason: string }).reason)).toEqual(['차량 인도 지연 보상', '신청 취소 합의']);
    const mine = (await ctx.call('GET', `/payments/${payment!.id}`, { token })).body.data;
    expect(mine.payment.status).toBe('CANCELLED');
    expect(mine.refunds.map((r: { amount: number }) => r.amount)).toEqual([100_000, 800_000]);
  });
});

describe('POST /payments/webhook', () => {
  const post = (body: string, headers: Record<string, string>) => ctx.app.request('/payments/webhook', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });

  it('refuses a bad signature with 401 and changes nothing', async () => {
    const body = JSON.stringify({ type: 'Transaction.Cancelled', timestamp: new Date().toISOString(), data: { paymentId: 'subreq-1' } });
    const forged = signStandardWebhook('whsec_' + Buffer.from('another secret').toString('base64'), 'wh-forged', body);
    expect((await post(body, forged)).status).toBe(401);
    expect((await post(body, {})).status).toBe(401);
    const old = signStandardWebhook(sandboxWebhookSecret(ctx.config), 'wh-old', body, Math.floor(Date.now() / 1000) - 3600);
    expect((await post(body, old)).status).toBe(401);
  });

  it('a payment cancelled in the provider console shows as cancelled here; a replayed webhook changes nothing', async () => {
    const { token } = await customer(ctx);
    const { payment } = (await order(token, { month: 1, billing_key: card() })).body.data;
    const res = await ctx.app.request(`/sandbox/console/payments/${payment!.id}/cancel`, { method: 'POST', headers: { host: 'localhost' } });
    expect(res.status).toBe(303);
    const mine = (await ctx.call('GET', `/payments/${payment!.id}`, { token })).body.data;
    expect(mine.payment).toMatchObject({ status: 'CANCELLED', refunded_amount: 900_000 });
    expect(mine.refunds).toEqual([expect.objectContaining({ amount: 900_000, reason: '결제사에서 취소됨' })]);
    const body = JSON.stringify({ type: 'Transaction.Cancelled', timestamp: new Date().toISOString(), data: { paymentId: payment!.id } });
    const signed = signStandardWebhook(sandboxWebhookSecret(ctx.config), 'wh-replay', body);
    expect((await (await post(body, signed)).json()).data).toEqual({ duplicate: false });
    expect((await (await post(body, signed)).json()).data).toEqual({ duplicate: true });
    expect((await ctx.call('GET', `/payments/${payment!.id}`, { token })).body.data.refunds).toHaveLength(1);
  });
});

describe('test fixtures', () => {
  it('the clock and the billing run exist only with TEST_FIXTURES on', async () => {
    const off = await createTestContext({ testFixtures: false });
    try {
      expect((await off.call('POST', '/admin/test-clock', { token: ADMIN, json: { now: '2030-01-01T00:00:00Z' } })).status).toBe(404);
      expect((await off.call('POST', '/admin/billing/run', { token: ADMIN })).status).toBe(404);
      expect((await off.call('POST', '/admin/test-users', { token: ADMIN, json: {} })).status).toBe(404);
    } finally {
      await off.close();
    }
  });
});
