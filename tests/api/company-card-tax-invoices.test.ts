import { and, eq, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayInKorea } from '../../src/domain/dates';
import { APPROVAL_NUMBER } from '../../src/domain/invoices';
import { splitVat } from '../../src/domain/vat';
import { insertButlerCar, insertModel, insertTestCar, upsertBrand } from '../../src/api/seed/factories';
import { companyInvoiceLines, payments, sandboxTaxInvoices, taxInvoices } from '../../src/api/db/schema';
import { testConfig } from '../../src/api/env';
import { apiTools, billingKey, createTestContext, customer, type TestContext } from './helpers';
import { companyWithAdmin, join } from './company-helpers';

/**
 * A company's card payment is documented once (부가가치세법 제33조제2항): by the card slip
 * (CARD_TAX_DOCUMENT=card_slip, the default: no 세금계산서, the receipt says so), or by a
 * 전자세금계산서 per payment instead (tax_invoice: issued once under retries, named on the
 * receipt). A private payment never gets one; a card-paid trip is never on a statement as well.
 */

const at = (days: number, time: string) => `${addDays(todayInKorea(new Date()), days)}T${time}:00+09:00`;
let keys = 0;
const trip = (companyId: number) => ({
  start_at: at(10, '09:00'), start_location: '서울 강남구 테헤란로 152', end_at: at(10, '17:00'), end_location: '인천 중구 공항로 272',
  passenger_count: 1, purpose: '고객 의전', driver_preference: 'any', company: { company_id: companyId, request_key: `tax-form-${Date.now()}-${++keys}` },
});

async function setup(cardDocument: 'card_slip' | 'tax_invoice') {
  const ctx = await createTestContext({ invoices: { ...testConfig().invoices, cardDocument } });
  const brand = await upsertBrand(ctx.database.db, { name: 'Mercedes Benz', slug: `mercedes-tax-${cardDocument}` });
  const model = await insertModel(ctx.database.db, { brandId: brand.id, name: 'S-Class' });
  const car = await insertButlerCar(ctx.database.db, model.id, { subModel: 'S 580', butlerFee: 700_000, butlerOvertimeFee: null });
  return { ctx, butlerCarId: car.id };
}

const receipt = async (ctx: TestContext, paymentId: string) => (await ctx.app.request(`/sandbox/receipts/${paymentId}`, { headers: { host: 'localhost' } })).text();

describe('CARD_TAX_DOCUMENT=tax_invoice', () => {
  let ctx: TestContext;
  let butlerCarId: number;
  const tools = apiTools(() => ctx);
  beforeAll(async () => ({ ctx, butlerCarId } = await setup('tax_invoice')));
  afterAll(() => ctx.close());

  it('issues one 전자세금계산서 per company card payment, named on the receipt; a private payment gets none', async () => {
    const { admin, company } = await companyWithAdmin(ctx);
    const res = await ctx.call('POST', `/butlers/cars/${butlerCarId}/company-request`, { token: admin.token, json: trip(company.id) });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const paymentId = res.body.data.payment!.id;
    await tools.runJobs();
    await tools.runJobs();
    const docs = await ctx.database.db.select().from(taxInvoices).where(eq(taxInvoices.paymentId, paymentId));
    expect(docs).toHaveLength(1);
    const s = splitVat(700_000);
    expect(docs[0]).toMatchObject({ companyId: company.id, companyInvoiceId: null, kind: 'ORIGINAL', status: 'ISSUED', supplyAmount: s.supply, vatAmount: s.vat, totalAmount: 700_000, issueKey: `payment:${paymentId}` });
    expect(docs[0].approvalNumber).toMatch(APPROVAL_NUMBER);
    expect(await ctx.database.db.select().from(sandboxTaxInvoices).where(eq(sandboxTaxInvoices.approvalNumber, docs[0].approvalNumber!))).toHaveLength(1);
    const text = await receipt(ctx, paymentId);
    expect(text).toContain(`전자세금계산서 발급분 (승인번호 ${docs[0].approvalNumber})`);
    expect(text).not.toContain('신용카드매출전표:');
    // The trip is on no statement: the same supply is documented once.
    expect(await ctx.database.db.select().from(companyInvoiceLines).where(eq(companyInvoiceLines.butlerRequestId, res.body.data.butler_request.id))).toHaveLength(0);

    // A private customer's payment: no 세금계산서, no note.
    const { car } = await insertTestCar(ctx.database.db, { fees: { subscription_fee_1: 1_000_000 } });
    const person = await customer(ctx);
    const order = await ctx.call('POST', `/subscriptions/cars/${car.id}/request`, { token: person.token, json: { month: 1, billing_key: billingKey(ctx) } });
    expect(order.status).toBe(201);
    await tools.runJobs();
    expect(await ctx.database.db.select().from(taxInvoices).where(eq(taxInvoices.paymentId, order.body.data.payment!.id))).toHaveLength(0);
    expect(await receipt(ctx, order.body.data.payment!.id)).not.toContain('data-testid="receipt-tax-document"');
  });

  it('a company subscription’s first payment on the company card gets its document too', async () => {
    const { admin, company } = await companyWithAdmin(ctx);
    const driver = await customer(ctx);
    await join(ctx, admin.token, company.id, driver, 'DRIVER');
    const { car } = await insertTestCar(ctx.database.db, { fees: { subscription_fee_1: 1_000_000 } });
    const res = await ctx.call('POST', `/subscriptions/cars/${car.id}/company-request`, { token: admin.token, json: { month: 1, company: { company_id: company.id, request_key: `tax-sub-${++keys}-form`, driver_user_id: driver.user.id } } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    await tools.runJobs();
    const docs = await ctx.database.db.select().from(taxInvoices).where(and(eq(taxInvoices.companyId, company.id), isNotNull(taxInvoices.paymentId)));
    expect(docs.map((d) => [d.paymentId, d.status, d.totalAmount])).toEqual([[res.body.data.payment!.id, 'ISSUED', res.body.data.payment!.amount]]);
  });
});

describe('CARD_TAX_DOCUMENT=card_slip (the default)', () => {
  let ctx: TestContext;
  let butlerCarId: number;
  const tools = apiTools(() => ctx);
  beforeAll(async () => ({ ctx, butlerCarId } = await setup('card_slip')));
  afterAll(() => ctx.close());

  it('issues no 세금계산서 for a company card payment; the receipt says the slip is the evidence', async () => {
    const { admin, company } = await companyWithAdmin(ctx);
    const res = await ctx.call('POST', `/butlers/cars/${butlerCarId}/company-request`, { token: admin.token, json: trip(company.id) });
    expect(res.status).toBe(201);
    await tools.runJobs();
    const [paid] = await ctx.database.db.select().from(payments).where(eq(payments.id, res.body.data.payment!.id));
    expect(paid.status).toBe('PAID');
    expect(await ctx.database.db.select().from(taxInvoices)).toHaveLength(0);
    expect(await receipt(ctx, paid.id)).toContain('부가가치세법 제33조제2항에 따라 세금계산서를 따로 발급하지 않습니다');
  });
});
