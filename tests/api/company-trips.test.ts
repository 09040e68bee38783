import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayInKorea } from '../../src/domain/dates';
import { insertButlerCar, insertModel, upsertBrand } from '../../src/api/seed/factories';
import { butlerRequests, butlerReservedDates, companies, companyInvoices, notificationMessages, payments } from '../../src/api/db/schema';
import { TEST_ADMIN_TOKEN } from '../../src/api/env';
import { apiTools, createTestContext, customer, type TestContext } from './helpers';
import { companyWithAdmin, join } from './company-helpers';

/**
 * Butler trips booked for a company (issue 52): a booker books for a guest with a cost centre,
 * billed to the company's card (a retry is the same booking, charged once) or to its invoice
 * (invoice_billed, no card charge); the guest gets the trip messages; above the threshold a
 * booker's trip waits for an admin, who approves (charged then) or declines (cancelled, its days
 * freed), and the booker hears once. Only the company's admins and bookers see its trips.
 */

let ctx: TestContext;
let modelId: number;
const ADMIN = TEST_ADMIN_TOKEN;
beforeAll(async () => {
  ctx = await createTestContext();
  const brand = await upsertBrand(ctx.database.db, { name: 'Mercedes Benz', slug: 'mercedes-company' });
  modelId = (await insertModel(ctx.database.db, { brandId: brand.id, name: 'S-Class' })).id;
});
afterAll(() => ctx.close());

const newCar = () => insertButlerCar(ctx.database.db, modelId, { subModel: 'S 580', butlerFee: 700_000, butlerOvertimeFee: null });
const at = (days: number, time: string) => `${addDays(todayInKorea(new Date()), days)}T${time}:00+09:00`;
let keys = 0;
const trip = (companyId: number, company: Record<string, unknown> = {}) => ({
  start_at: at(10, '09:00'), start_location: '서울 강남구 테헤란로 152', end_at: at(10, '17:00'), end_location: '인천 중구 공항로 272',
  passenger_count: 1, purpose: '고객 의전', driver_preference: 'any',
  company: { company_id: companyId, request_key: `form-${Date.now()}-${++keys}`, guest_name: '이손님', guest_phone: '010-2222-3333', cost_centre: '영업1팀', ...company },
});
const { runJobs } = apiTools(() => ctx);
const sentTo = async (event: string, to: string) =>
  (await ctx.database.db.select().from(notificationMessages).where(and(eq(notificationMessages.event, event), eq(notificationMessages.to, to))));

