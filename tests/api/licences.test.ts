import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSession } from '../../src/api/accounts/sessions';
import { driverLicences, jobs, licenceChecks, payments, requestDrivers, subscriptionRequests } from '../../src/api/db/schema';
import { DEV_LICENCE_KEY, loadConfig, TEST_ADMIN_TOKEN } from '../../src/api/env';
import { numberDigest, sealNumber } from '../../src/api/licences/seal';
import { insertLicence, insertTestCar, insertTestIdentity, insertUser } from '../../src/api/seed/factories';
import { LICENCE_REFUSAL } from '../../src/domain/licence';
import { anotherPlate, billingKey, createTestContext, PRODUCTION_BUSINESS_ENV, type TestContext } from './helpers';

/**
 * Issue 48, 운전자격 확인 (docs/decisions/legal.md §1): every driver of a subscription is checked with
 * the 운전자격확인시스템 (the sandbox stand-in here) before the first charge and again before the car
 * is handed over; the number is kept sealed and shown masked; the age band follows the birth dates.
 */
let ctx: TestContext;
let carId: number;
const ADMIN = TEST_ADMIN_TOKEN;
const pickup = { mileage_km: 2_500, driver_age: 'AGE_26', extra_drivers: 0, handover: 'PICKUP', prepayment: 0 } as const;
const START = '2030-06-01';

beforeAll(async () => {
  ctx = await createTestContext();
  ({ car: { id: carId } } = await insertTestCar(ctx.database.db, { fees: { subscription_fee_12: 2_000_000 } }));
  await ctx.call('POST', '/admin/test-clock', { token: ADMIN, json: { now: '2030-05-01T10:00:00+09:00' } });
});
afterAll(() => ctx.close());

/** A verified customer with no licence yet, born on `birthDate` (their 본인인증 says so). */
async function unlicensed(birthDate = '1990-03-15') {
  const user = await insertUser(ctx.database.db, { name: '김면허' }, { licence: false });
  await insertTestIdentity(ctx.database.db, user, birthDate);
  return { user, token: (await openSession(ctx.database.db, ctx.config, user.id)).access_token };
}
const register = (token: string, json: Record<string, unknown>, ip = '10.1.0.1') => ctx.call('POST', '/subscriptions/licences', { token, json, headers: { 'x-forwarded-for': ip } });
const order = async (token: string, body: Record<string, unknown>) =>
  ctx.call('POST', `/subscriptions/cars/${await anotherPlate(ctx, carId)}/request`, { token, json: { month: 12, billing_key: billingKey(ctx), start_date: START, options: pickup, ...body } });
const paymentsOf = (userId: number) => ctx.database.db.select().from(payments).where(eq(payments.userId, userId));

