import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { insertTestCar } from '../../src/api/seed/factories';
import { jobs, paymentRefunds, payments, subscriptions } from '../../src/api/db/schema';
import { TEST_ADMIN_TOKEN, testConfig, type Config } from '../../src/api/env';
import { createPaymentProvider } from '../../src/api/billing/providers';
import { portoneProvider } from '../../src/api/billing/portone-provider';
import { WebhookRejected } from '../../src/api/payment-provider';
import { signStandardWebhook } from '../../src/api/billing/webhook-signing';
import { anotherPlate, apiTools, createTestContext, customer, type TestContext } from './helpers';

/**
 * The PortOne provider against a fake PortOne V2 REST API: the SDK calls the global fetch, which
 * is stubbed here with a small in-memory PortOne (billing keys, payments, cancellations) whose
 * answers a test can replace (a decline, an outage, a charge that went through but whose answer
 * was lost).
 */

const API = 'https://portone.test';
const WEBHOOK_SECRET = `whsec_${Buffer.from('portone-webhook-secret-for-tests').toString('base64')}`;
const portone: Config['portone'] = { storeId: 'store-1', apiSecret: 'secret-1', apiBaseUrl: API, configured: true, webhookSecret: WEBHOOK_SECRET };
const ADMIN = TEST_ADMIN_TOKEN;

interface RemotePayment {
  status: 'PAID' | 'CANCELLED' | 'PARTIAL_CANCELLED' | 'FAILED';
  total: number;
  cancelled: number;
  pgTxId: string;
  paidAt: string;
}
interface Call {
  method: string;
  path: string;
  auth: string | null;
  body: Record<string, unknown> | null;
}
type Answer = Response | Promise<Response>;

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function fakePortOne() {
  const remote = new Map<string, RemotePayment>();
  const calls: Call[] = [];
  const fake = {
    remote,
    calls,
    /** The answer to POST /payments/{id}/billing-key; the default charges (once per id, as PortOne does). */
    charge: (id: string, body: Record<string, unknown>): Answer => fake.pay(id, body),
    /** The default charge: records the payment as PAID and answers it, or ALREADY_PAID for an id charged before. */
    pay(id: string, body: Record<string, unknown>): Response {
      if (remote.has(id)) return json(409, { type: 'ALREADY_PAID', message: 'already paid' });
      const total = (body.amount as { total: number }).total;
      const p: RemotePayment = { status: 'PAID', total, cancelled: 0, pgTxId: `pg-${id}`, paidAt: '2030-01-01T00:00:00Z' };
      remote.set(id, p);
      return json(200, { payment: { pgTxId: p.pgTxId, paidAt: p.paidAt } });
    },
    /** Payment ids sent to POST /payments/{id}/billing-key, in order. */
    charged: () => calls.filter((c) => c.method === 'POST' && c.path.endsWith('/billing-key')).map((c) => decodeURIComponent(c.path.split('/')[2])),
    install() {
      const real = globalThis.fetch;
      vi.stubGlobal('fetch', async (input: string | URL | Request, init?: RequestInit) => {
        const url = new URL(String(input instanceof Request ? input.url : input));
        if (url.origin !== API) return real(input, init);
        const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : null;
        const method = init?.method ?? 'GET';
        calls.push({ method, path: url.pathname, auth: new Headers(init?.headers).get('authorization'), body });
        const [, kind, rawId, action] = url.pathname.split('/');
        const id = decodeURIComponent(rawId ?? '');
        if (kind === 'billing-keys') return json(200, { status: 'ISSUED' });
        if (kind === 'payments' && action === 'billing-key' && method === 'POST') return fake.charge(id, body ?? {});
        if (kind === 'payments' && action === 'cancel' && method === 'POST') return fake.cancel(id, body ?? {});
        if (kind === 'payments' && !action && method === 'GET') return fake.read(id);
        return json(404, { type: 'NOT_FOUND' });
      });
    },
    /** The answer to POST /payments/{id}/cancel; the default cancels (checking currentCancellableAmount, as PortOne does). */
    cancel: (id: string, body: Record<string, unknown>): Answer => fake.doCancel(id, body),
    doCancel(id: string, body: Record<string, unknown> | null): Response {
          const p = remote.get(id);
          if (!p) return json(404, { type: 'PAYMENT_NOT_FOUND', message: 'no payment' });
          const left = p.total - p.cancelled;
          if (body?.currentCancellableAmount !== undefined && body.currentCancellableAmount !== left) return json(409, { type: 'CANCELLABLE_AMOUNT_CONSISTENCY_BROKEN', message: 'Cancellable amount changed' });
          const amount = (body?.amount as number | undefined) ?? left;
          p.cancelled += amount;
          p.status = p.cancelled >= p.total ? 'CANCELLED' : 'PARTIAL_CANCELLED';
          return json(200, { cancellation: { status: 'SUCCEEDED', id: `c-${calls.length}`, totalAmount: amount, taxFreeAmount: 0, vatAmount: 0, reason: body?.reason, requestedAt: p.paidAt } });
    },
    /** The answer to GET /payments/{id}; the default reads the in-memory payment. */
    read: (id: string): Answer => fake.doRead(id),
    doRead(id: string): Response {
      const p = remote.get(id);
      if (!p) return json(404, { type: 'PAYMENT_NOT_FOUND', message: 'no payment' });
      return json(200, { status: p.status, id, amount: { total: p.total, cancelled: p.cancelled }, pgTxId: p.pgTxId, paidAt: p.paidAt, receiptUrl: `https://receipt.portone.test/${id}` });
    },
    /** Payment ids sent to POST /payments/{id}/cancel, in order. */
    cancelled: () => calls.filter((c) => c.method === 'POST' && c.path.endsWith('/cancel')).map((c) => decodeURIComponent(c.path.split('/')[2])),
  };
  return fake;
}

