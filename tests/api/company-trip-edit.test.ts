import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayInKorea } from '../../src/domain/dates';
import { insertButlerCar, insertModel, upsertBrand } from '../../src/api/seed/factories';
import { auditLog, butlerRequests, companies, payments } from '../../src/api/db/schema';
import { TEST_ADMIN_TOKEN } from '../../src/api/env';
import { createTestContext, customer, type TestContext } from './helpers';
import { companyWithAdmin, join } from './company-helpers';

/**
 * Changing a trip booked for a company (issue 52): the booker (their own trip) or the company's
 * admin (any of its trips) change it, by the booker's route or the company's; the difference is
 * charged to or refunded on the company's card once (a retry settles nothing more), nothing moves
 * for a trip on the monthly invoice or still waiting for approval, a booker's rise above the
 * approval threshold is refused (the admin's to make), and staff's trip change settles the same way.
 * The car: 700,000원 for 8 hours, 70,000원 an hour beyond (09:00–19:00 is 840,000원).
 */

let ctx: TestContext;
let modelId: number;
const ADMIN = TEST_ADMIN_TOKEN;
beforeAll(async () => {
  ctx = await createTestContext();
  const brand = await upsertBrand(ctx.database.db, { name: 'BMW', slug: 'bmw-company-edit' });
  modelId = (await insertModel(ctx.database.db, { brandId: brand.id, name: '7 Series' })).id;
});
afterAll(() => ctx.close());

const newCar = () => insertButlerCar(ctx.database.db, modelId, { subModel: '740i', butlerFee: 700_000, butlerOvertimeFee: null });
const at = (days: number, time: string) => `${addDays(todayInKorea(new Date()), days)}T${time}:00+09:00`;
let keys = 0;
const trip = (companyId: number) => ({
  start_at: at(15, '09:00'), start_location: '서울 강남구 테헤란로 152', end_at: at(15, '17:00'), end_location: '인천 중구 공항로 272',
  passenger_count: 1, purpose: '고객 의전', driver_preference: 'any',
  company: { company_id: companyId, request_key: `form-edit-${Date.now()}-${++keys}`, guest_name: '이손님', guest_phone: '010-2222-3333', cost_centre: '영업1팀' },
});
const change = (end: string) => ({ start_at: at(15, '09:00'), end_at: at(15, end), start_location: '서울 강남구 테헤란로 152', end_location: '인천 중구 공항로 272' });
const tripPayments = (id: number) => ctx.database.db.select().from(payments).where(and(eq(payments.refType, 'butler_request'), eq(payments.refId, id)));
const kept = (rows: { amount: number; cancelledAmount: number; status: string }[]) => rows.filter((p) => p.status !== 'FAILED').reduce((s, p) => s + p.amount - p.cancelledAmount, 0);

async function book(token: string, companyId: number) {
  const res = await ctx.call('POST', `/butlers/cars/${(await newCar()).id}/company-request`, { token, json: trip(companyId) });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.butler_request as { id: number; final_price: number };
}

