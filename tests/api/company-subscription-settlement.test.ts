import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertTestCar } from '../../src/api/seed/factories';
import { cars, companies, companyInvoiceLines, companySubscriptionCharges, companySubscriptionMonths, paymentRefunds, payments, subscriptionSettlements } from '../../src/api/db/schema';
import { TEST_ADMIN_TOKEN } from '../../src/api/env';
import { issueMonthStatements } from '../../src/api/invoices/statements';
import { defaultOptionPrices } from '../../src/domain/subscription-price';
import { monthOfDay } from '../../src/domain/invoices';
import { anotherPlate, apiTools, createTestContext, customer, type TestContext } from './helpers';
import { companyWithAdmin, join } from './company-helpers';

/**
 * 법인 장기 구독 (issue 52) at the return: on 후불 the 반납 정산's rest, the deposit it returns and
 * an overage charged on its own go to the company's monthly statement (a line each, once under
 * retries and two replicas), never to a card; with a company card they are charged to the company
 * card, not the driver's.
 */

let ctx: TestContext;
let depositCar: number;
const ADMIN = TEST_ADMIN_TOKEN;
const PER_KM = 200;
const DEPOSIT = 500_000;

beforeAll(async () => {
  ctx = await createTestContext();
  ({ car: { id: depositCar } } = await insertTestCar(ctx.database.db, { fees: { subscription_fee_1: 900_000, subscription_fee_3: 800_000, subscription_fee_12: 555_000 } }));
  const prices = defaultOptionPrices({ subscription_fee_minimum: 555_000 });
  await ctx.database.db.update(cars).set({ optionPrices: { ...prices, overage_per_km: PER_KM, deposit: DEPOSIT, deductible: 300_000 } }).where(eq(cars.id, depositCar));
});
afterAll(() => ctx.close());

const { setClock } = apiTools(() => ctx);
const staffRead = (subscriptionId: number, json: Record<string, unknown>) => ctx.call('POST', `/admin/subscriptions/${subscriptionId}/odometer`, { token: ADMIN, json });
const settleUrl = (id: number) => `/admin/subscriptions/${id}/settlement` as const;
let keys = 0;

/** A company's 12-month subscription from `start` (on 후불, or its card), the handover at 1,000km, the return on `returnOn` at `returnKm`. */
async function returned(opts: { invoice: boolean; start: string; returnOn: string; returnKm: number }) {
  await setClock(`${opts.start}T08:00:00+09:00`);
  const { admin, company } = await companyWithAdmin(ctx, { card: !opts.invoice });
  if (opts.invoice) await ctx.database.db.update(companies).set({ invoiceBilling: true }).where(eq(companies.id, company.id));
  const driver = await customer(ctx);
  await join(ctx, admin.token, company.id, driver, 'DRIVER');
  const req = await ctx.call('POST', `/subscriptions/cars/${await anotherPlate(ctx, depositCar)}/company-request`, {
    token: admin.token, json: { month: 12, company: { company_id: company.id, request_key: `settle-form-${++keys}`, driver_user_id: driver.user.id } },
  });
  expect(req.status, JSON.stringify(req.body)).toBe(201);
  const requestId = req.body.data.subscription_request.id;
  const confirmed = await ctx.call('POST', `/admin/subscription-requests/${requestId}/confirm`, { token: ADMIN, json: { start_date: opts.start } });
  expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(201);
  const subscriptionId = confirmed.body.data.subscription.id;
  expect((await staffRead(subscriptionId, { km: 1_000, source: 'HANDOVER', read_on: opts.start })).status).toBe(200);
  await setClock(`${opts.returnOn}T10:00:00+09:00`);
  expect((await staffRead(subscriptionId, { km: opts.returnKm, source: 'RETURN' })).status).toBe(200);
  return { admin, company, driver, requestId, subscriptionId };
}

