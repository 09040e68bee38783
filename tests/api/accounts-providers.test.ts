import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identityVerifications, users, verificationCodes } from '../../src/api/db/schema';
import { startOAuthStandIn, type OAuthStandIn } from '../e2e/mocks/kakao-oauth';
import { createTestContext, newPerson, sandboxVerify, signupPerson, type TestContext } from './helpers';

/** The fake SMTP server's reply to each command (QUIT closes the connection). */
const REPLIES: Record<string, string> = { EHLO: '250-fake\r\n250 AUTH PLAIN\r\n', AUTH: '235 Authenticated\r\n', MAIL: '250 OK\r\n', RCPT: '250 OK\r\n', DATA: '354 Go ahead\r\n' };

/** A fake SMTP server that accepts everything and keeps the decoded bodies. */
async function startSmtp() {
  const mails: { from: string; to: string; raw: string; text: string }[] = [];
  const server: Server = createServer((socket) => {
    let buffer = '';
    let inData = false;
    let from = '';
    let to = '';
    socket.write('220 fake ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      while (true) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end < 0) return;
          const raw = buffer.slice(0, end);
          buffer = buffer.slice(end + 5);
          inData = false;
          const body = raw.split('\r\n\r\n').slice(1).join('\r\n\r\n').replace(/\r\n/g, '');
          mails.push({ from, to, raw, text: Buffer.from(body, 'base64').toString('utf8') });
          socket.write('250 OK queued\r\n');
          continue;
        }
        const nl = buffer.indexOf('\r\n');
        if (nl < 0) return;
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 2);
        const verb = line.split(' ')[0].toUpperCase();
        if (verb === 'MAIL') from = line;
        if (verb === 'RCPT') to = line;
        if (verb === 'DATA') inData = true;
        if (verb === 'QUIT') socket.end('221 Bye\r\n');
        else socket.write(REPLIES[verb] ?? '502 Unknown\r\n');
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { port: (server.address() as AddressInfo).port, mails, close: () => new Promise<void>((r) => server.close(() => r())) };
}

let ctx: TestContext;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let oauth: OAuthStandIn;
let ipSeq = 0;
const ip = () => ({ 'x-forwarded-for': `10.20.${Math.floor(++ipSeq / 250)}.${ipSeq % 250}` });
const lastCode = () => smtp.mails.at(-1)!.text.match(/인증번호: (\d{6})/)![1];

beforeAll(async () => {
  smtp = await startSmtp();
  oauth = await startOAuthStandIn();
  ctx = await createTestContext({});
  ctx.config.smtpUrl = `smtp://user:pass@127.0.0.1:${smtp.port}`;
  ctx.config.oauth.kakao = { clientId: 'kakao-key', clientSecret: 'kakao-secret', authBaseUrl: oauth.url, apiBaseUrl: oauth.url };
  ctx.config.oauth.google = { clientId: 'google-id', clientSecret: 'google-secret', authBaseUrl: oauth.url, apiBaseUrl: oauth.url };
});
afterAll(async () => {
  await ctx.close();
  await smtp.close();
  await oauth.close();
});

describe('send-code and verify-code', () => {
  it('mails a 6-digit code through SMTP and stores only its hash', async () => {
    const res = await ctx.call('POST', '/accounts/send-code', { json: { email: 'Code1@Example.com' }, headers: ip() });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ sent: true, expires_in: 600 });
    expect(smtp.mails.at(-1)!.to).toContain('code1@example.com');
    const code = lastCode();
    const [row] = await ctx.database.db.select().from(verificationCodes).where(eq(verificationCodes.target, 'code1@example.com'));
    expect(row.codeHash).not.toContain(code);
    const ok = await ctx.call('POST', '/accounts/verify-code', { json: { email: 'code1@example.com', code }, headers: ip() });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toEqual({ verified: true });
    // Spent: a second use fails.
    const again = await ctx.call('POST', '/accounts/verify-code', { json: { email: 'code1@example.com', code }, headers: ip() });
    expect(again.status).toBe(422);
  });

  it('counts wrong codes and stops after 5 tries', async () => {
    await ctx.call('POST', '/accounts/send-code', { json: { email: 'code2@example.com' }, headers: ip() });
    const code = lastCode();
    const wrong = code === '000000' ? '111111' : '000000';
    const first = await ctx.call('POST', '/accounts/verify-code', { json: { email: 'code2@example.com', code: wrong }, headers: ip() });
    expect(first.status).toBe(422);
    expect(first.body.message).toContain('남은 시도 4회');
    for (let i = 0; i < 4; i++) await ctx.call('POST', '/accounts/verify-code', { json: { email: 'code2@example.com', code: wrong }, headers: ip() });
    const blocked = await ctx.call('POST', '/accounts/verify-code', { json: { email: 'code2@example.com', code }, headers: ip() });
    expect(blocked.status).toBe(429);
  });

  it('refuses an expired code and a malformed one', async () => {
    await ctx.call('POST', '/accounts/send-code', { json: { email: 'code3@example.com' }, headers: ip() });
    const code = lastCode();
    await ctx.database.db.update(verificationCodes).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(verificationCodes.target, 'code3@example.com'));
    const expired = await ctx.call('POST', '/accounts/verify-code', { json: { email: 'code3@example.com', code }, headers: ip() });
    expect(expired.status).toBe(422);
    expect(expired.body.message).toMatch(/만료/);
    const malformed = await ctx.call('POST', '/accounts/verify-code', { json: { email: 'code3@example.com', code: '12ab' }, headers: ip() });
    expect(malformed.status).toBe(400);
    expect(malformed.body.errors.code[0]).toBe('인증번호 6자리를 입력해주세요.');
  });

  it('a new code replaces the previous one', async () => {
    await ctx.call('POST', '/accounts/send-code', { json: { email: 'code4@example.com' }, headers: ip() });
    const old = lastCode();
    await ctx.call('POST', '/accounts/send-code', { json: { email: 'code4@example.com' }, headers: ip() });
    const fresh = lastCode();
    if (old !== fresh) expect((await ctx.call('POST', '/accounts/verify-code', { json: { email: 'code4@example.com', code: old }, headers: ip() })).status).toBe(422);
    expect((await ctx.call('POST', '/accounts/verify-code', { json: { email: 'code4@example.com', code: fresh }, headers: ip() })).status).toBe(200);
  });

  it('limits codes per address and per IP', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await ctx.call('POST', '/accounts/send-code', { json: { email: 'flood@example.com' }, headers: ip() })).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const sameIp = { 'x-forwarded-for': '10.99.0.1' };
    const perIp: number[] = [];
    for (let i = 0; i < 11; i++) perIp.push((await ctx.call('POST', '/accounts/send-code', { json: { email: `ipflood${i}@example.com` }, headers: sameIp })).status);
    expect(perIp.at(-1)).toBe(429);
  });

  it("'reset' codes log the owner in, and say nothing about unknown emails", async () => {
    const { person } = await signupPerson(ctx, {}, '10.30.0.1');
    const sentBefore = smtp.mails.length;
    const unknown = await ctx.call('POST', '/accounts/send-code', { json: { email: 'nobody-here@example.com', purpose: 'reset' }, headers: ip() });
    expect(unknown.status).toBe(200);
    expect(smtp.mails.length).toBe(sentBefore);
    const known = await ctx.call('POST', '/accounts/send-code', { json: { email: person.email, purpose: 'reset' }, headers: ip() });
    expect(known.body).toEqual(unknown.body);
    const res = await ctx.call('POST', '/accounts/verify-code', { json: { email: person.email, purpose: 'reset', code: lastCode() }, headers: ip() });
    expect(res.status).toBe(200);
    // A reset's code answers a session, as the route declares (VerifyCodeAnswer); a signup code does not.
    const session = res.body.data;
    if (!('access_token' in session)) throw new Error(`no session: ${JSON.stringify(session)}`);
    expect(session).toMatchObject({ verified: true, token_type: 'Bearer', refresh_token: expect.any(String) });
    expect(session.access_token).toBeTruthy();
    expect(session.user.email).toBe(person.email);
  });
});