describe('the booker and the admin change a company trip', () => {
  it("a card trip: the difference is charged to the company's card once, and a shorter trip refunds it", async () => {
    const { admin, company } = await companyWithAdmin(ctx);
    const booker = await customer(ctx);
    await join(ctx, admin.token, company.id, booker, 'BOOKER');
    const r = await book(booker.token, company.id);
    const [card] = await ctx.database.db.select({ key: companies.billingKey }).from(companies).where(eq(companies.id, company.id));

    const longer = await ctx.call('PUT', `/butlers/requests/${r.id}`, { token: booker.token, json: change('19:00') });
    expect(longer.status, JSON.stringify(longer.body)).toBe(200);
    expect(longer.body.data.butler_request.final_price).toBe(840_000);
    const after = await tripPayments(r.id);
    expect(after.map((p) => [p.purpose, p.amount, p.status])).toEqual(expect.arrayContaining([['BUTLER', 700_000, 'PAID'], ['BUTLER_ADJUSTMENT', 140_000, 'PAID']]));
    expect(after.every((p) => p.billingKey === card.key)).toBe(true);
    // A retry of the same change settles nothing more.
    expect((await ctx.call('PUT', `/butlers/requests/${r.id}`, { token: booker.token, json: change('19:00') })).status).toBe(200);
    expect(await tripPayments(r.id)).toHaveLength(2);
    expect(kept(await tripPayments(r.id))).toBe(840_000);

    // The admin shortens it through the company's route: 140,000원 back on the card.
    const shorter = await ctx.call('PUT', `/companies/${company.id}/trips/${r.id}`, { token: admin.token, json: change('17:00') });
    expect(shorter.status, JSON.stringify(shorter.body)).toBe(200);
    expect(shorter.body.data.butler_request.final_price).toBe(700_000);
    expect(kept(await tripPayments(r.id))).toBe(700_000);
    const audit = await ctx.database.db.select().from(auditLog).where(and(eq(auditLog.entity, 'butler_request'), eq(auditLog.entityId, String(r.id)), eq(auditLog.action, 'update')));
    expect(audit.map((a) => (a.after as { final_price: number }).final_price)).toEqual([840_000, 700_000]);
  });

  it('an invoiced trip changes its price for the statement and charges no card', async () => {
    const { admin, company } = await companyWithAdmin(ctx, { card: false });
    await ctx.database.db.update(companies).set({ invoiceBilling: true }).where(eq(companies.id, company.id));
    const r = await book(admin.token, company.id);
    const res = await ctx.call('PUT', `/companies/${company.id}/trips/${r.id}`, { token: admin.token, json: change('19:00') });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [row] = await ctx.database.db.select().from(butlerRequests).where(eq(butlerRequests.id, r.id));
    expect([row.finalPrice, row.invoiceBilled]).toEqual([840_000, true]);
    expect(await tripPayments(r.id)).toHaveLength(0);
  });

  it("a booker's rise above the approval threshold is refused and is the admin's to make; a waiting trip changes uncharged and is charged its new price when approved", async () => {
    const { admin, company } = await companyWithAdmin(ctx);
    const booker = await customer(ctx);
    await join(ctx, admin.token, company.id, booker, 'BOOKER');
    expect((await ctx.call('PUT', `/companies/${company.id}/settings`, { token: admin.token, json: { approval_threshold: 750_000 } })).status).toBe(200);
    const r = await book(booker.token, company.id);
    const refused = await ctx.call('PUT', `/butlers/requests/${r.id}`, { token: booker.token, json: change('19:00') });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toContain('승인 기준 금액');
    expect(kept(await tripPayments(r.id))).toBe(700_000);
    const [unchanged] = await ctx.database.db.select().from(butlerRequests).where(eq(butlerRequests.id, r.id));
    expect(unchanged.finalPrice).toBe(700_000);
    const byAdmin = await ctx.call('PUT', `/companies/${company.id}/trips/${r.id}`, { token: admin.token, json: change('19:00') });
    expect(byAdmin.status).toBe(200);
    expect(kept(await tripPayments(r.id))).toBe(840_000);

    // Below the threshold a booker's trip above it waits; changed while waiting, nothing is charged until approval.
    expect((await ctx.call('PUT', `/companies/${company.id}/settings`, { token: admin.token, json: { approval_threshold: 600_000 } })).status).toBe(200);
    const waiting = await book(booker.token, company.id);
    expect((await ctx.call('GET', `/butlers/requests/${waiting.id}`, { token: booker.token })).body.data.butler_request.company_booking!.approval_status).toBe('WAITING');
    expect((await ctx.call('PUT', `/butlers/requests/${waiting.id}`, { token: booker.token, json: change('19:00') })).status).toBe(200);
    expect(await tripPayments(waiting.id)).toHaveLength(0);
    const approved = await ctx.call('POST', `/companies/${company.id}/trips/${waiting.id}/approval`, { token: admin.token, json: { decision: 'approve' } });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(kept(await tripPayments(waiting.id))).toBe(840_000);
  });

  it("a stranger, another company, another booker and a driver cannot change the trip", async () => {
    const { admin, company } = await companyWithAdmin(ctx);
    const booker = await customer(ctx);
    const otherBooker = await customer(ctx);
    const driver = await customer(ctx);
    await join(ctx, admin.token, company.id, booker, 'BOOKER');
    await join(ctx, admin.token, company.id, otherBooker, 'BOOKER');
    await join(ctx, admin.token, company.id, driver, 'DRIVER');
    const r = await book(booker.token, company.id);
    const other = await companyWithAdmin(ctx);
    const stranger = await customer(ctx);

    expect((await ctx.call('PUT', `/companies/${company.id}/trips/${r.id}`, { token: stranger.token, json: change('19:00') })).status).toBe(404);
    expect((await ctx.call('PUT', `/butlers/requests/${r.id}`, { token: stranger.token, json: change('19:00') })).status).toBe(404);
    expect((await ctx.call('PUT', `/companies/${other.company.id}/trips/${r.id}`, { token: other.admin.token, json: change('19:00') })).status).toBe(404);
    expect((await ctx.call('PUT', `/companies/${company.id}/trips/${r.id}`, { token: other.admin.token, json: change('19:00') })).status).toBe(404);
    const notTheirs = await ctx.call('PUT', `/companies/${company.id}/trips/${r.id}`, { token: otherBooker.token, json: change('19:00') });
    expect(notTheirs.status).toBe(403);
    expect(notTheirs.body.message).toContain('회사 관리자만');
    expect((await ctx.call('PUT', `/companies/${company.id}/trips/${r.id}`, { token: driver.token, json: change('19:00') })).status).toBe(403);
    expect((await ctx.call('PUT', `/companies/${company.id}/trips/${r.id}`, { token: admin.token, json: { start_at: 'x' } })).status).toBe(400);
    expect(kept(await tripPayments(r.id))).toBe(700_000);
  });
});