const chargesOf = (subscriptionId: number) => ctx.database.db.select().from(companySubscriptionCharges).where(eq(companySubscriptionCharges.subscriptionId, subscriptionId));
const cardPaymentsOf = (subscriptionId: number) => ctx.database.db.select().from(payments).where(and(eq(payments.refType, 'subscription'), eq(payments.refId, subscriptionId)));

describe('반납 정산 of a company subscription on 후불', () => {
  it('bills the rest to the statement once, even with two replicas at once, and charges no card', async () => {
    // Month 3 on 2034-03-20: 7,500km allowed, 8,000 driven → 100,000원; damages 300,000 (cap) + 250,000 → total 650,000 − deposit 500,000 = 150,000.
    const { company, subscriptionId } = await returned({ invoice: true, start: '2034-01-10', returnOn: '2034-03-20', returnKm: 9_000 });
    const json = { damages: [{ description: '좌측 도어 찌그러짐', amount: 800_000 }, { description: '휠 긁힘', amount: 250_000 }] };
    const preview = await ctx.call('GET', `${settleUrl(subscriptionId)}?damages=${encodeURIComponent(JSON.stringify(json.damages))}`, { token: ADMIN });
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    // The deposit was billed with the first payment on the statement: it is taken first, as from a card's.
    expect(preview.body.data.settlement).toMatchObject({ deposit: DEPOSIT, from_deposit: DEPOSIT, to_charge: 150_000, to_refund: 0 });
    const replica = await ctx.openReplicaApp();
    const post = (app: typeof ctx.app) => app.request(settleUrl(subscriptionId), { method: 'POST', headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' }, body: JSON.stringify(json) });
    try {
      const answers = await Promise.all([post(ctx.app), post(replica.app), post(ctx.app), post(replica.app)]);
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    } finally {
      await replica.close();
    }
    const again = await ctx.call('POST', settleUrl(subscriptionId), { token: ADMIN, json });
    expect(again.body.data.settlement).toMatchObject({ status: 'DONE', to_charge: 150_000, payment: null, refund: null });
    expect((await chargesOf(subscriptionId)).map((c) => [c.sourceKey, c.kind, c.amount, c.companyId])).toEqual([[`sub:${subscriptionId}:settle`, 'SETTLEMENT', 150_000, company.id]]);
    expect(await cardPaymentsOf(subscriptionId)).toEqual([]);

    // The next statement holds it as a line, once (the run twice).
    const month = monthOfDay('2034-03-20');
    const now = new Date('2034-04-01T07:00:00+09:00');
    await issueMonthStatements(ctx.database.db, { dueDay: 25 }, month, now, company.id);
    await issueMonthStatements(ctx.database.db, { dueDay: 25 }, month, now, company.id);
    const lines = await ctx.database.db.select().from(companyInvoiceLines).where(eq(companyInvoiceLines.sourceKey, `sub:${subscriptionId}:settle`));
    expect(lines.map((l) => [l.kind, l.totalAmount, l.label])).toEqual([['SUBSCRIPTION', 150_000, `구독 #${subscriptionId} 반납 정산`]]);
  });

  it('returns the rest of the deposit as a CREDIT line on the statement, no card refund', async () => {
    // Within the allowance, one damage 120,000 → 500,000 − 120,000 = 380,000 back.
    const { company, subscriptionId } = await returned({ invoice: true, start: '2034-05-10', returnOn: '2034-07-20', returnKm: 3_000 });
    const res = await ctx.call('POST', settleUrl(subscriptionId), { token: ADMIN, json: { damages: [{ description: '앞범퍼 긁힘', amount: 120_000 }] } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.settlement).toMatchObject({ status: 'DONE', to_charge: 0, to_refund: DEPOSIT - 120_000, refund: null });
    expect((await ctx.call('POST', settleUrl(subscriptionId), { token: ADMIN, json: { damages: [] } })).status).toBe(200);
    expect((await chargesOf(subscriptionId)).map((c) => [c.kind, c.amount])).toEqual([['SETTLEMENT_REFUND', -(DEPOSIT - 120_000)]]);
    expect(await ctx.database.db.select().from(paymentRefunds).where(eq(paymentRefunds.key, `settle:deposit:${subscriptionId}`))).toEqual([]);
    await issueMonthStatements(ctx.database.db, { dueDay: 25 }, monthOfDay('2034-07-20'), new Date('2034-08-01T07:00:00+09:00'), company.id);
    const [line] = await ctx.database.db.select().from(companyInvoiceLines).where(eq(companyInvoiceLines.sourceKey, `sub:${subscriptionId}:settle:refund`));
    expect([line.kind, line.totalAmount]).toEqual(['CREDIT', -(DEPOSIT - 120_000)]);
  });

  it('an overage settled on its own before the return is billed once and counted by the settlement', async () => {
    const { subscriptionId } = await returned({ invoice: true, start: '2034-09-10', returnOn: '2034-11-20', returnKm: 9_000 });
    const replica = await ctx.openReplicaApp();
    const settle = (app: typeof ctx.app) => app.request(`/admin/subscriptions/${subscriptionId}/mileage/settle`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN}` } });
    try {
      const answers = await Promise.all([settle(ctx.app), settle(replica.app), settle(ctx.app)]);
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
      const body = (await answers[0].json()) as { data: { settlement: { payment: unknown } } };
      expect(body.data.settlement.payment).toBeNull();
    } finally {
      await replica.close();
    }
    expect((await chargesOf(subscriptionId)).map((c) => [c.kind, c.amount])).toEqual([['MILEAGE', 100_000]]);
    const res = await ctx.call('POST', settleUrl(subscriptionId), { token: ADMIN, json: { damages: [] } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // The overage is not taken again: the deposit comes back whole.
    expect(res.body.data.settlement).toMatchObject({ status: 'DONE', to_charge: 0, to_refund: DEPOSIT });
    expect((await chargesOf(subscriptionId)).map((c) => [c.kind, c.amount]).sort()).toEqual([['MILEAGE', 100_000], ['SETTLEMENT_REFUND', -DEPOSIT]]);
    expect(await cardPaymentsOf(subscriptionId)).toEqual([]);
  });
});

describe('반납 정산 of a company subscription on the company card', () => {
  it('charges the rest to the company card (the admin sees it), not the driver', async () => {
    const { admin, company, driver, subscriptionId } = await returned({ invoice: false, start: '2035-01-10', returnOn: '2035-03-20', returnKm: 9_000 });
    const res = await ctx.call('POST', settleUrl(subscriptionId), { token: ADMIN, json: { damages: [{ description: '좌측 도어 찌그러짐', amount: 800_000 }, { description: '휠 긁힘', amount: 250_000 }] } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.settlement).toMatchObject({ status: 'DONE', to_charge: 150_000, payment: { status: 'PAID', amount: 150_000 } });
    const [companyRow] = await ctx.database.db.select().from(companies).where(eq(companies.id, company.id));
    const charged = (await cardPaymentsOf(subscriptionId)).filter((p) => p.purpose === 'SUBSCRIPTION_SETTLEMENT');
    expect(charged.map((p) => [p.billingKey, p.userId, p.amount])).toEqual([[companyRow.billingKey, admin.user.id, 150_000]]);
    expect(charged[0].userId).not.toBe(driver.user.id);
    expect(await chargesOf(subscriptionId)).toEqual([]);
    expect(await ctx.database.db.select().from(subscriptionSettlements).where(inArray(subscriptionSettlements.subscriptionId, [subscriptionId]))).toHaveLength(1);
    expect(await ctx.database.db.select().from(companySubscriptionMonths).where(eq(companySubscriptionMonths.subscriptionId, subscriptionId))).toEqual([]);
  });
});
