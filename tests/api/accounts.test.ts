import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertTestCar } from '../../src/api/seed/factories';
import { identityVerifications, referrals, refreshTokens, subscriptionRequests, users } from '../../src/api/db/schema';
import { sha256, signAccessToken } from '../../src/api/auth/tokens';
import { REFRESH_REUSE_GRACE_SECONDS, openSession } from '../../src/api/accounts/sessions';
import { createTestContext, newPerson, sandboxVerify, signupPerson, type TestContext } from './helpers';

let ctx: TestContext;
let ipSeq = 0;
/** A fresh client address per call so per-IP limits never interfere outside the rate-limit tests. */
const ip = () => ({ 'x-forwarded-for': `10.1.${Math.floor(++ipSeq / 250)}.${ipSeq % 250}` });

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx.close();
});

describe('identity sandbox', () => {
  it('shows a labelled Korean test page', async () => {
    const res = await ctx.app.request('/sandbox/identity?identityVerificationId=identity-verification-abc12345&redirectUrl=%2Fsignup&name=%ED%99%8D&phone=01012345678', { headers: { host: 'localhost' } });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('테스트 환경');
    expect(html).toContain('본인인증 샌드박스');
  });

  it('returns to the site with identityVerificationId, or code and message on failure', async () => {
    const form = (outcome: string, redirectUrl = 'http://localhost/signup?x=1') =>
      ctx.app.request(`/sandbox/identity/${outcome}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', host: 'localhost' },
        body: new URLSearchParams({ identityVerificationId: 'identity-verification-ret00001', redirectUrl, name: '김철수', phone: '010-2222-3333', birthDate: '1985-05-05' }).toString(),
      });
    const failed = await form('fail');
    expect(failed.status).toBe(303);
    const back = new URL(failed.headers.get('location')!, 'http://localhost');
    expect(back.pathname).toBe('/signup');
    expect(back.searchParams.get('code')).toBe('IDENTITY_VERIFICATION_FAILED');
    expect(back.searchParams.get('message')).toBeTruthy();
    const ok = await form('verify');
    const loc = new URL(ok.headers.get('location')!, 'http://localhost');
    expect(loc.searchParams.get('identityVerificationId')).toBe('identity-verification-ret00001');
    expect(loc.searchParams.get('x')).toBe('1');
    expect(loc.searchParams.get('code')).toBeNull();
    const [row] = await ctx.database.db.select().from(identityVerifications).where(eq(identityVerifications.verificationId, 'identity-verification-ret00001'));
    expect(row).toMatchObject({ provider: 'sandbox', status: 'VERIFIED', name: '김철수', phone: '01022223333', birthDate: '1985-05-05' });
    expect(row.ci).toBeTruthy();
    // The same id cannot be verified twice.
    expect((await form('verify')).status).toBe(409);
  });

  it('never redirects to another site', async () => {
    const res = await ctx.app.request('/sandbox/identity?identityVerificationId=identity-verification-abc12345&redirectUrl=https%3A%2F%2Fevil.example%2F', { headers: { host: 'localhost' } });
    expect(res.status).toBe(400);
    expect((await res.json()).message).toMatch(/이 사이트/);
  });
});

describe('POST /accounts/portone', () => {
  it('returns the verified name and phone', async () => {
    const code = await sandboxVerify(ctx, { name: '이영희', phone: '01033334444' });
    const res = await ctx.call('POST', '/accounts/portone', { json: { identity_code: code }, headers: ip() });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ verified: true, name: '이영희', phone: '01033334444', identity_code: code });
    // PortOne's own field name works too.
    const alt = await ctx.call('POST', '/accounts/portone', { json: { identityVerificationId: code }, headers: ip() });
    expect(alt.body.data.verified).toBe(true);
  });

  it('refuses unknown verifications and malformed bodies', async () => {
    const unknown = await ctx.call('POST', '/accounts/portone', { json: { identity_code: 'identity-verification-nope' }, headers: ip() });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors.identity_code).toBeTruthy();
    const empty = await ctx.call('POST', '/accounts/portone', { json: {}, headers: ip() });
    expect(empty.status).toBe(400);
    expect(empty.body.errors.identity_code[0]).toBe('본인인증을 진행해주세요.');
    const broken = await ctx.call('POST', '/accounts/portone', { body: '{oops', headers: { 'content-type': 'application/json', ...ip() } });
    expect(broken.status).toBe(400);
  });

  it('refuses a verification older than an hour', async () => {
    const code = await sandboxVerify(ctx, { name: '오래된', phone: '01055556666' });
    await ctx.database.db.update(identityVerifications).set({ createdAt: new Date(Date.now() - 2 * 3600_000) }).where(eq(identityVerifications.verificationId, code));
    const res = await ctx.call('POST', '/accounts/portone', { json: { identity_code: code }, headers: ip() });
    expect(res.status).toBe(422);
    expect(res.body.message).toMatch(/유효시간/);
  });
});

describe('signup', () => {
  it('creates a verified account with a referral code and returns tokens', async () => {
    const { res, person } = await signupPerson(ctx, {}, '10.2.0.1');
    expect(res.status).toBe(201);
    const d = res.body.data;
    expect(d.access_token).toBeTruthy();
    expect(d.refresh_token).toBeTruthy();
    expect(d.expires_in).toBe(86400);
    expect(d.user).toMatchObject({ name: person.name, email: person.email, mobile: person.mobile, ci_verified: true, point: 0, profile_image: null });
    expect(d.user.referral_code).toMatch(/^[A-Z0-9]{8}$/);
    expect(d.user.username).toBeTruthy();
    const [row] = await ctx.database.db.select().from(users).where(eq(users.id, d.user.id));
    expect(row.passwordHash).toMatch(/^scrypt\$/);
    expect(row.passwordHash).not.toContain(person.password);
  });

  it('accepts POST /accounts/signup, formatted phones and upper-case emails', async () => {
    const p = newPerson();
    const identity_code = await sandboxVerify(ctx, { name: p.name, phone: p.mobile });
    const formatted = `${p.mobile.slice(0, 3)}-${p.mobile.slice(3, 7)}-${p.mobile.slice(7)}`;
    const res = await ctx.call('POST', '/accounts/signup', { json: { ...p, email: p.email.toUpperCase(), mobile: formatted, identity_code }, headers: ip() });
    expect(res.status).toBe(201);
    expect(res.body.data.user.email).toBe(p.email);
    expect(res.body.data.user.mobile).toBe(p.mobile);
  });

  it('validates every field with Korean messages', async () => {
    const res = await ctx.call('POST', '/accounts', { json: { name: '', mobile: '123', email: 'not-an-email', password: '12345', identity_code: '' }, headers: ip() });
    expect(res.status).toBe(400);
    expect(res.body.errors.name[0]).toBe('이름을 입력해주세요.');
    expect(res.body.errors.mobile[0]).toMatch(/휴대폰 번호/);
    expect(res.body.errors.email[0]).toBe('올바른 이메일 주소를 입력해주세요.');
    expect(res.body.errors.password[0]).toBe('비밀번호는 6자 이상이어야 합니다.');
    expect(res.body.errors.identity_code[0]).toBe('본인인증을 진행해주세요.');
    for (const body of ['', 'null', '[]', '"text"', '{"name":1}']) {
      const r = await ctx.call('POST', '/accounts', { body, headers: { 'content-type': 'application/json', ...ip() } });
      expect(r.status).toBe(400);
    }
  });

  it('requires the verified name and phone to match the form', async () => {
    const p = newPerson();
    const identity_code = await sandboxVerify(ctx, { name: p.name, phone: p.mobile });
    const res = await ctx.call('POST', '/accounts', { json: { ...p, name: '다른이름', mobile: '01099998888', identity_code }, headers: ip() });
    expect(res.status).toBe(422);
    expect(res.body.errors.name).toBeTruthy();
    expect(res.body.errors.mobile).toBeTruthy();
    // Spaces in the name do not matter.
    const ok = await ctx.call('POST', '/accounts', { json: { ...p, name: ` ${p.name.slice(0, 1)} ${p.name.slice(1)} `, identity_code }, headers: ip() });
    expect(ok.status).toBe(201);
  });

  it('rejects an unverified identity code', async () => {
    const p = newPerson();
    const res = await ctx.call('POST', '/accounts', { json: { ...p, identity_code: 'identity-verification-forged' }, headers: ip() });
    expect(res.status).toBe(422);
  });

  it('rejects a duplicate email with 409', async () => {
    const { person } = await signupPerson(ctx, {}, '10.2.0.2');
    const other = newPerson();
    const identity_code = await sandboxVerify(ctx, { name: other.name, phone: other.mobile });
    const res = await ctx.call('POST', '/accounts', { json: { ...other, email: person.email, identity_code }, headers: ip() });
    expect(res.status).toBe(409);
    expect(res.body.errors.email[0]).toBe('이미 사용 중인 이메일입니다.');
    // The verification was not spent by the failed attempt.
    const retry = await ctx.call('POST', '/accounts', { json: { ...other, identity_code }, headers: ip() });
    expect(retry.status).toBe(201);
  });

  it('allows one account per verified person and one use per verification', async () => {
    const { person, identity_code } = await signupPerson(ctx, {}, '10.2.0.3');
    const reuse = await ctx.call('POST', '/accounts', { json: { ...person, email: `again_${person.email}`, identity_code }, headers: ip() });
    expect(reuse.status).toBe(409);
    // A second, fresh verification of the same person (same CI) cannot open a second account.
    const again = await sandboxVerify(ctx, { name: person.name, phone: person.mobile });
    const second = await ctx.call('POST', '/accounts', { json: { ...person, email: `second_${person.email}`, identity_code: again }, headers: ip() });
    expect(second.status).toBe(409);
    expect(second.body.message).toMatch(/이미 가입된 회원/);
  });

  it('records the referral of the referrer phone', async () => {
    const referrer = await signupPerson(ctx, {}, '10.2.0.4');
    const { res } = await signupPerson(ctx, { referrerPhone: referrer.person.mobile }, '10.2.0.5');
    expect(res.status).toBe(201);
    const rows = await ctx.database.db.select().from(referrals).where(eq(referrals.refereeId, res.body.data.user.id));
    expect(rows).toHaveLength(1);
    expect(rows[0].referrerId).toBe(referrer.res.body.data.user.id);
    const unknown = await signupPerson(ctx, { referrerPhone: '01000000001' }, '10.2.0.6');
    expect(unknown.res.status).toBe(422);
    expect(unknown.res.body.errors.referrerPhone).toBeTruthy();
    const empty = await signupPerson(ctx, { referrerPhone: '' }, '10.2.0.7');
    expect(empty.res.status).toBe(201);
  });
});

describe('check-email', () => {
  it('says whether an email is free', async () => {
    const { person } = await signupPerson(ctx, {}, '10.3.0.1');
    const taken = await ctx.call('POST', '/accounts/check-email', { json: { email: person.email }, headers: ip() });
    expect(taken.status).toBe(200);
    expect(taken.body.data.available).toBe(false);
    const free = await ctx.call('POST', '/accounts/check-email', { json: { email: 'free-address@example.com' }, headers: ip() });
    expect(free.body.data.available).toBe(true);
    const bad = await ctx.call('POST', '/accounts/check-email', { json: { email: '' }, headers: ip() });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.email[0]).toBe('이메일을 입력해주세요.');
  });
});

describe('login', () => {
  it('returns tokens, a 24-hour expiry and the user', async () => {
    const { person } = await signupPerson(ctx, {}, '10.4.0.1');
    const res = await ctx.call('POST', '/accounts/login', { json: { email: person.email, password: person.password }, headers: ip() });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ expires_in: 86400, token_type: 'Bearer', user: { email: person.email } });
    const me = await ctx.call('GET', '/accounts', { token: res.body.data.access_token });
    expect(me.status).toBe(200);
    expect(me.body.data).toMatchObject({ email: person.email, ci_verified: true, point: 0 });
    for (const key of ['id', 'username', 'name', 'email', 'mobile', 'profile_image', 'ci_verified', 'referral_code', 'point']) expect(me.body.data).toHaveProperty(key);
  });

  it('answers a wrong password and an unknown email the same way', async () => {
    const { person } = await signupPerson(ctx, {}, '10.4.0.2');
    const wrong = await ctx.call('POST', '/accounts/login', { json: { email: person.email, password: 'wrong-password' }, headers: ip() });
    const unknown = await ctx.call('POST', '/accounts/login', { json: { email: 'nobody@example.com', password: 'whatever1' }, headers: ip() });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body.message).toBe('이메일 또는 비밀번호가 올바르지 않습니다.');
    expect(unknown.body).toEqual(wrong.body);
  });

  it('requires email and password', async () => {
    const res = await ctx.call('POST', '/accounts/login', { json: {}, headers: ip() });
    expect(res.status).toBe(400);
    expect(res.body.errors.email).toBeTruthy();
    expect(res.body.errors.password).toBeTruthy();
  });

  it('locks an account after 5 failed logins (429), even with the right password', async () => {
    const { person } = await signupPerson(ctx, {}, '10.4.0.3');
    for (let i = 0; i < 5; i++) {
      const r = await ctx.call('POST', '/accounts/login', { json: { email: person.email, password: `wrong-${i}x` }, headers: ip() });
      expect(r.status).toBe(401);
    }
    const locked = await ctx.call('POST', '/accounts/login', { json: { email: person.email, password: person.password }, headers: ip() });
    expect(locked.status).toBe(429);
    expect(locked.body.message).toMatch(/요청이 너무 많습니다/);
    expect(locked.body.code).toBe(1129);
  });

  it('limits logins per IP', async () => {
    const headers = { 'x-forwarded-for': '10.9.9.9' };
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) statuses.push((await ctx.call('POST', '/accounts/login', { json: { email: `nobody${i}@example.com`, password: 'x' }, headers })).status);
    expect(statuses.slice(0, 30).every((s) => s === 401)).toBe(true);
    expect(statuses[30]).toBe(429);
  });
});

describe('GET /accounts', () => {
  it('needs a valid bearer token', async () => {
    expect((await ctx.call('GET', '/accounts')).status).toBe(401);
    expect((await ctx.call('GET', '/accounts', { token: 'garbage' })).status).toBe(401);
  });

  it('says when the token expired (code 1102)', async () => {
    const { res } = await signupPerson(ctx, {}, '10.5.0.1');
    const old = await signAccessToken(ctx.config.jwtSecret, res.body.data.user.id, 'expired-session', Date.now() - 2 * 86400_000);
    const me = await ctx.call('GET', '/accounts', { token: old });
    expect(me.status).toBe(401);
    expect(me.body.code).toBe(1102);
  });
});

describe('refresh tokens', () => {
  it('rotates, and a replayed token revokes the whole family', async () => {
    const { res } = await signupPerson(ctx, {}, '10.6.0.1');
    const first = res.body.data.refresh_token;
    const r1 = await ctx.call('POST', '/accounts/refresh', { json: { refresh_token: first }, headers: ip() });
    expect(r1.status).toBe(200);
    expect(r1.body.data.refresh_token).not.toBe(first);
    expect(r1.body.data.expires_in).toBe(86400);
    const second = r1.body.data.refresh_token;
    // The spent token is replayed after the two-tab grace window (e.g. stolen): refused, and the legitimate new one dies with it.
    const spentAt = new Date(Date.now() - (REFRESH_REUSE_GRACE_SECONDS + 60) * 1000);
    await ctx.database.db.update(refreshTokens).set({ usedAt: spentAt }).where(eq(refreshTokens.tokenHash, sha256(first)));
    const replay = await ctx.call('POST', '/accounts/refresh', { json: { refresh_token: first }, headers: ip() });
    expect(replay.status).toBe(401);
    const after = await ctx.call('POST', '/accounts/refresh', { json: { refresh_token: second }, headers: ip() });
    expect(after.status).toBe(401);
    const rows = await ctx.database.db.select().from(refreshTokens).where(eq(refreshTokens.userId, res.body.data.user.id));
    expect(rows.every((r) => r.revokedAt !== null)).toBe(true);
    expect(rows.every((r) => r.tokenHash !== first && r.tokenHash !== second)).toBe(true);
  });

  it('refuses unknown, expired and malformed tokens', async () => {
    expect((await ctx.call('POST', '/accounts/refresh', { json: { refresh_token: 'unknown-token' }, headers: ip() })).status).toBe(401);
    expect((await ctx.call('POST', '/accounts/refresh', { json: {}, headers: ip() })).status).toBe(400);
    expect((await ctx.call('POST', '/accounts/refresh', { json: { refresh_token: 42 }, headers: ip() })).status).toBe(400);
    const { res } = await signupPerson(ctx, {}, '10.6.0.2');
    await ctx.database.db.update(refreshTokens).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(refreshTokens.userId, res.body.data.user.id));
    expect((await ctx.call('POST', '/accounts/refresh', { json: { refresh_token: res.body.data.refresh_token }, headers: ip() })).status).toBe(401);
  });

  it('logout revokes the refresh token', async () => {
    const { res } = await signupPerson(ctx, {}, '10.6.0.3');
    const out = await ctx.call('POST', '/accounts/logout', { json: { refresh_token: res.body.data.refresh_token }, headers: ip() });
    expect(out.status).toBe(200);
    expect((await ctx.call('POST', '/accounts/refresh', { json: { refresh_token: res.body.data.refresh_token }, headers: ip() })).status).toBe(401);
  });
});

describe('password recovery and change', () => {
  it('a fresh verification of the owner returns tokens; then PUT /accounts sets the password', async () => {
    const { person } = await signupPerson(ctx, {}, '10.7.0.1');
    const identity_code = await sandboxVerify(ctx, { name: person.name, phone: person.mobile });
    const reset = await ctx.call('POST', '/accounts/reset-password', { json: { identity_code }, headers: ip() });
    expect(reset.status).toBe(200);
    expect(reset.body.data.access_token).toBeTruthy();
    expect(reset.body.data.expires_in).toBe(86400);
    const short = await ctx.call('PUT', '/accounts', { json: { password: '12345' }, token: reset.body.data.access_token });
    expect(short.status).toBe(400);
    expect(short.body.errors.password[0]).toBe('비밀번호는 6자 이상이어야 합니다.');
    const put = await ctx.call('PUT', '/accounts', { json: { password: 'brand-new-pass' }, token: reset.body.data.access_token });
    expect(put.status).toBe(200);
    expect((await ctx.call('POST', '/accounts/login', { json: { email: person.email, password: person.password }, headers: ip() })).status).toBe(401);
    expect((await ctx.call('POST', '/accounts/login', { json: { email: person.email, password: 'brand-new-pass' }, headers: ip() })).status).toBe(200);
    // The verification is spent.
    const again = await ctx.call('POST', '/accounts/reset-password', { json: { identity_code }, headers: ip() });
    expect(again.status).toBe(409);
  });

  it('refuses a verified person without an account and a missing code', async () => {
    const p = newPerson();
    const identity_code = await sandboxVerify(ctx, { name: p.name, phone: p.mobile });
    const res = await ctx.call('POST', '/accounts/reset-password', { json: { identity_code }, headers: ip() });
    expect(res.status).toBe(422);
    expect((await ctx.call('POST', '/accounts/reset-password', { json: {}, headers: ip() })).status).toBe(400);
  });

  it('an old session must give the current password to change it', async () => {
    const { res, person } = await signupPerson(ctx, {}, '10.7.0.2');
    const other = await openSession(ctx.database.db, ctx.config, res.body.data.user.id);
    await ctx.database.db.update(refreshTokens).set({ createdAt: new Date(Date.now() - 3600_000) }).where(eq(refreshTokens.familyId, other.sid));
    const old = await signAccessToken(ctx.config.jwtSecret, res.body.data.user.id, other.sid, Date.now() - 3600_000);
    const refused = await ctx.call('PUT', '/accounts', { json: { password: 'another-pass' }, token: old });
    expect(refused.status).toBe(403);
    const wrong = await ctx.call('PUT', '/accounts', { json: { password: 'another-pass', current_password: 'nope-nope' }, token: old });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors.current_password).toBeTruthy();
    const ok = await ctx.call('PUT', '/accounts', { json: { password: 'another-pass', current_password: person.password }, token: old });
    expect(ok.status).toBe(200);
    // Other sessions' refresh tokens stop working after a password change.
    expect((await ctx.call('POST', '/accounts/refresh', { json: { refresh_token: res.body.data.refresh_token }, headers: ip() })).status).toBe(401);
  });

  it('updates name and email; a taken email is a 409', async () => {
    const a = await signupPerson(ctx, {}, '10.7.0.3');
    const b = await signupPerson(ctx, {}, '10.7.0.4');
    const token = a.res.body.data.access_token;
    const put = await ctx.call('PUT', '/accounts', { json: { name: '새이름', marketing_consent: true }, token });
    expect(put.status).toBe(200);
    expect(put.body.data).toMatchObject({ name: '새이름', marketing_consent: true });
    const taken = await ctx.call('PUT', '/accounts', { json: { email: b.person.email }, token });
    expect(taken.status).toBe(409);
    expect((await ctx.call('PUT', '/accounts', { json: { name: 1 }, token })).status).toBe(400);
    expect((await ctx.call('PUT', '/accounts', { json: { name: '무단' } })).status).toBe(401);
  });
});

describe('withdrawal', () => {
  it('anonymises the account, keeps its orders, and stops every login', async () => {
    const { res, person } = await signupPerson(ctx, {}, '10.8.0.1');
    const { access_token, refresh_token, user } = res.body.data;
    const { car } = await insertTestCar(ctx.database.db);
    await ctx.database.db.insert(subscriptionRequests).values({ userId: user.id, carId: car.id, month: 12, billingKey: `bk-withdraw-${user.id}`, billingProvider: 'sandbox', fee: 3_000_000, finalFee: 3_000_000, status: 'CANCELLED' });
    const del = await ctx.call('DELETE', '/accounts', { token: access_token, json: { current_password: person.password } });
    expect(del.status).toBe(200);
    expect((await ctx.call('GET', '/accounts', { token: access_token })).status).toBe(401);
    expect((await ctx.call('POST', '/accounts/login', { json: { email: person.email, password: person.password }, headers: ip() })).status).toBe(401);
    expect((await ctx.call('POST', '/accounts/refresh', { json: { refresh_token }, headers: ip() })).status).toBe(401);
    const [row] = await ctx.database.db.select().from(users).where(eq(users.id, user.id));
    expect(row).toMatchObject({ email: null, mobile: null, ci: null, passwordHash: null, name: '탈퇴회원' });
    expect(row.deletedAt).not.toBeNull();
    const orders = await ctx.database.db.select().from(subscriptionRequests).where(eq(subscriptionRequests.userId, user.id));
    expect(orders).toHaveLength(1);
    // The person may sign up again with a new verification.
    const identity_code = await sandboxVerify(ctx, { name: person.name, phone: person.mobile });
    const again = await ctx.call('POST', '/accounts', { json: { ...person, identity_code }, headers: ip() });
    expect(again.status).toBe(201);
    expect(again.body.data.user.id).not.toBe(user.id);
  });

  it('needs a login', async () => {
    expect((await ctx.call('DELETE', '/accounts')).status).toBe(401);
  });
});
