import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertButlerCar, insertModel, insertTestCar, upsertBrand } from '../../src/api/seed/factories';
import { butlerRequests, payments, refreshTokens, subscriptionRequests, subscriptions, users } from '../../src/api/db/schema';
import { signAccessToken } from '../../src/api/auth/tokens';
import { openSession } from '../../src/api/accounts/sessions';
import { createTestContext, customer, koreaDay, sandboxVerify, signupPerson, type TestContext } from './helpers';

/** 회원 탈퇴 (DELETE /accounts, GET /accounts/withdrawal): the guards, the password, strangers. docs/decisions/accounts.md. */

let ctx: TestContext;
let ipSeq = 0;
const ip = () => ({ 'x-forwarded-for': `10.49.${Math.floor(++ipSeq / 250)}.${ipSeq % 250}` });
const login = (email: string, password: string) => ctx.call('POST', '/accounts/login', { json: { email, password }, headers: ip() });

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx.close();
});

/** A signed-up member with a password of their own (newPerson's is the same for everyone). */
async function member() {
  const password = `own-${++ipSeq}-pass`;
  const { res, person: p } = await signupPerson(ctx, { password }, ip()['x-forwarded-for']);
  expect(res.status).toBe(201);
  const person = { ...p, password };
  return { person, token: res.body.data.access_token, id: res.body.data.user.id };
}

const preview = (token: string) => ctx.call('GET', '/accounts/withdrawal', { token });
const close = (token: string, current_password?: string) => ctx.call('DELETE', '/accounts', { token, json: current_password === undefined ? {} : { current_password } });

describe('who may close which account', () => {
  it('no token, or a forged one, is a 401 and closes nothing', async () => {
    expect((await ctx.call('GET', '/accounts/withdrawal')).status).toBe(401);
    expect((await ctx.call('DELETE', '/accounts', { json: { current_password: 'secret123' } })).status).toBe(401);
    expect((await ctx.call('PUT', '/accounts', { json: { password: 'taken-over-1', current_password: 'secret123' } })).status).toBe(401);
    const a = await member();
    const forged = await signAccessToken('not-the-secret-not-the-secret-not-the-secret', a.id, 'sid', Date.now());
    expect((await ctx.call('DELETE', '/accounts', { token: forged, json: { current_password: a.person.password } })).status).toBe(401);
    expect((await login(a.person.email, a.person.password)).status).toBe(200);
  });

  it("another member's token closes or changes only that member's own account", async () => {
    const a = await member();
    const b = await member();
    // B knows A's password: it still only reaches B's account (there is no id to point at A's).
    expect((await ctx.call('PUT', '/accounts', { token: b.token, json: { password: 'taken-over-1', current_password: a.person.password } })).status).toBe(400);
    expect((await close(b.token, a.person.password)).status).toBe(400);
    expect((await login(a.person.email, a.person.password)).status).toBe(200);
    expect((await close(b.token, b.person.password)).status).toBe(200);
    expect((await login(b.person.email, b.person.password)).status).toBe(401);
    expect((await login(a.person.email, a.person.password)).status).toBe(200);
    expect((await ctx.call('GET', '/accounts', { token: a.token })).body.data.email).toBe(a.person.email);
  });
});

describe('the password', () => {
  it('is required, a wrong one refused in Korean and counted toward the login lock', async () => {
    const a = await member();
    const none = await close(a.token);
    expect(none.status).toBe(400);
    expect(none.body.errors.current_password[0]).toBe('현재 비밀번호를 입력해주세요.');
    const wrong = await close(a.token, 'not-my-password');
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe('현재 비밀번호가 올바르지 않습니다.');
    for (let i = 0; i < 4; i++) await close(a.token, 'not-my-password');
    const locked = await close(a.token, a.person.password);
    expect(locked.status).toBe(429);
    expect((await ctx.call('GET', '/accounts', { token: a.token })).status).toBe(200);
  });

  it('a social account without a password needs a fresh login', async () => {
    const { user, token } = await customer(ctx);
    await ctx.database.db.update(users).set({ socialProvider: 'kakao', socialId: `k-${user.id}`, passwordHash: null }).where(eq(users.id, user.id));
    expect((await preview(token)).body.data).toMatchObject({ can_withdraw: true, needs_password: false });
    const old = await openSession(ctx.database.db, ctx.config, user.id);
    await ctx.database.db.update(refreshTokens).set({ createdAt: new Date(Date.now() - 3600_000) }).where(eq(refreshTokens.familyId, old.sid));
    const stale = await signAccessToken(ctx.config.jwtSecret, user.id, old.sid, Date.now() - 3600_000);
    const refused = await close(stale);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('보안을 위해 다시 로그인한 뒤 탈퇴해주세요.');
    expect((await close(token)).status).toBe(200);
  });
});

