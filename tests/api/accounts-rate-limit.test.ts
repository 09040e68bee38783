import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RateLimiter } from '../../src/api/middleware/rate-limit';
import { DbRateLimitStore } from '../../src/api/middleware/rate-limit-store';
import { testConfig } from '../../src/api/env';
import { sandboxAllowed } from '../../src/api/accounts/identity';
import { createTestContext, type TestContext } from './helpers';

describe('RateLimiter over the database store', () => {
  let ctx: TestContext;
  let limiter: RateLimiter;
  beforeAll(async () => {
    ctx = await createTestContext();
    limiter = new RateLimiter(new DbRateLimitStore(ctx.database.db));
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('counts per key within a window and starts over after it', async () => {
    await limiter.hit('t', 'a', 2, 400);
    await limiter.hit('t', 'a', 2, 400);
    await expect(limiter.hit('t', 'a', 2, 400)).rejects.toThrow('요청이 너무 많습니다. 1분 후 다시 시도해주세요.');
    await limiter.hit('t', 'b', 2, 400); // other keys are independent
    await limiter.hit('u', 'a', 2, 400); // and other buckets
    await new Promise((r) => setTimeout(r, 450));
    await expect(limiter.hit('t', 'a', 2, 400)).resolves.toBeUndefined();
    await limiter.hit('t', 'a', 2, 400);
    await expect(limiter.hit('t', 'a', 2, 400)).rejects.toMatchObject({ status: 429, code: 1129 });
  });

  it('check() refuses at the limit without counting; reset() forgets', async () => {
    for (let i = 0; i < 3; i++) await limiter.hit('t', 'k', Number.MAX_SAFE_INTEGER, 60_000);
    await expect(limiter.check('t', 'k', 4)).resolves.toBe(true);
    await expect(limiter.check('t', 'k', 4)).resolves.toBe(true); // checking did not count
    await expect(limiter.check('t', 'k', 3)).rejects.toThrow('요청이 너무 많습니다. 1분 후 다시 시도해주세요.');
    await limiter.reset('t', 'k');
    await expect(limiter.check('t', 'k', 1)).resolves.toBe(false);
  });

  it('says the minutes left in the window, rounded up', async () => {
    await limiter.hit('t', 'long', 1, 10 * 60_000);
    await expect(limiter.hit('t', 'long', 1, 10 * 60_000)).rejects.toThrow('요청이 너무 많습니다. 10분 후 다시 시도해주세요.');
  });
});

describe('per-IP limits on the account endpoints', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('check-email: 30 a minute per IP, then 429 with a Korean message', async () => {
    const headers = { 'x-forwarded-for': '10.50.0.1' };
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) statuses.push((await ctx.call('POST', '/accounts/check-email', { json: { email: `a${i}@example.com` }, headers })).status);
    expect(statuses.slice(0, 30).every((s) => s === 200)).toBe(true);
    const last = await ctx.call('POST', '/accounts/check-email', { json: { email: 'z@example.com' }, headers });
    expect(last.status).toBe(429);
    expect(last.body).toMatchObject({ code: 1129, message: expect.stringMatching(/분 후 다시 시도해주세요/) });
    // Another address is not affected.
    expect((await ctx.call('POST', '/accounts/check-email', { json: { email: 'z@example.com' }, headers: { 'x-forwarded-for': '10.50.0.2' } })).status).toBe(200);
  });

  it('reset-password and signup: 10 per 10 minutes per IP', async () => {
    const headers = { 'x-forwarded-for': '10.50.0.3' };
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await ctx.call('POST', '/accounts/reset-password', { json: { identity_code: `identity-verification-none${i}` }, headers })).status);
    expect(statuses.slice(0, 10).every((s) => s === 422)).toBe(true);
    expect(statuses[10]).toBe(429);
    const signup: number[] = [];
    for (let i = 0; i < 11; i++) signup.push((await ctx.call('POST', '/accounts', { json: {}, headers })).status);
    expect(signup[10]).toBe(429);
  });
});

describe('sandbox identity', () => {
  it('is allowed only without PortOne and never in production', () => {
    const config = testConfig();
    expect(sandboxAllowed(config)).toBe(true);
    expect(sandboxAllowed({ ...config, env: 'production' })).toBe(false);
    expect(sandboxAllowed({ ...config, portone: { ...config.portone, configured: true } })).toBe(false);
  });
});
