import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayInKorea } from '../../src/domain/dates';
import { insertButlerCar, insertModel, upsertBrand } from '../../src/api/seed/factories';
import { auditLog, butlerRequests, companies, users } from '../../src/api/db/schema';
import { apiTools, billingKey, createTestContext, customer, type TestContext } from './helpers';
import { businessNumber, companyBody } from './company-helpers';

/**
 * Proof that a company's creator represents it (issue 52): creating a company needs the 개업일자
 * and 대표자성명, and the 국세청 진위확인 (the sandbox's 95 numbers hold 김대표 / 2015-03-02) must
 * match them with the number. A creator whose 본인인증 name is the 대표자 may book at once; anyone
 * else (a 직원, or a stranger who knows the company's details) books and is billed nothing until
 * staff confirm a 재직/위임 proof; a staff refusal closes the company and frees the number.
 */

let ctx: TestContext;
let modelId: number;
const { admin: staff } = apiTools(() => ctx);
beforeAll(async () => {
  ctx = await createTestContext();
  const brand = await upsertBrand(ctx.database.db, { name: 'Genesis', slug: 'genesis-authority' });
  modelId = (await insertModel(ctx.database.db, { brandId: brand.id, name: 'G90' })).id;
});
afterAll(() => ctx.close());

const at = (days: number, time: string) => `${addDays(todayInKorea(new Date()), days)}T${time}:00+09:00`;
let keys = 0;
const trip = (companyId: number) => ({
  start_at: at(12, '09:00'), start_location: '서울 강남구 테헤란로 152', end_at: at(12, '17:00'), end_location: '인천 중구 공항로 272',
  passenger_count: 1, purpose: '고객 의전', driver_preference: 'any',
  company: { company_id: companyId, request_key: `form-auth-${Date.now()}-${++keys}`, cost_centre: '총무팀' },
});
/** The sandbox register of a 95 number: 대표자 김대표, 개업일자 2015-03-02. */
const registered = (overrides: Record<string, unknown> = {}) => companyBody({ business_number: businessNumber('95'), ceo: '김대표', opened_on: '2015-03-02', ...overrides });

describe('the 국세청 진위확인 at creation', () => {
  it('needs the 개업일자 and refuses a 대표자성명 or 개업일자 the register does not hold, storing nothing', async () => {
    const { token } = await customer(ctx);
    const missing = await ctx.call('POST', '/companies', { token, json: { ...companyBody(), opened_on: undefined } });
    expect(missing.status).toBe(400);
    expect(missing.body.errors.opened_on[0]).toContain('개업일자');
    const badDay = await ctx.call('POST', '/companies', { token, json: companyBody({ opened_on: '2015-02-30' }) });
    expect(badDay.status).toBe(400);

    const wrongName = await ctx.call('POST', '/companies', { token, json: registered({ ceo: '박사칭' }) });
    expect(wrongName.status).toBe(422);
    expect(wrongName.body.message).toContain('대표자성명 또는 개업일자와 일치하지 않습니다');
    expect(Object.keys(wrongName.body.errors).sort()).toEqual(['ceo', 'opened_on']);
    const wrongDay = await ctx.call('POST', '/companies', { token, json: registered({ opened_on: '2015-03-03' }) });
    expect(wrongDay.status).toBe(422);
    expect((await ctx.call('GET', '/companies', { token })).body.data.companies).toEqual([]);
  });

  it('a creator whose 본인인증 name is the 대표자 (spaces aside) is the CEO and books at once', async () => {
    const ceo = await customer(ctx);
    await ctx.database.db.update(users).set({ name: '김대표' }).where(eq(users.id, ceo.user.id));
    const res = await ctx.call('POST', '/companies', { token: ceo.token, json: registered({ ceo: '김 대표' }) });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data.company).toMatchObject({ authority: 'CEO', opened_on: '2015-03-02' });
    const id = res.body.data.company.id;
    expect((await ctx.call('PUT', `/companies/${id}/card`, { token: ceo.token, json: { billing_key: billingKey(ctx) } })).status).toBe(200);
    const car = await insertButlerCar(ctx.database.db, modelId, { subModel: 'G90 3.5T', butlerFee: 500_000, butlerOvertimeFee: null });
    expect((await ctx.call('POST', `/butlers/cars/${car.id}/company-request`, { token: ceo.token, json: trip(id) })).status).toBe(201);
  });
});

