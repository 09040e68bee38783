import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { addDays, todayInKorea } from '../../src/domain/dates';
import { NO_CASE_MESSAGE, OWN_CAR_ONLY_MESSAGE } from '../../src/domain/butler-legal';
import { insertButlerCar, insertModel, insertUser, upsertBrand } from '../../src/api/seed/factories';
import { butlerRequests, payments } from '../../src/api/db/schema';
import { issueSandboxBillingKey } from '../../src/api/billing/sandbox-provider';
import { openSession } from '../../src/api/accounts/sessions';
import { loadConfig, TEST_ADMIN_TOKEN } from '../../src/api/env';
import { createTestContext, PRODUCTION_BUSINESS_ENV, type TestContext } from './helpers';

/**
 * BUTLER_LEGAL_MODEL per model (docs/decisions/legal.md §2): exemptions refuses a booking
 * that fits no 시행령 제18조 case before paying and staff may refuse a claimed one; partner names
 * the carrier on the booking; own-car rents no fleet car.
 */
const PARTNER = { name: '테스트 고급택시(주)', licence: '서울-고급-0042' };
const contexts: TestContext[] = [];
afterAll(() => Promise.all(contexts.map((c) => c.close())));

async function setUp(model: 'exemptions' | 'partner' | 'own-car', overrides: Parameters<typeof createTestContext>[0] = {}) {
  const ctx = await createTestContext({ butlerLegal: { model, partner: PARTNER, ownCarHourlyRate: 45_000 }, ...overrides });
  contexts.push(ctx);
  const brand = await upsertBrand(ctx.database.db, { name: 'Mercedes Benz', slug: 'mercedes' });
  const modelId = (await insertModel(ctx.database.db, { brandId: brand.id, name: 'S-Class' })).id;
  const sedan = await insertButlerCar(ctx.database.db, modelId, { subModel: 'S 580 (4인승)', butlerFee: 700_000, butlerOvertimeFee: null });
  const van = await insertButlerCar(ctx.database.db, modelId, { subModel: '스프린터 리무진 11인', butlerFee: 500_000, butlerOvertimeFee: null });
  const user = await insertUser(ctx.database.db);
  const token = (await openSession(ctx.database.db, ctx.config, user.id)).access_token;
  return { ctx, sedan, van, token, userId: user.id };
}

const at = (days: number, time: string) => `${addDays(todayInKorea(new Date()), days)}T${time}:00+09:00`;
const body = (ctx: TestContext, overrides: Record<string, unknown> = {}) => ({
  start_at: at(10, '09:00'),
  end_at: at(10, '17:00'),
  start_location: '서울 강남구 테헤란로 152',
  end_location: '인천 중구 공항로 272',
  passenger_count: 2,
  billing_key: issueSandboxBillingKey(ctx.config),
  ...overrides,
});

describe('BUTLER_LEGAL_MODEL setting', () => {
  // Production with every other required setting, the partner's two left out.
  const { BUTLER_PARTNER_NAME: _name, BUTLER_PARTNER_LICENCE: _licence, ...seller } = PRODUCTION_BUSINESS_ENV;
  const prod = { NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(32), PUBLIC_PORTONE_STORE_ID: 's', PORTONE_API_SECRET: 'p', ...seller };
  it('defaults to partner with a dev partner; production refuses to start without the partner named', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).butlerLegal.model).toBe('partner');
    expect(() => loadConfig(prod)).toThrow(/BUTLER_PARTNER_NAME and BUTLER_PARTNER_LICENCE/);
    expect(loadConfig({ ...prod, BUTLER_PARTNER_NAME: 'A', BUTLER_PARTNER_LICENCE: 'B' }).butlerLegal.partner).toEqual({ name: 'A', licence: 'B' });
    expect(loadConfig({ ...prod, BUTLER_LEGAL_MODEL: 'exemptions' }).butlerLegal.model).toBe('exemptions');
    expect(() => loadConfig({ BUTLER_LEGAL_MODEL: 'uber' })).toThrow(/BUTLER_LEGAL_MODEL/);
  });
});

