import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg, NodePgSession, NodePgTransaction } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { lockDataDir } from './lock';
import { isConnectionFault, markDatabaseError } from './errors';
import { currentAnswerBudget, refusalIfUnanswered } from './answer-budget';
import * as schema from './schema';
import { traceQueries } from '../observability/tracing';
import { analyzeUnanalyzed } from './embedded-statistics';

type Schema = typeof schema;
/** One type for both drivers: the app never knows which database it runs on. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

/** Runs `work` in one transaction; both drivers' transactions speak the same query builder, so the type is written once, here. */
export async function inTransaction<T>(db: Db, work: (tx: Db) => Promise<T>): Promise<T> {
  return db.transaction((t) => work(t as unknown as Db));
}

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

/** How long PostgreSQL may take before a request gives up (DB_CONNECT_TIMEOUT_MS, DB_STATEMENT_TIMEOUT_MS). */
export interface DbTimeouts {
  /** Opening a connection, or waiting for a free one of the pool; 0 = wait forever. */
  connectMs: number;
  /** One statement: the server cancels it after this long (statement_timeout), and the client drops the connection 1 s later if the server does not answer at all (a frozen server); 0 = no limit. */
  statementMs: number;
}

const DEFAULT_DB_TIMEOUTS: DbTimeouts = { connectMs: 3_000, statementMs: 5_000 };

const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

/** The client gives the server this long beyond statement_timeout to answer with its own cancellation. */
const READ_GRACE_MS = 1_000;

/**
 * A pool client that drops its connection when a statement's answer does not come in time. pg's
 * `query_timeout` only fails the query: the connection still waits for the server's answer, so
 * a transaction's ROLLBACK, and whoever gets that client from the pool next, would queue behind it
 * for as long as the server is frozen. A dropped connection is not queryable and the pool
 * discards it on release; the server rolls its transaction back when it sees the socket closed.
 */
class TimedClient extends pg.Client {
  override query(...args: unknown[]): never {
    const last = args.length - 1;
    const callback = args[last];
    // A request that already met a frozen server sends nothing more (src/api/db/answer-budget.ts).
    const refused = refusalIfUnanswered();
    if (refused) {
      if (typeof callback === 'function') return void process.nextTick(() => (callback as (e: unknown) => void)(refused)) as never;
      return Promise.reject(refused) as never;
    }
    const budget = currentAnswerBudget();
    const drop = (err: unknown) => {
      if ((err as Error | undefined)?.message !== 'Query read timeout') return;
      if (budget) budget.unanswered = true;
      const self = this as unknown as { _queryable: boolean; connection?: { stream?: { destroy(): void } } };
      self._queryable = false;
      self.connection?.stream?.destroy();
    };
    if (typeof callback === 'function') {
      args[last] = (err: unknown, res: unknown) => {
        drop(err);
        (callback as (e: unknown, r: unknown) => void)(err, res);
      };
      return (super.query as (...a: unknown[]) => never)(...args);
    }
    const result = (super.query as (...a: unknown[]) => unknown)(...args);
    if (result && typeof (result as Promise<unknown>).then === 'function') {
      return (result as Promise<unknown>).catch((err: unknown) => {
        drop(err);
        throw err;
      }) as never;
    }
    return result as never;
  }
}

/** A pool that gives no connection to a request that already met a frozen server: it would wait DB_CONNECT_TIMEOUT_MS for nothing. */
class BudgetedPool extends pg.Pool {
  override connect(...args: unknown[]): never {
    const refused = refusalIfUnanswered();
    const callback = args[0];
    if (!refused) return (super.connect as (...a: unknown[]) => never)(...args);
    if (typeof callback === 'function') return void process.nextTick(() => (callback as (e: unknown) => void)(refused)) as never;
    return Promise.reject(refused) as never;
  }
}

/**
 * The PostgreSQL pool of openDatabase, without migrations: bounded connects and statements,
 * connections a fault broke replaced by new ones as they are needed.
 */
