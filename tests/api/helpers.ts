import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createApp } from '../../src/server/app';
import { openDatabase, type Database } from '../../src/server/db/client';
import { testConfig, type Config } from '../../src/server/env';

export interface TestContext {
  app: ReturnType<typeof createApp>;
  database: Database;
  config: Config;
  /** Calls the app in process; `json` bodies are serialised, `token` becomes a bearer header. */
  call: (method: string, path: string, opts?: { json?: unknown; body?: string; token?: string; headers?: Record<string, string> }) => Promise<{ status: number; body: any }>;
  close: () => Promise<void>;
}

/**
 * A fresh database per test file: in-memory PGlite, or a new PostgreSQL database on the
 * TEST_DATABASE_URL server when the suite runs as `api-pg`.
 */
export async function createTestContext(overrides: Partial<Config> = {}): Promise<TestContext> {
  let database: Database;
  let dropDatabase = async () => {};
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
    dropDatabase = async () => {
      const c = new pg.Client({ connectionString: url.toString() });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    };
  } else {
    database = await openDatabase({ dataDir: 'memory://' });
  }
  const config = testConfig(overrides);
  const app = createApp({ db: database.db, config });
  const call: TestContext['call'] = async (method, path, opts = {}) => {
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    let body = opts.body;
    if (opts.json !== undefined) {
      body = JSON.stringify(opts.json);
      headers['content-type'] = 'application/json';
    }
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    const res = await app.request(path, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      /* non-JSON bodies are returned as text */
    }
    return { status: res.status, body: parsed };
  };
  return {
    app,
    database,
    config,
    call,
    close: async () => {
      await database.close();
      await dropDatabase();
    },
  };
}
