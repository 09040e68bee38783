import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJobRunner } from '../../src/api/job-handlers';
import { createPaymentProvider } from '../../src/api/billing/providers';
import { companyBookingBlock, scheduleStatements, STATEMENT_JOB, issueMonthStatements } from '../../src/api/invoices/statements';
import { issueTaxInvoiceJob, TAX_INVOICE_JOB } from '../../src/api/invoices/tax-invoices';
import { createTaxInvoiceProvider } from '../../src/api/invoices/providers';
import { auditLog, butlerRequests, companies, companyInvoiceLines, companyInvoices, companyMembers, jobs, sandboxTaxInvoices, taxInvoices } from '../../src/api/db/schema';
import { insertButlerCar, insertModel, insertUser, upsertBrand } from '../../src/api/seed/factories';
import { openSession } from '../../src/api/accounts/sessions';
import { APPROVAL_NUMBER } from '../../src/domain/invoices';
import { splitVat, sumVat } from '../../src/domain/vat';
import type { TripCharge } from '../../src/domain/waiting';
import type { Database } from '../../src/api/db/client';
import { apiTools, billingKey, createTestContext, type TestContext } from './helpers';

/**
 * Issue 52, invoices and tax documents: the monthly statement of a 후불 company (its lines, their
 * cost centres, totals that are the sums of the lines), one statement and one 전자세금계산서 per
 * company and month under retries and two replicas, the 수정세금계산서 of a refund, staff's resend
 * and reissue, the overdue block, and the isolation of one company's statements from another's.
 */

let ctx: TestContext;
let replica: Database;
let carId: number;
const kst = (day: string, time = '09:00') => new Date(`${day}T${time}:00+09:00`);
const { admin: staff } = apiTools(() => ctx);

async function company(name: string, businessNumber: string, admin: number) {
  const [row] = await ctx.database.db
    .insert(companies)
    .values({ name, businessNumber, ceo: '김대표', businessType: '서비스', businessItem: '경영 컨설팅', address: '서울특별시 중구 세종대로 110', invoiceEmail: `tax@${businessNumber}.example.com`, businessStatus: 'ACTIVE', statusCheckedAt: kst('2026-10-01'), authority: 'CEO', invoiceBilling: true, createdByUserId: admin })
    .returning();
  await ctx.database.db.insert(companyMembers).values({ companyId: row.id, userId: admin, role: 'ADMIN' });
  return row;
}

async function person() {
  const user = await insertUser(ctx.database.db);
  return { user, token: (await openSession(ctx.database.db, ctx.config, user.id)).access_token };
}

const afterCharge = (amount: number): TripCharge => ({
  booked_hours: 8, used_minutes: 600, used_hours: 10, overtime_hours: 2, overtime_rate: amount / 2, overtime_coupon: 0, overtime_amount: amount,
  airport: false, waiting_minutes: 0, free_minutes: 15, step_minutes: 30, waiting_steps: 0, step_price: 0, waiting_amount: 0, prepaid: 0, amount,
});

async function trip(companyId: number | null, userId: number, o: { day: string; price: number; costCentre?: string; after?: number; status?: 'CONFIRMED' | 'CANCELLED'; invoiceBilled?: boolean }) {
  const [row] = await ctx.database.db
    .insert(butlerRequests)
    .values({
      userId, butlerCarId: carId, startAt: kst(o.day), endAt: kst(o.day, '17:00'), startLocation: '서울 중구 세종대로 110', endLocation: '인천 중구 공항로 272',
      billingKey: billingKey(ctx), billingProvider: 'sandbox', baseFee: o.price, finalPrice: o.price, status: o.status ?? 'CONFIRMED',
      companyId, costCentre: o.costCentre ?? null, invoiceBilled: o.invoiceBilled ?? companyId !== null,
      ...(o.after ? { tripCharge: afterCharge(o.after), actualStartAt: kst(o.day), actualEndAt: kst(o.day, '19:00') } : {}),
    })
    .returning();
  return row;
}

const runner = (db: Database['db'], name: string) =>
  createJobRunner({ db, payments: createPaymentProvider(db, ctx.config, ctx.clock), clock: ctx.clock, log: () => {}, config: ctx.config }, name);