const chargeRequest = (paymentId: string) => ({ paymentId, billingKey: 'billing-key-1', orderName: 'LUXE 구독 #1 2개월 차 요금', amount: 555_000, customer: { id: '7', email: 'a@example.com', phone: '01012345678' } });

describe('portoneProvider, against a fake PortOne REST API', () => {
  let fake: ReturnType<typeof fakePortOne>;
  const provider = () => portoneProvider(testConfig({ portone }));
  beforeEach(() => {
    fake = fakePortOne();
    fake.install();
  });
  afterEach(() => vi.unstubAllGlobals());

  it('payWithBillingKey success → PAID with the provider ids and the receipt read back', async () => {
    const result = await provider().charge(chargeRequest('sub-1-m2'));
    expect(result).toEqual({ status: 'PAID', pgTxId: 'pg-sub-1-m2', paidAt: new Date('2030-01-01T00:00:00Z'), receiptUrl: 'https://receipt.portone.test/sub-1-m2' });
    const [pay, read] = fake.calls;
    expect(pay).toMatchObject({ method: 'POST', path: '/payments/sub-1-m2/billing-key', auth: 'PortOne secret-1' });
    expect(pay.body).toMatchObject({ storeId: 'store-1', billingKey: 'billing-key-1', orderName: 'LUXE 구독 #1 2개월 차 요금', amount: { total: 555_000 }, currency: 'KRW', customer: { id: '7', email: 'a@example.com', phoneNumber: '01012345678' } });
    expect(read).toMatchObject({ method: 'GET', path: '/payments/sub-1-m2' });
  });

  it('a PG decline → FAILED with the card company’s reason in Korean; definite refusals are FAILED', async () => {
    fake.charge = () => json(400, { type: 'PG_PROVIDER', message: 'PG사에서 오류가 발생했습니다.', pgCode: 'V811', pgMessage: '한도초과 카드입니다.' });
    expect(await provider().charge(chargeRequest('p-decline'))).toEqual({ status: 'FAILED', code: 'V811', reason: '한도초과 카드입니다.' });
    // A PG message that is not Korean gives way to the Korean default.
    fake.charge = () => json(400, { type: 'PG_PROVIDER', message: 'pg error', pgCode: 'E01', pgMessage: 'Card declined' });
    expect(await provider().charge(chargeRequest('p-decline-en'))).toEqual({ status: 'FAILED', code: 'E01', reason: '카드 결제에 실패했습니다. 다른 카드로 결제해주세요.' });
    fake.charge = () => json(400, { type: 'BILLING_KEY_ALREADY_DELETED', message: 'deleted' });
    expect(await provider().charge(chargeRequest('p-deleted'))).toEqual({ status: 'FAILED', code: 'BILLING_KEY_ALREADY_DELETED', reason: '삭제된 카드입니다. 카드를 다시 등록해주세요.' });
    fake.charge = () => json(404, { type: 'BILLING_KEY_NOT_FOUND', message: 'not found' });
    expect(await provider().charge(chargeRequest('p-missing'))).toMatchObject({ status: 'FAILED', code: 'BILLING_KEY_NOT_FOUND', reason: expect.stringMatching(/카드를 다시 등록/) });
  });

  it('ALREADY_PAID (a retry of a charge that went through) → reads the payment and settles PAID', async () => {
    await provider().charge(chargeRequest('sub-2-m3'));
    fake.calls.length = 0;
    const again = await provider().charge(chargeRequest('sub-2-m3'));
    expect(again).toEqual({ status: 'PAID', pgTxId: 'pg-sub-2-m3', paidAt: new Date('2030-01-01T00:00:00Z'), receiptUrl: 'https://receipt.portone.test/sub-2-m3' });
    expect(fake.calls.map((c) => `${c.method} ${c.path}`)).toEqual(['POST /payments/sub-2-m3/billing-key', 'GET /payments/sub-2-m3']);
    // ALREADY_PAID that cannot be read back is not a failure either.
    fake.charge = () => json(409, { type: 'ALREADY_PAID' });
    expect(await provider().charge(chargeRequest('never-seen'))).toMatchObject({ status: 'UNKNOWN' });
  });

  it.each([
    ['a network error', () => Promise.reject(new TypeError('fetch failed'))],
    ['a 500 with an error body', () => json(500, { type: 'INTERNAL_SERVER_ERROR', message: 'internal error' })],
    ['a 502 from a proxy (not JSON)', () => new Response('<html>Bad Gateway</html>', { status: 502 })],
    ['401 UNAUTHORIZED', () => json(401, { type: 'UNAUTHORIZED', message: 'invalid secret' })],
    ['403 FORBIDDEN', () => json(403, { type: 'FORBIDDEN', message: 'forbidden' })],
    ['an error type the SDK does not know', () => json(400, { type: 'SOMETHING_NEW', message: '?' })],
  ])('%s → UNKNOWN (the charge may have gone through; never FAILED)', async (_, answer) => {
    fake.charge = answer;
    const result = await provider().charge(chargeRequest('p-ambiguous'));
    expect(result).toMatchObject({ status: 'UNKNOWN' });
  });

  it('cancelPayment: a partial cancel sends the amount and what we believe is cancellable; a refused cancel is FAILED in Korean', async () => {
    const p = provider();
    await p.charge({ ...chargeRequest('p-refund'), amount: 900_000 });
    expect(await p.cancel({ paymentId: 'p-refund', amount: 100_000, reason: '차량 인도 지연 보상', currentCancellableAmount: 900_000 })).toEqual({ status: 'SUCCEEDED', cancelledAmount: 100_000 });
    const cancel = fake.calls.find((c) => c.path === '/payments/p-refund/cancel')!;
    expect(cancel).toMatchObject({ method: 'POST', auth: 'PortOne secret-1', body: { storeId: 'store-1', amount: 100_000, reason: '차량 인도 지연 보상', currentCancellableAmount: 900_000 } });
    expect(await p.getPayment('p-refund')).toMatchObject({ status: 'PARTIAL_CANCELLED', amount: 900_000, cancelledAmount: 100_000 });
    // A concurrent cancel changed what is left: PortOne refuses, nothing more is cancelled.
    expect(await p.cancel({ paymentId: 'p-refund', amount: 100_000, reason: '중복', currentCancellableAmount: 900_000 })).toEqual({
      status: 'FAILED',
      code: 'CANCELLABLE_AMOUNT_CONSISTENCY_BROKEN',
      reason: '취소 가능 금액이 변경되었습니다. 결제 내역을 새로 확인한 뒤 다시 시도해주세요.',
    });
    expect(fake.remote.get('p-refund')!.cancelled).toBe(100_000);
  });

  it.each([
    ['PAYMENT_NOT_PAID', 400, '결제가 완료되지 않아 취소할 수 없습니다.'],
    ['PAYMENT_ALREADY_CANCELLED', 409, '이미 취소된 결제입니다.'],
    ['CANCEL_AMOUNT_EXCEEDS_CANCELLABLE_AMOUNT', 409, '취소 금액이 취소 가능 금액을 넘었습니다.'],
    ['NEGATIVE_PROMOTION_ADJUSTED_CANCEL_AMOUNT', 409, '프로모션 할인을 반영한 취소 금액이 0원보다 작아 취소할 수 없습니다.'],
    ['PAYMENT_NOT_FOUND', 404, '결제사에서 결제 내역을 찾을 수 없어 취소하지 못했습니다.'],
  ])('cancelPayment refused with %s → FAILED with a Korean reason', async (type, status, reason) => {
    fake.cancel = () => json(status, { type, message: 'refused in English' });
    expect(await provider().cancel({ paymentId: 'p-x', amount: 1_000, reason: '환불', currentCancellableAmount: 1_000 })).toEqual({ status: 'FAILED', code: type, reason });
  });

  it.each([
    ['a network error', () => Promise.reject(new TypeError('fetch failed'))],
    ['a 500 with an error body', () => json(500, { type: 'INTERNAL_SERVER_ERROR', message: 'internal error' })],
    ['a 502 from a proxy (not JSON)', () => new Response('<html>Bad Gateway</html>', { status: 502 })],
    ['401 UNAUTHORIZED', () => json(401, { type: 'UNAUTHORIZED', message: 'invalid secret' })],
    ['403 FORBIDDEN', () => json(403, { type: 'FORBIDDEN', message: 'forbidden' })],
  ])('cancelPayment answered with %s → UNKNOWN (the refund may have been made; never FAILED)', async (_, answer) => {
    fake.cancel = answer;
    expect(await provider().cancel({ paymentId: 'p-x', amount: 1_000, reason: '환불', currentCancellableAmount: 1_000 })).toMatchObject({ status: 'UNKNOWN' });
  });

  it('webhooks: verified with PORTONE_WEBHOOK_SECRET; forged or unsigned are rejected; no secret, nothing is accepted', async () => {
    const body = JSON.stringify({ type: 'Transaction.Paid', timestamp: new Date().toISOString(), data: { paymentId: 'sub-1-m2', storeId: 'store-1' } });
    expect(await provider().verifyWebhook(body, signStandardWebhook(WEBHOOK_SECRET, 'wh-1', body))).toEqual({ id: 'wh-1', type: 'Transaction.Paid', paymentId: 'sub-1-m2' });
    const forged = signStandardWebhook(`whsec_${Buffer.from('another secret').toString('base64')}`, 'wh-2', body);
    await expect(provider().verifyWebhook(body, forged)).rejects.toBeInstanceOf(WebhookRejected);
    await expect(provider().verifyWebhook(body, {})).rejects.toBeInstanceOf(WebhookRejected);
    const tampered = signStandardWebhook(WEBHOOK_SECRET, 'wh-3', body);
    await expect(provider().verifyWebhook(body.replace('sub-1-m2', 'sub-9-m2'), tampered)).rejects.toBeInstanceOf(WebhookRejected);
    const noSecret = portoneProvider(testConfig({ portone: { ...portone, webhookSecret: undefined } }));
    await expect(noSecret.verifyWebhook(body, signStandardWebhook(WEBHOOK_SECRET, 'wh-4', body))).rejects.toBeInstanceOf(WebhookRejected);
  });
});

