import { count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/api/app';
import type { Database } from '../../src/api/db/client';
import { rateLimits } from '../../src/api/db/schema';
import { LOGIN_FAILURES_PER_ACCOUNT, RateLimiter } from '../../src/api/middleware/rate-limit';
import { DbRateLimitStore, type RateLimitStore } from '../../src/api/middleware/rate-limit-store';
import { ADMIN_GUESS_LIMIT } from '../../src/api/auth/guards';
import { CONTACT_LIMIT } from '../../src/api/catalogue/routes/content';
import { TEST_ADMIN_TOKEN } from '../../src/api/env';
import { createTestContext, signupPerson, type TestContext } from './helpers';

/**
 * Per-IP limits hold across replicas: the counters live in the database, so two apps (replicas) on
 * one database share one budget per client. On PGlite the two apps share the one in-process
 * database; on PostgreSQL (api-pg) each replica has its own connection pool.
 */

type App = ReturnType<typeof createApp>;
const contact = { name: '홍길동', email: 'a@example.com', subject: '구독 문의', message: '문의드립니다. 구독 조건이 궁금합니다.' };
const LIMITED = '요청이 너무 많습니다. 10분 후 다시 시도해주세요.';

async function call(app: App, method: string, path: string, opts: { json?: unknown; ip: string; token?: string }) {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'x-forwarded-for': opts.ip };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  const res = await app.request(path, { method, headers, body: opts.json === undefined ? undefined : JSON.stringify(opts.json) });
  return { status: res.status, body: await res.json() };
}

describe('two replicas on one database', () => {
  let ctx: TestContext;
  let replica: Database;
  let a: App;
  let b: App;
  beforeAll(async () => {
    ctx = await createTestContext();
    replica = await ctx.openReplica();
    a = ctx.app;
    b = createApp({ db: replica.db, config: ctx.config });
  });
  afterAll(async () => {
    await replica.close();
    await ctx.close();
  });

  it(`share the contact form's ${CONTACT_LIMIT.max} per 10 minutes: 3 on A and 3 on B, the 6th is the Korean 429`, async () => {
    const ip = '198.51.100.61';
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await call(a, 'POST', '/services/contacts', { json: contact, ip })).status);
    for (let i = 0; i < 2; i++) statuses.push((await call(b, 'POST', '/services/contacts', { json: contact, ip })).status);
    expect(statuses).toEqual([201, 201, 201, 201, 201]);
    const sixth = await call(b, 'POST', '/services/contacts', { json: contact, ip });
    expect(sixth).toMatchObject({ status: 429, body: { code: 1129, message: LIMITED } });
    expect((await call(a, 'POST', '/services/contacts', { json: contact, ip })).status).toBe(429);
    // Another client has its own budget on both.
    expect((await call(b, 'POST', '/services/contacts', { json: contact, ip: '198.51.100.62' })).status).toBe(201);
  });

  it(`share the ADMIN_TOKEN guess budget (${ADMIN_GUESS_LIMIT.max} per IP); the right token still passes on both`, async () => {
    const ip = '203.0.113.61';
    const guess = (app: App) => call(app, 'GET', '/admin/cars', { ip, token: `guess-${'x'.repeat(32)}` });
    for (let i = 0; i < ADMIN_GUESS_LIMIT.max / 2; i++) expect((await guess(a)).status).toBe(403);
    for (let i = 0; i < ADMIN_GUESS_LIMIT.max / 2; i++) expect((await guess(b)).status).toBe(403);
    expect(await guess(a)).toMatchObject({ status: 429, body: { code: 1129 } });
    expect((await guess(b)).status).toBe(429);
    expect((await call(a, 'GET', '/admin/cars', { ip, token: TEST_ADMIN_TOKEN })).status).toBe(200);
    expect((await call(b, 'GET', '/admin/cars', { ip, token: TEST_ADMIN_TOKEN })).status).toBe(200);
  });

  it('share the per-account login lock: failures on A and B together lock the account on both', async () => {
    const { person } = await signupPerson(ctx, {}, '10.61.0.1');
    const login = (app: App, password: string, i: number) => call(app, 'POST', '/accounts/login', { json: { email: person.email, password }, ip: `10.61.1.${i}` });
    for (let i = 0; i < LOGIN_FAILURES_PER_ACCOUNT; i++) expect((await login(i % 2 ? b : a, `wrong-${i}`, i)).status).toBe(401);
    expect((await login(a, person.password, 50)).status).toBe(429);
    expect((await login(b, person.password, 51)).status).toBe(429);
  });

  it(`50 contact messages at once over both replicas: exactly ${CONTACT_LIMIT.max} are taken`, async () => {
    const ip = '198.51.100.63';
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => call(i % 2 ? b : a, 'POST', '/services/contacts', { json: contact, ip })));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(CONTACT_LIMIT.max);
    expect(statuses.filter((s) => s === 429)).toHaveLength(50 - CONTACT_LIMIT.max);
  });

  it('200 concurrent hits from two stores count 1…200, each once (no lost increments)', async () => {
    const stores = [new DbRateLimitStore(ctx.database.db), new DbRateLimitStore(replica.db)];
    const counts = await Promise.all(Array.from({ length: 200 }, (_, i) => stores[i % 2].hit('race', 'one-key', 60_000)));
    expect(counts.map((c) => c.count).sort((x, y) => x - y)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    expect(await stores[0].peek('race', 'one-key')).toMatchObject({ count: 200 });
  });

  it('sweep() deletes the ended windows only', async () => {
    const store = new DbRateLimitStore(ctx.database.db);
    await store.hit('sweep', 'short', 1);
    await store.hit('sweep', 'long', 60_000);
    await new Promise((r) => setTimeout(r, 20));
    expect(await store.peek('sweep', 'short')).toBeNull();
    expect(await store.sweep()).toBeGreaterThanOrEqual(1);
    const left = await ctx.database.db.select({ n: count() }).from(rateLimits).where(eq(rateLimits.bucket, 'sweep'));
    expect(left[0].n).toBe(1);
    expect(await store.peek('sweep', 'long')).toMatchObject({ count: 1 });
  });
});