export function connectPostgres(url: string, timeouts: Partial<DbTimeouts> = {}): { db: Db; pool: pg.Pool; close: () => Promise<void> } {
  const { connectMs, statementMs } = { ...DEFAULT_DB_TIMEOUTS, ...timeouts };
  // Sessions in UTC, set at connection start (no query racing the first one): the API speaks
  // YYYY-MM-DD and ISO instants, never local-time Date objects.
  const pool = new BudgetedPool({
    connectionString: url,
    max: 10,
    Client: TimedClient,
    connectionTimeoutMillis: connectMs,
    query_timeout: statementMs ? statementMs + READ_GRACE_MS : undefined,
    keepAlive: true,
    options: `-c TimeZone=UTC${statementMs ? ` -c statement_timeout=${statementMs}` : ''}`,
  });
  // A connection the server drops (restart, failover, a forced drop while the pool closes) must
  // not crash the process: the query that used it fails, and the pool opens a new one.
  const ignore = () => {};
  pool.on('error', ignore);
  pool.on('connect', (client) => void traceQueries(client.on('error', ignore), 'postgresql'));
  const db = drizzlePg(traceQueries(pool, 'postgresql'), { schema });
  guardTransactions((db as unknown as { session: DrizzleSession }).session, pool);
  return { db, pool, close: () => pool.end() };
}

/**
 * drizzle's node-postgres transaction sends BEGIN before its try: a BEGIN that fails (the server
 * restarting, a frozen connection given up on) never gives its client back, and after ten such
 * faults the pool has no client left, ever. This one gives the client back in every case, and
 * discards it (release with the error) when the connection itself failed; a failed ROLLBACK does
 * not hide the error that caused it.
 */
interface DrizzleSession {
  dialect: never;
  schema: never;
  options: never;
  transaction: (work: (tx: unknown) => Promise<unknown>, config?: unknown) => Promise<unknown>;
}

function guardTransactions(session: DrizzleSession, pool: pg.Pool) {
  const { dialect, schema: relations, options } = session;
  session.transaction = async (work, config) => {
    const client = await pool.connect().catch((err: unknown) => {
      throw markDatabaseError(err);
    });
    const inner = new NodePgSession(client, dialect, relations, options);
    const tx = new NodePgTransaction(dialect, inner, relations) as unknown as { execute: (q: unknown) => Promise<unknown>; getTransactionConfigSQL: (c: unknown) => never };
    let failure: unknown;
    try {
      await tx.execute(sql`begin${config ? sql` ${tx.getTransactionConfigSQL(config)}` : undefined}`);
      try {
        const result = await work(tx);
        await tx.execute(sql`commit`);
        return result;
      } catch (err) {
        await tx.execute(sql`rollback`).catch(() => {});
        throw err;
      }
    } catch (err) {
      failure = err;
      throw err;
    } finally {
      client.release(isConnectionFault(failure) ? (failure as Error) : undefined);
    }
  };
}

/**
 * Opens PostgreSQL when a URL is given, else PGlite under `dataDir` (or in memory when
 * dataDir is 'memory://'), and applies the committed migrations. On PostgreSQL every statement
 * and every wait for a connection is bounded by `timeouts` (a stopped or frozen server fails
 * requests in seconds instead of holding them: the API answers 503), and the pool replaces the
 * connections a fault broke by itself. `loadDataDir` starts an in-memory PGlite from a dump
 * (PGlite's dumpDataDir) instead of an empty cluster: the tests' migrated template.
 */
export async function openDatabase(opts: { url?: string; dataDir?: string; timeouts?: Partial<DbTimeouts>; loadDataDir?: Blob }): Promise<Database> {
  if (opts.url) {
    const { connectMs, statementMs } = { ...DEFAULT_DB_TIMEOUTS, ...opts.timeouts };
    // Migrations first, on a connection of their own without a statement limit (an index on a big table may take longer).
    const migrator = new pg.Client({ connectionString: opts.url, connectionTimeoutMillis: connectMs, options: '-c TimeZone=UTC' });
    migrator.on('error', () => {});
    await migrator.connect();
    try {
      await migratePg(drizzlePg(migrator, { schema }) as never, { migrationsFolder });
    } finally {
      await migrator.end().catch(() => {});
    }
    const { db, close } = connectPostgres(opts.url, { connectMs, statementMs });
    return { db, kind: 'postgres', close };
  }
  const dir = opts.dataDir ?? 'memory://';
  const inMemory = dir.startsWith('memory://');
  if (!inMemory) mkdirSync(dir, { recursive: true });
  // One process at a time on a folder (src/api/db/lock.ts): a second one is refused, not silently lost.
  const release = inMemory ? () => {} : lockDataDir(dir);
  try {
    const client = traceQueries(await PGlite.create(dir, opts.loadDataDir ? { loadDataDir: opts.loadDataDir } : {}), 'postgresql');
    const db = drizzlePglite(client, { schema }) as unknown as Db;
    await migratePglite(db as never, { migrationsFolder });
    await analyzeUnanalyzed(client);
    return { db, kind: 'pglite', close: () => client.close().finally(release) };
  } catch (err) {
    release();
    throw err;
  }
}
