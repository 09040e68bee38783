import { and, asc, eq, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayInKorea } from '../../src/domain/dates';
import { APPROVAL_NUMBER } from '../../src/domain/invoices';
import { splitVat } from '../../src/domain/vat';
import { insertButlerCar, insertModel, insertTestCar, upsertBrand } from '../../src/api/seed/factories';
import { auditLog, companyInvoiceLines, payments, sandboxTaxInvoices, taxInvoices } from '../../src/api/db/schema';
import { refundPayment } from '../../src/api/billing/refunds';
import { createPaymentProvider } from '../../src/api/billing/providers';
import { refundFollowUp } from '../../src/api/charge-outcomes';
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
const trip = (companyId: number, day = 10) => ({
  start_at: at(day, '09:00'), start_location: '서울 강남구 테헤란로 152', end_at: at(day, '17:00'), end_location: '인천 중구 공항로 272',
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

  it('a refund issues one 수정세금계산서 per refund (retries, two replicas), linked to the 승인번호; staff list, resend and reissue it', async () => {
    const { admin, company } = await companyWithAdmin(ctx);
    const res = await ctx.call('POST', `/butlers/cars/${butlerCarId}/company-request`, { token: admin.token, json: trip(company.id, 12) });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const paymentId = res.body.data.payment!.id;
    await tools.runJobs();
    const [original] = await ctx.database.db.select().from(taxInvoices).where(eq(taxInvoices.issueKey, `payment:${paymentId}`));
    expect(original.status).toBe('ISSUED');

    // A part refunded: the same refund asked twice at once on two replicas, then once more (a retry).
    const replica = await ctx.openReplica();
    const on = (db: typeof ctx.database.db) => ({ db, payments: createPaymentProvider(db, ctx.config, ctx.clock), clock: ctx.clock, log: () => {}, refunded: refundFollowUp });
    const part = { paymentId, amount: 200_000, reason: '일정 단축', actor: 'system', key: `refund:test:${paymentId}:part` };
    await Promise.all([refundPayment(on(ctx.database.db), part), refundPayment(on(replica.db), part)]);
    await refundPayment(on(ctx.database.db), part);
    await replica.close();
    await tools.runJobs();
    await tools.runJobs();
    // The rest refunded by staff (audited as the payment's refund).
    const rest = await tools.admin('POST', `/admin/payments/${paymentId}/refund`, { reason: '고객사 요청 취소' });
    expect(rest.status, JSON.stringify(rest.body)).toBe(200);
    await tools.runJobs();

    const amended = await ctx.database.db.select().from(taxInvoices).where(and(eq(taxInvoices.paymentId, paymentId), eq(taxInvoices.kind, 'AMENDED'))).orderBy(asc(taxInvoices.id));
    const p = splitVat(-200_000);
    const r = splitVat(-500_000);
    expect(amended.map((t) => [t.amendsId, t.companyId, t.modificationType, t.supplyAmount, t.vatAmount, t.totalAmount, t.status, t.writeDate])).toEqual([
      [original.id, company.id, 'CHANGE_IN_SUPPLY_COST', p.supply, p.vat, -200_000, 'ISSUED', todayInKorea(ctx.clock.now())],
      [original.id, company.id, 'CHANGE_IN_SUPPLY_COST', r.supply, r.vat, -500_000, 'ISSUED', todayInKorea(ctx.clock.now())],
    ]);
    const [doc] = await ctx.database.db.select().from(sandboxTaxInvoices).where(eq(sandboxTaxInvoices.approvalNumber, amended[0].approvalNumber!));
    expect(doc.document.modification).toMatchObject({ type: 'CHANGE_IN_SUPPLY_COST', original_approval_number: original.approvalNumber });
    expect(doc.document).toMatchObject({ total: -200_000, recipient: { business_number: company.business_number.replace(/\D/g, '') } });

    // The console's list: with the payment each belongs to.
    const list = await tools.admin('GET', '/admin/tax-invoices');
    expect(list.status).toBe(200);
    const mine = list.body.data.tax_invoices.filter((t: { payment: { id: string } | null }) => t.payment?.id === paymentId);
    expect(mine.map((t: { id: number; statement_id: number | null; company: { id: number } }) => [t.id, t.statement_id, t.company.id])).toEqual([
      [amended[1].id, null, company.id], [amended[0].id, null, company.id], [original.id, null, company.id],
    ]);
    expect(mine[0].payment).toMatchObject({ id: paymentId, amount: 700_000, refunded_amount: 700_000 });
    expect(mine[0]).toMatchObject({ amends_approval_number: original.approvalNumber, company: { invoice_email: 'tax@example.com' } });
    expect(mine[2].amends_approval_number).toBeNull();
    expect(list.body.data.card_document).toBe('tax_invoice');
    // The console's 카드 결제 세금계산서 lists the card payments' documents only.
    const cards = await tools.admin('GET', '/admin/tax-invoices?source=payment');
    expect(cards.status).toBe(200);
    expect(cards.body.data.tax_invoices.every((t: { payment: unknown; statement_id: unknown }) => t.payment !== null && t.statement_id === null)).toBe(true);
    expect(cards.body.data.tax_invoices.map((t: { id: number }) => t.id)).toEqual(expect.arrayContaining([original.id, amended[0].id]));
    expect((await tools.admin('GET', '/admin/tax-invoices?source=statement')).body.data.tax_invoices.map((t: { id: number }) => t.id)).not.toContain(original.id);
    const bad = await tools.admin('GET', '/admin/tax-invoices?source=card');
    expect(bad.status).toBe(400);
    expect(bad.body.errors.source[0]).toContain('구분은 statement 또는 payment');

    // Resend and reissue (the 기재사항 착오·정정 pair, once), both audited.
    expect((await tools.admin('POST', `/admin/tax-invoices/${original.id}/resend`)).status).toBe(200);
    const re = await tools.admin('POST', `/admin/tax-invoices/${original.id}/reissue`, { reason: '상호 변경 반영' });
    expect(re.status, JSON.stringify(re.body)).toBe(200);
    expect(re.body.data.statement).toBeNull();
    await tools.runJobs();
    const pair = await ctx.database.db.select().from(taxInvoices).where(and(eq(taxInvoices.amendsId, original.id), eq(taxInvoices.modificationType, 'CORRECTION_OF_ENTRY_ERRORS'))).orderBy(asc(taxInvoices.id));
    expect(pair.map((t) => [t.paymentId, t.companyId, t.totalAmount, t.status])).toEqual([[paymentId, company.id, -700_000, 'ISSUED'], [paymentId, company.id, 700_000, 'ISSUED']]);
    expect((await tools.admin('POST', `/admin/tax-invoices/${original.id}/reissue`, { reason: '또' })).status).toBe(409);
    const audit = await ctx.database.db.select().from(auditLog).where(and(eq(auditLog.entity, 'tax_invoice'), eq(auditLog.entityId, String(original.id))));
    expect(audit.map((a) => a.action).sort()).toEqual(['reissue', 'resend']);

    // A stranger (another company's admin) reads, resends and reissues none of it, nor opens the document.
    const stranger = await companyWithAdmin(ctx);
    expect((await ctx.call('GET', '/admin/tax-invoices', { token: stranger.admin.token })).status).toBe(403);
    expect((await ctx.call('POST', `/admin/tax-invoices/${original.id}/resend`, { token: stranger.admin.token })).status).toBe(403);
    expect((await ctx.call('POST', `/admin/tax-invoices/${original.id}/reissue`, { token: stranger.admin.token, json: { reason: '내 마음' } })).status).toBe(403);
    const remote = { 'x-forwarded-for': '203.0.113.9', authorization: `Bearer ${stranger.admin.token}` };
    const url = amended[0].documentUrl!.replace(/^\/api/, '');
    expect((await ctx.app.request(url.split('?')[0], { headers: remote })).status).toBe(404);
    const page = await ctx.app.request(url, { headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(page.status).toBe(200);
    const text = await page.text();
    expect(text).toContain('수정전자세금계산서');
    expect(text).toContain(original.approvalNumber!);
  });

  it('a whole card payment refunded is a 계약의 해제; refunded before its document failed, it is amended by none', async () => {
    const { admin, company } = await companyWithAdmin(ctx);
    const whole = await ctx.call('POST', `/butlers/cars/${butlerCarId}/company-request`, { token: admin.token, json: trip(company.id, 14) });
    const wholeId = whole.body.data.payment!.id;
    await tools.runJobs();
    expect((await tools.admin('POST', `/admin/payments/${wholeId}/refund`, { reason: '예약 취소' })).status).toBe(200);
    await tools.runJobs();
    const docs = await ctx.database.db.select().from(taxInvoices).where(eq(taxInvoices.paymentId, wholeId)).orderBy(asc(taxInvoices.id));
    expect(docs.map((t) => [t.kind, t.modificationType, t.totalAmount, t.status])).toEqual([['ORIGINAL', null, 700_000, 'ISSUED'], ['AMENDED', 'CANCELLATION_OF_CONTRACT', -700_000, 'ISSUED']]);

    // An original that failed: the refund is carried into it (issued again with what stays paid), not amended.
    const other = await ctx.call('POST', `/butlers/cars/${butlerCarId}/company-request`, { token: admin.token, json: trip(company.id, 16) });
    const otherId = other.body.data.payment!.id;
    await tools.runJobs();
    await ctx.database.db.update(taxInvoices).set({ status: 'FAILED', failureReason: '테스트' }).where(eq(taxInvoices.issueKey, `payment:${otherId}`));
    expect((await tools.admin('POST', `/admin/payments/${otherId}/refund`, { amount: 100_000, reason: '일부 환불' })).status).toBe(200);
    await tools.runJobs();
    const after = await ctx.database.db.select().from(taxInvoices).where(eq(taxInvoices.paymentId, otherId));
    expect(after.map((t) => [t.kind, t.totalAmount, t.status])).toEqual([['ORIGINAL', 600_000, 'FAILED']]);
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