describe('the limiter in front of the store', () => {
  it('refuses a key it has seen over its limit from memory until the window ends: a flood costs no queries', async () => {
    const ctx = await createTestContext();
    try {
      const db = new DbRateLimitStore(ctx.database.db);
      let queries = 0;
      const counted: RateLimitStore = {
        hit: (...args) => (queries++, db.hit(...args)),
        peek: (...args) => (queries++, db.peek(...args)),
        reset: (...args) => (queries++, db.reset(...args)),
        sweep: () => db.sweep(),
      };
      const limiter = new RateLimiter(counted);
      await limiter.hit('flood', 'ip:x', 2, 300);
      await limiter.hit('flood', 'ip:x', 2, 300);
      await expect(limiter.hit('flood', 'ip:x', 2, 300)).rejects.toMatchObject({ status: 429 });
      expect(queries).toBe(3);
      for (let i = 0; i < 20; i++) await expect(limiter.hit('flood', 'ip:x', 2, 300)).rejects.toThrow('요청이 너무 많습니다. 1분 후 다시 시도해주세요.');
      await expect(limiter.check('flood', 'ip:x', 2)).rejects.toMatchObject({ status: 429 });
      expect(queries).toBe(3);
      await limiter.hit('flood', 'ip:y', 2, 300); // other keys still count
      await new Promise((r) => setTimeout(r, 350));
      await expect(limiter.hit('flood', 'ip:x', 2, 300)).resolves.toBeUndefined(); // a new window
      expect(queries).toBe(5);
    } finally {
      await ctx.close();
    }
  });

  it('a failing store: requests pass (fail open), one log line a minute, never a throw', async () => {
    const broken: RateLimitStore = {
      hit: () => Promise.reject(new Error('connection refused')),
      peek: () => Promise.reject(new Error('connection refused')),
      reset: () => Promise.reject(new Error('connection refused')),
      sweep: () => Promise.reject(new Error('connection refused')),
    };
    const lines: string[] = [];
    const limiter = new RateLimiter(broken, (_level, message) => void lines.push(message));
    for (let i = 0; i < 5; i++) await expect(limiter.hit('x', 'k', 1, 60_000)).resolves.toBeUndefined();
    await expect(limiter.check('x', 'k', 1)).resolves.toBe(false);
    await expect(limiter.reset('x', 'k')).resolves.toBeUndefined();
    expect(lines).toEqual(['rate limit store failed: requests pass uncounted (fail open) until it answers']);
  });

  it('a missing rate_limits table: the contact form still takes messages (no 500 from the limit)', async () => {
    const ctx = await createTestContext();
    const other = await ctx.openReplica();
    // The rate-limit store fails (its table is gone) while the rest of the database answers.
    await ctx.database.db.execute(sql`alter table rate_limits rename to rate_limits_gone`);
    try {
      const app = createApp({ db: other.db, config: ctx.config });
      for (let i = 0; i < CONTACT_LIMIT.max + 2; i++) expect((await call(app, 'POST', '/services/contacts', { json: contact, ip: '198.51.100.64' })).status).toBe(201);
    } finally {
      await other.close();
      await ctx.close();
    }
  });
});