describe('what must end first', () => {
  it('a pending request: the preview lists it, DELETE is a 409 naming it, and once cancelled the account closes', async () => {
    const a = await member();
    const { car } = await insertTestCar(ctx.database.db);
    const [r] = await ctx.database.db.insert(subscriptionRequests).values({ userId: a.id, carId: car.id, month: 12, billingKey: `bk-close-${a.id}`, billingProvider: 'sandbox', fee: 3_000_000, finalFee: 3_000_000 }).returning();
    const p = await preview(a.token);
    expect(p.status).toBe(200);
    expect(p.body.data.can_withdraw).toBe(false);
    expect(p.body.data.blockers).toEqual([expect.objectContaining({ kind: 'SUBSCRIPTION_REQUEST', href: '/my/requests' })]);
    const refused = await close(a.token, a.person.password);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('지금은 탈퇴할 수 없습니다. 먼저 다음을 마쳐주세요. 접수 중인 구독 신청 1건: 구독 신청 내역에서 취소하거나 확정된 뒤 구독을 마쳐주세요.');
    expect((await login(a.person.email, a.person.password)).status).toBe(200);
    await ctx.database.db.update(subscriptionRequests).set({ status: 'CANCELLED' }).where(eq(subscriptionRequests.id, r.id));
    expect((await preview(a.token)).body.data).toMatchObject({ can_withdraw: true, blockers: [] });
    expect((await close(a.token, a.person.password)).status).toBe(200);
  });

  it('a running subscription, an unpaid one, a butler trip ahead and a charge in flight each block', async () => {
    const db = ctx.database.db;
    const { car } = await insertTestCar(db);
    const kinds = async (token: string) => (await preview(token)).body.data.blockers.map((b: { kind: string }) => b.kind);

    const a = await member();
    const [req] = await db.insert(subscriptionRequests).values({ userId: a.id, carId: car.id, month: 12, billingKey: `bk-close-sub-${a.id}`, billingProvider: 'sandbox', fee: 1, finalFee: 1, status: 'CONFIRMED' }).returning();
    const [sub] = await db.insert(subscriptions).values({ requestId: req.id, userId: a.id, startDate: koreaDay(-10), endDate: koreaDay(300) }).returning();
    expect(await kinds(a.token)).toEqual(['SUBSCRIPTION']);
    const refused = await close(a.token, a.person.password);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain('이용 중이거나 시작 예정인 구독 1건: 구독을 해지하고 차량 반납과 정산을 마쳐주세요.');
    // Ended, but its last month was never paid.
    await db.update(subscriptions).set({ endDate: koreaDay(-1), billingStatus: 'OVERDUE' }).where(eq(subscriptions.id, sub.id));
    expect(await kinds(a.token)).toEqual(['UNPAID']);
    await db.update(subscriptions).set({ billingStatus: 'CANCELLED' }).where(eq(subscriptions.id, sub.id));
    expect(await kinds(a.token)).toEqual([]);

    const b = await member();
    const brand = await upsertBrand(db, { name: 'Rolls-Royce', slug: 'rolls-royce' });
    const model = await insertModel(db, { brandId: brand.id, name: 'Ghost' });
    const bc = await insertButlerCar(db, model.id);
    const trip = { userId: b.id, butlerCarId: bc.id, startLocation: '서울', endLocation: '인천', billingProvider: 'sandbox' as const, baseFee: 1, finalPrice: 1 };
    const [ahead] = await db.insert(butlerRequests).values({ ...trip, billingKey: `bk-trip-${b.id}`, startAt: new Date(Date.now() + 86_400_000) }).returning();
    // A trip that is over (booked 8 h, two days ago) does not block.
    await db.insert(butlerRequests).values({ ...trip, billingKey: `bk-trip-old-${b.id}`, startAt: new Date(Date.now() - 2 * 86_400_000), status: 'CONFIRMED' });
    expect(await kinds(b.token)).toEqual(['BUTLER_TRIP']);
    expect((await close(b.token, b.person.password)).body.message).toContain('예정되었거나 진행 중인 의전 1건');
    await db.update(butlerRequests).set({ status: 'CANCELLED' }).where(eq(butlerRequests.id, ahead.id));
    await db.insert(payments).values({ id: `close-test-${b.id}`, userId: b.id, purpose: 'BUTLER', refType: 'butler_request', refId: ahead.id, orderName: 'x', amount: 1, provider: 'sandbox', billingKey: 'bk', requestedAt: new Date() });
    expect(await kinds(b.token)).toEqual(['PAYMENT_PENDING']);
    await db.update(payments).set({ status: 'PAID' }).where(eq(payments.id, `close-test-${b.id}`));
    expect((await close(b.token, b.person.password)).status).toBe(200);
  });

  it("a driver's or staff account is closed by the operators, not from /my", async () => {
    const { user, token } = await customer(ctx);
    await ctx.database.db.update(users).set({ role: 'staff' }).where(eq(users.id, user.id));
    const res = await ctx.call('DELETE', '/accounts', { token });
    expect(res.status).toBe(409);
    expect(res.body.message).toContain('직원·기사 계정은 마이페이지에서 탈퇴할 수 없습니다.');
    expect((await preview(token)).body.data.blockers[0].kind).toBe('STAFF_ACCOUNT');
  });
});

describe('after withdrawal', () => {
  it('the same email and person sign up again as a new account', async () => {
    const a = await member();
    expect((await close(a.token, a.person.password)).status).toBe(200);
    expect((await ctx.call('POST', '/accounts/check-email', { json: { email: a.person.email }, headers: ip() })).body.data.available).toBe(true);
    const identity_code = await sandboxVerify(ctx, { name: a.person.name, phone: a.person.mobile });
    const again = await ctx.call('POST', '/accounts', { json: { ...a.person, password: 'second-life', identity_code }, headers: ip() });
    expect(again.status).toBe(201);
    expect(again.body.data.user.id).not.toBe(a.id);
    expect((await login(a.person.email, 'second-life')).status).toBe(200);
  });
});
