import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertButlerCar, insertModel, insertTestCar, upsertBrand } from '../../src/api/seed/factories';
import { butlerRequests, cars, companies, companyInvoiceLines, companyInvoices, jobs, notificationMessages, sandboxTaxInvoices, taxInvoices } from '../../src/api/db/schema';
import { TEST_ADMIN_TOKEN } from '../../src/api/env';
import { createJobRunner } from '../../src/api/job-handlers';
import { createPaymentProvider } from '../../src/api/billing/providers';
import { companyBookingBlock, issueMonthStatements } from '../../src/api/invoices/statements';
import { TAX_INVOICE_JOB } from '../../src/api/invoices/tax-invoices';
import { defaultOptionPrices } from '../../src/domain/subscription-price';
import { splitVat, sumVat } from '../../src/domain/vat';
import type { Database } from '../../src/api/db/client';
import { anotherPlate, apiTools, billingKey, createTestContext, customer, type TestContext } from './helpers';
import { companyWithAdmin, join } from './company-helpers';

/**
 * A month whose credits exceed its charges (docs/decisions/business-invoices.md): a 후불 company's
 * subscription returned with its deposit, in a month with less billed than that. The statement is
 * owed back to the company (negative, the sum of its lines); the deposit's credit is a 수정세금계산서
 * of the earlier month's document (부가가치세법 시행령 제70조: 공급가액 변동, dated the return),
 * never netted into this month's; this month's original documents this month's supplies only.
 * Under retries and two replicas: one statement, one line, one 수정세금계산서.
 */

let ctx: TestContext;
let depositCar: number;
let butlerCarId: number;
const DEPOSIT = 500_000;
const kst = (day: string, time = '07:00') => new Date(`${day}T${time}:00+09:00`);
const { setClock } = apiTools(() => ctx);

beforeAll(async () => {
  ctx = await createTestContext();
  ({ car: { id: depositCar } } = await insertTestCar(ctx.database.db, { fees: { subscription_fee_12: 555_000 } }));
  const prices = defaultOptionPrices({ subscription_fee_minimum: 555_000 });
  await ctx.database.db.update(cars).set({ optionPrices: { ...prices, deposit: DEPOSIT } }).where(eq(cars.id, depositCar));
  const brand = await upsertBrand(ctx.database.db, { name: 'Genesis', slug: 'genesis-credits' });
  const model = await insertModel(ctx.database.db, { brandId: brand.id, name: 'G90' });
  butlerCarId = (await insertButlerCar(ctx.database.db, model.id)).id;
});
afterAll(() => ctx.close());

const taxJobs = (db: Database['db'], name: string) =>
  createJobRunner({ db, payments: createPaymentProvider(db, ctx.config, ctx.clock), clock: ctx.clock, log: () => {}, config: ctx.config }, name)([TAX_INVOICE_JOB]);