let A: typeof companies.$inferSelect;
let B: typeof companies.$inferSelect;
let adminA: Awaited<ReturnType<typeof person>>;
let adminB: Awaited<ReturnType<typeof person>>;
let invoiceA: typeof companyInvoices.$inferSelect;
let invoiceB: typeof companyInvoices.$inferSelect;

beforeAll(async () => {
  ctx = await createTestContext();
  replica = await ctx.openReplica();
  const brand = await upsertBrand(ctx.database.db, { name: 'Mercedes-Benz', slug: 'mercedes-benz' });
  const model = await insertModel(ctx.database.db, { brandId: brand.id, name: 'S-Class' });
  carId = (await insertButlerCar(ctx.database.db, model.id)).id;
  adminA = await person();
  adminB = await person();
  A = await company('주식회사 에이', '1234567890', adminA.user.id);
  B = await company('주식회사 비', '2345678901', adminB.user.id);
  // November 2026: two billed trips of A (one with a charge after it), one of B; and what is not billed.
  await trip(A.id, adminA.user.id, { day: '2026-11-03', price: 800_000, costCentre: '영업1팀', after: 330_000 });
  await trip(A.id, adminA.user.id, { day: '2026-11-20', price: 770_000, costCentre: '경영지원' });
  await trip(A.id, adminA.user.id, { day: '2026-11-21', price: 500_000, status: 'CANCELLED' });
  await trip(A.id, adminA.user.id, { day: '2026-11-22', price: 600_000, invoiceBilled: false });
  await trip(A.id, adminA.user.id, { day: '2026-12-02', price: 900_000 });
  await trip(null, adminA.user.id, { day: '2026-11-05', price: 700_000 });
  await trip(B.id, adminB.user.id, { day: '2026-11-10', price: 1_100_000, costCentre: 'R&D' });
});

afterAll(async () => {
  await replica.close();
  await ctx.close();
});

