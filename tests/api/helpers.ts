import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import pg from 'pg';
import { addDays, todayInKorea } from '../../src/domain/dates';
import { createApp } from '../../src/api/app';
import type { LogSink } from '../../src/api/observability/logger';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { openDatabase, type Database } from '../../src/api/db/client';
import { insertCoupon, insertUser } from '../../src/api/seed/factories';
import { cars, userCoupons } from '../../src/api/db/schema';
import { TEST_ADMIN_TOKEN, testConfig, type Config } from '../../src/api/env';
import { issueSandboxBillingKey, type SandboxCard } from '../../src/api/billing/sandbox-provider';
import { creditPoints, pointBalance } from '../../src/api/wallet/points';
import { openSession } from '../../src/api/accounts/sessions';
import { createClock, type SettableClock } from '../../src/api/jobs/clock';
import type { Answer, Method, RoutePath, Routed, Unrouted } from './client';

/**
 * The one place for API test helpers: the in-process app on a fresh database and its typed
 * client (tests/api/client.ts), customers with points and coupons, billing keys, the test clock,
 * the job run, and the identity-sandbox signup.
 */

interface CallOptions {
  json?: unknown;
  body?: string | Uint8Array;
  token?: string;
  headers?: Record<string, string>;
}

/**
 * A call of the app in process, checked against its route table (tests/api/client.ts): `path` must
 * reach a route of `method` (or be `unrouted(...)`), and the answer's body is typed as that route
 * declares it.
 */
export type Call = <M extends Method, P extends RoutePath<M> | Unrouted | (string & {})>(method: M, path: Routed<M, P>, opts?: CallOptions) => Promise<Answer<M, P>>;

/** A call with the admin (staff and machine) token: `call`'s checks, a JSON body. */
type AdminCall = <M extends Method, P extends RoutePath<M> | Unrouted | (string & {})>(method: M, path: Routed<M, P>, json?: unknown) => Promise<Answer<M, P>>;

/**
 * The typed in-process client of `app` (read late, so it can be made before the app): `json` bodies
 * are serialised, `token` becomes a bearer header, `defaults` are sent with every call; a body
 * that is not JSON is returned as text.
 */
export function callOf(app: () => { request: (path: string, init: RequestInit) => Response | Promise<Response> }, defaults: Record<string, string> = {}): Call {
  return (async (method: string, path: string, opts: CallOptions = {}) => {
    const headers: Record<string, string> = { ...defaults, ...(opts.headers ?? {}) };
    let body = opts.body;
    if (opts.json !== undefined) {
      body = JSON.stringify(opts.json);
      headers['content-type'] = 'application/json';
    }
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    const res = await app().request(path, { method, headers, body: body as BodyInit | undefined });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      /* non-JSON bodies are returned as text */
    }
    return { status: res.status, body: parsed, headers: res.headers };
  }) as Call;
}

export interface TestContext {
  app: ReturnType<typeof createApp>;
  database: Database;
  config: Config;
  /** Calls the app in process; `json` bodies are serialised, `token` becomes a bearer header. */
  call: Call;
  /**
   * Another replica's connection to the same database: its own pool on PostgreSQL; on PGlite (one
   * process, one database) the same handle, closed with the context.
   */
  openReplica: () => Promise<Database>;
  /**
   * A second app on its own connection (openReplica) that reads the same business clock as `app`:
   * replicas share one time, as servers on NTP do, so a test clock set once holds on both.
   */
  openReplicaApp: () => Promise<{ app: ReturnType<typeof createApp>; db: Database['db']; close: () => Promise<void> }>;
  /** The business clock of `app` (and of every openReplicaApp). */
  clock: SettableClock;
  close: () => Promise<void>;
}

const MIGRATIONS = path.join(process.cwd(), 'src', 'api', 'db', 'migrations');

/**
 * An empty PGlite with every migration applied, as a dump: a new PGlite runs initdb (about 10 s on
 * the CI machine) and the migrations (2 s), a dump loads in under 2 s. Made once per set of
 * migrations and PGlite version (the file name says which), shared by every worker and run; the
 * loaded copy is still migrated by openDatabase, which finds nothing left to do.
 */