describe('a month whose credits exceed its charges', () => {
  it('is a statement owed back; the deposit is a 수정세금계산서 of the month that billed it, once under retries and two replicas', async () => {
    // A 후불 company's 12-month subscription from 2034-05-10 (the deposit is in the first payment, May's statement).
    await setClock('2034-05-10T08:00:00+09:00');
    const { admin, company } = await companyWithAdmin(ctx, { card: false });
    await ctx.database.db.update(companies).set({ invoiceBilling: true }).where(eq(companies.id, company.id));
    const driver = await customer(ctx);
    await join(ctx, admin.token, company.id, driver, 'DRIVER');
    const req = await ctx.call('POST', `/subscriptions/cars/${await anotherPlate(ctx, depositCar)}/company-request`, {
      token: admin.token, json: { month: 12, company: { company_id: company.id, request_key: 'credits-form-1', driver_user_id: driver.user.id } },
    });
    expect(req.status, JSON.stringify(req.body)).toBe(201);
    const confirmed = await ctx.call('POST', `/admin/subscription-requests/${req.body.data.subscription_request.id}/confirm`, { token: TEST_ADMIN_TOKEN, json: { start_date: '2034-05-10' } });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(201);
    const subscriptionId = confirmed.body.data.subscription.id;

    // May's statement and its original.
    await setClock(kst('2034-06-01'));
    const [may] = await issueMonthStatements(ctx.database.db, { dueDay: 25 }, '2034-05', kst('2034-06-01'), company.id);
    await taxJobs(ctx.database.db, 'one');
    const [mayLine] = await ctx.database.db.select().from(companyInvoiceLines).where(eq(companyInvoiceLines.invoiceId, may));
    expect(mayLine.sourceKey).toBe(`sub:${subscriptionId}:m1`);
    const [mayOriginal] = await ctx.database.db.select().from(taxInvoices).where(eq(taxInvoices.companyInvoiceId, may));
    expect(mayOriginal).toMatchObject({ kind: 'ORIGINAL', status: 'ISSUED', totalAmount: mayLine.totalAmount });

    // July: one invoice-billed trip of 300,000, and the return on the 20th with the whole deposit back.
    await ctx.database.db.insert(butlerRequests).values({
      userId: admin.user.id, butlerCarId, startAt: kst('2034-07-03', '09:00'), endAt: kst('2034-07-03', '17:00'), startLocation: '서울 중구 세종대로 110', endLocation: '인천 중구 공항로 272',
      billingKey: billingKey(ctx), billingProvider: 'sandbox', baseFee: 300_000, finalPrice: 300_000, status: 'CONFIRMED', companyId: company.id, invoiceBilled: true, costCentre: '총무',
    });
    const read = (json: Record<string, unknown>) => ctx.call('POST', `/admin/subscriptions/${subscriptionId}/odometer`, { token: TEST_ADMIN_TOKEN, json });
    expect((await read({ km: 1_000, source: 'HANDOVER', read_on: '2034-05-10' })).status).toBe(200);
    await setClock('2034-07-20T10:00:00+09:00');
    expect((await read({ km: 3_000, source: 'RETURN' })).status).toBe(200);
    const settled = await ctx.call('POST', `/admin/subscriptions/${subscriptionId}/settlement`, { token: TEST_ADMIN_TOKEN, json: { damages: [] } });
    expect(settled.status, JSON.stringify(settled.body)).toBe(200);
    expect(settled.body.data.settlement).toMatchObject({ to_charge: 0, to_refund: DEPOSIT });

    // July's run on two replicas at once, then once more (a retried job).
    await setClock(kst('2034-08-01'));
    const replica = await ctx.openReplica();
    try {
      await Promise.all([
        issueMonthStatements(ctx.database.db, { dueDay: 25 }, '2034-07', kst('2034-08-01'), company.id),
        issueMonthStatements(replica.db, { dueDay: 25 }, '2034-07', kst('2034-08-01'), company.id),
      ]);
      expect(await issueMonthStatements(ctx.database.db, { dueDay: 25 }, '2034-07', kst('2034-08-01'), company.id)).toEqual([]);
      await Promise.all([taxJobs(ctx.database.db, 'one'), taxJobs(replica.db, 'two')]);
      await taxJobs(ctx.database.db, 'one');
    } finally {
      await replica.close();
    }
    const [july] = await ctx.database.db.select().from(companyInvoices).where(and(eq(companyInvoices.companyId, company.id), eq(companyInvoices.month, '2034-07')));
    const lines = await ctx.database.db.select().from(companyInvoiceLines).where(eq(companyInvoiceLines.invoiceId, july.id)).orderBy(asc(companyInvoiceLines.serviceDate));
    expect(lines.map((l) => [l.kind, l.totalAmount, l.serviceDate])).toEqual([['TRIP', 300_000, '2034-07-03'], ['CREDIT', -DEPOSIT, '2034-07-20']]);
    // The statement is the sum of its lines, below zero: 200,000 owed back.
    const sums = sumVat(lines.map((l) => ({ supply: l.supplyAmount, vat: l.vatAmount, total: l.totalAmount })));
    expect({ supply: july.supplyAmount, vat: july.vatAmount, total: july.totalAmount }).toEqual(sums);
    expect(july.totalAmount).toBe(300_000 - DEPOSIT);

    // July's original documents July's trip only; the deposit amends May's document, once.
    const docs = await ctx.database.db.select().from(taxInvoices).where(eq(taxInvoices.companyInvoiceId, july.id)).orderBy(asc(taxInvoices.id));
    const credit = splitVat(-DEPOSIT);
    expect(docs.map((t) => [t.kind, t.modificationType, t.amendsId, t.supplyAmount, t.vatAmount, t.totalAmount, t.writeDate, t.status])).toEqual([
      ['ORIGINAL', null, null, splitVat(300_000).supply, splitVat(300_000).vat, 300_000, '2034-07-31', 'ISSUED'],
      ['AMENDED', 'CHANGE_IN_SUPPLY_COST', mayOriginal.id, credit.supply, credit.vat, -DEPOSIT, '2034-07-20', 'ISSUED'],
    ]);
    expect(docs.reduce((a, t) => a + t.totalAmount, 0)).toBe(july.totalAmount);
    const [book] = await ctx.database.db.select().from(sandboxTaxInvoices).where(eq(sandboxTaxInvoices.approvalNumber, docs[1].approvalNumber!));
    expect(book.document.modification).toMatchObject({ type: 'CHANGE_IN_SUPPLY_COST', original_approval_number: mayOriginal.approvalNumber });
    expect(book.document.items[0].name).toBe('2034년 5월 청구서 수정 (공급가액 변동)');
    expect(await ctx.database.db.select().from(sandboxTaxInvoices).where(eq(sandboxTaxInvoices.supplierKey, book.supplierKey))).toHaveLength(1);
    // May's own documents are untouched.
    expect(await ctx.database.db.select().from(taxInvoices).where(eq(taxInvoices.companyInvoiceId, may))).toHaveLength(1);

    // Its admin reads what comes back and what it is made of; nothing is overdue; staff record the transfer back.
    const view = await ctx.call('GET', `/companies/${company.id}/statements/${july.id}`, { token: admin.token });
    expect(view.status).toBe(200);
    expect(view.body.data.statement).toMatchObject({ total: -200_000, status_label: '환급 예정', overdue: false });
    expect(await ctx.database.db.select().from(jobs).where(eq(jobs.key, `notify:company.statement_credit:${july.id}:${admin.user.id}`))).toHaveLength(1);
    expect(await ctx.database.db.select().from(jobs).where(eq(jobs.key, `notify:company.statement_issued:${july.id}:${admin.user.id}`))).toHaveLength(0);
    await ctx.call('POST', '/admin/billing/run', { token: TEST_ADMIN_TOKEN });
    const told = await ctx.database.db.select().from(notificationMessages).where(eq(notificationMessages.key, `company.statement_credit:${july.id}:${admin.user.id}`));
    expect(told.length).toBeGreaterThan(0);
    for (const m of told) for (const text of ['돌려드릴 금액', '200,000원', '181,818원', '18,182원', '수정세금계산서']) expect(m.text, m.channel).toContain(text);
    // (May's statement paid, July's owed-back one blocks nothing after its due day.)
    expect((await ctx.call('POST', `/admin/company-invoices/${may}/paid`, { token: TEST_ADMIN_TOKEN })).status).toBe(200);
    expect(await companyBookingBlock(ctx.database.db, company.id, kst('2034-09-01'))).toBeNull();
    const paid = await ctx.call('POST', `/admin/company-invoices/${july.id}/paid`, { token: TEST_ADMIN_TOKEN });
    expect(paid.status).toBe(200);
    expect(paid.body.data.statement).toMatchObject({ status: 'PAID', status_label: '환급 완료' });
  });

  it('a month of credits only has no original of its own: the statement is the credit, documented by the earlier month’s 수정세금계산서', async () => {
    await setClock('2035-01-10T08:00:00+09:00');
    const { admin, company } = await companyWithAdmin(ctx, { card: false });
    await ctx.database.db.update(companies).set({ invoiceBilling: true }).where(eq(companies.id, company.id));
    const driver = await customer(ctx);
    await join(ctx, admin.token, company.id, driver, 'DRIVER');
    const req = await ctx.call('POST', `/subscriptions/cars/${await anotherPlate(ctx, depositCar)}/company-request`, {
      token: admin.token, json: { month: 12, company: { company_id: company.id, request_key: 'credits-form-2', driver_user_id: driver.user.id } },
    });
    expect(req.status, JSON.stringify(req.body)).toBe(201);
    const confirmed = await ctx.call('POST', `/admin/subscription-requests/${req.body.data.subscription_request.id}/confirm`, { token: TEST_ADMIN_TOKEN, json: { start_date: '2035-01-10' } });
    const subscriptionId = confirmed.body.data.subscription.id;
    await setClock(kst('2035-02-01'));
    const [jan] = await issueMonthStatements(ctx.database.db, { dueDay: 25 }, '2035-01', kst('2035-02-01'), company.id);
    await taxJobs(ctx.database.db, 'one');
    const [janOriginal] = await ctx.database.db.select().from(taxInvoices).where(eq(taxInvoices.companyInvoiceId, jan));
    const read = (json: Record<string, unknown>) => ctx.call('POST', `/admin/subscriptions/${subscriptionId}/odometer`, { token: TEST_ADMIN_TOKEN, json });
    expect((await read({ km: 1_000, source: 'HANDOVER', read_on: '2035-01-10' })).status).toBe(200);
    await setClock('2035-03-20T10:00:00+09:00');
    expect((await read({ km: 2_000, source: 'RETURN' })).status).toBe(200);
    const settled = await ctx.call('POST', `/admin/subscriptions/${subscriptionId}/settlement`, { token: TEST_ADMIN_TOKEN, json: { damages: [{ description: '앞범퍼 긁힘', amount: 120_000 }] } });
    expect(settled.status, JSON.stringify(settled.body)).toBe(200);
    await setClock(kst('2035-04-01'));
    await issueMonthStatements(ctx.database.db, { dueDay: 25 }, '2035-03', kst('2035-04-01'), company.id);
    await taxJobs(ctx.database.db, 'one');
    const [march] = await ctx.database.db.select().from(companyInvoices).where(and(eq(companyInvoices.companyId, company.id), eq(companyInvoices.month, '2035-03')));
    expect(march).toMatchObject({ totalAmount: -(DEPOSIT - 120_000), ...{ supplyAmount: splitVat(-(DEPOSIT - 120_000)).supply } });
    const docs = await ctx.database.db.select().from(taxInvoices).where(eq(taxInvoices.companyInvoiceId, march.id));
    expect(docs.map((t) => [t.kind, t.amendsId, t.totalAmount, t.status])).toEqual([['AMENDED', janOriginal.id, -(DEPOSIT - 120_000), 'ISSUED']]);
    // The console's list reads the 수정세금계산서' state for it.
    const list = await ctx.call('GET', `/admin/company-invoices?company_id=${company.id}&month=2035-03`, { token: TEST_ADMIN_TOKEN });
    expect(list.body.data.statements[0]).toMatchObject({ tax_invoice_status: 'ISSUED', status_label: '환급 예정' });
  });
});