describe('운전자격 확인: registering a licence', () => {
  it("checks the customer's own licence by the 본인인증's name and birth date; the number is sealed and only ever shown masked", async () => {
    const { user, token } = await unlicensed('1988-07-02');
    expect((await ctx.call('GET', '/subscriptions/licences', { token })).body.data).toEqual({ licences: [], new_driver: 'refuse' });
    const res = await register(token, { role: 'HOLDER', number: '서울 10-482913-01', type: 'CLASS1_ORDINARY', name: '남의이름' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data.licence).toMatchObject({
      role: 'HOLDER', name: '김면허', birth_date: '1988-07-02', type: 'CLASS1_ORDINARY', type_label: '1종 보통', number: '11-10-******-**',
      status: 'VALID', status_text: '확인 완료', first_issued_on: '2010-03-01', expires_on: '2040-12-31',
    });
    const listed = await ctx.call('GET', '/subscriptions/licences', { token });
    expect(listed.body.data.licences).toHaveLength(1);
    expect(JSON.stringify(listed.body)).not.toContain('482913');
    const [row] = await ctx.database.db.select().from(driverLicences).where(eq(driverLicences.userId, user.id));
    expect(`${row.numberSealed}${row.numberDigest}`).not.toContain('482913');
    const [check] = await ctx.database.db.select().from(licenceChecks).where(eq(licenceChecks.licenceId, row.id));
    expect(check).toMatchObject({ purpose: 'REGISTER', status: 'VALID', provider: 'sandbox' });
    expect(check.reference).toMatch(/^sandbox-/);

    // The same number again is the same licence, checked again.
    expect((await register(token, { role: 'HOLDER', number: '11-10-482913-01', type: 'CLASS1_ORDINARY' })).status).toBe(201);
    expect(await ctx.database.db.select().from(driverLicences).where(eq(driverLicences.userId, user.id))).toHaveLength(1);
    expect(await ctx.database.db.select().from(licenceChecks).where(eq(licenceChecks.licenceId, row.id))).toHaveLength(2);
  });

  it('refuses, with the reason in Korean and the answer kept: expired, suspended, revoked, not found, another person', async () => {
    const { user, token } = await unlicensed();
    const cases = { '90': LICENCE_REFUSAL.EXPIRED, '91': LICENCE_REFUSAL.SUSPENDED, '92': LICENCE_REFUSAL.REVOKED, '93': LICENCE_REFUSAL.NOT_FOUND, '94': LICENCE_REFUSAL.MISMATCH };
    for (const [digits, message] of Object.entries(cases)) {
      const res = await register(token, { role: 'HOLDER', number: `1215123456${digits}`, type: 'CLASS2_ORDINARY' });
      expect(res.status, digits).toBe(422);
      expect(res.body.message).toBe(message);
    }
    const kept = await ctx.database.db.select().from(driverLicences).where(eq(driverLicences.userId, user.id));
    expect(kept.map((l) => l.status).sort()).toEqual(['EXPIRED', 'MISMATCH', 'NOT_FOUND', 'REVOKED', 'SUSPENDED']);
    // A refused licence cannot order.
    const refused = await order(token, {});
    expect(refused.status).toBe(422);
    expect(await paymentsOf(user.id)).toHaveLength(0);
  });

  it('refuses malformed bodies (400, Korean), an unverified account (403) and nobody (401)', async () => {
    const { token } = await unlicensed();
    for (const bad of [{}, { role: 'HOLDER', number: '123', type: 'CLASS1_ORDINARY' }, { role: 'HOLDER', number: '99-10-123456-01', type: 'CLASS1_ORDINARY' }, { role: 'HOLDER', number: '11-10-123456-01', type: 'BUS' }, { role: 'EXTRA', number: '11-10-123456-01', type: 'CLASS1_ORDINARY' }, { role: 'EXTRA', number: '11-10-123456-01', type: 'CLASS1_ORDINARY', name: '박추가', birth_date: '1990-02-30' }]) {
      const res = await register(token, bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body.message).toMatch(/[가-힣]/);
    }
    const social = await insertUser(ctx.database.db, { ciVerified: false });
    const unverified = await register((await openSession(ctx.database.db, ctx.config, social.id)).access_token, { role: 'HOLDER', number: '11-10-123456-01', type: 'CLASS1_ORDINARY' });
    expect(unverified.status).toBe(403);
    expect((await ctx.call('POST', '/subscriptions/licences', { json: { role: 'HOLDER', number: '11-10-123456-01', type: 'CLASS1_ORDINARY' } })).status).toBe(401);
    expect((await ctx.call('GET', '/subscriptions/licences')).status).toBe(401);
  });
});

describe('운전자격 확인 before the first charge', () => {
  it('an order without a checked licence is refused before the card is charged', async () => {
    const { user, token } = await unlicensed();
    const res = await order(token, {});
    expect(res.status).toBe(422);
    expect(res.body.message).toContain('운전면허 확인이 필요합니다');
    expect(await paymentsOf(user.id)).toHaveLength(0);
  });

  it('the age band follows the verified birth date on the start: 만 23세 pays the 21~25 rate and cannot choose 26+', async () => {
    const { user, token } = await unlicensed('2007-01-10');
    expect((await register(token, { role: 'HOLDER', number: '11-25-555555-01', type: 'CLASS2_ORDINARY' })).status).toBe(201);
    const chosen = await order(token, {});
    expect(chosen.status).toBe(422);
    expect(chosen.body.errors['options.driver_age'][0]).toContain('만 21~25세');
    expect(await paymentsOf(user.id)).toHaveLength(0);
    const young = await order(token, { options: { ...pickup, driver_age: 'AGE_21' } });
    expect(young.status, JSON.stringify(young.body)).toBe(201);
    expect(young.body.data.subscription_request.options!.options.driver_age).toBe('AGE_21');
    // Under 만 21세 on the start: refused.
    const teen = await unlicensed('2010-01-10');
    expect((await register(teen.token, { role: 'HOLDER', number: '11-28-555555-01', type: 'CLASS2_ORDINARY' })).status).toBe(201);
    const tooYoung = await order(teen.token, { options: { ...pickup, driver_age: 'AGE_21' } });
    expect(tooYoung.status).toBe(422);
    expect(tooYoung.body.message).toContain('만 21세 이상만');
  });

  it('every additional driver needs their own checked licence; a stranger’s licence is refused; the drivers are kept with the order', async () => {
    const { user, token } = await unlicensed();
    expect((await register(token, { role: 'HOLDER', number: '11-05-111111-01', type: 'CLASS1_ORDINARY' })).status).toBe(201);
    const missing = await order(token, { options: { ...pickup, extra_drivers: 1 } });
    expect(missing.status).toBe(422);
    expect(missing.body.message).toContain('추가 운전자 1명의 운전면허');

    const stranger = await unlicensed();
    const theirs = await register(stranger.token, { role: 'EXTRA', number: '11-05-222222-01', type: 'CLASS1_ORDINARY', name: '남의운전자', birth_date: '1985-01-01' });
    expect(theirs.status).toBe(201);
    const stolen = await order(token, { options: { ...pickup, extra_drivers: 1 }, extra_driver_licence_ids: [theirs.body.data.licence.id] });
    expect(stolen.status).toBe(422);
    expect(await paymentsOf(user.id)).toHaveLength(0);

    const extra = await register(token, { role: 'EXTRA', number: '11-05-333333-01', type: 'CLASS2_ORDINARY', name: '박추가', birth_date: '1985-05-05' });
    expect(extra.status).toBe(201);
    expect(extra.body.data.licence).toMatchObject({ role: 'EXTRA', name: '박추가', birth_date: '1985-05-05', number: '11-05-******-**' });
    const placed = await order(token, { options: { ...pickup, extra_drivers: 1 }, extra_driver_licence_ids: [extra.body.data.licence.id] });
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    const requestId = placed.body.data.subscription_request.id;
    expect(await ctx.database.db.select().from(requestDrivers).where(eq(requestDrivers.requestId, requestId))).toHaveLength(2);
    // Checked again for the order, each answer kept.
    const checks = await ctx.database.db.select().from(licenceChecks).where(eq(licenceChecks.purpose, 'ORDER'));
    expect(checks.filter((c) => c.licenceId === extra.body.data.licence.id).length).toBeGreaterThanOrEqual(1);

    // Staff see both on the desk, masked.
    const desk = await ctx.call('GET', '/admin/subscription-requests', { token: ADMIN });
    const row = desk.body.data.requests.find((r: { id: number }) => r.id === requestId);
    expect(row!.drivers.map((d: { role: string; name: string; status: string }) => `${d.role} ${d.name} ${d.status}`)).toEqual(['HOLDER 김면허 VALID', 'EXTRA 박추가 VALID']);
    expect(JSON.stringify(row!.drivers)).not.toContain('333333');
  });

  it('a licence held under a year is refused by default, and priced at the 21~25 rate under LICENCE_NEW_DRIVER=young-rate', async () => {
    const { token } = await unlicensed();
    // The sandbox's year digits are the first issue (2030-03-01): under a year before the start.
    expect((await register(token, { role: 'HOLDER', number: '11-30-777777-01', type: 'CLASS2_ORDINARY' })).status).toBe(201);
    const refused = await order(token, {});
    expect(refused.status).toBe(422);
    expect(refused.body.message).toContain('1년이 지나야');

    const lenient = await createTestContext({ licence: { ...ctx.config.licence, newDriver: 'young-rate' } });
    try {
      await lenient.call('POST', '/admin/test-clock', { token: ADMIN, json: { now: '2030-05-01T10:00:00+09:00' } });
      const { car } = await insertTestCar(lenient.database.db, { fees: { subscription_fee_12: 2_000_000 } });
      const user = await insertUser(lenient.database.db, {}, { licence: false });
      await insertLicence(lenient.database.db, user.id, { name: '홍길동', birthDate: '1990-03-15', number: '113077777701' });
      await lenient.database.db.update(driverLicences).set({ firstIssuedOn: '2030-03-01' }).where(eq(driverLicences.userId, user.id));
      const t = (await openSession(lenient.database.db, lenient.config, user.id)).access_token;
      const json = { month: 12, billing_key: billingKey(lenient), start_date: START, options: pickup };
      const chose26 = await lenient.call('POST', `/subscriptions/cars/${car.id}/request`, { token: t, json });
      expect(chose26.status).toBe(422);
      expect(chose26.body.message).toContain('면허 취득 1년 미만');
      const placed = await lenient.call('POST', `/subscriptions/cars/${car.id}/request`, { token: t, json: { ...json, options: { ...pickup, driver_age: 'AGE_21' } } });
      expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    } finally {
      await lenient.close();
    }
  });
});

describe('운전자격 확인 again at the handover', () => {
  it('a licence suspended since the order stops the delivery; customer and staff are told once; staff see it on the board', async () => {
    const { user, token } = await unlicensed();
    const holder = await register(token, { role: 'HOLDER', number: '11-05-444444-01', type: 'CLASS1_ORDINARY' }, '10.1.0.9');
    expect(holder.status).toBe(201);
    const placed = await order(token, {});
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    const requestId = placed.body.data.subscription_request.id;
    const sub = (await ctx.call('POST', `/admin/subscription-requests/${requestId}/confirm`, { token: ADMIN, json: { start_date: START } })).body.data.subscription;
    const driver = (await ctx.call('POST', '/admin/drivers', { token: ADMIN, json: { name: '탁송기사', phone: '010-7777-4321', gender: 'male' } })).body.data.driver;
    const scheduled = await ctx.call('POST', `/admin/subscriptions/${sub.id}/handovers`, { token: ADMIN, json: { kind: 'DELIVERY', driver_id: driver.id, date: START, window_start: '10:00', window_end: '12:00' } });
    expect(scheduled.status, JSON.stringify(scheduled.body)).toBe(201);
    const handoverId = scheduled.body.data.handover.id;
    const board = await ctx.call('GET', `/admin/handovers?from=${START}&days=1`, { token: ADMIN });
    const card = board.body.data.handovers.find((h: { id: number }) => h.id === handoverId);
    expect(card!.licences).toEqual([expect.objectContaining({ role: 'HOLDER', name: '김면허', status: 'VALID', status_text: '확인 완료' })]);

    // The 공단 now answers 효력 정지 for that licence (the sandbox's 91).
    const suspended = '110544444491';
    await ctx.database.db
      .update(driverLicences)
      .set({ numberSealed: sealNumber(suspended, DEV_LICENCE_KEY), numberDigest: numberDigest(suspended, DEV_LICENCE_KEY) })
      .where(eq(driverLicences.id, holder.body.data.licence.id));
    await ctx.call('POST', '/admin/test-clock', { token: ADMIN, json: { now: `${START}T10:30:00+09:00` } });
    const record = { odometer_km: 1200, fuel_percent: 100 };
    for (let i = 0; i < 2; i++) {
      const refused = await ctx.call('POST', `/admin/handovers/${handoverId}/record`, { token: ADMIN, json: record });
      expect(refused.status).toBe(409);
      expect(refused.body.message).toContain('계약자 김면허님의 운전면허를 다시 확인한 결과 인도할 수 없습니다.');
      expect(refused.body.message).toContain(LICENCE_REFUSAL.SUSPENDED);
    }
    const told = async (key: string) => ctx.database.db.select().from(jobs).where(like(jobs.key, `notify:${key}:${handoverId}`));
    expect(await told('subscription.licence_refused')).toHaveLength(1);
    expect(await told('staff.licence_refused')).toHaveLength(1);
    const after = await ctx.call('GET', `/admin/handovers?from=${START}&days=1`, { token: ADMIN });
    expect(after.body.data.handovers.find((h: { id: number }) => h.id === handoverId)).toMatchObject({ status: 'SCHEDULED', licences: [expect.objectContaining({ status: 'SUSPENDED', status_text: '효력 정지' })] });
    const checks = await ctx.database.db.select().from(licenceChecks).where(and(eq(licenceChecks.purpose, 'DELIVERY'), eq(licenceChecks.refId, handoverId)));
    expect(checks.map((c) => c.status)).toEqual(['SUSPENDED', 'SUSPENDED']);
    const [stillPending] = await ctx.database.db.select().from(subscriptionRequests).where(eq(subscriptionRequests.id, requestId));
    expect(stillPending.userId).toBe(user.id);
    await ctx.call('POST', '/admin/test-clock', { token: ADMIN, json: { now: '2030-05-01T10:00:00+09:00' } });
  });
});

describe('운전자격 확인 settings', () => {
  it('production refuses the sandbox and a missing sealing key', () => {
    const production = { NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(32), PUBLIC_PORTONE_STORE_ID: 's', PORTONE_API_SECRET: 'p', ...PRODUCTION_BUSINESS_ENV };
    expect(() => loadConfig(production)).not.toThrow();
    const { LICENCE_KEY: _key, ...noKey } = production;
    expect(() => loadConfig(noKey)).toThrow(/LICENCE_PROVIDER=http and LICENCE_KEY/);
    expect(() => loadConfig({ ...production, LICENCE_PROVIDER: 'sandbox' })).toThrow(/운전자격확인시스템/);
    const { LICENCE_API_URL: _url, ...noUrl } = production;
    expect(() => loadConfig(noUrl)).toThrow(/LICENCE_API_URL/);
    expect(() => loadConfig({ ...production, LICENCE_KEY: Buffer.alloc(16).toString('base64') })).toThrow(/LICENCE_KEY/);
  });
});