describe('a creator who is not the 대표자', () => {
  it("a stranger who knows a company's details gets a PENDING company that books nothing, cannot get 후불, and staff's refusal closes it and frees the number", async () => {
    const stranger = await customer(ctx); // 본인인증 name 홍길동, not 김대표
    const body = registered();
    const res = await ctx.call('POST', '/companies', { token: stranger.token, json: body });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data.company.authority).toBe('PENDING');
    const id = res.body.data.company.id;
    expect((await ctx.call('PUT', `/companies/${id}/card`, { token: stranger.token, json: { billing_key: billingKey(ctx) } })).status).toBe(200);

    const car = await insertButlerCar(ctx.database.db, modelId, { subModel: 'G90 3.5T', butlerFee: 500_000, butlerOvertimeFee: null });
    const refused = await ctx.call('POST', `/butlers/cars/${car.id}/company-request`, { token: stranger.token, json: trip(id) });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toContain('재직증명서 또는 위임장');
    expect(await ctx.database.db.select().from(butlerRequests).where(eq(butlerRequests.companyId, id))).toHaveLength(0);
    const credit = await staff('PUT', `/admin/companies/${id}/billing`, { invoice_billing: true });
    expect(credit.status).toBe(422);
    expect(credit.body.message).toContain('재직·위임 확인');

    // The stranger cannot decide for themselves; staff need a note of what they checked.
    expect((await ctx.call('PUT', `/admin/companies/${id}/authority`, { token: stranger.token, json: { decision: 'confirm', note: '본인' } })).status).toBe(403);
    expect((await staff('PUT', `/admin/companies/${id}/authority`, { decision: 'confirm', note: '' })).status).toBe(400);
    expect((await staff('PUT', `/admin/companies/${id}/authority`, { decision: 'maybe', note: 'x' })).status).toBe(400);

    const rejected = await staff('PUT', `/admin/companies/${id}/authority`, { decision: 'reject', note: '위임장 없음, 회사에 확인: 직원 아님' });
    expect(rejected.status, JSON.stringify(rejected.body)).toBe(200);
    expect(rejected.body.data.company.closed_at).not.toBeNull();
    expect((await ctx.call('GET', `/companies/${id}`, { token: stranger.token })).status).toBe(404);
    expect((await staff('PUT', `/admin/companies/${id}/authority`, { decision: 'confirm', note: '다시' })).status).toBe(409);
    const audit = await ctx.database.db.select().from(auditLog).where(and(eq(auditLog.entity, 'company_authority'), eq(auditLog.entityId, String(id))));
    expect(audit.map((a) => a.action)).toEqual(['decline']);

    // The real 대표자 can now register the number.
    const ceo = await customer(ctx);
    await ctx.database.db.update(users).set({ name: '김대표' }).where(eq(users.id, ceo.user.id));
    const theirs = await ctx.call('POST', '/companies', { token: ceo.token, json: body });
    expect(theirs.status, JSON.stringify(theirs.body)).toBe(201);
    expect(theirs.body.data.company.authority).toBe('CEO');
  });

  it("an employee's company books once staff confirmed their 재직증명서, and the decision is audited with the note", async () => {
    const employee = await customer(ctx);
    const res = await ctx.call('POST', '/companies', { token: employee.token, json: registered() });
    const id = res.body.data.company.id;
    expect((await ctx.call('PUT', `/companies/${id}/card`, { token: employee.token, json: { billing_key: billingKey(ctx) } })).status).toBe(200);
    const detail = await staff('GET', `/admin/companies/${id}`);
    expect(detail.body.data.company).toMatchObject({ authority: 'PENDING', authority_note: null, opened_on: '2015-03-02' });

    const confirmed = await staff('PUT', `/admin/companies/${id}/authority`, { decision: 'confirm', note: '재직증명서(총무팀) 확인' });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.data.company).toMatchObject({ authority: 'CONFIRMED', closed_at: null });
    expect((await staff('PUT', `/admin/companies/${id}/authority`, { decision: 'confirm', note: '재직증명서(총무팀) 확인' })).status).toBe(409);
    const [row] = await ctx.database.db.select().from(companies).where(eq(companies.id, id));
    expect(row.authorityNote).toBe('재직증명서(총무팀) 확인');
    const audit = await ctx.database.db.select().from(auditLog).where(and(eq(auditLog.entity, 'company_authority'), eq(auditLog.entityId, String(id))));
    expect(audit).toHaveLength(1);
    expect(audit[0].after).toMatchObject({ authority: 'CONFIRMED', note: '재직증명서(총무팀) 확인' });

    const car = await insertButlerCar(ctx.database.db, modelId, { subModel: 'G90 3.5T', butlerFee: 500_000, butlerOvertimeFee: null });
    expect((await ctx.call('POST', `/butlers/cars/${car.id}/company-request`, { token: employee.token, json: trip(id) })).status).toBe(201);
    expect((await staff('PUT', `/admin/companies/${id}/billing`, { invoice_billing: true })).status).toBe(200);
  });
});