async function migratedTemplate(): Promise<Blob> {
  const hash = createHash('sha256');
  hash.update(JSON.parse(readFileSync(path.join(process.cwd(), 'node_modules', '@electric-sql', 'pglite', 'package.json'), 'utf8')).version);
  for (const name of readdirSync(MIGRATIONS, { recursive: true }).map(String).sort()) {
    if (/\.(sql|json)$/.test(name)) hash.update(name).update(readFileSync(path.join(MIGRATIONS, name)));
  }
  const file = path.join(tmpdir(), `luxe-pglite-template-${hash.digest('hex').slice(0, 16)}.tar`);
  if (!existsSync(file)) {
    const client = await PGlite.create('memory://');
    await migrate(drizzle(client) as never, { migrationsFolder: MIGRATIONS });
    const dump = await client.dumpDataDir('none');
    await client.close();
    // Written aside and renamed: a worker making it at the same time never reads half a file.
    const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    renameSync(partial, file);
  }
  return new Blob([readFileSync(file)]);
}

/**
 * A fresh database per test file: in-memory PGlite, or a new PostgreSQL database on the
 * TEST_DATABASE_URL server when the suite runs as `api-pg`.
 */
export async function createTestContext(overrides: Partial<Config> = {}, opts: { logSink?: LogSink } = {}): Promise<TestContext> {
  let database: Database;
  let dropDatabase = async () => {};
  let openReplica = (): Promise<Database> => Promise.resolve({ ...database, close: async () => {} });
  if (process.env.TEST_DB === 'postgres') {
    const url = new URL(process.env.TEST_DATABASE_URL!);
    const name = `t_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url.toString() });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const testUrl = new URL(url);
    testUrl.pathname = `/${name}`;
    database = await openDatabase({ url: testUrl.toString() });
    openReplica = () => openDatabase({ url: testUrl.toString() });
    dropDatabase = async () => {
      const c = new pg.Client({ connectionString: url.toString() });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    };
  } else {
    database = await openDatabase({ dataDir: 'memory://', loadDataDir: await migratedTemplate() });
  }
  const config = testConfig(overrides);
  const clock = createClock();
  const app = createApp({ db: database.db, config, clock, logSink: opts.logSink });
  const openReplicaApp: TestContext['openReplicaApp'] = async () => {
    const replica = await openReplica();
    return { app: createApp({ db: replica.db, config, clock }), db: replica.db, close: () => replica.close() };
  };
  const call = callOf(() => app);
  return {
    app,
    database,
    config,
    call,
    openReplica,
    openReplicaApp,
    clock,
    close: async () => {
      await database.close();
      await dropDatabase();
    },
  };
}

/**
 * A database that outlives a process, for crash tests: a PGlite folder, or a new PostgreSQL database
 * when the suite runs as `api-pg`. `env` tells a child process where it is (DATA_DIR or DATABASE_URL).
 */
export async function persistentDatabase(): Promise<{ open: () => Promise<Database>; env: Record<string, string>; drop: () => Promise<void> }> {
  if (process.env.TEST_DB === 'postgres') {
    const url = new URL(process.env.TEST_DATABASE_URL!);
    const name = `t_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url.toString() });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const testUrl = new URL(url);
    testUrl.pathname = `/${name}`;
    return {
      open: () => openDatabase({ url: testUrl.toString() }),
      env: { DATABASE_URL: testUrl.toString() },
      drop: async () => {
        const c = new pg.Client({ connectionString: url.toString() });
        await c.connect();
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await c.end();
      },
    };
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'luxe-crash-'));
  return { open: () => openDatabase({ dataDir: dir }), env: { DATA_DIR: dir }, drop: () => Promise.resolve(rmSync(dir, { recursive: true, force: true })) };
}

/** A Korean calendar day `offset` days from today, YYYY-MM-DD. */
export const koreaDay = (offset = 0) => addDays(todayInKorea(new Date()), offset);

export type CouponOverrides = Parameters<typeof insertCoupon>[1];

/**
 * A user with an access token, `points` credited on the ledger and one held coupon per entry of
 * `coupons` (their holding ids are returned, in order). `service` sets the coupons' service
 * unless an entry names its own.
 */