describe('exemptions', () => {
  let s: Awaited<ReturnType<typeof setUp>>;
  beforeAll(async () => {
    s = await setUp('exemptions');
  });

  it('GET /butlers/legal lists the cases, no partner', async () => {
    const res = await s.ctx.call('GET', '/butlers/legal');
    expect(res.status).toBe(200);
    expect(res.body.data.model).toBe('exemptions');
    expect(res.body.data.partner).toBeNull();
    expect(res.body.data.cases.map((c: { case: string }) => c.case)).toContain('SENIOR');
  });

  it('refuses a booking that fits no case before charging anything', async () => {
    const res = await s.ctx.call('POST', `/butlers/cars/${s.sedan.id}/request`, { token: s.token, json: body(s.ctx) });
    expect(res.status).toBe(422);
    expect(res.body.message).toBe(NO_CASE_MESSAGE);
    expect(await s.ctx.database.db.select().from(butlerRequests).where(eq(butlerRequests.userId, s.userId))).toEqual([]);
    expect(await s.ctx.database.db.select().from(payments)).toEqual([]);
  });

  it('refuses a 64-year-old and a van case in a sedan, with Korean messages', async () => {
    const young = await s.ctx.call('POST', `/butlers/cars/${s.sedan.id}/request`, { token: s.token, json: body(s.ctx, { eligibility: { case: 'SENIOR', birth_date: addDays(todayInKorea(new Date()), 10).replace(/^\d{4}/, (y) => String(Number(y) - 64)), confirmed: true } }) });
    expect(young.status).toBe(422);
    expect(young.body.message).toMatch(/만 64세/);
    const vanCase = await s.ctx.call('POST', `/butlers/cars/${s.sedan.id}/request`, { token: s.token, json: body(s.ctx, { eligibility: { case: 'VAN_PORT', transport_number: 'KE123', confirmed: true } }) });
    expect(vanCase.status).toBe(422);
    expect(vanCase.body.message).toMatch(/11~15인승 승합차만/);
    expect(vanCase.body.errors).toHaveProperty(['eligibility.case']);
  });

  it('books a foreigner with the passport masked; staff see the case and refuse it with a full refund', async () => {
    const res = await s.ctx.call('POST', `/butlers/cars/${s.sedan.id}/request`, { token: s.token, json: body(s.ctx, { eligibility: { case: 'FOREIGNER', foreigner_id: 'M12345678', confirmed: true } }) });
    expect(res.status).toBe(201);
    const r = res.body.data.butler_request;
    expect(r.legal).toEqual({ model: 'exemptions', partner: null, eligibility: { case: 'FOREIGNER', label: '외국인', proof: ['여권번호: M12******'] }, refused: null });
    expect(JSON.stringify(await s.ctx.database.db.select().from(butlerRequests).where(eq(butlerRequests.id, r.id)))).not.toContain('M12345678');

    const desk = await s.ctx.call('GET', '/admin/butler-requests', { token: TEST_ADMIN_TOKEN });
    expect(desk.body.data.requests.find((x) => x.id === r.id)!.legal.eligibility!.proof).toEqual(['여권번호: M12******']);
    expect((await s.ctx.call('POST', `/admin/butler-requests/${r.id}/refuse-eligibility`, { token: TEST_ADMIN_TOKEN, json: {} })).status).toBe(400);
    const refused = await s.ctx.call('POST', `/admin/butler-requests/${r.id}/refuse-eligibility`, { token: TEST_ADMIN_TOKEN, json: { reason: '탑승 시 여권 미확인' } });
    expect(refused.status).toBe(200);
    expect(refused.body.data).toMatchObject({ id: r.id, refunded_amount: r.final_price, refund_percent: 100 });
    const [row] = await s.ctx.database.db.select().from(butlerRequests).where(eq(butlerRequests.id, r.id));
    expect(row.status).toBe('CANCELLED');
    expect(row.legalBasis?.refused).toMatchObject({ reason: '탑승 시 여권 미확인' });
    expect((await s.ctx.call('POST', `/admin/butler-requests/${r.id}/refuse-eligibility`, { token: TEST_ADMIN_TOKEN, json: { reason: '다시' } })).status).toBe(409);
  });

  it('books an airport van trip', async () => {
    const res = await s.ctx.call('POST', `/butlers/cars/${s.van.id}/request`, { token: s.token, json: body(s.ctx, { start_at: at(11, '09:00'), end_at: at(11, '12:00'), flight_number: 'OZ1085', eligibility: { case: 'VAN_PORT', confirmed: true } }) });
    expect(res.status).toBe(201);
    expect(res.body.data.butler_request.legal.eligibility!.proof).toEqual(['항공·선박편: OZ1085']);
  });
});

describe('partner (default)', () => {
  let s: Awaited<ReturnType<typeof setUp>>;
  beforeAll(async () => {
    s = await setUp('partner');
  });

  it('names the partner on the booking and asks no case; the staff refusal is for exemptions bookings only', async () => {
    expect((await s.ctx.call('GET', '/butlers/legal')).body.data).toMatchObject({ model: 'partner', partner: PARTNER, cases: [] });
    const res = await s.ctx.call('POST', `/butlers/cars/${s.sedan.id}/request`, { token: s.token, json: body(s.ctx) });
    expect(res.status).toBe(201);
    const r = res.body.data.butler_request;
    expect(r.legal).toEqual({ model: 'partner', partner: PARTNER, eligibility: null, refused: null });
    expect((await s.ctx.call('GET', `/butlers/requests/${r.id}`, { token: s.token })).body.data.butler_request.legal.partner).toEqual(PARTNER);
    expect((await s.ctx.call('POST', `/admin/butler-requests/${r.id}/refuse-eligibility`, { token: TEST_ADMIN_TOKEN, json: { reason: 'x' } })).status).toBe(409);
  });

  it('a test run may ask for another model per request (x-test-butler-model), never without TEST_FIXTURES', { timeout: 60_000 }, async () => {
    const asked = await s.ctx.call('POST', `/butlers/cars/${s.sedan.id}/request`, { token: s.token, json: body(s.ctx), headers: { 'x-test-butler-model': 'exemptions' } });
    expect(asked.status).toBe(422);
    const off = await createTestContext({ testFixtures: false });
    contexts.push(off);
    expect((await off.call('GET', '/butlers/legal', { headers: { 'x-test-butler-model': 'exemptions' } })).body.data.model).toBe('partner');
  });
});

describe('own-car', () => {
  it('rents no fleet car with a driver', async () => {
    const s = await setUp('own-car');
    const res = await s.ctx.call('POST', `/butlers/cars/${s.sedan.id}/request`, { token: s.token, json: body(s.ctx) });
    expect(res.status).toBe(422);
    expect(res.body.message).toBe(OWN_CAR_ONLY_MESSAGE);
  });
});