describe('the API with PortOne configured', () => {
  let ctx: TestContext;
  let carId: number;
  let fake: ReturnType<typeof fakePortOne>;
  beforeAll(async () => {
    ctx = await createTestContext({ portone });
    ({ car: { id: carId } } = await insertTestCar(ctx.database.db, { fees: { subscription_fee_1: 900_000, subscription_fee_3: 800_000, subscription_fee_12: 555_000 } }));
  });
  afterAll(() => ctx.close());
  beforeEach(() => {
    fake = fakePortOne();
    fake.install();
  });
  afterEach(() => vi.unstubAllGlobals());

  const { setClock, runJobs } = apiTools(() => ctx);
  const order = async (token: string, body: Record<string, unknown>) => ctx.call('POST', `/subscriptions/cars/${await anotherPlate(ctx, carId)}/request`, { token, json: body });
  const paymentRow = async (id: string) => (await ctx.database.db.select().from(payments).where(eq(payments.id, id)))[0];
  const monthCharges = async (subscriptionId: number) =>
    (await ctx.database.db.select().from(payments).where(and(eq(payments.refType, 'subscription'), eq(payments.refId, subscriptionId)))).map((p) => [p.id, p.status]);

  /** A confirmed 3-month subscription starting on `start`, its first month charged through the fake PortOne. */
  async function subscription(start: string, key: string) {
    const { token } = await customer(ctx);
    const req = await order(token, { month: 3, billing_key: key });
    expect(req.status).toBe(201);
    expect(req.body.data.payment).toMatchObject({ status: 'PAID', amount: 800_000, receipt_url: `https://receipt.portone.test/subreq-${req.body.data.subscription_request.id}` });
    const sub = (await ctx.call('POST', `/admin/subscription-requests/${req.body.data.subscription_request.id}/confirm`, { token: ADMIN, json: { start_date: start } })).body.data.subscription;
    return { token, subscriptionId: sub.id };
  }

  it('a charge that outlasts PAYMENT_TIMEOUT_MS → UNKNOWN', async () => {
    const config = testConfig({ portone, payments: { ...ctx.config.payments, timeoutMs: 100 } });
    let answered!: () => void;
    const late = new Promise<void>((r) => (answered = r));
    fake.charge = (id, body) =>
      new Promise((resolve) =>
        setTimeout(() => {
          resolve(fake.pay(id, body));
          answered();
        }, 300),
      );
    expect(await createPaymentProvider(ctx.database.db, config).charge(chargeRequest('p-slow'))).toMatchObject({ status: 'UNKNOWN', detail: expect.stringMatching(/100 ms/) });
    await late;
  });

  it('a PG decline of the first month refuses the request with the Korean reason and records FAILED', async () => {
    fake.charge = () => json(400, { type: 'PG_PROVIDER', message: 'PG error', pgCode: 'V811', pgMessage: '한도초과 카드입니다.' });
    const { token } = await customer(ctx);
    const res = await order(token, { month: 12, billing_key: 'billing-key-decline' });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: 1202, message: '한도초과 카드입니다.' });
    expect((await ctx.call('GET', '/payments', { token })).body.data.payments).toEqual([expect.objectContaining({ status: 'FAILED', failure_reason: '한도초과 카드입니다.' })]);
    expect((await ctx.call('GET', '/subscriptions/requests', { token })).body.data.subscription_requests).toEqual([expect.objectContaining({ status: 'CANCELLED', payment: expect.objectContaining({ status: 'FAILED' }) })]);
  });

  it.each([
    ['a 500', (): Response => json(500, { type: 'INTERNAL_SERVER_ERROR', message: 'internal error' })],
    ['401 UNAUTHORIZED', (): Response => json(401, { type: 'UNAUTHORIZED', message: 'invalid secret' })],
    [
      'a network error',
      (): Response => {
        throw new TypeError('fetch failed');
      },
    ],
  ])('a monthly charge answered with %s after it went through stays PENDING, is settled PAID by reconcile, and no retry id is charged', async (label, lost) => {
    const start = { 'a 500': '2030-01-05', '401 UNAUTHORIZED': '2030-01-06', 'a network error': '2030-01-07' }[label]!;
    await setClock(`${start}T08:00:00+09:00`);
    const { token, subscriptionId } = await subscription(start, `billing-key-${label}`);
    const m2 = `sub-${subscriptionId}-m2`;
    const due = start.replace('-01-', '-02-');
    // PortOne charges the card, but the answer is lost (5xx, 401 from a proxy, a dropped connection).
    fake.charge = (id, body) => {
      fake.pay(id, body);
      return lost();
    };
    await setClock(`${due}T12:00:00+09:00`);
    await runJobs();
    expect(await paymentRow(m2)).toMatchObject({ status: 'PENDING', failureReason: null });
    const [sub] = await ctx.database.db.select().from(subscriptions).where(eq(subscriptions.id, subscriptionId));
    expect(sub).toMatchObject({ billingStatus: 'ACTIVE', paidMonths: 1 });
    expect(await ctx.database.db.select().from(jobs).where(eq(jobs.key, `charge:sub:${subscriptionId}:m2:try2`))).toEqual([]);
    // The next runs: reconcile asks PortOne (the payment is PAID there) and settles it; no retry is charged.
    fake.charge = (id, body) => fake.pay(id, body);
    for (const day of ['T12:05:00', 'T23:00:00']) {
      await setClock(`${due}${day}+09:00`);
      await runJobs();
    }
    const nextDay = new Date(Date.parse(`${due}T12:00:00+09:00`) + 8 * 86_400_000).toISOString();
    await setClock(nextDay);
    await runJobs();
    expect(await paymentRow(m2)).toMatchObject({ status: 'PAID', pgTxId: `pg-${m2}`, receiptUrl: `https://receipt.portone.test/${m2}` });
    expect(await monthCharges(subscriptionId)).toEqual([[m2, 'PAID']]);
    expect(fake.charged().filter((id) => id.startsWith(m2))).toEqual([m2]);
    expect(fake.calls.some((c) => c.path.includes(`${m2}-r`))).toBe(false);
    const billing = (await ctx.call('GET', '/subscriptions', { token })).body.data.subscriptions.find((s) => s.id === subscriptionId)!.billing;
    expect(billing).toMatchObject({ status: 'ACTIVE', paid_months: 2 });
  });

  it('a monthly PG decline is FAILED and retried under a new payment id the next day', async () => {
    await setClock('2030-03-03T08:00:00+09:00');
    const { subscriptionId } = await subscription('2030-03-03', 'billing-key-monthly-decline');
    fake.charge = () => json(400, { type: 'PG_PROVIDER', message: 'PG error', pgCode: 'V812', pgMessage: '잔액이 부족합니다.' });
    await setClock('2030-04-03T12:00:00+09:00');
    await runJobs();
    expect(await paymentRow(`sub-${subscriptionId}-m2`)).toMatchObject({ status: 'FAILED', failureCode: 'V812', failureReason: '잔액이 부족합니다.' });
    fake.charge = (id, body) => fake.pay(id, body);
    await setClock('2030-04-04T12:00:00+09:00');
    await runJobs();
    expect(await monthCharges(subscriptionId)).toEqual(
      expect.arrayContaining([
        [`sub-${subscriptionId}-m2`, 'FAILED'],
        [`sub-${subscriptionId}-m2-r1`, 'PAID'],
      ]),
    );
  });

  it('staff refund part of a PortOne payment through cancelPayment; the payment is PARTIAL_CANCELLED', async () => {
    const { token } = await customer(ctx);
    const { payment } = (await order(token, { month: 1, billing_key: 'billing-key-refund' })).body.data;
    expect(payment).toMatchObject({ status: 'PAID', amount: 900_000 });
    const part = await ctx.call('POST', `/admin/payments/${payment!.id}/refund`, { token: ADMIN, json: { amount: 100_000, reason: '차량 인도 지연 보상' } });
    expect(part.status).toBe(200);
    expect(part.body.data.payment).toMatchObject({ status: 'PARTIAL_CANCELLED', refunded_amount: 100_000 });
    expect(fake.calls.find((c) => c.path === `/payments/${payment!.id}/cancel`)?.body).toMatchObject({ amount: 100_000, reason: '차량 인도 지연 보상', currentCancellableAmount: 900_000 });
    expect(fake.remote.get(payment!.id)).toMatchObject({ status: 'PARTIAL_CANCELLED', cancelled: 100_000 });
  });

  const refundRows = async (paymentId: string) =>
    (await ctx.database.db.select().from(paymentRefunds).where(eq(paymentRefunds.paymentId, paymentId)).orderBy(paymentRefunds.id)).map((r) => [r.amount, r.status, r.failureReason]);
  const staffRefund = (paymentId: string, amount: number) => ctx.call('POST', `/admin/payments/${paymentId}/refund`, { token: ADMIN, json: { amount, reason: '차량 인도 지연 보상' } });
  const lostAnswers: [string, () => Response][] = [
    ['a 500', () => json(500, { type: 'INTERNAL_SERVER_ERROR', message: 'internal error' })],
    ['401 UNAUTHORIZED', () => json(401, { type: 'UNAUTHORIZED', message: 'invalid secret' })],
    [
      'a network error',
      () => {
        throw new TypeError('fetch failed');
      },
    ],
  ];

  it.each(lostAnswers)('a refund answered with %s after PortOne made it is not a failed refund; reading the payment back settles it, and a retry never refunds twice', async (label, lost) => {
    const start = { 'a 500': '2030-06-01', '401 UNAUTHORIZED': '2030-06-02', 'a network error': '2030-06-03' }[label]!;
    await setClock(`${start}T10:00:00+09:00`);
    const { token } = await customer(ctx);
    const { payment } = (await order(token, { month: 1, billing_key: `billing-key-refund-${label}` })).body.data;
    // PortOne cancels, but the answer is lost, and reading the payment back fails too for now.
    fake.cancel = (id, body) => {
      fake.doCancel(id, body);
      return lost();
    };
    fake.read = () => json(500, { type: 'INTERNAL_SERVER_ERROR', message: 'internal error' });
    const first = await staffRefund(payment!.id, 100_000);
    expect(first.status).toBe(502);
    expect(first.body.message).toMatch(/확인하고 있습니다/);
    expect(await refundRows(payment!.id)).toEqual([[100_000, 'REQUESTED', null]]);
    expect(await paymentRow(payment!.id)).toMatchObject({ status: 'PAID', cancelledAmount: 0 });
    // Staff try again before it is settled: our ledger still says 900,000 is cancellable, PortOne
    // has 800,000 left and refuses, so nothing is refunded twice.
    fake.cancel = (id, body) => fake.doCancel(id, body);
    const again = await staffRefund(payment!.id, 100_000);
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('환불하지 못했습니다: 취소 가능 금액이 변경되었습니다. 결제 내역을 새로 확인한 뒤 다시 시도해주세요.');
    expect(fake.remote.get(payment!.id)).toMatchObject({ status: 'PARTIAL_CANCELLED', cancelled: 100_000 });
    // PortOne answers reads again; the reconcile job reads the payment back and settles the refund.
    fake.read = (id) => fake.doRead(id);
    await setClock(`${start}T10:05:00+09:00`);
    await runJobs();
    expect(await refundRows(payment!.id)).toEqual([
      [100_000, 'SUCCEEDED', null],
      [100_000, 'FAILED', '취소 가능 금액이 변경되었습니다. 결제 내역을 새로 확인한 뒤 다시 시도해주세요.'],
    ]);
    expect(await paymentRow(payment!.id)).toMatchObject({ status: 'PARTIAL_CANCELLED', cancelledAmount: 100_000 });
    expect((await ctx.call('GET', `/payments/${payment!.id}`, { token })).body.data.payment).toMatchObject({ status: 'PARTIAL_CANCELLED', refunded_amount: 100_000 });
    // The rest refunds once, against the amount PortOne has left.
    expect((await staffRefund(payment!.id, 800_000)).body.data.payment).toMatchObject({ status: 'CANCELLED', refunded_amount: 900_000 });
    expect(fake.remote.get(payment!.id)).toMatchObject({ status: 'CANCELLED', cancelled: 900_000 });
  });

  it('a refund whose answer was lost but which reads back as made is answered as made at once', async () => {
    const { token } = await customer(ctx);
    const { payment } = (await order(token, { month: 1, billing_key: 'billing-key-refund-readback' })).body.data;
    fake.cancel = (id, body) => {
      fake.doCancel(id, body);
      return json(503, { type: 'INTERNAL_SERVER_ERROR', message: 'unavailable' });
    };
    const res = await staffRefund(payment!.id, 900_000);
    expect(res.status).toBe(200);
    expect(res.body.data.payment).toMatchObject({ status: 'CANCELLED', refunded_amount: 900_000 });
    expect(await refundRows(payment!.id)).toEqual([[900_000, 'SUCCEEDED', null]]);
  });

  it('a refund answered with a 500 that PortOne did not make is FAILED once the payment reads back without it, and can be made again once', async () => {
    await setClock('2030-06-10T10:00:00+09:00');
    const { token } = await customer(ctx);
    const { payment } = (await order(token, { month: 1, billing_key: 'billing-key-refund-not-made' })).body.data;
    fake.cancel = () => json(500, { type: 'INTERNAL_SERVER_ERROR', message: 'internal error' });
    expect((await staffRefund(payment!.id, 100_000)).status).toBe(502);
    expect(await refundRows(payment!.id)).toEqual([[100_000, 'REQUESTED', null]]);
    await setClock('2030-06-10T10:05:00+09:00');
    await runJobs();
    expect(await refundRows(payment!.id)).toEqual([[100_000, 'FAILED', '결제사에서 환불이 확인되지 않았습니다. 다시 시도해주세요.']]);
    expect(await paymentRow(payment!.id)).toMatchObject({ status: 'PAID', cancelledAmount: 0 });
    fake.cancel = (id, body) => fake.doCancel(id, body);
    expect((await staffRefund(payment!.id, 100_000)).body.data.payment).toMatchObject({ status: 'PARTIAL_CANCELLED', refunded_amount: 100_000 });
    expect(fake.remote.get(payment!.id)).toMatchObject({ cancelled: 100_000 });
    expect(fake.cancelled().filter((id) => id === payment!.id)).toHaveLength(2);
  });

  it('a refund PortOne refuses outright is a failed refund with a Korean reason', async () => {
    const { token } = await customer(ctx);
    const { payment } = (await order(token, { month: 1, billing_key: 'billing-key-refund-refused' })).body.data;
    fake.cancel = () => json(400, { type: 'PAYMENT_NOT_PAID', message: 'Payment not paid' });
    const res = await staffRefund(payment!.id, 100_000);
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('환불하지 못했습니다: 결제가 완료되지 않아 취소할 수 없습니다.');
    expect(await refundRows(payment!.id)).toEqual([[100_000, 'FAILED', '결제가 완료되지 않아 취소할 수 없습니다.']]);
    expect(await paymentRow(payment!.id)).toMatchObject({ status: 'PAID', cancelledAmount: 0 });
  });

  it('POST /payments/webhook: a webhook signed with PORTONE_WEBHOOK_SECRET is accepted and reconciled; missing or forged signatures are 401 and change nothing', async () => {
    const { token } = await customer(ctx);
    const { payment } = (await order(token, { month: 1, billing_key: 'billing-key-webhook' })).body.data;
    // Cancelled in PortOne's console.
    fake.remote.get(payment!.id)!.status = 'CANCELLED';
    fake.remote.get(payment!.id)!.cancelled = 900_000;
    const body = JSON.stringify({ type: 'Transaction.Cancelled', timestamp: new Date().toISOString(), data: { paymentId: payment!.id, storeId: 'store-1' } });
    const post = (headers: Record<string, string>) => ctx.app.request('/payments/webhook', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
    const forged = await post(signStandardWebhook(`whsec_${Buffer.from('another secret').toString('base64')}`, 'wh-forged', body));
    expect(forged.status).toBe(401);
    expect(((await forged.json()) as { message: string }).message).toBe('웹훅 서명을 확인할 수 없습니다.');
    expect((await post({})).status).toBe(401);
    expect((await post({ 'webhook-id': 'wh-x', 'webhook-timestamp': String(Math.floor(Date.now() / 1000)), 'webhook-signature': 'v1,AAAA' })).status).toBe(401);
    expect(await paymentRow(payment!.id)).toMatchObject({ status: 'PAID', cancelledAmount: 0 });
    const valid = await post(signStandardWebhook(WEBHOOK_SECRET, 'wh-valid', body));
    expect(valid.status).toBe(200);
    expect(((await valid.json()) as { data: unknown }).data).toEqual({ duplicate: false });
    expect((await ctx.call('GET', `/payments/${payment!.id}`, { token })).body.data.payment).toMatchObject({ status: 'CANCELLED', refunded_amount: 900_000 });
    expect(((await (await post(signStandardWebhook(WEBHOOK_SECRET, 'wh-valid', body))).json()) as { data: unknown }).data).toEqual({ duplicate: true });
  });
});
