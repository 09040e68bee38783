import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertTestCar } from '../../src/api/seed/factories';
import { cars, notificationMessages, payments } from '../../src/api/db/schema';
import { TEST_ADMIN_TOKEN } from '../../src/api/env';
import { issueSandboxBillingKey } from '../../src/api/billing/sandbox-provider';
import { defaultOptionPrices } from '../../src/domain/subscription-price';
import { anotherPlate, apiTools, createTestContext, customer, type TestContext } from './helpers';

/*
 * Issue 49: every amount says what it is made of. The first payment is named by its parts (첫 달
 * 구독료, 보증금, 선납금 … 합계), and the 선납금 credit belongs to the subscription: a swap keeps it
 * to the won.
 */

let ctx: TestContext;
let prepayCar: number;
let dearCar: number;
const ADMIN = TEST_ADMIN_TOKEN;
const PREPAY = 6_000_000;
const DEPOSIT = 500_000;

beforeAll(async () => {
  ctx = await createTestContext();
  ({ car: { id: prepayCar } } = await insertTestCar(ctx.database.db, { fees: { subscription_fee_1: 1_900_000, subscription_fee_12: 1_200_000 } }));
  ({ car: { id: dearCar } } = await insertTestCar(ctx.database.db, { brand: 'Porsche', model: 'Taycan', fees: { subscription_fee_12: 1_500_000 } }));
  const prices = defaultOptionPrices({ subscription_fee_minimum: 1_200_000 });
  await ctx.database.db.update(cars).set({ optionPrices: { ...prices, deposit: DEPOSIT, prepayment_max: PREPAY } }).where(eq(cars.id, prepayCar));
}, 180_000);
afterAll(() => ctx.close());

const { setClock, runJobs } = apiTools(() => ctx);
const options = { mileage_km: 2_500, driver_age: 'AGE_26', extra_drivers: 0, handover: 'PICKUP', prepayment: PREPAY };

/** A confirmed 12-month order with 선납금 6,000,000원 (500,000원 off each month) and 보증금 500,000원 from `start`. */
async function prepaid(start: string) {
  await setClock(`${start}T08:00:00+09:00`);
  const { token } = await customer(ctx);
  const req = await ctx.call('POST', `/subscriptions/cars/${await anotherPlate(ctx, prepayCar)}/request`, { token, json: { month: 12, billing_key: issueSandboxBillingKey(ctx.config, 'approve'), options } });
  expect(req.status).toBe(201);
  const request = req.body.data.subscription_request;
  const sub = (await ctx.call('POST', `/admin/subscription-requests/${request.id}/confirm`, { token: ADMIN, json: { start_date: start } })).body.data.subscription;
  return { token, requestId: request.id, subscriptionId: sub.id, quote: request.options!.quote };
}

