import { spawn } from 'node:child_process';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { createApp } from '../src/api/app';
import { openDatabase } from '../src/api/db/client';
import { seedDatabase } from '../src/api/db/seed';
import { testConfig } from '../src/api/env';

/**
 * `tsx scripts/with-api.ts <command…>`: runs a command (astro check, astro build) against a
 * throwaway in-memory API filled with the seed catalogue, with API_BASE_URL pointing at it.
 */
const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error('usage: tsx scripts/with-api.ts <command> [args…]');
  process.exit(2);
}
const database = await openDatabase({ dataDir: 'memory://' });
await seedDatabase(database.db, { cars: Number(process.env.SEED_CARS ?? 64) });
const root = new Hono().route('/api', createApp({ db: database.db, config: testConfig() }));
const server = serve({ fetch: root.fetch, port: 0, hostname: '127.0.0.1' });
await new Promise((r) => server.once('listening', r));
const { port } = server.address() as { port: number };
const child = spawn(command, args, { stdio: 'inherit', env: { ...process.env, API_BASE_URL: `http://127.0.0.1:${port}/api` } });
child.on('exit', async (code) => {
  server.close();
  await database.close();
  process.exit(code ?? 1);
});
