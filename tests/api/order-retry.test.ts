import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createApp } from '../../src/api/app';
import { createPaymentProvider } from '../../src/api/billing/providers';
import { sandboxPayments } from '../../src/api/db/schema';
import type { PaymentProvider } from '../../src/api/payment-provider';
import { insertTestCar } from '../../src/api/seed/factories';
import { anotherPlate, billingKey, createTestContext, customer, type TestContext } from './helpers';

/**
 * Issue 47: a page that sends an order again with the same billing key (after a 503, a network
 * failure or a timeout) is told plainly what became of it, and the card is charged once.
 */
let ctx: TestContext;
let carId: number;

beforeAll(async () => {
  ctx = await createTestContext();
  ({ car: { id: carId } } = await insertTestCar(ctx.database.db, { fees: { subscription_fee_12: 3_000_000 } }));
});
afterAll(() => ctx.close());

const PAID_MESSAGE = '이미 결제된 구독 신청입니다. 다시 결제하지 않으셔도 됩니다.';
const PENDING_MESSAGE = '결제 확인 중인 구독 신청입니다. 카드사 확인이 끝나면 알림으로 알려드리니 다시 결제하지 마세요.';

/** The app on the test database with `payments` standing in for the provider (a sandbox underneath). */
function appWith(wrap: (sandbox: PaymentProvider) => PaymentProvider) {
  const app = createApp({ db: ctx.database.db, config: ctx.config, clock: ctx.clock, payments: wrap(createPaymentProvider(ctx.database.db, ctx.config, ctx.clock)) });
  return async (token: string, car: number, json: unknown) => {
    const res = await app.request(`/subscriptions/cars/${car}/request`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(json) });
    return { status: res.status, body: (await res.json()) as { message: string; data: any } };
  };
}

const providerCharges = async (paymentId: string) => (await ctx.database.db.select().from(sandboxPayments).where(eq(sandboxPayments.paymentId, paymentId))).length;
const myPayments = async (token: string) => (await ctx.call('GET', '/payments', { token })).body.data.payments as { id: string; status: string }[];

describe('a repeat of an order already placed (the same billing key)', () => {
  it('already paid: 200, created false, the order, its PAID charge and 이미 결제된 구독 신청입니다; nothing charged again', async () => {
    const { token } = await customer(ctx);
    const car = await anotherPlate(ctx, carId);
    const body = { month: 12, billing_key: billingKey(ctx) };
    const first = await ctx.call('POST', `/subscriptions/cars/${car}/request`, { token, json: body });
    expect(first.status).toBe(201);
    expect(first.body.data).toMatchObject({ created: true, message: null, payment: { status: 'PAID' } });

    const again = await ctx.call('POST', `/subscriptions/cars/${car}/request`, { token, json: body });
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({
      created: false,
      message: PAID_MESSAGE,
      subscription_request: { id: first.body.data.subscription_request.id, status: 'PENDING', payment: { status: 'PAID' } },
      payment: { id: first.body.data.payment!.id, status: 'PAID', amount: 3_000_000 },
    });
    expect(await providerCharges(first.body.data.payment!.id)).toBe(1);
    expect(await myPayments(token)).toHaveLength(1);
  });

  it('the first answer lost to a frozen database after the charge (503): the retry reads the provider and answers PAID, charged once', async () => {
    let charges = 0;
    const order = appWith((sandbox) => ({
      ...sandbox,
      // The provider charges, then the request dies on a statement the database cancelled (57014), as in the freeze.
      charge: async (req) => {
        charges++;
        const result = await sandbox.charge(req);
        if (charges === 1) throw Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' });
        return result;
      },
    }));
    const { token } = await customer(ctx);
    const car = await anotherPlate(ctx, carId);
    const body = { month: 12, billing_key: billingKey(ctx) };
    const first = await order(token, car, body);
    expect(first.status).toBe(503);

    const again = await order(token, car, body);
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ created: false, message: PAID_MESSAGE, payment: { status: 'PAID' }, subscription_request: { payment: { status: 'PAID' } } });
    expect(charges).toBe(1);
    expect(await providerCharges(again.body.data.payment.id)).toBe(1);
    expect(await myPayments(token)).toEqual([expect.objectContaining({ id: again.body.data.payment.id, status: 'PAID' })]);
  });

  it('while the first charge is still at the provider: 202 PENDING and 결제 확인 중, no second charge; then PAID once it answers', async () => {
    let charges = 0;
    let reached!: () => void;
    const atProvider = new Promise<void>((r) => (reached = r));
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const order = appWith((sandbox) => ({
      ...sandbox,
      charge: async (req) => {
        charges++;
        reached();
        await gate;
        return sandbox.charge(req);
      },
    }));
    const { token } = await customer(ctx);
    const car = await anotherPlate(ctx, carId);
    const body = { month: 12, billing_key: billingKey(ctx) };
    const first = order(token, car, body);
    await atProvider;

    const during = await order(token, car, body);
    expect(during.status).toBe(202);
    expect(during.body.data).toMatchObject({ created: false, message: PENDING_MESSAGE, payment: { status: 'PENDING' } });
    expect(during.body.message).toBe('OK');
    expect(charges).toBe(1);

    release();
    expect((await first).status).toBe(201);
    const after = await order(token, car, body);
    expect([after.status, after.body.data.message, after.body.data.payment.status]).toEqual([200, PAID_MESSAGE, 'PAID']);
    expect(charges).toBe(1);
    expect(await providerCharges(after.body.data.payment.id)).toBe(1);
  });

  it('a provider that cannot be read on the repeat: still 202 PENDING, never a charge or an error', async () => {
    let charges = 0;
    const order = appWith((sandbox) => ({
      ...sandbox,
      // The charge never reached the provider and its answer is unknown; the provider cannot be read either.
      charge: () => (charges++, Promise.resolve({ status: 'UNKNOWN', detail: 'no answer' })),
      getPayment: () => Promise.reject(new Error('provider unreachable')),
    }));
    const { token } = await customer(ctx);
    const car = await anotherPlate(ctx, carId);
    const body = { month: 12, billing_key: billingKey(ctx) };
    expect((await order(token, car, body)).body.data.payment.status).toBe('PENDING');
    const again = await order(token, car, body);
    expect(again.status).toBe(202);
    expect(again.body.data).toMatchObject({ created: false, message: PENDING_MESSAGE, payment: { status: 'PENDING' } });
    expect(charges).toBe(1);
  });
});
