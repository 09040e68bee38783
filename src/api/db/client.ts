import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { lockDataDir } from './lock';
import * as schema from './schema';

export type Schema = typeof schema;
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

const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

/**
 * Opens PostgreSQL when a URL is given, else PGlite under `dataDir` (or in memory when
 * dataDir is 'memory://'), and applies the committed migrations.
 */
export async function openDatabase(opts: { url?: string; dataDir?: string }): Promise<Database> {
  if (opts.url) {
    // Sessions in UTC, set at connection start (no query racing the first one): the API speaks
    // YYYY-MM-DD and ISO instants, never local-time Date objects.
    const pool = new pg.Pool({ connectionString: opts.url, max: 10, options: '-c TimeZone=UTC' });
    // A connection the server drops (restart, failover, a forced drop while the pool closes) must
    // not crash the process: the query that used it fails, and the pool opens a new one.
    const ignore = () => {};
    pool.on('error', ignore);
    pool.on('connect', (client) => void client.on('error', ignore));
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    await migratePg(db as never, { migrationsFolder });
    return { db, kind: 'postgres', close: () => pool.end() };
  }
  const dir = opts.dataDir ?? 'memory://';
  const inMemory = dir.startsWith('memory://');
  if (!inMemory) mkdirSync(dir, { recursive: true });
  // One process at a time on a folder (src/api/db/lock.ts): a second one is refused, not silently lost.
  const release = inMemory ? () => {} : lockDataDir(dir);
  try {
    const client = await PGlite.create(dir);
    const db = drizzlePglite(client, { schema }) as unknown as Db;
    await migratePglite(db as never, { migrationsFolder });
    return { db, kind: 'pglite', close: () => client.close().finally(release) };
  } catch (err) {
    release();
    throw err;
  }
}
