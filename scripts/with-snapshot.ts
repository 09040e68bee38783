import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDatabase } from '../src/api/db/client';
import { seedDatabase } from '../src/api/seed/seed';
import { catalogueSnapshot } from '../src/api/catalogue/snapshot';
import { buildSettings } from '../src/host/publish/stamp';
import { DEFAULT_SNAPSHOT, writeBuildSnapshot } from '../src/integrations/build-snapshot';

/**
 * `tsx scripts/with-snapshot.ts <command…>` (npm run build, npm run check): writes the build
 * snapshot of the seed catalogue (an in-memory database, SEED_CARS cars, default 64) to
 * DEFAULT_SNAPSHOT, where astro.config.mjs's storefront integration reads it without a server,
 * then runs the command. The command reads its settings (SITE_URL, PUBLIC_*) from its own environment.
 */
const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error('usage: tsx scripts/with-snapshot.ts <command> [args…]');
  process.exit(2);
}
const root = fileURLToPath(new URL('..', import.meta.url));
const database = await openDatabase({ dataDir: 'memory://' });
try {
  await seedDatabase(database.db, { cars: Number(process.env.SEED_CARS ?? 64) });
  const settings = buildSettings(process.env, { SITE_URL: process.env.SITE_URL }).env;
  await writeBuildSnapshot(path.join(root, DEFAULT_SNAPSHOT), { catalogue: await catalogueSnapshot(database.db), settings });
} finally {
  await database.close();
}
const child = spawn(command, args, { stdio: 'inherit' });
child.on('exit', (code) => process.exit(code ?? 1));
