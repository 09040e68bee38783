import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * A throwaway database on the PostgreSQL `server` (a URL to any of its databases) for `work`,
 * dropped WITH (FORCE) afterwards whatever `work` did: the benches' PostgreSQL runs.
 */
export async function withScratchDatabase<T>(server: string, work: (url: string) => Promise<T>, prefix = 'bench'): Promise<T> {
  const name = `${prefix}_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(server);
    url.pathname = `/${name}`;
    try {
      return await work(url.toString());
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    }
  } finally {
    await admin.end();
  }
}