describe('booking for a guest', () => {
  it('charges the company card once, keeps the guest and cost centre, and a retry is the same booking', async () => {
    const { admin, company } = await companyWithAdmin(ctx);
    const booker = await customer(ctx);
    await join(ctx, admin.token, company.id, booker, 'BOOKER');
    const car = await newCar();
    const payload = trip(company.id);
    const res = await ctx.call('POST', `/butlers/cars/${car.id}/company-request`, { token: booker.token, json: payload });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const r = res.body.data.butler_request;
    expect(r.company_booking).toMatchObject({ company_id: company.id, guest_name: '이손님', guest_phone: '01022223333', cost_centre: '영업1팀', billing: 'CARD', approval_status: null });
    expect(res.body.data.payment).toMatchObject({ status: 'PAID', amount: 700_000 });
    const [companyRow] = await ctx.database.db.select().from(companies).where(eq(companies.id, company.id));
    const [paid] = await ctx.database.db.select().from(payments).where(and(eq(payments.refType, 'butler_request'), eq(payments.refId, r.id)));
    expect(paid.billingKey).toBe(companyRow.billingKey);

    const again = await ctx.call('POST', `/butlers/cars/${car.id}/company-request`, { token: booker.token, json: payload });
    expect(again.status).toBe(200);
    expect(again.body.data.butler_request.id).toBe(r.id);
    expect(await ctx.database.db.select().from(payments).where(and(eq(payments.refType, 'butler_request'), eq(payments.refId, r.id)))).toHaveLength(1);

    // The admin sees the booker's trip; the guest gets the confirmation by 알림톡, greeted by name.
    const list = await ctx.call('GET', `/companies/${company.id}/trips`, { token: admin.token });
    expect(list.body.data.trips.map((t: { id: number }) => t.id)).toEqual([r.id]);
    expect((await ctx.call('POST', `/admin/butler-requests/${r.id}/confirm`, { token: ADMIN })).status).toBe(201);
    await runJobs();
    const toGuest = await sentTo('butler.confirmed', '01022223333');
    expect(toGuest).toHaveLength(1);
    expect(toGuest[0].text).toContain('이손님님');
    expect(await sentTo('butler.confirmed', booker.user.email!)).toHaveLength(1);
  });

  it('on invoice billing marks the trip invoice_billed and charges no card', async () => {
    const { admin, company } = await companyWithAdmin(ctx, { card: false });
    await ctx.database.db.update(companies).set({ invoiceBilling: true }).where(eq(companies.id, company.id));
    const car = await newCar();
    const res = await ctx.call('POST', `/butlers/cars/${car.id}/company-request`, { token: admin.token, json: trip(company.id, { guest_name: null, guest_phone: null }) });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data.payment).toBeNull();
    expect(res.body.data.butler_request.company_booking).toMatchObject({ billing: 'INVOICE', guest_name: null });
    const [row] = await ctx.database.db.select().from(butlerRequests).where(eq(butlerRequests.id, res.body.data.butler_request.id));
    expect(row.invoiceBilled).toBe(true);
    expect(await ctx.database.db.select().from(payments).where(and(eq(payments.refType, 'butler_request'), eq(payments.refId, row.id)))).toHaveLength(0);
  });

  it('is refused while the company has an overdue statement, with nothing booked; paid, it books again', async () => {
    const { admin, company } = await companyWithAdmin(ctx, { card: false });
    await ctx.database.db.update(companies).set({ invoiceBilling: true }).where(eq(companies.id, company.id));
    const yesterday = addDays(todayInKorea(new Date()), -1);
    const [statement] = await ctx.database.db
      .insert(companyInvoices)
      .values({ companyId: company.id, month: yesterday.slice(0, 7), supplyAmount: 636_364, vatAmount: 63_636, totalAmount: 700_000, dueDate: yesterday, status: 'ISSUED', issuedAt: new Date() })
      .returning();
    const car = await newCar();
    const refused = await ctx.call('POST', `/butlers/cars/${car.id}/company-request`, { token: admin.token, json: trip(company.id) });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/미납|납부/);
    expect(await ctx.database.db.select().from(butlerRequests).where(eq(butlerRequests.companyId, company.id))).toHaveLength(0);
    await ctx.database.db.update(companyInvoices).set({ status: 'PAID', paidAt: new Date() }).where(eq(companyInvoices.id, statement.id));
    expect((await ctx.call('POST', `/butlers/cars/${car.id}/company-request`, { token: admin.token, json: trip(company.id) })).status).toBe(201);
  });

  it('without a card (and not on invoice) is refused in Korean before anything is booked; a half-given guest is a 400', async () => {
    const { admin, company } = await companyWithAdmin(ctx, { card: false });
    const car = await newCar();
    const res = await ctx.call('POST', `/butlers/cars/${car.id}/company-request`, { token: admin.token, json: trip(company.id) });
    expect(res.status).toBe(422);
    expect(res.body.message).toContain('회사 결제 카드가 등록되지 않았습니다');
    const half = await ctx.call('POST', `/butlers/cars/${car.id}/company-request`, { token: admin.token, json: trip(company.id, { guest_phone: null }) });
    expect(half.status).toBe(400);
    expect(half.body.errors['company.guest_phone'][0]).toContain('함께');
    expect(await ctx.database.db.select().from(butlerRequests).where(eq(butlerRequests.companyId, company.id))).toHaveLength(0);
  });
});