describe('the monthly statement of a 후불 company', () => {
  it('is made once per company and month by the monthly job, on two replicas at once, with one 전자세금계산서 each', async () => {
    ctx.clock.set(kst('2026-11-15'));
    await scheduleStatements(ctx.database.db, ctx.clock.now());
    await scheduleStatements(replica.db, ctx.clock.now());
    const [job] = await ctx.database.db.select().from(jobs).where(eq(jobs.key, `${STATEMENT_JOB}:2026-11`));
    expect(job.runAt.toISOString()).toBe(kst('2026-12-01', '06:00').toISOString());
    // Before its day nothing runs.
    await runner(ctx.database.db, 'one')([STATEMENT_JOB]);
    expect(await ctx.database.db.select().from(companyInvoices)).toHaveLength(0);

    ctx.clock.set(kst('2026-12-01', '06:30'));
    await Promise.all([runner(ctx.database.db, 'one')([STATEMENT_JOB, TAX_INVOICE_JOB]), runner(replica.db, 'two')([STATEMENT_JOB, TAX_INVOICE_JOB]), issueMonthStatements(replica.db, { dueDay: 25 }, '2026-11', ctx.clock.now())]);
    await runner(ctx.database.db, 'one')([TAX_INVOICE_JOB]);

    const invoices = await ctx.database.db.select().from(companyInvoices).orderBy(companyInvoices.companyId);
    expect(invoices.map((i) => [i.companyId, i.month])).toEqual([[A.id, '2026-11'], [B.id, '2026-11']]);
    [invoiceA, invoiceB] = invoices;
    const taxes = await ctx.database.db.select().from(taxInvoices);
    expect(taxes).toHaveLength(2);
    expect(await ctx.database.db.select().from(sandboxTaxInvoices)).toHaveLength(2);
    for (const t of taxes) {
      expect(t).toMatchObject({ status: 'ISSUED', kind: 'ORIGINAL', writeDate: '2026-11-30', provider: 'sandbox' });
      expect(t.approvalNumber).toMatch(APPROVAL_NUMBER);
      expect(t.approvalNumber!.startsWith('20261130-')).toBe(true);
    }
    // The chain goes on: December's statements are queued for January 1st.
    expect(await ctx.database.db.select().from(jobs).where(eq(jobs.key, `${STATEMENT_JOB}:2026-12`))).toHaveLength(1);
  });

  it("lists the month's billed trips and their later charges with cost centres; the totals are the sums of the lines", async () => {
    const res = await ctx.call('GET', `/companies/${A.id}/statements/${invoiceA.id}`, { token: adminA.token });
    expect(res.status).toBe(200);
    const s = res.body.data.statement;
    expect(s).toMatchObject({ month: '2026-11', month_label: '2026년 11월', status: 'ISSUED', due_date: '2026-12-25', tax_invoice_deadline: '2026-12-10', overdue: false });
    expect(s.lines.map((l: { kind: string; cost_centre: string | null; total: number }) => [l.kind, l.cost_centre, l.total])).toEqual([
      ['TRIP', '영업1팀', 800_000],
      ['AFTER_TRIP', '영업1팀', 330_000],
      ['TRIP', '경영지원', 770_000],
    ]);
    for (const l of s.lines) expect(l).toMatchObject(splitVat(l.total));
    const sums = sumVat(s.lines);
    expect({ supply: s.supply, vat: s.vat, total: s.total }).toEqual(sums);
    expect(s.total).toBe(800_000 + 330_000 + 770_000);
    // The tax invoice says the same amounts.
    expect(s.tax_invoices).toHaveLength(1);
    expect(s.tax_invoices[0]).toMatchObject({ supply: sums.supply, vat: sums.vat, total: sums.total, status_label: '발행 완료' });
  });

  it('a retried statement run or tax-invoice job makes nothing twice', async () => {
    expect(await issueMonthStatements(ctx.database.db, { dueDay: 25 }, '2026-11', ctx.clock.now())).toEqual([]);
    const [t] = await ctx.database.db.select().from(taxInvoices).where(eq(taxInvoices.companyInvoiceId, invoiceA.id));
    // A second run of the issue job (a crash after the provider answered): the same document, one 승인번호.
    await ctx.database.db.update(taxInvoices).set({ status: 'PENDING' }).where(eq(taxInvoices.id, t.id));
    const fakeJob = { payload: { taxInvoiceId: t.id } } as unknown as Parameters<typeof issueTaxInvoiceJob>[1];
    await issueTaxInvoiceJob({ db: ctx.database.db, config: ctx.config, clock: ctx.clock, taxInvoices: createTaxInvoiceProvider(ctx.database.db, ctx.config, ctx.clock) }, fakeJob);
    const [again] = await ctx.database.db.select().from(taxInvoices).where(eq(taxInvoices.id, t.id));
    expect(again).toMatchObject({ status: 'ISSUED', approvalNumber: t.approvalNumber, providerId: t.providerId });
    expect(await ctx.database.db.select().from(sandboxTaxInvoices)).toHaveLength(2);
    expect(await ctx.database.db.select().from(companyInvoiceLines).where(eq(companyInvoiceLines.invoiceId, invoiceA.id))).toHaveLength(3);
  });

  it('the sandbox document is viewable at its keyed URL, and nobody else reads it', async () => {
    const [t] = await ctx.database.db.select().from(taxInvoices).where(eq(taxInvoices.companyInvoiceId, invoiceA.id));
    const url = t.documentUrl!.replace(/^\/api/, '');
    const remote = { 'x-forwarded-for': '203.0.113.9' };
    const page = await ctx.app.request(url, { headers: remote });
    expect(page.status).toBe(200);
    const text = await page.text();
    for (const s of ['전자세금계산서', t.approvalNumber!, '123-45-67890', '주식회사 에이', '영업1팀', '공급가액', '세액', '합계금액', '1,900,000원']) expect(text).toContain(s);
    expect((await ctx.app.request(url.replace(/key=[^&]+/, 'key=wrong'), { headers: remote })).status).toBe(404);
    expect((await ctx.app.request(url.split('?')[0], { headers: remote })).status).toBe(404);
  });
});