describe('money labels and the 선납금 credit (issue 49)', () => {
  it('names the first payment by its parts on /payments, /payments/{id} and the request, never "1개월 차"', async () => {
    const { token, requestId, quote } = await prepaid('2029-03-10');
    expect(quote).toMatchObject({ prepayment_credit: 500_000, monthly: 700_000, deposit: DEPOSIT, prepayment: PREPAY });
    const list = (await ctx.call('GET', '/payments', { token })).body.data.payments;
    const first = list.find((p: { id: string }) => p.id === `subreq-${requestId}`);
    expect(first!.label).toBe('구독 첫 결제 (첫 달 구독료·보증금·선납금)');
    expect(first!.lines).toEqual([
      { label: '첫 달 구독료', amount: 700_000 },
      { label: '보증금 (반납 후 환급)', amount: DEPOSIT },
      { label: '선납금', amount: PREPAY },
      { label: '합계', amount: 700_000 + DEPOSIT + PREPAY },
    ]);
    expect(first!.amount).toBe(700_000 + DEPOSIT + PREPAY);
    expect((await ctx.call('GET', `/payments/subreq-${requestId}`, { token })).body.data.payment).toMatchObject({ label: first!.label, lines: first!.lines });
    expect((await ctx.call('GET', `/subscriptions/requests/${requestId}`, { token })).body.data.subscription_request.payment).toMatchObject({ label: first!.label });
    // The order-received email calls that amount the first payment, never "첫 달 결제".
    await runJobs();
    const mails = await ctx.database.db.select().from(notificationMessages).where(eq(notificationMessages.key, `subscription.requested:${requestId}`));
    expect(mails.length).toBeGreaterThan(0);
    for (const m of mails) {
      expect(m.text).toContain(`첫 결제 금액: ${(700_000 + DEPOSIT + PREPAY).toLocaleString('ko-KR')}원`);
      expect(m.text).not.toContain('첫 달 결제');
    }
  });

  it('a swap in month 2 keeps the 선납금 credit to the won: quoted, charged and billed on the new car', async () => {
    const { token, subscriptionId } = await prepaid('2030-03-10');
    await setClock('2030-04-10T10:00:00+09:00');
    await runJobs();
    const newCar = await anotherPlate(ctx, dearCar);
    await setClock('2030-04-20T10:00:00+09:00');
    // Month 2 runs 04-10 … 05-09 (30 days); 04-28 → 05-10 is 12 days: (1,000,000 − 700,000) × 12/30 = 120,000.
    const quoted = await ctx.call('GET', `/subscriptions/${subscriptionId}/swap?date=2030-04-28&car_id=${newCar}`, { token });
    expect(quoted.status).toBe(200);
    expect(quoted.body.data.quote).toMatchObject({ billing_month: 2, old_fee: 700_000, base_fee: 1_500_000, prepayment_credit: 500_000, credit_last_month: 12, new_fee: 1_000_000, adjustment: 120_000 });
    expect(quoted.body.data.cars.find((c: { id: number }) => c.id === newCar)).toMatchObject({ base_fee: 1_500_000, new_fee: 1_000_000 });
    const done = await ctx.call('POST', `/subscriptions/${subscriptionId}/swap`, { token, json: { date: '2030-04-28', car_id: newCar, quoted_adjustment: 120_000, quoted_fee: 1_000_000, price_consent: 1_000_000 } });
    expect(done.status).toBe(200);
    expect(done.body.data).toMatchObject({ swap: { new_fee: 1_000_000, adjustment: 120_000 }, payment: { amount: 120_000, status: 'PAID' } });
    // Months 3 … 12 are charged 1,500,000 − 500,000: 10 × 500,000 = 5,000,000 of the credit kept.
    for (const day of ['2030-05-10', '2030-06-10']) {
      await setClock(`${day}T10:00:00+09:00`);
      await runJobs();
    }
    const months = await ctx.database.db.select().from(payments).where(and(eq(payments.refId, subscriptionId), eq(payments.purpose, 'SUBSCRIPTION_MONTH')));
    expect(months.map((p) => [p.month, p.amount, p.status]).sort()).toEqual([[2, 700_000, 'PAID'], [3, 1_000_000, 'PAID'], [4, 1_000_000, 'PAID']]);
    const mine = (await ctx.call('GET', '/payments', { token })).body.data.payments.find((p: { month: number | null; purpose: string }) => p.purpose === 'SUBSCRIPTION_MONTH' && p.month === 3);
    expect(mine!.label).toBe('구독 월 요금 (3개월 차)');
  });

  it('an extension keeps the 선납금 credit on the order\'s months and adds its own months without it', async () => {
    const { token, subscriptionId } = await prepaid('2031-03-10');
    // Months 2 … 11 charged on their days: 1,200,000 − 500,000 each.
    for (let m = 2; m <= 11; m++) {
      await setClock(`${m <= 10 ? 2031 : 2032}-${String(((m + 1) % 12) + 1).padStart(2, '0')}-10T10:00:00+09:00`);
      await runJobs();
    }
    // The extension window is open (the end is 2032-03-09): one month more at the 1-month fee.
    const quote = await ctx.call('GET', `/subscriptions/${subscriptionId}/extension?months=1`, { token });
    expect(quote.status, JSON.stringify(quote.body)).toBe(200);
    expect(quote.body.data.quote).toMatchObject({ months: 1, monthly_fee: 1_900_000, first_month: 13 });
    const done = await ctx.call('POST', `/subscriptions/${subscriptionId}/extension`, { token, json: { months: 1, quoted_fee: 1_900_000, price_consent: 1_900_000, end_date: '2032-03-09' } });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    for (const day of ['2032-02-10', '2032-03-10']) {
      await setClock(`${day}T10:00:00+09:00`);
      await runJobs();
    }
    const months = await ctx.database.db.select().from(payments).where(and(eq(payments.refId, subscriptionId), eq(payments.purpose, 'SUBSCRIPTION_MONTH')));
    const byMonth = new Map(months.map((p) => [p.month, p.amount]));
    // Month 12 still carries the credit after the extension; month 13 (added) has none.
    expect([byMonth.get(2), byMonth.get(11), byMonth.get(12), byMonth.get(13)]).toEqual([700_000, 700_000, 700_000, 1_900_000]);
  });
});
