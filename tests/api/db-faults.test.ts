import net from 'node:net';
import { DrizzleQueryError, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../../src/api/app';
import { connectPostgres, openDatabase, type Db } from '../../src/api/db/client';
import { isConnectionFault, isDatabaseUnavailable, markDatabaseError } from '../../src/api/db/errors';
import { NOT_SENT_MESSAGE, withAnswerBudget } from '../../src/api/db/answer-budget';
import { jobs } from '../../src/api/db/schema';
import { loadConfig, TEST_ADMIN_TOKEN, testConfig } from '../../src/api/env';
import { createClock } from '../../src/api/jobs/clock';
import { claimDue, enqueue } from '../../src/api/jobs/queue';
import { createWorkerState, runDueJobs, type JobHandler } from '../../src/api/jobs/runner';
import { startJobLoop } from '../../src/host/job-loop';
import { ErrorCode } from '../../src/domain/error-codes';
import { createTestContext, persistentDatabase, type TestContext } from './helpers';

/** A port nothing listens on: a stopped database. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * A frozen PostgreSQL: the kernel accepts the connection and nothing answers (`handshake: false`, a
 * stopped postmaster), or the session starts and then no statement is ever answered (`handshake: true`,
 * stopped backends).
 */
async function frozenServer(opts: { handshake: boolean }) {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
    if (!opts.handshake) return;
    socket.once('data', () => {
      // AuthenticationOk, then ReadyForQuery (idle): the client thinks it is connected.
      socket.write(Buffer.from([0x52, 0, 0, 0, 8, 0, 0, 0, 0, 0x5a, 0, 0, 0, 5, 0x49]));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `postgres://luxe@127.0.0.1:${port}/luxe`,
    open: () => sockets.size,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const appOn = (db: Db) => createApp({ db, config: testConfig() });
const timed = async <T>(work: () => T | Promise<T>) => {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
};

function expect503(res: Response, body: { code: number; message: string }) {
  expect(res.status).toBe(503);
  expect(res.headers.get('retry-after')).toBe('5');
  expect(body.code).toBe(ErrorCode.UNAVAILABLE);
  expect(body.message).toMatch(/잠시 후 다시 시도/);
}

describe('a database that is down or frozen', () => {
  it('stopped (connection refused): reads and writes answer a Korean 503 with Retry-After, not 500', async () => {
    const { db, close } = connectPostgres(`postgres://luxe@127.0.0.1:${await closedPort()}/luxe`, { connectMs: 1000 });
    try {
      const app = appOn(db);
      for (const [method, path, body] of [['GET', '/services/faqs', undefined], ['POST', '/accounts/login', JSON.stringify({ email: 'a@b.kr', password: 'password1!' })]] as const) {
        const res = await app.request(path, { method, body, headers: body ? { 'content-type': 'application/json' } : {} });
        expect503(res, await res.json());
      }
    } finally {
      await close();
    }
  });

  it('frozen before the handshake: a request gives up at DB_CONNECT_TIMEOUT_MS with 503', async () => {
    const server = await frozenServer({ handshake: false });
    const { db, close } = connectPostgres(server.url, { connectMs: 300, statementMs: 200 });
    try {
      const { value: res, ms } = await timed(() => appOn(db).request('/services/faqs'));
      expect503(res, await res.json());
      expect(ms).toBeLessThan(2000);
    } finally {
      await server.close();
      await close();
    }
  });

  it('frozen mid-session: a statement gives up at the statement timeout (+1 s), the frozen connection is dropped, not reused', async () => {
    const server = await frozenServer({ handshake: true });
    const { db, pool, close } = connectPostgres(server.url, { connectMs: 300, statementMs: 200 });
    try {
      const { value: res, ms } = await timed(() => appOn(db).request('/services/faqs'));
      expect503(res, await res.json());
      expect(ms).toBeLessThan(2500);
      // A transaction: BEGIN hangs, then its ROLLBACK must not queue behind it on the same frozen connection.
      const tx = await timed(() => db.transaction(async (t) => t.execute(sql`select 1`)).then(() => 'committed', (err: unknown) => err));
      expect(isDatabaseUnavailable(tx.value)).toBe(true);
      expect(tx.ms).toBeLessThan(2500);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(pool.totalCount).toBe(0);
      expect(server.open()).toBe(0);
    } finally {
      await server.close();
      await close();
    }
  });

  it('frozen mid-request: after one statement got no answer the request sends nothing more, so it is answered within one connect wait and one statement', async () => {
    const server = await frozenServer({ handshake: true });
    const timeouts = { connectMs: 300, statementMs: 200 };
    const { db, close } = connectPostgres(server.url, timeouts);
    try {
      // A request with four statements and a transaction left, as an order is: only the first is sent.
      const { value: errors, ms } = await timed(() =>
        withAnswerBudget(async () => {
          const failures: unknown[] = [];
          for (let i = 0; i < 4; i++) await db.execute(sql`select 1`).catch((err: unknown) => failures.push(err));
          await db.transaction(async (t) => t.execute(sql`select 1`)).catch((err: unknown) => failures.push(err));
          return failures;
        }),
      );
      expect(errors).toHaveLength(5);
      for (const err of errors) expect(isDatabaseUnavailable(err)).toBe(true);
      expect(errors.map((e) => String((e as Error).cause ?? e).includes(NOT_SENT_MESSAGE))).toEqual([false, true, true, true, true]);
      // The stated bound (docs/decisions/reliability.md): connect + statement + the 1 s grace, with 0.5 s for a loaded machine's timers.
      expect(ms).toBeLessThan(timeouts.connectMs + timeouts.statementMs + 1000 + 500);
      // Other work keeps its own budget: a new request's statement is sent (and times out on its own).
      const fresh = await withAnswerBudget(() => db.execute(sql`select 1`).then(() => null, (err: unknown) => err));
      expect(String((fresh as Error).cause ?? fresh)).toContain('Query read timeout');
    } finally {
      await server.close();
      await close();
    }
  });

  it('a request through the app gets its own budget: a login (its rate-limit store fails open, then the account is read) answers 503 within the bound', async () => {
    const server = await frozenServer({ handshake: true });
    const timeouts = { connectMs: 300, statementMs: 200 };
    const { db, close } = connectPostgres(server.url, timeouts);
    try {
      const login = { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'frozen@example.kr', password: 'password1!' }) };
      const { value: res, ms } = await timed(() => appOn(db).request('/accounts/login', login));
      expect503(res, await res.json());
      expect(ms).toBeLessThan(timeouts.connectMs + timeouts.statementMs + 1000 + 500);
    } finally {
      await server.close();
      await close();
    }
  });

  it('tells database faults from other errors', () => {
    // As drizzle wraps a driver's error.
    const wrapped = (cause: unknown) => new DrizzleQueryError('select 1', [], cause as Error);
    expect(isConnectionFault(wrapped(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })))).toBe(true);
    expect(isConnectionFault(wrapped(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' })))).toBe(true);
    expect(isConnectionFault(wrapped(new Error('Connection terminated unexpectedly')))).toBe(true);
    expect(isConnectionFault(wrapped(new Error('timeout exceeded when trying to connect')))).toBe(true);
    expect(isConnectionFault(wrapped(new AggregateError([Object.assign(new Error('x'), { code: 'ECONNREFUSED' })])))).toBe(true);
    expect(isConnectionFault(markDatabaseError(new Error('timeout exceeded when trying to connect')))).toBe(true);
    const cancelled = wrapped(Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }));
    expect([isConnectionFault(cancelled), isDatabaseUnavailable(cancelled)]).toEqual([false, true]);
    expect(isDatabaseUnavailable(wrapped(Object.assign(new Error('duplicate key'), { code: '23505' })))).toBe(false);
    expect(isDatabaseUnavailable(new Error('boom'))).toBe(false);
    // A payment or message provider that cannot be reached is not the database (its jobs keep their backoff).
    const provider = Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('connect ECONNREFUSED 10.0.0.9:443'), { code: 'ECONNREFUSED' }) });
    expect(isConnectionFault(provider)).toBe(false);
    expect(isConnectionFault(Object.assign(new Error('Connection timeout'), { code: 'ETIMEDOUT' }))).toBe(false); // nodemailer
    expect(isDatabaseUnavailable(provider)).toBe(false);
  });

  it('reads DB_CONNECT_TIMEOUT_MS and DB_STATEMENT_TIMEOUT_MS (a few seconds by default)', () => {
    expect(testConfig().dbTimeouts).toEqual({ connectMs: 3000, statementMs: 5000 });
    const env = { NODE_ENV: 'test', JWT_SECRET: 'x'.repeat(32), DB_CONNECT_TIMEOUT_MS: '1500', DB_STATEMENT_TIMEOUT_MS: '0' } as NodeJS.ProcessEnv;
    expect(loadConfig(env).dbTimeouts).toEqual({ connectMs: 1500, statementMs: 0 });
    expect(() => loadConfig({ ...env, DB_STATEMENT_TIMEOUT_MS: 'soon' })).toThrow(/DB_STATEMENT_TIMEOUT_MS/);
  });
});