describe('who reads a statement', () => {
  it("a company's admin sees their own company's statements only", async () => {
    const mine = await ctx.call('GET', '/companies/statements', { token: adminA.token });
    expect(mine.status).toBe(200);
    expect(mine.body.data.companies.map((c: { id: number }) => c.id)).toEqual([A.id]);
    expect(mine.body.data.companies[0].statements.map((s: { id: number }) => s.id)).toEqual([invoiceA.id]);
    // Company B's statement, under either company's id: as if it did not exist.
    expect((await ctx.call('GET', `/companies/${A.id}/statements/${invoiceB.id}`, { token: adminA.token })).status).toBe(404);
    expect((await ctx.call('GET', `/companies/${B.id}/statements/${invoiceB.id}`, { token: adminA.token })).status).toBe(404);
    expect((await ctx.call('GET', `/companies/${B.id}/statements/${invoiceB.id}`, { token: adminB.token })).status).toBe(200);
  });

  it('a booker of the company is refused, a stranger and a removed admin learn nothing, no token is 401', async () => {
    const booker = await person();
    await ctx.database.db.insert(companyMembers).values({ companyId: A.id, userId: booker.user.id, role: 'BOOKER' });
    const asBooker = await ctx.call('GET', `/companies/${A.id}/statements/${invoiceA.id}`, { token: booker.token });
    expect(asBooker.status).toBe(403);
    expect(asBooker.body.message).toBe('청구서는 회사 관리자만 볼 수 있습니다.');
    expect((await ctx.call('GET', '/companies/statements', { token: booker.token })).body.data.companies).toEqual([]);
    const stranger = await person();
    expect((await ctx.call('GET', `/companies/${A.id}/statements/${invoiceA.id}`, { token: stranger.token })).status).toBe(404);
    const former = await person();
    await ctx.database.db.insert(companyMembers).values({ companyId: A.id, userId: former.user.id, role: 'ADMIN', removedAt: kst('2026-11-01') });
    expect((await ctx.call('GET', `/companies/${A.id}/statements/${invoiceA.id}`, { token: former.token })).status).toBe(404);
    expect((await ctx.call('GET', `/companies/${A.id}/statements/${invoiceA.id}`)).status).toBe(401);
    expect((await ctx.call('GET', `/companies/${A.id}/statements/abc`, { token: adminA.token })).status).toBe(400);
    // The console is staff's: a company admin is refused there.
    expect((await ctx.call('GET', '/admin/company-invoices', { token: adminA.token })).status).toBe(403);
  });

  it('staff list and view statements and tax invoices', async () => {
    const list = await staff('GET', '/admin/company-invoices?month=2026-11');
    expect(list.status).toBe(200);
    expect(list.body.data.statements.map((s: { id: number }) => s.id).sort()).toEqual([invoiceA.id, invoiceB.id].sort());
    expect(list.body.data.statements[0].tax_invoice_status).toBe('ISSUED');
    expect((await staff('GET', `/admin/company-invoices?company_id=${B.id}`)).body.data.statements.map((s: { id: number }) => s.id)).toEqual([invoiceB.id]);
    expect((await staff('GET', `/admin/company-invoices/${invoiceB.id}`)).body.data.statement.lines).toHaveLength(1);
    expect((await staff('GET', '/admin/tax-invoices?status=ISSUED')).body.data.tax_invoices.length).toBeGreaterThanOrEqual(2);
    expect((await staff('GET', '/admin/company-invoices?month=2026-13')).status).toBe(400);
    expect((await staff('GET', '/admin/tax-invoices?status=LOST')).status).toBe(400);
    expect((await staff('GET', '/admin/company-invoices/999999')).status).toBe(404);
  });
});

describe('an overdue statement blocks new bookings of its company', () => {
  it('says so in Korean after the due day, and lifts once staff record the payment', async () => {
    ctx.clock.set(kst('2026-12-25', '20:00'));
    expect(await companyBookingBlock(ctx.database.db, A.id, ctx.clock.now())).toBeNull();
    ctx.clock.set(kst('2026-12-26', '09:00'));
    const message = await companyBookingBlock(ctx.database.db, A.id, ctx.clock.now());
    expect(message).toContain('2026년 11월 청구서');
    expect(message).toContain('납부 기한(2026-12-25)');
    expect(message).toContain('새 예약을 할 수 없습니다');
    const view = await ctx.call('GET', `/companies/${A.id}/statements/${invoiceA.id}`, { token: adminA.token });
    expect(view.body.data.statement).toMatchObject({ overdue: true, status_label: '미납 (기한 경과)' });
    // Company B has its own statement, overdue too; paying A's lifts A's block only.
    const paid = await staff('POST', `/admin/company-invoices/${invoiceA.id}/paid`);
    expect(paid.status).toBe(200);
    expect(paid.body.data.statement).toMatchObject({ status: 'PAID', overdue: false });
    expect(await companyBookingBlock(ctx.database.db, A.id, ctx.clock.now())).toBeNull();
    expect(await companyBookingBlock(ctx.database.db, B.id, ctx.clock.now())).not.toBeNull();
    expect((await staff('POST', `/admin/company-invoices/${invoiceA.id}/paid`)).status).toBe(409);
    const audit = await ctx.database.db.select().from(auditLog).where(and(eq(auditLog.entity, 'company_invoice'), eq(auditLog.entityId, String(invoiceA.id))));
    expect(audit.map((a) => a.action)).toEqual(['mark_paid']);
  });
});

