import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { insertTestCar } from '../../src/api/seed/factories';
import { companies, companyInvoiceLines, companyInvoices, companySubscriptionMonths, payments, subscriptionRequests, subscriptions } from '../../src/api/db/schema';
import { issueMonthStatements } from '../../src/api/invoices/statements';
import { contractInput } from '../../src/api/orders/contracts';
import { contractDocument } from '../../src/domain/contract';
import { monthlyChargeDate } from '../../src/domain/payments';
import { monthOfDay } from '../../src/domain/invoices';
import { sumVat, splitVat } from '../../src/domain/vat';
import { TEST_ADMIN_TOKEN } from '../../src/api/env';
import { anotherPlate, apiTools, billingKey, createTestContext, customer, type TestContext } from './helpers';
import { businessNumber, companyWithAdmin, join, newCompany } from './company-helpers';

/**
 * 법인 장기 구독 (issue 52): a company's admin orders a subscription in the company's name for a
 * member with the 운전자 role. The contract names the company as the subscriber and the member as
 * the driver; the first payment and each month are charged to the company card (once under retries
 * and concurrent submits) or, on 후불, billed once to the company's statement. The admin lists the
 * company's subscriptions, the driver sees theirs in /my but cannot change or cancel it; strangers,
 * another company's members, bookers and drivers cannot order or read for the company.
 */

let ctx: TestContext;
let carId: number;
const { admin: staff, setClock, runJobs } = apiTools(() => ctx);
beforeAll(async () => {
  ctx = await createTestContext();
  ({ car: { id: carId } } = await insertTestCar(ctx.database.db, { fees: { subscription_fee_1: 4_000_000, subscription_fee_12: 3_000_000 } }));
});
afterEach(() => setClock(null));
afterAll(() => ctx.close());

let keys = 0;
const order = (companyId: number, driverId: number, extra: Record<string, unknown> = {}) => ({ month: 12, company: { company_id: companyId, request_key: `sub-form-${Date.now()}-${++keys}`, driver_user_id: driverId }, ...extra });
const post = (token: string, car: number, body: unknown) => ctx.call('POST', `/subscriptions/cars/${car}/company-request`, { token, json: body });

/** A company with its admin (and card unless `card: false`) and a member with the 운전자 role. */
async function companyWithDriver(opts: { card?: boolean } = {}) {
  const { admin, company } = await companyWithAdmin(ctx, opts);
  const driver = await customer(ctx);
  await join(ctx, admin.token, company.id, driver, 'DRIVER');
  return { admin, company, driver };
}

const paymentsOf = (requestId: number) => ctx.database.db.select().from(payments).where(and(eq(payments.refType, 'subscription_request'), eq(payments.refId, requestId)));

async function confirm(requestId: number) {
  const [r] = await ctx.database.db.select().from(subscriptionRequests).where(eq(subscriptionRequests.id, requestId));
  const res = await staff('POST', `/admin/subscription-requests/${requestId}/confirm`, { start_date: r.requestedStart });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const [sub] = await ctx.database.db.select().from(subscriptions).where(eq(subscriptions.requestId, requestId));
  return sub;
}