export async function customer(ctx: TestContext, points = 0, coupons: CouponOverrides[] = [], service?: 'SUBSCRIBE' | 'BUTLER') {
  const db = ctx.database.db;
  const user = await insertUser(db);
  if (points) await creditPoints(db, { userId: user.id, amount: points, reason: 'ADMIN' });
  const holdings: number[] = [];
  for (const o of coupons) {
    const c = await insertCoupon(db, { ...(service ? { service } : {}), ...o });
    const [h] = await db.insert(userCoupons).values({ userId: user.id, couponId: c.id }).returning();
    holdings.push(h.id);
  }
  return { user, token: (await openSession(db, ctx.config, user.id)).access_token, holdings };
}

/**
 * The setup most API tests repeat, bound to the file's context: `get` reads it late, so the tools
 * can be made at module level before beforeAll has created it.
 *   const { admin, setClock, card, runJobs } = apiTools(() => ctx);
 * A file's own helpers never restate these (tests/unit/one-home-test-helpers.test.ts).
 */
export function apiTools(get: () => Pick<TestContext, 'call' | 'config'>) {
  const admin = ((method: Method, path: string, json?: unknown) => get().call(method, path as Unrouted, { token: TEST_ADMIN_TOKEN, json })) as AdminCall;
  return {
    admin,
    /** Sets the business clock (an instant, with its offset), or back to real time with null. */
    setClock: async (now: string | Date | null) => {
      const res = await admin('POST', '/admin/test-clock', now === null ? {} : { now: new Date(now).toISOString() });
      expect(res.status, 'test clock').toBe(200);
      return res;
    },
    /** A sandbox billing key that answers its charges as `behaviour` says. */
    card: (behaviour: SandboxCard = 'approve') => issueSandboxBillingKey(get().config, behaviour),
    /** Runs every due job as the job loop would (POST /admin/billing/run) and returns its report. */
    runJobs: async () => {
      const res = await admin('POST', '/admin/billing/run');
      expect(res.status, 'job run').toBe(200);
      return res.body.data.report;
    },
  };
}

/** A billing key as the sandbox provider issues it (HMAC-signed). */
export const billingKey = (ctx: TestContext) => issueSandboxBillingKey(ctx.config);

/** A user's point balance (the ledger's sum). */
export const pointsOf = (ctx: TestContext, userId: number) => pointBalance(ctx.database.db, userId);

/** Whether a held coupon has been spent. */
export async function couponUsed(ctx: TestContext, holdingId: number): Promise<boolean> {
  const [row] = await ctx.database.db.select({ isUsed: userCoupons.isUsed }).from(userCoupons).where(eq(userCoupons.id, holdingId));
  return row.isUsed;
}

// ── Accounts through the identity sandbox ────────────────────────────────────

/** Runs the identity sandbox page as a tester would; returns the identityVerificationId. */
export async function sandboxVerify(ctx: TestContext, person: { name: string; phone: string; birthDate?: string }): Promise<string> {
  const id = `identity-verification-${randomBytes(8).toString('hex')}`;
  const body = new URLSearchParams({ identityVerificationId: id, redirectUrl: '/signup', name: person.name, phone: person.phone, birthDate: person.birthDate ?? '1990-01-01' });
  const res = await ctx.app.request('/sandbox/identity/verify', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', host: 'localhost' },
    body: body.toString(),
  });
  if (res.status !== 303) throw new Error(`sandbox verification failed: ${res.status} ${await res.text()}`);
  return id;
}

let seq = 0;
/** A distinct person per call: a name, a mobile and an email no other test uses. */
export function newPerson(prefix = 'user') {
  seq += 1;
  const n = `${Date.now() % 1e6}${seq}`.padStart(8, '0').slice(-8);
  return { name: `홍길동${seq}`, mobile: `010${n}`, email: `${prefix}${seq}_${n}@example.com`, password: 'secret123' };
}

/** Verifies a new person in the sandbox and signs them up; returns the login answer and the person. */
export async function signupPerson(ctx: TestContext, overrides: Record<string, unknown> = {}, ip = '10.0.0.1') {
  const person = newPerson();
  const identity_code = await sandboxVerify(ctx, { name: person.name, phone: person.mobile });
  const res = await ctx.call('POST', '/accounts', { json: { ...person, identity_code, ...overrides }, headers: { 'x-forwarded-for': ip } });
  return { res, person, identity_code };
}