describe('email change', () => {
  it('needs a code for the new address verified first', async () => {
    const { res } = await signupPerson(ctx, {}, '10.30.0.9');
    const token = res.body.data.access_token;
    const refused = await ctx.call('PUT', '/accounts', { json: { email: 'moved@example.com' }, token });
    expect(refused.status).toBe(422);
    expect(refused.body.errors.email).toBeTruthy();
    await ctx.call('POST', '/accounts/send-code', { json: { email: 'moved@example.com' }, headers: ip() });
    expect((await ctx.call('PUT', '/accounts', { json: { email: 'moved@example.com' }, token })).status).toBe(422);
    await ctx.call('POST', '/accounts/verify-code', { json: { email: 'moved@example.com', code: lastCode() }, headers: ip() });
    const moved = await ctx.call('PUT', '/accounts', { json: { email: 'moved@example.com' }, token });
    expect(moved.status).toBe(200);
    expect(moved.body.data.email).toBe('moved@example.com');
  });
});

describe('social login through the OAuth code flow', () => {
  it('Kakao: exchanges the code, reads the profile, creates then finds the account', async () => {
    const first = await ctx.call('POST', '/accounts/kakao', { json: { code: 'kakao-424242-a', redirect_uri: 'http://localhost:4321/login/kakao' }, headers: ip() });
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ is_new: true, expires_in: 86400, user: { email: 'kakao424242@example.com', social_provider: 'kakao', ci_verified: false } });
    expect(first.body.data.user.referral_code).toMatch(/^[A-Z0-9]{8}$/);
    const form = oauth.tokenRequests.at(-1)!;
    expect(form.get('client_id')).toBe('kakao-key');
    expect(form.get('client_secret')).toBe('kakao-secret');
    expect(form.get('redirect_uri')).toBe('http://localhost:4321/login/kakao');
    const second = await ctx.call('POST', '/accounts/kakao', { json: { code: 'kakao-424242-b' }, headers: { ...ip(), origin: 'http://localhost:4321' } });
    expect(second.body.data.is_new).toBe(false);
    expect(second.body.data.user.id).toBe(first.body.data.user.id);
    expect(oauth.tokenRequests.at(-1)!.get('redirect_uri')).toBe('http://localhost:4321/login/kakao');
    const me = await ctx.call('GET', '/accounts', { token: second.body.data.access_token });
    expect(me.body.data.id).toBe(first.body.data.user.id);
  });

  it('Kakao: a refused code is a 401 and a missing code a 400', async () => {
    const bad = await ctx.call('POST', '/accounts/kakao', { json: { code: 'bad-code' }, headers: ip() });
    expect(bad.status).toBe(401);
    expect(bad.body.message).toMatch(/카카오 로그인에 실패/);
    expect((await ctx.call('POST', '/accounts/kakao', { json: {}, headers: ip() })).status).toBe(400);
  });

  it('Kakao: an email already used by another account is not taken over', async () => {
    const { person } = await signupPerson(ctx, {}, '10.30.0.2');
    await ctx.database.db.update(users).set({ email: 'kakao515151@example.com' }).where(eq(users.email, person.email));
    const res = await ctx.call('POST', '/accounts/kakao', { json: { code: 'kakao-515151-x' }, headers: ip() });
    expect(res.status).toBe(200);
    expect(res.body.data.is_new).toBe(true);
    expect(res.body.data.user.email).toBeNull();
  });

  it('Google works through the same module; Naver without keys and Apple say "not configured"', async () => {
    const google = await ctx.call('POST', '/accounts/google', { json: { code: 'google-777-a' }, headers: ip() });
    expect(google.status).toBe(200);
    expect(google.body.data.user).toMatchObject({ social_provider: 'google', email: 'google777@example.com' });
    const naver = await ctx.call('POST', '/accounts/naver', { json: { code: 'naver-1-a' }, headers: ip() });
    expect(naver.status).toBe(501);
    expect(naver.body.message).toMatch(/네이버 로그인이 설정되지 않았습니다/);
    const apple = await ctx.call('POST', '/accounts/apple', { json: {}, headers: ip() });
    expect(apple.status).toBe(501);
    expect(apple.body.code).toBe(1301);
    expect(apple.body.message).toMatch(/Apple 로그인이 설정되지 않았습니다/);
  });

  it('Naver works when its keys are set', async () => {
    const unset = ctx.config.oauth.naver;
    ctx.config.oauth.naver = { clientId: 'naver-id', clientSecret: 'naver-secret', authBaseUrl: oauth.url, apiBaseUrl: oauth.url };
    try {
      const res = await ctx.call('POST', '/accounts/naver', { json: { code: 'naver-99-a', state: 'xyz' }, headers: ip() });
      expect(res.status).toBe(200);
      expect(res.body.data.user).toMatchObject({ social_provider: 'naver', email: 'naver99@example.com' });
      expect(oauth.tokenRequests.at(-1)!.get('state')).toBe('xyz');
    } finally {
      ctx.config.oauth.naver = unset;
    }
  });

  it('a social account verifies its person later through /accounts/portone', async () => {
    const social = await ctx.call('POST', '/accounts/kakao', { json: { code: 'kakao-626262-a' }, headers: ip() });
    const p = newPerson();
    const identity_code = await sandboxVerify(ctx, { name: p.name, phone: p.mobile });
    const res = await ctx.call('POST', '/accounts/portone', { json: { identity_code }, token: social.body.data.access_token, headers: ip() });
    expect(res.status).toBe(200);
    const me = await ctx.call('GET', '/accounts', { token: social.body.data.access_token });
    expect(me.body.data).toMatchObject({ ci_verified: true, mobile: p.mobile });
    // A stale token (e.g. left on the signup page) is ignored rather than failing the check.
    const other = newPerson();
    const code2 = await sandboxVerify(ctx, { name: other.name, phone: other.mobile });
    const stale = await ctx.call('POST', '/accounts/portone', { json: { identity_code: code2 }, token: 'stale-token', headers: ip() });
    expect(stale.status).toBe(200);
    expect(stale.body.data.attached).toBe(false);
  });
});