describe('a refund of a billed line issues a 수정세금계산서', () => {
  it('credits the line on the statement (totals stay the sums of the lines) and issues the negative document, once', async () => {
    const lines = await ctx.database.db.select().from(companyInvoiceLines).where(eq(companyInvoiceLines.invoiceId, invoiceB.id));
    const line = lines[0];
    const res = await staff('POST', `/admin/company-invoice-lines/${line.id}/credit`, { amount: line.totalAmount, reason: '고객사 요청으로 운행 취소' });
    expect(res.status).toBe(200);
    const s = res.body.data.statement;
    expect(s.lines.map((l: { kind: string; total: number }) => [l.kind, l.total])).toEqual([['TRIP', 1_100_000], ['CREDIT', -1_100_000]]);
    expect({ supply: s.supply, vat: s.vat, total: s.total }).toEqual(sumVat(s.lines));
    expect(s.total).toBe(0);
    const amended = s.tax_invoices.find((t: { kind: string }) => t.kind === 'AMENDED');
    expect(amended).toMatchObject({ status: 'ISSUED', modification_type: 'CANCELLATION_OF_CONTRACT', modification_label: '계약의 해제', total: -1_100_000, amends_id: s.tax_invoices[0].id, write_date: '2026-12-26' });
    expect(amended!.approval_number).toMatch(APPROVAL_NUMBER);
    // The sum of the documents is what is owed now.
    expect(s.tax_invoices.reduce((a: number, t: { total: number }) => a + t.total, 0)).toBe(s.total);
    // Nothing owed: no longer overdue.
    expect(await companyBookingBlock(ctx.database.db, B.id, ctx.clock.now())).toBeNull();
    const again = await staff('POST', `/admin/company-invoice-lines/${line.id}/credit`, { amount: 1_000, reason: '중복' });
    expect(again.status).toBe(409);
    expect(await ctx.database.db.select().from(taxInvoices).where(eq(taxInvoices.companyInvoiceId, invoiceB.id))).toHaveLength(2);
  });

  it('a part refund is a 공급가액 변동; malformed or oversized refunds are refused; customers cannot refund', async () => {
    const lines = await ctx.database.db.select().from(companyInvoiceLines).where(and(eq(companyInvoiceLines.invoiceId, invoiceA.id), eq(companyInvoiceLines.kind, 'AFTER_TRIP')));
    const line = lines[0];
    expect((await staff('POST', `/admin/company-invoice-lines/${line.id}/credit`, { amount: 'abc', reason: 'x' })).status).toBe(400);
    expect((await staff('POST', `/admin/company-invoice-lines/${line.id}/credit`, { amount: 1_000 })).status).toBe(400);
    expect((await staff('POST', `/admin/company-invoice-lines/${line.id}/credit`, { amount: line.totalAmount + 1, reason: '초과' })).status).toBe(422);
    expect((await ctx.call('POST', `/admin/company-invoice-lines/${line.id}/credit`, { token: adminA.token, json: { amount: 1_000, reason: '내 마음' } })).status).toBe(403);
    const res = await staff('POST', `/admin/company-invoice-lines/${line.id}/credit`, { amount: 110_000, reason: '대기 시간 정정' });
    expect(res.status).toBe(200);
    const amended = res.body.data.statement.tax_invoices.find((t: { kind: string }) => t.kind === 'AMENDED');
    expect(amended).toMatchObject({ modification_type: 'CHANGE_IN_SUPPLY_COST', supply: -100_000, vat: -10_000, total: -110_000, status: 'ISSUED' });
    expect(res.body.data.statement.total).toBe(1_900_000 - 110_000);
  });
});