describe('health: liveness and readiness', () => {
  it('while the database is stopped: live 200, ready and /health 503 with Retry-After', async () => {
    const { db, close } = connectPostgres(`postgres://luxe@127.0.0.1:${await closedPort()}/luxe`, { connectMs: 1000 });
    try {
      const app = appOn(db);
      const live = await app.request('/health/live');
      expect(live.status).toBe(200);
      expect((await live.json()).data.status).toBe('ok');
      for (const path of ['/health/ready', '/health']) {
        const res = await app.request(path);
        expect(res.status).toBe(503);
        expect(res.headers.get('retry-after')).toBe('5');
        const body = await res.json();
        expect(body.code).toBe(ErrorCode.UNAVAILABLE);
        expect(body.message).toMatch(/데이터베이스/);
      }
    } finally {
      await close();
    }
  });

  it('readiness answers within 2 s when the database is frozen', async () => {
    const server = await frozenServer({ handshake: true });
    const { db, close } = connectPostgres(server.url, { connectMs: 5000, statementMs: 10_000 });
    try {
      const { value: res, ms } = await timed(() => appOn(db).request('/health/ready'));
      expect(res.status).toBe(503);
      expect(ms).toBeLessThan(2500);
    } finally {
      await server.close();
      await close();
    }
  });

  describe('with the database up', () => {
    let ctx: TestContext;
    beforeAll(async () => {
      ctx = await createTestContext();
    });
    afterAll(() => ctx.close());

    it('every health answer is 200', async () => {
      for (const path of ['/health', '/health/live', '/health/ready'] as const) {
        const res = await ctx.call('GET', path);
        expect(res.status).toBe(200);
        expect(res.body.data.status).toBe('ok');
      }
      expect((await ctx.call('GET', '/health/ready')).body.data.database).toBe('up');
    });
  });
});