describe('referral reward at signup', () => {
  it('shows in the point balance of GET /accounts', async () => {
    const referrer = await signupPerson(ctx, {}, '10.30.0.3');
    const { res } = await signupPerson(ctx, { referrerPhone: referrer.person.mobile }, '10.30.0.4');
    const me = await ctx.call('GET', '/accounts', { token: res.body.data.access_token });
    expect(me.body.data.point).toBeGreaterThan(0);
    const them = await ctx.call('GET', '/accounts', { token: referrer.res.body.data.access_token });
    expect(them.body.data.point).toBeGreaterThan(0);
  });
});

describe('PortOne configured', () => {
  let portone: HttpServer;
  let pctx: TestContext;
  const seen: string[] = [];
  beforeAll(async () => {
    portone = createHttpServer((req, res) => {
      seen.push(`${req.method} ${req.url} ${req.headers.authorization}`);
      const id = decodeURIComponent(req.url!.split('/').pop()!);
      res.setHeader('content-type', 'application/json');
      if (id.startsWith('iv-ok')) {
        res.end(JSON.stringify({ status: 'VERIFIED', id, verifiedCustomer: { name: '박포트', phoneNumber: '01044445555', birthDate: '1991-02-03', ci: `CI-${id.startsWith('iv-ok-same') ? 'same' : id}` } }));
      } else if (id.startsWith('iv-old')) {
        res.end(JSON.stringify({ status: 'VERIFIED', id, verifiedAt: new Date(Date.now() - 3 * 3600_000).toISOString(), verifiedCustomer: { name: '박포트', phoneNumber: '01044445555', ci: 'CI-old' } }));
      } else if (id.startsWith('iv-failed')) {
        res.end(JSON.stringify({ status: 'FAILED', id }));
      } else {
        res.statusCode = 404;
        res.end(JSON.stringify({ type: 'IDENTITY_VERIFICATION_NOT_FOUND', message: 'not found' }));
      }
    });
    await new Promise<void>((r) => portone.listen(0, '127.0.0.1', () => r()));
    const url = `http://127.0.0.1:${(portone.address() as AddressInfo).port}`;
    pctx = await createTestContext({ portone: { storeId: 'store-test', apiSecret: 'portone-secret', apiBaseUrl: url, configured: true } });
  });
  afterAll(async () => {
    await pctx.close();
    await new Promise<void>((r) => portone.close(() => r()));
  });

  it('verifies with the API secret and signs up the verified person once', async () => {
    const body = { name: '박포트', mobile: '010-4444-5555', email: 'port@example.com', password: 'secret123', identity_code: 'iv-ok-same-1' };
    const res = await pctx.call('POST', '/accounts', { json: body });
    expect(res.status).toBe(201);
    expect(seen.at(-1)).toBe('GET /identity-verifications/iv-ok-same-1 PortOne portone-secret');
    const [row] = await pctx.database.db.select().from(identityVerifications).where(eq(identityVerifications.verificationId, 'iv-ok-same-1'));
    expect(row).toMatchObject({ provider: 'portone', ci: 'CI-same' });
    const second = await pctx.call('POST', '/accounts', { json: { ...body, email: 'port2@example.com', identity_code: 'iv-ok-same-2' } });
    expect(second.status).toBe(409);
  });

  it('refuses failed and unknown verifications, and the sandbox', async () => {
    expect((await pctx.call('POST', '/accounts/portone', { json: { identity_code: 'iv-failed-1' } })).status).toBe(422);
    expect((await pctx.call('POST', '/accounts/portone', { json: { identity_code: 'iv-missing-1' } })).status).toBe(422);
    const old = await pctx.call('POST', '/accounts/portone', { json: { identity_code: 'iv-old-1' } });
    expect(old.status).toBe(422);
    expect(old.body.message).toMatch(/유효시간/);
    const page = await pctx.app.request('/sandbox/identity?identityVerificationId=identity-verification-abc12345&redirectUrl=%2Fsignup', { headers: { host: 'localhost' } });
    expect(page.status).toBe(404);
    const post = await pctx.app.request('/sandbox/identity/verify', { method: 'POST', headers: { host: 'localhost', 'content-type': 'application/x-www-form-urlencoded' }, body: 'identityVerificationId=identity-verification-x1234567&redirectUrl=%2F&name=a&phone=01012345678&birthDate=1990-01-01' });
    expect(post.status).toBe(404);
  });
});