describe('approval above the threshold', () => {
  async function waitingTrip() {
    const { admin, company } = await companyWithAdmin(ctx);
    expect((await ctx.call('PUT', `/companies/${company.id}/settings`, { token: admin.token, json: { approval_threshold: 500_000 } })).status).toBe(200);
    const booker = await customer(ctx);
    await join(ctx, admin.token, company.id, booker, 'BOOKER');
    const car = await newCar();
    const res = await ctx.call('POST', `/butlers/cars/${car.id}/company-request`, { token: booker.token, json: trip(company.id) });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return { admin, company, booker, car, id: res.body.data.butler_request.id, res };
  }

  it("a booker's trip waits uncharged and unconfirmable; the admin is asked once and approves, then it is charged", async () => {
    const { admin, company, booker, id, res } = await waitingTrip();
    expect(res.body.data.payment).toBeNull();
    expect(res.body.data.butler_request.company_booking!.approval_status).toBe('WAITING');
    const confirm = await ctx.call('POST', `/admin/butler-requests/${id}/confirm`, { token: ADMIN });
    expect(confirm.status).toBe(409);
    expect(confirm.body.message).toContain('승인을 기다리는');
    await runJobs();
    expect(await sentTo('company.approval_requested', admin.user.email!)).toHaveLength(1);
    expect(await sentTo('staff.butler_requested', 'x')).toHaveLength(0);

    // The booker cannot approve their own trip.
    expect((await ctx.call('POST', `/companies/${company.id}/trips/${id}/approval`, { token: booker.token, json: { decision: 'approve' } })).status).toBe(403);
    const ok = await ctx.call('POST', `/companies/${company.id}/trips/${id}/approval`, { token: admin.token, json: { decision: 'approve' } });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.data.butler_request.company_booking!.approval_status).toBe('APPROVED');
    expect(ok.body.data.butler_request.payment).toMatchObject({ status: 'PAID', amount: 700_000 });
    const twice = await ctx.call('POST', `/companies/${company.id}/trips/${id}/approval`, { token: admin.token, json: { decision: 'approve' } });
    expect(twice.status).toBe(409);
    await runJobs();
    expect(await sentTo('company.approval_decided', booker.user.email!)).toHaveLength(1);
    expect((await ctx.call('POST', `/admin/butler-requests/${id}/confirm`, { token: ADMIN })).status).toBe(201);
  });

  it('a declined trip is cancelled with its days freed and nothing charged; the booker is told why', async () => {
    const { admin, company, booker, id } = await waitingTrip();
    const no = await ctx.call('POST', `/companies/${company.id}/trips/${id}/approval`, { token: admin.token, json: { decision: 'decline', reason: '예산 초과' } });
    expect(no.status).toBe(200);
    expect(no.body.data.butler_request).toMatchObject({ status: 'CANCELLED', company_booking: { approval_status: 'DECLINED', approval_reason: '예산 초과' } });
    expect(await ctx.database.db.select().from(butlerReservedDates).where(eq(butlerReservedDates.butlerRequestId, id))).toHaveLength(0);
    expect(await ctx.database.db.select().from(payments).where(and(eq(payments.refType, 'butler_request'), eq(payments.refId, id)))).toHaveLength(0);
    await runJobs();
    const told = await sentTo('company.approval_decided', booker.user.email!);
    expect(told).toHaveLength(1);
    expect(told[0].text).toContain('예산 초과');
  });

  it("an admin's own booking above the threshold does not wait", async () => {
    const { admin, company } = await companyWithAdmin(ctx);
    await ctx.call('PUT', `/companies/${company.id}/settings`, { token: admin.token, json: { approval_threshold: 100_000 } });
    const car = await newCar();
    const res = await ctx.call('POST', `/butlers/cars/${car.id}/company-request`, { token: admin.token, json: trip(company.id) });
    expect(res.status).toBe(201);
    expect(res.body.data.butler_request.company_booking!.approval_status).toBeNull();
    expect(res.body.data.payment!.status).toBe('PAID');
  });
});

describe('who books and sees company trips', () => {
  it('a driver cannot book or list; a stranger company is 404; another company never sees or decides these trips', async () => {
    const { admin, company } = await companyWithAdmin(ctx);
    const driver = await customer(ctx);
    await join(ctx, admin.token, company.id, driver, 'DRIVER');
    const car = await newCar();
    expect((await ctx.call('POST', `/butlers/cars/${car.id}/company-request`, { token: driver.token, json: trip(company.id) })).status).toBe(403);
    expect((await ctx.call('GET', `/companies/${company.id}/trips`, { token: driver.token })).status).toBe(403);

    const other = await companyWithAdmin(ctx);
    const res = await ctx.call('POST', `/butlers/cars/${car.id}/company-request`, { token: admin.token, json: trip(company.id) });
    expect(res.status).toBe(201);
    const id = res.body.data.butler_request.id;
    const t = other.admin.token;
    expect((await ctx.call('POST', `/butlers/cars/${car.id}/company-request`, { token: t, json: trip(company.id, { request_key: 'stranger-key-1' }) })).status).toBe(404);
    expect((await ctx.call('GET', `/companies/${company.id}/trips`, { token: t })).status).toBe(404);
    expect((await ctx.call('GET', `/companies/${other.company.id}/trips`, { token: t })).body.data.trips).toEqual([]);
    expect((await ctx.call('POST', `/companies/${other.company.id}/trips/${id}/approval`, { token: t, json: { decision: 'decline' } })).status).toBe(404);
    expect((await ctx.call('GET', `/butlers/requests/${id}`, { token: t })).status).toBe(404);
    // A removed booker loses the company's trips at once.
    const booker = await customer(ctx);
    await join(ctx, admin.token, company.id, booker, 'BOOKER');
    expect((await ctx.call('GET', `/companies/${company.id}/trips`, { token: booker.token })).body.data.trips.map((x: { id: number }) => x.id)).toEqual([id]);
    await ctx.call('DELETE', `/companies/${company.id}/members/${booker.user.id}`, { token: admin.token });
    expect((await ctx.call('GET', `/companies/${company.id}/trips`, { token: booker.token })).status).toBe(404);
  });
});