/** The connection error node-postgres gives when the server restarts under a query. */
const connectionLost = () => new DrizzleQueryError('begin', [], new Error('Connection terminated unexpectedly'));

/**
 * `db` whose statements fail with a lost connection while `broken.on`: every query builder
 * chain resolves to that rejection, as drizzle's do when the pool's connection dies.
 */
function faulty(db: Db, broken: { on: boolean }): Db {
  const failing = (): unknown => {
    const chain: unknown = new Proxy(function () {}, {
      get: (_, key) => (key === 'then' ? (_resolve: unknown, reject: (e: unknown) => void) => reject(connectionLost()) : () => chain),
      apply: () => chain,
    });
    return chain;
  };
  return new Proxy(db, {
    get: (target, key, receiver) => {
      if (broken.on && ['execute', 'select', 'insert', 'update', 'delete', 'transaction'].includes(String(key))) return () => failing();
      return Reflect.get(target, key, receiver);
    },
  });
}

describe('jobs after a database fault', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());
  beforeEach(async () => {
    await ctx.database.db.delete(jobs);
  });

  const rows = async () => ctx.database.db.select().from(jobs).orderBy(jobs.id);

  it('a run the database breaks strands nothing: the next run settles and releases its claims, and runs each job once', async () => {
    const real = ctx.database.db;
    const broken = { on: false };
    const db = faulty(real, broken);
    const clock = createClock();
    const now = new Date();
    for (let i = 0; i < 12; i++) await enqueue(real, { kind: 'k', key: `job-${i}`, runAt: now, maxAttempts: 1 });
    const runs = new Map<string, number>();
    let started = 0;
    const handlers: Record<string, JobHandler> = {
      k: (job) => {
        runs.set(job.key, (runs.get(job.key) ?? 0) + 1);
        // The third job to start meets the restart: its statement fails, and so does every write after it.
        if (++started === 3) {
          broken.on = true;
          return Promise.reject(connectionLost());
        }
        return Promise.resolve();
      },
    };
    const state = createWorkerState();
    const options = { db, clock, handlers, worker: 'replica-1#abc', concurrency: 2, state };
    await expect(runDueJobs(options)).rejects.toThrow(/Failed query/);
    // What today's runner left for the lease (5 minutes): claimed jobs still held by this worker.
    const held = (await rows()).filter((r) => r.status === 'running');
    expect(held.length).toBeGreaterThan(0);
    expect(state.unsettled.size).toBeGreaterThan(0);

    broken.on = false; // the database is back: the loop's next tick
    await runDueJobs(options);
    const after = await rows();
    expect(after.map((r) => r.status)).toEqual(Array(12).fill('done'));
    expect(state.unsettled.size).toBe(0);
    expect(state.active.size).toBe(0);
    // The job the fault broke ran again (maxAttempts 1: the fault did not use its attempt); every other job ran once.
    const again = [...runs].filter(([, n]) => n > 1).map(([key]) => key);
    expect(again.length).toBe(1);
    expect([...runs.values()].reduce((a, b) => a + b, 0)).toBe(13);
  });

  it('gives back claims whose answer a fault lost (claimed by this worker, never received) at its next run', async () => {
    const db = ctx.database.db;
    const clock = createClock();
    const now = new Date();
    for (let i = 0; i < 3; i++) await enqueue(db, { kind: 'k', key: `lost-${i}`, runAt: now });
    // The claim committed but its rows never reached the worker.
    expect(await claimDue(db, { now, worker: 'replica-1#lost', limit: 3, leaseMs: 5 * 60_000 })).toHaveLength(3);
    const seen: string[] = [];
    const report = await runDueJobs({ db, clock, handlers: { k: (job) => (seen.push(job.key), Promise.resolve()) }, worker: 'replica-1#lost', state: createWorkerState() });
    expect(report.ran).toBe(3);
    expect(seen.sort()).toEqual(['lost-0', 'lost-1', 'lost-2']);
    expect((await rows()).every((r) => r.status === 'done' && r.attempts === 1)).toBe(true);
  });

  it('never gives back a job another worker holds', async () => {
    const db = ctx.database.db;
    const now = new Date();
    await enqueue(db, { kind: 'k', key: 'theirs', runAt: now });
    await claimDue(db, { now, worker: 'replica-2#xyz', limit: 1, leaseMs: 5 * 60_000 });
    const seen: string[] = [];
    await runDueJobs({ db, clock: createClock(), handlers: { k: (job) => (seen.push(job.key), Promise.resolve()) }, worker: 'replica-1#abc', state: createWorkerState() });
    expect(seen).toEqual([]);
    expect((await rows())[0]).toMatchObject({ status: 'running', lockedBy: 'replica-2#xyz' });
  });

  it('the billing run says what is still pending', async () => {
    const db = ctx.database.db;
    const now = new Date();
    await enqueue(db, { kind: 'charge-month', key: 'held-elsewhere', runAt: now, payload: { subscriptionId: 1, month: 2 } });
    await claimDue(db, { now, worker: 'replica-2#xyz', limit: 1, leaseMs: 5 * 60_000 });
    const res = await ctx.call('POST', '/admin/billing/run', { token: TEST_ADMIN_TOKEN });
    expect(res.status).toBe(200);
    expect(res.body.data.pending).toEqual({ running: 1, due: 0, retrying: 0 });
    await db.update(jobs).set({ status: 'done' }).where(eq(jobs.key, 'held-elsewhere'));
  });

  it('the loop runs again soon after a run a fault stopped, not a whole interval later', async () => {
    const starts: number[] = [];
    const loop = startJobLoop({
      intervalMs: 400,
      retryMs: 20,
      run: () => (starts.push(performance.now()), starts.length === 1 ? Promise.reject(connectionLost()) : Promise.resolve()),
    });
    try {
      await expect.poll(() => starts.length, { timeout: 3000 }).toBe(3);
      expect(starts[1] - starts[0]).toBeLessThan(250); // 20 ms after the failed run
      expect(starts[2] - starts[1]).toBeGreaterThanOrEqual(380); // then the ordinary interval again
    } finally {
      await loop.stop();
    }
  });

  it('a billing run the database breaks answers 503, not done', async () => {
    const broken = { on: true };
    const app = createApp({ db: faulty(ctx.database.db, broken), config: testConfig() });
    const res = await app.request('/admin/billing/run', { method: 'POST', headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
    expect503(res, await res.json());
  });
});