describe('staff resend and reissue tax invoices (audited)', () => {
  it('resend sends the issued document again; reissue corrects it with the 기재사항 착오 pair, once', async () => {
    const [original] = await ctx.database.db.select().from(taxInvoices).where(and(eq(taxInvoices.companyInvoiceId, invoiceA.id), eq(taxInvoices.kind, 'ORIGINAL')));
    const sent = await staff('POST', `/admin/tax-invoices/${original.id}/resend`);
    expect(sent.status).toBe(200);
    expect(sent.body.data.tax_invoice.sent_count).toBe(2);
    const [book] = await ctx.database.db.select().from(sandboxTaxInvoices).where(eq(sandboxTaxInvoices.id, original.providerId!));
    expect(book.sentTo.map((s) => s.email)).toEqual([A.invoiceEmail, A.invoiceEmail]);
    expect(await ctx.database.db.select().from(jobs).where(eq(jobs.key, `notify:company.tax_invoice_sent:${original.id}:2`))).toHaveLength(1);

    expect((await staff('POST', `/admin/tax-invoices/${original.id}/reissue`, {})).status).toBe(400);
    const re = await staff('POST', `/admin/tax-invoices/${original.id}/reissue`, { reason: '상호 변경 반영' });
    expect(re.status).toBe(200);
    const pair = re.body.data.statement!.tax_invoices.filter((t: { amends_id: number | null; modification_type: string | null }) => t.amends_id === original.id && t.modification_type === 'CORRECTION_OF_ENTRY_ERRORS');
    expect(pair.map((t: { total: number; status: string }) => [t.total, t.status])).toEqual([[-original.totalAmount, 'ISSUED'], [original.totalAmount, 'ISSUED']]);
    expect((await staff('POST', `/admin/tax-invoices/${original.id}/reissue`, { reason: '또' })).status).toBe(409);
    const audit = await ctx.database.db.select().from(auditLog).where(and(eq(auditLog.entity, 'tax_invoice'), eq(auditLog.entityId, String(original.id))));
    expect(audit.map((a) => a.action).sort()).toEqual(['reissue', 'resend']);
  });

  it('a refused issue is FAILED with its reason, and staff reissue it once the company is corrected', async () => {
    const admin = await person();
    const C = await company('주식회사 씨', '3456789999', admin.user.id);
    await trip(C.id, admin.user.id, { day: '2026-12-03', price: 440_000, costCentre: '총무' });
    ctx.clock.set(kst('2027-01-01', '07:00'));
    await runner(ctx.database.db, 'one')([STATEMENT_JOB, TAX_INVOICE_JOB]);
    const [inv] = await ctx.database.db.select().from(companyInvoices).where(eq(companyInvoices.companyId, C.id));
    expect(inv).toMatchObject({ month: '2026-12', totalAmount: 440_000, dueDate: '2027-01-25' });
    const [t] = await ctx.database.db.select().from(taxInvoices).where(eq(taxInvoices.companyInvoiceId, inv.id));
    expect(t.status).toBe('FAILED');
    expect(t.failureReason).toContain('사업자 상태');
    expect((await staff('GET', '/admin/tax-invoices?status=FAILED')).body.data.tax_invoices.map((x: { id: number }) => x.id)).toContain(t.id);
    expect((await staff('POST', `/admin/tax-invoices/${t.id}/resend`)).status).toBe(409);
    await ctx.database.db.update(companies).set({ businessNumber: '3456789012' }).where(eq(companies.id, C.id));
    const re = await staff('POST', `/admin/tax-invoices/${t.id}/reissue`, { reason: '사업자등록번호 정정' });
    expect(re.status).toBe(200);
    expect(re.body.data.statement!.tax_invoices).toHaveLength(1);
    expect(re.body.data.statement!.tax_invoices[0]).toMatchObject({ status: 'ISSUED', total: 440_000 });
    // A's December trip went on A's December statement in the same run.
    const [decA] = await ctx.database.db.select().from(companyInvoices).where(and(eq(companyInvoices.companyId, A.id), eq(companyInvoices.month, '2026-12')));
    expect(decA.totalAmount).toBe(900_000);
  });
});