/**
 * Since issue 38 a car is one plate: a second order of one car for overlapping days is refused
 * (tests/api/availability.test.ts). Tests about something else that order many times order a
 * fresh copy of `carId` (same model, fees and dates) each time: its id.
 */
export async function anotherPlate(ctx: TestContext, carId: number): Promise<number> {
  const db = ctx.database.db;
  const [row] = await db.select().from(cars).where(eq(cars.id, carId));
  const { id: _id, createdAt: _c, updatedAt: _u, ...copy } = row;
  const [made] = await db.insert(cars).values(copy).returning({ id: cars.id });
  return made.id;
}

/**
 * `db` with its `n`th `select` held until `release` resolves; `reached` is called when that select
 * is sent. A race between two reads of one call can then be replayed step by step, never by timing.
 */
export function holdNthSelect<T extends object>(db: T, n: number, release: Promise<unknown>, reached: () => void): T {
  let selects = 0;
  const held = (query: object): object =>
    new Proxy(query, {
      get(target, key) {
        const value = Reflect.get(target, key, target) as unknown;
        if (key === 'then') return (ok: (v: unknown) => unknown, fail: (e: unknown) => unknown) => release.then(() => (target as PromiseLike<unknown>).then(ok, fail));
        return typeof value === 'function' ? (...args: unknown[]) => held((value as (...a: unknown[]) => object).apply(target, args)) : value;
      },
    });
  return new Proxy(db, {
    get(target, key) {
      const value = Reflect.get(target, key, target) as unknown;
      if (typeof value !== 'function') return value;
      if (key !== 'select') return (value as (...a: unknown[]) => unknown).bind(target);
      return (...args: unknown[]) => {
        const query = (value as (...a: unknown[]) => object).apply(target, args);
        if (++selects !== n) return query;
        reached();
        return held(query);
      };
    },
  });
}

/**
 * The statements `db` sends while `work` runs, at its driver (the PostgreSQL pool or PGlite that
 * drizzle was made on), outside transactions: what a read costs. The texts name the tables, for a
 * failure to show which query was repeated.
 */
export async function countQueries<T>(db: Database['db'], work: () => Promise<T>): Promise<{ result: T; queries: string[] }> {
  const driver = (db as unknown as { $client: { query: (...args: unknown[]) => unknown } }).$client;
  const query = driver.query;
  const queries: string[] = [];
  driver.query = function (this: unknown, ...args: unknown[]) {
    const first = args[0] as string | { text?: string };
    queries.push(typeof first === 'string' ? first : (first.text ?? ''));
    return query.apply(this, args);
  };
  try {
    return { result: await work(), queries };
  } finally {
    driver.query = query;
  }
}

/** The seller's identity production needs (src/api/env.ts, 전자상거래법 제13조): well-formed values for tests of a production config. */
export const PRODUCTION_BUSINESS_ENV = {
  PUBLIC_COMPANY_NAME: '주식회사 럭스모빌리티',
  PUBLIC_COMPANY_CEO: '김대표',
  PUBLIC_BUSINESS_NUMBER: '111-11-11119',
  PUBLIC_MAIL_ORDER_NUMBER: '제2026-서울강남-01234호',
  PUBLIC_HOSTING_PROVIDER: 'Amazon Web Services, Inc.',
  PUBLIC_PRIVACY_OFFICER_NAME: '이보호',
  PUBLIC_PRIVACY_OFFICER_EMAIL: 'privacy@luxe-subscribe.kr',
  // The licensed partner the butler model `partner` names (required in production).
  BUTLER_PARTNER_NAME: '주식회사 예시모빌리티',
  BUTLER_PARTNER_LICENCE: '서울-고급택시-2026-0001',
  // The 운전자격확인시스템 relay and the key sealing licence numbers (required in production).
  LICENCE_PROVIDER: 'http',
  LICENCE_API_URL: 'https://licence-relay.example.kr/check',
  LICENCE_API_KEY: 'relay-key',
  LICENCE_KEY: Buffer.alloc(32, 7).toString('base64'),
} as const;
