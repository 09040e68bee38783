import { eq } from 'drizzle-orm';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshTokens } from '../../src/api/db/schema';
import { LOGIN_FAILURES_PER_ACCOUNT } from '../../src/api/middleware/rate-limit';
import { REFRESH_REUSE_GRACE_SECONDS, openSession } from '../../src/api/accounts/sessions';
import { sha256, signAccessToken } from '../../src/api/auth/tokens';
import { createTestContext, signupPerson, type TestContext } from './helpers';

/** Revocable sessions: access tokens end with their session; two tabs may refresh at once; password guesses share the login lock. */

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

let ipSeq = 0;
const ip = () => ({ 'x-forwarded-for': `10.120.${Math.floor(++ipSeq / 250)}.${ipSeq % 250}` });

const me = (token: string) => ctx.call('GET', '/accounts', { token });
const refresh = (refresh_token: string) => ctx.call('POST', '/accounts/refresh', { json: { refresh_token }, headers: ip() });
const login = (email: string, password: string) => ctx.call('POST', '/accounts/login', { json: { email, password }, headers: ip() });

/** A signed-up person and their first session's tokens. */
async function person() {
  const { res, person } = await signupPerson(ctx, {}, ip()['x-forwarded-for']);
  expect(res.status).toBe(201);
  const d = res.body.data;
  return { person, userId: d.user.id, access: d.access_token, refresh: d.refresh_token };
}

/** A revoked session's access token: 401 in the Korean envelope, with the code the browser clears its session on. */
function expectEnded(res: { status: number; body: any }) {
  expect(res.status).toBe(401);
  expect(res.body.code).toBe(1102);
  expect(res.body.message).toMatch(/다시 로그인/);
  expect(res.body.errors).toEqual({});
}

/** Moves a spent refresh token's use out of the grace window (as if it had been spent a while ago). */
async function spentLongAgo(token: string) {
  await ctx.database.db
    .update(refreshTokens)
    .set({ usedAt: new Date(Date.now() - (REFRESH_REUSE_GRACE_SECONDS + 60) * 1000) })
    .where(eq(refreshTokens.tokenHash, sha256(token)));
}

describe('access tokens end with their session', () => {
  it('logout: the access token of that session is refused at once; another session stays', async () => {
    const a = await person();
    const other = await login(a.person.email, a.person.password);
    expect(other.status).toBe(200);
    expect((await me(a.access)).status).toBe(200);
    expect((await ctx.call('POST', '/accounts/logout', { json: { refresh_token: a.refresh } })).status).toBe(200);
    expectEnded(await me(a.access));
    expect((await me(other.body.data.access_token)).status).toBe(200);
  });

  it('a replayed spent refresh token revokes the family: its access tokens stop working', async () => {
    const a = await person();
    const r1 = await refresh(a.refresh);
    expect(r1.status).toBe(200);
    const next = r1.body.data;
    expect((await me(next.access_token)).status).toBe(200);
    await spentLongAgo(a.refresh);
    expect((await refresh(a.refresh)).status).toBe(401);
    expectEnded(await me(next.access_token));
    expectEnded(await me(a.access));
    expect((await refresh(next.refresh_token)).status).toBe(401);
  });

  it('a password change ends every other session; the session that made it stays', async () => {
    const a = await person();
    const other = (await login(a.person.email, a.person.password)).body.data;
    const put = await ctx.call('PUT', '/accounts', { token: a.access, json: { password: 'brand-new-pass1', current_password: a.person.password } });
    expect(put.status).toBe(200);
    expectEnded(await me(other.access_token));
    expect((await refresh(other.refresh_token)).status).toBe(401);
    expect((await me(a.access)).status).toBe(200);
    const kept = await refresh(a.refresh);
    expect(kept.status).toBe(200);
    expect((await me(kept.body.data.access_token)).status).toBe(200);
    expect((await login(a.person.email, 'brand-new-pass1')).status).toBe(200);
  });

  it('refreshing does not make a session fresh: an old login still needs the current password', async () => {
    const a = await person();
    const sid = (await ctx.database.db.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, sha256(a.refresh))))[0].familyId;
    await ctx.database.db.update(refreshTokens).set({ createdAt: new Date(Date.now() - 3600_000) }).where(eq(refreshTokens.familyId, sid));
    const renewed = await refresh(a.refresh);
    expect(renewed.status).toBe(200);
    const refused = await ctx.call('PUT', '/accounts', { token: renewed.body.data.access_token, json: { password: 'brand-new-pass1' } });
    expect(refused.status).toBe(403);
    expect((await ctx.call('PUT', '/accounts', { token: a.access, json: { password: 'brand-new-pass1' } })).status).toBe(403);
    // A session that just logged in (as the recovery flow does) may.
    const fresh = (await login(a.person.email, a.person.password)).body.data;
    expect((await ctx.call('PUT', '/accounts', { token: fresh.access_token, json: { password: 'brand-new-pass1' } })).status).toBe(200);
  });

  it('withdrawal ends every session of the account', async () => {
    const a = await person();
    const other = (await login(a.person.email, a.person.password)).body.data;
    expect((await ctx.call('DELETE', '/accounts', { token: a.access, json: { current_password: a.person.password } })).status).toBe(200);
    for (const token of [a.access, other.access_token]) {
      const res = await me(token);
      expect(res.status).toBe(401);
      expect(res.body.message).toMatch(/다시 로그인/);
    }
  });

  it('refuses a token without a session id (signed before sessions were revocable) like an expired one', async () => {
    const a = await person();
    const legacy = await new SignJWT({ typ: 'access' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(String(a.userId))
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(ctx.config.jwtSecret));
    expectEnded(await me(legacy));
  });

  it("refuses a session id of another account, an unknown one and a malformed one", async () => {
    const a = await person();
    const b = await person();
    const bSid = (await openSession(ctx.database.db, ctx.config, b.userId)).sid;
    expectEnded(await me(await signAccessToken(ctx.config.jwtSecret, a.userId, bSid)));
    expectEnded(await me(await signAccessToken(ctx.config.jwtSecret, a.userId, '00000000-0000-0000-0000-000000000000')));
    const long = await me(await signAccessToken(ctx.config.jwtSecret, a.userId, 'x'.repeat(200)));
    expect(long.status).toBe(401);
    expect(long.body.code).toBe(1101);
  });

  it('a revoked session cannot attach an identity through /accounts/portone either', async () => {
    const a = await person();
    await ctx.call('POST', '/accounts/logout', { json: { refresh_token: a.refresh } });
    const res = await ctx.call('POST', '/accounts/portone', { token: a.access, json: { identity_code: 'identity-verification-unknown1' }, headers: ip() });
    expect(res.status).not.toBe(500);
    expect(res.body?.data?.attached).not.toBe(true);
  });
});

