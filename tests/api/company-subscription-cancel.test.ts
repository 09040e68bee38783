import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertTestCar } from '../../src/api/seed/factories';
import { auditLog, companies, paymentRefunds, payments, subscriptionRequests } from '../../src/api/db/schema';
import { TEST_ADMIN_TOKEN } from '../../src/api/env';
import { anotherPlate, apiTools, createTestContext, customer, type TestContext } from './helpers';
import { companyWithAdmin, join } from './company-helpers';

/**
 * 법인 장기 구독 (issue 52): the company's admin cancels its own PENDING order (DELETE
 * /companies/{id}/subscriptions/{requestId}): the company card's first charge refunded in full,
 * once under retries and two clicks at once, audited with the admin's name. A booker or the
 * driver is 403, a stranger or another company's admin 404; a confirmed order is 409.
 */

const STAFF_EMAIL = 'company-cancel@luxe.test';
let ctx: TestContext;
let carId: number;
const { admin: staff } = apiTools(() => ctx);
beforeAll(async () => {
  ctx = await createTestContext({ notifications: { staffEmails: [STAFF_EMAIL], staffPhones: ['010-9000-0052'], contactPhone: '02-6952-0808' } });
  ({ car: { id: carId } } = await insertTestCar(ctx.database.db, { fees: { subscription_fee_1: 4_000_000, subscription_fee_12: 3_000_000 } }));
});
afterAll(() => ctx.close());

let keys = 0;
const order = (companyId: number, driverId: number) => ({ month: 12, company: { company_id: companyId, request_key: `cancel-form-${++keys}`, driver_user_id: driverId } });

async function ordered(opts: { invoice?: boolean } = {}) {
  const { admin, company } = await companyWithAdmin(ctx, { card: !opts.invoice });
  if (opts.invoice) await ctx.database.db.update(companies).set({ invoiceBilling: true }).where(eq(companies.id, company.id));
  const driver = await customer(ctx);
  await join(ctx, admin.token, company.id, driver, 'DRIVER');
  const res = await ctx.call('POST', `/subscriptions/cars/${await anotherPlate(ctx, carId)}/company-request`, { token: admin.token, json: order(company.id, driver.user.id) });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { admin, company, driver, request: res.body.data.subscription_request as { id: number; final_fee: number } };
}

const cancel = (token: string, companyId: number, requestId: number) => ctx.call('DELETE', `/companies/${companyId}/subscriptions/${requestId}`, { token });
const statusOf = async (id: number) => (await ctx.database.db.select().from(subscriptionRequests).where(eq(subscriptionRequests.id, id)))[0].status;
const refundsOf = async (requestId: number) => {
  const [charge] = await ctx.database.db.select().from(payments).where(and(eq(payments.refType, 'subscription_request'), eq(payments.refId, requestId)));
  return { charge, refunds: await ctx.database.db.select().from(paymentRefunds).where(eq(paymentRefunds.paymentId, charge.id)) };
};

describe("the company admin cancels the company's pending order", () => {
  it('refunds the company card in full once, under two clicks at once and a retry, and audits the admin', async () => {
    const { admin, company, request } = await ordered();
    const [a, b] = await Promise.all([cancel(admin.token, company.id, request.id), cancel(admin.token, company.id, request.id)]);
    expect([a.status, b.status], JSON.stringify([a.body, b.body])).toEqual([200, 200]);
    expect(a.body.data.request).toMatchObject({ id: request.id, status: 'CANCELLED' });
    const again = await cancel(admin.token, company.id, request.id);
    expect(again.status).toBe(200);
    expect(again.body.data.request.status).toBe('CANCELLED');
    const { charge, refunds } = await refundsOf(request.id);
    expect(refunds.map((r) => r.amount)).toEqual([request.final_fee]);
    expect(charge.amount).toBe(request.final_fee);
    const audits = await ctx.database.db.select().from(auditLog).where(and(eq(auditLog.entity, 'subscription_request'), eq(auditLog.entityId, String(request.id)), eq(auditLog.action, 'cancel')));
    expect(audits).toHaveLength(1);
    expect(audits[0].actorUserId).toBe(admin.user.id);
    // Staff are told once, naming the company's admin as who cancelled.
    expect((await ctx.call('POST', '/admin/billing/run', { token: TEST_ADMIN_TOKEN })).status).toBe(200);
    const outbox = await ctx.call('GET', `/sandbox/outbox?to=${encodeURIComponent(STAFF_EMAIL)}`);
    const mails = (outbox.body.data.messages as { event: string; subject: string; text: string }[]).filter((m) => m.event === 'staff.subscription_cancelled' && m.subject.includes(`#${request.id}`));
    expect(mails).toHaveLength(1);
    expect(mails[0].text).toContain('회사 관리자');
    // The car's days are free: the list shows the order cancelled.
    const list = await ctx.call('GET', `/companies/${company.id}/subscriptions`, { token: admin.token });
    expect(list.body.data.subscriptions[0].request.status).toBe('CANCELLED');
  });

  it('cancels a 후불 order with nothing to refund', async () => {
    const { admin, company, request } = await ordered({ invoice: true });
    const res = await cancel(admin.token, company.id, request.id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await statusOf(request.id)).toBe('CANCELLED');
    expect(await ctx.database.db.select().from(payments).where(and(eq(payments.refType, 'subscription_request'), eq(payments.refId, request.id)))).toHaveLength(0);
  });

  it('a stranger and another company’s admin get 404, a booker and the driver 403, and nothing is refunded', async () => {
    const { admin, company, driver, request } = await ordered();
    const booker = await customer(ctx);
    await join(ctx, admin.token, company.id, booker, 'BOOKER');
    const stranger = await customer(ctx);
    const other = await companyWithAdmin(ctx);
    for (const [who, status] of [[stranger.token, 404], [other.admin.token, 404], [booker.token, 403], [driver.token, 403]] as const) {
      expect((await cancel(who, company.id, request.id)).status).toBe(status);
    }
    // Another company's admin naming their own company: this order is not theirs.
    expect((await cancel(other.admin.token, other.company.id, request.id)).status).toBe(404);
    expect((await cancel(admin.token, company.id, 999_999)).status).toBe(404);
    expect((await ctx.call('DELETE', `/companies/${company.id}/subscriptions/abc`, { token: admin.token })).status).toBe(400);
    expect(await statusOf(request.id)).toBe('PENDING');
    expect((await refundsOf(request.id)).refunds).toHaveLength(0);
  });

  it('a confirmed order is 409 (ending a subscription is done with staff)', async () => {
    const { admin, company, request } = await ordered();
    const [r] = await ctx.database.db.select().from(subscriptionRequests).where(eq(subscriptionRequests.id, request.id));
    expect((await staff('POST', `/admin/subscription-requests/${request.id}/confirm`, { start_date: r.requestedStart })).status).toBe(201);
    const res = await cancel(admin.token, company.id, request.id);
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/취소/);
    expect((await refundsOf(request.id)).refunds).toHaveLength(0);
  });
});