/** A TCP relay to the real server that can stop passing bytes (a frozen PostgreSQL) and pass them again. */
async function freezableRelay(target: URL) {
  let frozen = false;
  const held: (() => void)[] = [];
  const pairs = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    for (const s of [client, upstream]) {
      pairs.add(s);
      s.on('error', () => {});
      s.on('close', () => (pairs.delete(s), client.destroy(), upstream.destroy()));
    }
    const pass = (from: net.Socket, to: net.Socket) =>
      from.on('data', (chunk) => (frozen ? held.push(() => to.write(chunk)) : to.write(chunk)));
    pass(client, upstream);
    pass(upstream, client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(target);
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as net.AddressInfo).port);
  return {
    url: url.toString(),
    freeze: () => void (frozen = true),
    thaw: () => {
      frozen = false;
      for (const write of held.splice(0)) write();
    },
    close: async () => {
      for (const s of pairs) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe.runIf(process.env.TEST_DB === 'postgres')('a real PostgreSQL frozen and thawed (a relay stops passing bytes)', () => {
  it('answers 503 within the timeouts while frozen, and the pool heals by itself once it answers', async () => {
    const stored = await persistentDatabase();
    const relay = await freezableRelay(new URL(stored.env.DATABASE_URL));
    const database = await openDatabase({ url: relay.url, timeouts: { connectMs: 500, statementMs: 300 } });
    try {
      const app = appOn(database.db);
      expect((await app.request('/services/faqs')).status).toBe(200);
      relay.freeze();
      const answers = await Promise.all(Array.from({ length: 12 }, () => timed(() => app.request('/services/faqs'))));
      for (const { value, ms } of answers) {
        expect(value.status).toBe(503);
        expect(ms).toBeLessThan(3000);
      }
      expect((await app.request('/health/ready')).status).toBe(503);
      relay.thaw();
      expect((await app.request('/services/faqs')).status).toBe(200);
      expect((await app.request('/health/ready')).status).toBe(200);
    } finally {
      await database.close();
      await relay.close();
      await stored.drop();
    }
  });
});