describe("staff's trip change of a company trip", () => {
  it("charges the difference to the company's card once, and only re-prices an invoiced one", async () => {
    const { admin, company } = await companyWithAdmin(ctx);
    const r = await book(admin.token, company.id);
    const [card] = await ctx.database.db.select({ key: companies.billingKey }).from(companies).where(eq(companies.id, company.id));
    const longer = { end_at: at(15, '19:00'), reason: '고객사 요청: 귀가 시간 연장', confirm_price: 840_000 };
    const res = await ctx.call('PATCH', `/admin/butler-requests/${r.id}/trip`, { token: ADMIN, json: longer });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const paid = await tripPayments(r.id);
    expect(kept(paid)).toBe(840_000);
    expect(paid.every((p) => p.billingKey === card.key)).toBe(true);
    expect((await ctx.call('PATCH', `/admin/butler-requests/${r.id}/trip`, { token: ADMIN, json: longer })).body.data.changed).toBe(false);
    expect(await tripPayments(r.id)).toHaveLength(2);

    const invoiced = await companyWithAdmin(ctx, { card: false });
    await ctx.database.db.update(companies).set({ invoiceBilling: true }).where(eq(companies.id, invoiced.company.id));
    const t = await book(invoiced.admin.token, invoiced.company.id);
    const staffed = await ctx.call('PATCH', `/admin/butler-requests/${t.id}/trip`, { token: ADMIN, json: longer });
    expect(staffed.status, JSON.stringify(staffed.body)).toBe(200);
    const [row] = await ctx.database.db.select().from(butlerRequests).where(eq(butlerRequests.id, t.id));
    expect(row.finalPrice).toBe(840_000);
    expect(await tripPayments(t.id)).toHaveLength(0);
  });
});