describe('ordering in the company name, paid by the company card', () => {
  it('a company whose creator is not its 대표자 orders nothing until staff confirm the proof (403)', async () => {
    const admin = await customer(ctx); // 본인인증 name 홍길동; the register's 대표자 is 김대표
    const company = await newCompany(ctx, admin.token, { business_number: businessNumber('95'), ceo: '김대표', opened_on: '2015-03-02' });
    const driver = await customer(ctx);
    await join(ctx, admin.token, company.id, driver, 'DRIVER');
    expect((await ctx.call('PUT', `/companies/${company.id}/card`, { token: admin.token, json: { billing_key: billingKey(ctx) } })).status).toBe(200);
    const res = await post(admin.token, await anotherPlate(ctx, carId), order(company.id, driver.user.id));
    expect(res.status, JSON.stringify(res.body)).toBe(403);
    expect(res.body.message).toContain('재직증명서 또는 위임장');
    expect(await ctx.database.db.select().from(subscriptionRequests).where(eq(subscriptionRequests.companyId, company.id))).toHaveLength(0);
  });

  it('charges the company card once for the driver named, and a retried form is the same order', async () => {
    const { admin, company, driver } = await companyWithDriver();
    const car = await anotherPlate(ctx, carId);
    const body = order(company.id, driver.user.id);
    const res = await post(admin.token, car, body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const r = res.body.data.subscription_request;
    expect(r.company).toEqual({ id: company.id, name: '주식회사 테스트', billing: 'CARD' });
    expect(res.body.data.payment).toMatchObject({ status: 'PAID', amount: r.final_fee });
    const [row] = await ctx.database.db.select().from(subscriptionRequests).where(eq(subscriptionRequests.id, r.id));
    expect(row).toMatchObject({ userId: driver.user.id, orderedByUserId: admin.user.id, companyId: company.id, invoiceBilled: false, userCouponId: null, pointUsed: 0 });
    const [companyRow] = await ctx.database.db.select().from(companies).where(eq(companies.id, company.id));
    const charged = await paymentsOf(r.id);
    expect(charged).toHaveLength(1);
    expect(charged[0]).toMatchObject({ billingKey: companyRow.billingKey, userId: admin.user.id, status: 'PAID' });

    const again = await post(admin.token, car, body);
    expect(again.status).toBe(200);
    expect(again.body.data.subscription_request.id).toBe(r.id);
    expect(await paymentsOf(r.id)).toHaveLength(1);

    // The driver sees the order in /my, named as the company's; they cannot change or cancel it.
    const mine = await ctx.call('GET', '/subscriptions/requests', { token: driver.token });
    expect(mine.body.data.subscription_requests.map((q) => [q.id, q.company])).toEqual([[r.id, { id: company.id, name: '주식회사 테스트', billing: 'CARD' }]]);
    expect((await ctx.call('DELETE', `/subscriptions/requests/${r.id}`, { token: driver.token })).status).toBe(403);
    expect((await ctx.call('PUT', `/subscriptions/requests/${r.id}`, { token: driver.token, json: { month: 12, coupon_id: null, point_amount: 0, billing_key: billingKey(ctx) } })).status).toBe(403);
    expect(await paymentsOf(r.id)).toHaveLength(1);
    // The admin's own private list does not hold it (it is the driver's, and the company's).
    expect((await ctx.call('GET', '/subscriptions/requests', { token: admin.token })).body.data.subscription_requests).toEqual([]);
  });

  it('two submits of one form at once make one order and one charge', async () => {
    const { admin, company, driver } = await companyWithDriver();
    const car = await anotherPlate(ctx, carId);
    const body = order(company.id, driver.user.id);
    const [a, b] = await Promise.all([post(admin.token, car, body), post(admin.token, car, body)]);
    // The twin answers the first order: 200, or 202 while its charge is still being confirmed.
    expect([a.status, b.status].filter((s) => s === 201)).toHaveLength(1);
    expect([a.status, b.status].every((s) => [200, 201, 202].includes(s))).toBe(true);
    expect(a.body.data.subscription_request.id).toBe(b.body.data.subscription_request.id);
    expect(await ctx.database.db.select().from(subscriptionRequests).where(eq(subscriptionRequests.companyId, company.id))).toHaveLength(1);
    expect(await paymentsOf(a.body.data.subscription_request.id)).toHaveLength(1);
  });

  it('the contract names the company as the subscriber and the member as the driver', async () => {
    const { admin, company, driver } = await companyWithDriver();
    const res = await post(admin.token, await anotherPlate(ctx, carId), order(company.id, driver.user.id));
    expect(res.status).toBe(201);
    const doc = contractDocument(await contractInput(ctx.database.db, ctx.config.company, res.body.data.subscription_request.id));
    const parties = doc.sections[0];
    expect(parties.kind).toBe('lines');
    const lines = parties.kind === 'lines' ? Object.fromEntries(parties.lines.map((l) => [l.label, l.value])) : {};
    expect(lines).toMatchObject({ '계약자 (법인)': '주식회사 테스트', '계약자 대표자': '홍길동', '계약자 사업자등록번호': company.business_number, '운전자': driver.user.name });
    expect(lines['고객']).toBeUndefined();
    const signature = doc.sections.find((s) => s.heading.startsWith('11.'));
    expect(JSON.stringify(signature)).toContain('신청 담당자');

    // The PDF is the admin's to download (and the driver's, from /my); another company's admin gets 404.
    const id = res.body.data.subscription_request.id;
    const pdf = await ctx.app.request(`/companies/${company.id}/subscriptions/${id}/contract`, { headers: { authorization: `Bearer ${admin.token}` } });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const other = await companyWithAdmin(ctx);
    expect((await ctx.call('GET', `/companies/${other.company.id}/subscriptions/${id}/contract`, { token: other.admin.token })).status).toBe(404);
    expect((await ctx.call('GET', `/companies/${company.id}/subscriptions/${id}/contract`, { token: other.admin.token })).status).toBe(404);
    expect((await ctx.call('GET', `/companies/${company.id}/subscriptions/${id}/contract`, { token: driver.token })).status).toBe(403);
    expect((await ctx.app.request(`/subscriptions/requests/${id}/contract`, { headers: { authorization: `Bearer ${driver.token}` } })).status).toBe(200);
  });

  it('charges month 2 to the company card, moved along when the company replaces its card; the driver gets no charge reminder', async () => {
    const { admin, company, driver } = await companyWithDriver();
    const res = await post(admin.token, await anotherPlate(ctx, carId), order(company.id, driver.user.id));
    expect(res.status).toBe(201);
    const sub = await confirm(res.body.data.subscription_request.id);
    const [before] = await ctx.database.db.select().from(companies).where(eq(companies.id, company.id));
    expect(sub).toMatchObject({ companyId: company.id, userId: driver.user.id, billingKey: before.billingKey });

    expect((await ctx.call('PUT', `/companies/${company.id}/card`, { token: admin.token, json: { billing_key: billingKey(ctx) } })).status).toBe(200);
    const [after] = await ctx.database.db.select().from(companies).where(eq(companies.id, company.id));
    const [moved] = await ctx.database.db.select().from(subscriptions).where(eq(subscriptions.id, sub.id));
    expect(moved.billingKey).toBe(after.billingKey);
    // The driver cannot put their own card on the company's subscription.
    expect((await ctx.call('POST', `/subscriptions/${sub.id}/card`, { token: driver.token, json: { billing_key: billingKey(ctx) } })).status).toBe(403);

    await setClock(`${monthlyChargeDate(sub.startDate, 2)}T10:00:00+09:00`);
    await runJobs();
    await runJobs();
    const month2 = await ctx.database.db.select().from(payments).where(and(eq(payments.refType, 'subscription'), eq(payments.refId, sub.id)));
    expect(month2).toHaveLength(1);
    expect(month2[0]).toMatchObject({ month: 2, status: 'PAID', billingKey: after.billingKey, userId: admin.user.id });
    const reminders = await ctx.database.db.query.notificationMessages.findMany({ where: (m, { and: all, eq: is }) => all(is(m.event, 'subscription.charge_upcoming'), is(m.to, driver.user.email!)) });
    expect(reminders).toEqual([]);

    // The admin lists it with its driver; the driver sees it in /my with the company.
    const list = await ctx.call('GET', `/companies/${company.id}/subscriptions`, { token: admin.token });
    expect(list.status).toBe(200);
    expect(list.body.data.subscriptions[0]).toMatchObject({ driver: { user_id: driver.user.id }, subscription: { id: sub.id, paid_months: 2 } });
    const mine = await ctx.call('GET', '/subscriptions', { token: driver.token });
    expect(mine.body.data.subscriptions.map((s) => [s.id, s.company?.id])).toEqual([[sub.id, company.id]]);
    // …but does not change its contract or money (extension, early exit, 청약철회).
    expect((await ctx.call('GET', `/subscriptions/${sub.id}/extension`, { token: driver.token })).status).toBe(403);
    expect((await ctx.call('GET', `/subscriptions/${sub.id}/withdrawal`, { token: driver.token })).status).toBe(403);
  });
});

describe('ordering on 후불 (the monthly statement)', () => {
  it('charges no card; the first payment and each month are billed once to the statement, whose totals are the sum of its lines', async () => {
    const { admin, company, driver } = await companyWithDriver({ card: false });
    await ctx.database.db.update(companies).set({ invoiceBilling: true }).where(eq(companies.id, company.id));
    const res = await post(admin.token, await anotherPlate(ctx, carId), order(company.id, driver.user.id));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const r = res.body.data.subscription_request;
    expect(res.body.data.payment).toBeNull();
    expect(r.company?.billing).toBe('INVOICE');
    expect(await paymentsOf(r.id)).toHaveLength(0);

    const sub = await confirm(r.id);
    expect(sub.billingKey).toBeNull();
    const due2 = monthlyChargeDate(sub.startDate, 2);
    await setClock(`${due2}T10:00:00+09:00`);
    // Two replicas running the due jobs at once bill month 2 once.
    const replica = await ctx.openReplicaApp();
    const run = async (app: typeof ctx.app) => await app.request('/admin/billing/run', { method: 'POST', headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
    try {
      const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => run(i % 2 ? replica.app : ctx.app)));
      expect(answers.every((a) => a.status === 200)).toBe(true);
    } finally {
      await replica.close();
    }
    await runJobs();
    const months = await ctx.database.db.select().from(companySubscriptionMonths).where(eq(companySubscriptionMonths.subscriptionId, sub.id));
    expect(months.map((m) => [m.month, m.amount, m.serviceDate]).sort()).toEqual([[1, r.final_fee, sub.startDate], [2, r.fee, due2]]);
    expect(await ctx.database.db.select().from(payments).where(and(eq(payments.refType, 'subscription'), eq(payments.refId, sub.id)))).toHaveLength(0);
    const [billed] = await ctx.database.db.select().from(subscriptions).where(eq(subscriptions.id, sub.id));
    expect(billed).toMatchObject({ paidMonths: 2, billingStatus: 'ACTIVE' });

    // The statements of the two months (run twice: a retry makes nothing twice).
    const now = new Date(`${monthlyChargeDate(sub.startDate, 4)}T10:00:00+09:00`);
    for (const month of [...new Set([monthOfDay(sub.startDate), monthOfDay(due2)])]) {
      await issueMonthStatements(ctx.database.db, { dueDay: 25 }, month, now, company.id);
      await issueMonthStatements(ctx.database.db, { dueDay: 25 }, month, now, company.id);
    }
    const invoices = await ctx.database.db.select().from(companyInvoices).where(eq(companyInvoices.companyId, company.id));
    const lines = (await ctx.database.db.select().from(companyInvoiceLines)).filter((l) => l.subscriptionId === sub.id);
    expect(lines.map((l) => [l.sourceKey, l.kind, l.totalAmount]).sort()).toEqual([[`sub:${sub.id}:m1`, 'SUBSCRIPTION', r.final_fee], [`sub:${sub.id}:m2`, 'SUBSCRIPTION', r.fee]]);
    for (const inv of invoices) {
      const own = lines.filter((l) => l.invoiceId === inv.id);
      const sum = sumVat(own.map((l) => splitVat(l.totalAmount)));
      expect([inv.supplyAmount, inv.vatAmount, inv.totalAmount]).toEqual([sum.supply, sum.vat, sum.total]);
    }
    // The statement is the admin's to read.
    const statements = await ctx.call('GET', '/companies/statements', { token: admin.token });
    expect(statements.body.data.companies[0].statements.map((x: { id: number }) => x.id).sort()).toEqual(invoices.map((i) => i.id).sort());
  });
});

describe('who may order and read for the company', () => {
  it('a stranger and another company’s admin get 404, a booker or the driver 403, and nothing is ordered', async () => {
    const { admin, company, driver } = await companyWithDriver();
    const booker = await customer(ctx);
    await join(ctx, admin.token, company.id, booker, 'BOOKER');
    const stranger = await customer(ctx);
    const other = await companyWithAdmin(ctx);
    const car = await anotherPlate(ctx, carId);
    for (const [who, status] of [[stranger.token, 404], [other.admin.token, 404], [booker.token, 403], [driver.token, 403]] as const) {
      const res = await post(who, car, order(company.id, driver.user.id));
      expect(res.status, JSON.stringify(res.body)).toBe(status);
      const list = await ctx.call('GET', `/companies/${company.id}/subscriptions`, { token: who });
      expect(list.status).toBe(status);
    }
    // Another company's admin naming their own company cannot name this company's driver.
    const cross = await post(other.admin.token, car, order(other.company.id, driver.user.id));
    expect(cross.status).toBe(422);
    expect(cross.body.errors).toHaveProperty(['company.driver_user_id']);
    // The driver named must have the 운전자 role.
    const notDriver = await post(admin.token, car, order(company.id, booker.user.id));
    expect(notDriver.status).toBe(422);
    expect(await ctx.database.db.select().from(subscriptionRequests).where(eq(subscriptionRequests.companyId, company.id))).toHaveLength(0);
    expect(await ctx.database.db.select().from(subscriptionRequests).where(eq(subscriptionRequests.companyId, other.company.id))).toHaveLength(0);
  });

  it('refuses bad input with Korean messages, and a company without a card or 후불 before anything', async () => {
    const { admin, company, driver } = await companyWithDriver({ card: false });
    const car = await anotherPlate(ctx, carId);
    const bad = await post(admin.token, car, { month: 12, company: { company_id: company.id, request_key: 'x', driver_user_id: driver.user.id } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors['company.request_key'][0]).toMatch(/요청 키/);
    expect((await post(admin.token, car, { month: 12 })).status).toBe(400);
    const noCard = await post(admin.token, car, order(company.id, driver.user.id));
    expect(noCard.status).toBe(422);
    expect(noCard.body.message).toContain('회사 결제 카드');
  });
});
