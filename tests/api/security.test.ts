import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, testConfig } from '../../src/api/env';
import { providerBanner, sandboxAllowed } from '../../src/api/sandbox-mode';
import { createPaymentProvider } from '../../src/api/billing/providers';
import { billingKey, createTestContext, customer, type TestContext, PRODUCTION_BUSINESS_ENV } from './helpers';

/** Issue 12 "Headers and sandbox": API headers, CORS, the sandbox switch, and 500 logs without personal data. */

describe('API headers', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ corsOrigins: ['https://shop.luxe.kr'] });
  });
  afterAll(() => ctx.close());

  it('sends nosniff on every answer, success or error', async () => {
    for (const [method, path] of [['GET', '/health'], ['GET', '/subscriptions/models'], ['GET', '/subscriptions'], ['POST', '/accounts/login'], ['GET', '/no-such-route']]) {
      const res = await ctx.app.request(path, { method });
      expect(res.headers.get('x-content-type-options'), `${method} ${path}`).toBe('nosniff');
    }
  });

  it('marks per-user answers and writes no-store', async () => {
    const { token } = await customer(ctx);
    const mine = await ctx.app.request('/subscriptions/requests', { headers: { authorization: `Bearer ${token}` } });
    expect(mine.status).toBe(200);
    expect(mine.headers.get('cache-control')).toBe('no-store');
    const write = await ctx.app.request('/accounts/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(write.headers.get('cache-control')).toBe('no-store');
  });

  it('answers a preflight from an allowed origin with its methods and headers, never *', async () => {
    const res = await ctx.app.request('/subscriptions/cars/1/request', {
      method: 'OPTIONS',
      headers: { origin: 'https://shop.luxe.kr', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('https://shop.luxe.kr');
    expect(res.headers.get('access-control-allow-methods')).toContain('POST');
    expect(res.headers.get('access-control-allow-headers')).toMatch(/Authorization/);
    expect(res.headers.get('access-control-allow-headers')).toMatch(/Content-Type/);
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    expect(res.headers.get('access-control-max-age')).toBe('600');
    expect(res.headers.get('vary')).toMatch(/Origin/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const get = await ctx.app.request('/subscriptions/models', { headers: { origin: 'https://shop.luxe.kr' } });
    expect(get.headers.get('access-control-allow-origin')).toBe('https://shop.luxe.kr');
    expect(get.headers.get('vary')).toMatch(/Origin/);
  });

  it('gives any other origin no CORS headers', async () => {
    const pre = await ctx.app.request('/subscriptions/cars/1/request', { method: 'OPTIONS', headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' } });
    // The router may answer OPTIONS itself (Allow), but without any CORS permission.
    expect(pre.headers.get('access-control-allow-origin')).toBeNull();
    expect(pre.headers.get('access-control-allow-methods')).toBeNull();
    const get = await ctx.app.request('/subscriptions/models', { headers: { origin: 'https://evil.example' } });
    expect(get.status).toBe(200);
    expect(get.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('is same-origin only without CORS_ORIGINS, and refuses a wildcard or a path', async () => {
    const plain = await createTestContext();
    try {
      const pre = await plain.app.request('/subscriptions/models', { method: 'OPTIONS', headers: { origin: 'https://shop.luxe.kr', 'access-control-request-method': 'GET' } });
      expect(pre.headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      await plain.close();
    }
    expect(loadConfig({ NODE_ENV: 'test', JWT_SECRET: 'x'.repeat(32), CORS_ORIGINS: 'https://a.kr, http://localhost:4321' }).corsOrigins).toEqual(['https://a.kr', 'http://localhost:4321']);
    expect(() => loadConfig({ NODE_ENV: 'test', JWT_SECRET: 'x'.repeat(32), CORS_ORIGINS: '*' })).toThrow(/CORS_ORIGINS/);
    expect(() => loadConfig({ NODE_ENV: 'test', JWT_SECRET: 'x'.repeat(32), CORS_ORIGINS: 'https://a.kr/api' })).toThrow(/CORS_ORIGINS/);
  });
});

describe('the sandbox switch', () => {
  const env = (extra: Record<string, string>) => loadConfig({ NODE_ENV: 'development', JWT_SECRET: 'x'.repeat(32), ...extra });

  it('is on by default (a first npm start can order), off with SANDBOX=off, never in production or once PortOne is configured', () => {
    // Whatever the address the server listens on: the default HOST 0.0.0.0 too.
    expect(env({}).sandbox).toBe(true);
    expect(env({ HOST: '0.0.0.0' }).sandbox).toBe(true);
    expect(env({ HOST: '127.0.0.1', SANDBOX: 'on' }).sandbox).toBe(true);
    expect(env({ SANDBOX: 'off' }).sandbox).toBe(false);
    expect(sandboxAllowed(env({ PUBLIC_PORTONE_STORE_ID: 's', PORTONE_API_SECRET: 'p' }))).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(32), PUBLIC_PORTONE_STORE_ID: 's', PORTONE_API_SECRET: 'p', ...PRODUCTION_BUSINESS_ENV }).sandbox).toBe(false);
    expect(() => loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(32), PUBLIC_PORTONE_STORE_ID: 's', PORTONE_API_SECRET: 'p', SANDBOX: 'on' })).toThrow(/SANDBOX=on/);
  });

  it('says at start which provider runs: the sandbox (and how to turn it off), PortOne, or none', () => {
    expect(providerBanner(env({}))).toMatch(/샌드박스가 켜져 있습니다[\s\S]*SANDBOX=off/);
    expect(providerBanner(env({ PUBLIC_PORTONE_STORE_ID: 's', PORTONE_API_SECRET: 'p' }))).toMatch(/PortOne \(실제 결제\)/);
    expect(providerBanner(env({ SANDBOX: 'off' }))).toMatch(/사용할 수 없습니다/);
  });

  it('when off, the sandbox pages answer the Korean 404 envelope and sandbox keys and verifications are refused', async () => {
    const on = testConfig();
    const key = billingKey({ config: on } as TestContext);
    const off = await createTestContext({ sandbox: false });
    try {
      const page = await off.app.request('/sandbox/billing-key?redirectUrl=%2Finquire', { headers: { host: 'localhost' } });
      expect(page.status).toBe(404);
      expect((await page.json()).message).toMatch(/샌드박스/);
      const approve = await off.app.request('/sandbox/billing-key/approve', { method: 'POST', headers: { host: 'localhost', 'content-type': 'application/x-www-form-urlencoded' }, body: 'redirectUrl=%2Finquire' });
      expect(approve.status).toBe(404);
      const identity = await off.app.request('/sandbox/identity/verify', {
        method: 'POST',
        headers: { host: 'localhost', 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ identityVerificationId: 'identity-verification-takeover1', redirectUrl: '/signup', name: '김철수', phone: '01012345678', birthDate: '1990-01-01' }).toString(),
      });
      expect(identity.status).toBe(404);
      await expect(createPaymentProvider(off.database.db, off.config).verifyBillingKey(key)).rejects.toMatchObject({ status: 422 });
      await expect(createPaymentProvider(off.database.db, on).verifyBillingKey(key)).resolves.toMatchObject({ issuer: '샌드박스카드' });
    } finally {
      await off.close();
    }
  });
});

describe('500 logs', () => {
  it('name the method and path only, and the error without its query parameters', async () => {
    const lines: string[] = [];
    const ctx = await createTestContext({ logLevel: 'error' }, { logSink: { write: (line) => void lines.push(line) } });
    const { token } = await customer(ctx);
    try {
      await ctx.database.close();
      const email = 'secret.person@example.com';
      const res = await ctx.app.request(`/accounts/login?email=${encodeURIComponent(email)}&phone=01099998888`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ email, password: 'Hunter2!pass' }),
      });
      expect(res.status).toBe(500);
      const mine = await ctx.app.request('/subscriptions/requests?name=%EA%B9%80%EC%B2%A0%EC%88%98', { headers: { authorization: `Bearer ${token}` } });
      expect(mine.status).toBe(500);
    } finally {
      await ctx.close().catch(() => {});
    }
    const log = lines.join('\n');
    expect(log).toContain('POST /accounts/login failed');
    expect(log).toContain('GET /subscriptions/requests failed');
    for (const secret of ['secret.person', '01099998888', 'Hunter2', token, 'Bearer', '김철수', '%EA%B9', 'params:']) expect(log, secret).not.toContain(secret);
  });
});