describe('two tabs refreshing with the same token', () => {
  it('a second use within the grace window answers the same successor; the session goes on', async () => {
    const a = await person();
    const first = await refresh(a.refresh);
    const second = await refresh(a.refresh);
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.body.data.refresh_token).toBe(first.body.data.refresh_token);
    expect((await me(first.body.data.access_token)).status).toBe(200);
    expect((await me(second.body.data.access_token)).status).toBe(200);
    const third = await refresh(second.body.data.refresh_token);
    expect(third.status).toBe(200);
    expect((await me(third.body.data.access_token)).status).toBe(200);
  });

  it('concurrent refreshes (Promise.all) all succeed with the same successor', async () => {
    const a = await person();
    for (const tabs of [2, 2, 3, 2, 3]) {
      const session = await openSession(ctx.database.db, ctx.config, a.userId);
      const answers = await Promise.all(Array.from({ length: tabs }, () => refresh(session.refresh_token)));
      expect(answers.map((r) => r.status)).toEqual(answers.map(() => 200));
      const successors = new Set(answers.map((r) => r.body.data.refresh_token));
      expect(successors.size).toBe(1);
      for (const r of answers) expect((await me(r.body.data.access_token)).status).toBe(200);
      const rows = await ctx.database.db.select().from(refreshTokens).where(eq(refreshTokens.familyId, session.sid));
      expect(rows.filter((r) => !r.usedAt && !r.revokedAt)).toHaveLength(1);
      expect((await refresh([...successors][0])).status).toBe(200);
    }
  });

  it('a replay after the grace window still revokes the family', async () => {
    const a = await person();
    const first = await refresh(a.refresh);
    expect(first.status).toBe(200);
    await spentLongAgo(a.refresh);
    expect((await refresh(a.refresh)).status).toBe(401);
    expect((await refresh(first.body.data.refresh_token)).status).toBe(401);
    expectEnded(await me(first.body.data.access_token));
  });

  it('a replay whose successor was already spent revokes the family, even within the window', async () => {
    const a = await person();
    const first = await refresh(a.refresh);
    const second = await refresh(first.body.data.refresh_token);
    expect(second.status).toBe(200);
    expect((await refresh(a.refresh)).status).toBe(401);
    expectEnded(await me(second.body.data.access_token));
  });
});

describe('PUT /accounts current_password shares the login lock', () => {
  it(`locks after ${LOGIN_FAILURES_PER_ACCOUNT} wrong current passwords: the right one is refused too, on PUT and on login`, async () => {
    const a = await person();
    for (let i = 0; i < LOGIN_FAILURES_PER_ACCOUNT; i++) {
      const wrong = await ctx.call('PUT', '/accounts', { token: a.access, json: { password: 'brand-new-pass1', current_password: `wrong-guess-${i}` } });
      expect(wrong.status).toBe(400);
    }
    const locked = await ctx.call('PUT', '/accounts', { token: a.access, json: { password: 'brand-new-pass1', current_password: a.person.password } });
    expect(locked.status).toBe(429);
    expect(locked.body.code).toBe(1129);
    expect(locked.body.message).toMatch(/요청이 너무 많습니다/);
    expect((await login(a.person.email, a.person.password)).status).toBe(429);
    // The password did not change.
    expect((await ctx.call('PUT', '/accounts', { token: a.access, json: { name: '그대로' } })).status).toBe(200);
  });

  it('failed logins and wrong current passwords count together', async () => {
    const a = await person();
    for (let i = 0; i < LOGIN_FAILURES_PER_ACCOUNT - 1; i++) expect((await login(a.person.email, `wrong-login-${i}`)).status).toBe(401);
    expect((await ctx.call('PUT', '/accounts', { token: a.access, json: { password: 'brand-new-pass1', current_password: 'wrong-again' } })).status).toBe(400);
    expect((await login(a.person.email, a.person.password)).status).toBe(429);
  });
});
