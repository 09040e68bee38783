import { rmSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../src/api/db/client';
import { lockDataDir } from '../src/api/db/lock';
import { isEmpty, seedDatabase } from '../src/api/seed/seed';
import { loadConfig } from '../src/api/env';

/** npm run seed -- [--cars N] [--reset]: fills the configured database (DATA_DIR or DATABASE_URL). */
const { values } = parseArgs({ options: { cars: { type: 'string', default: '64' }, reset: { type: 'boolean', default: false } } });
const count = Number(values.cars);
if (!Number.isInteger(count) || count < 1 || count > 100_000) {
  console.error('--cars must be a whole number from 1 to 100000');
  process.exit(2);
}
const config = loadConfig();
const dataDir = path.join(path.resolve(config.dataDir), 'pglite');
// Never delete the folder under a running server (src/api/db/lock.ts): its lock is checked first.
if (values.reset && !config.databaseUrl) {
  lockDataDir(dataDir)();
  rmSync(dataDir, { recursive: true, force: true });
}
// No statement limit: a large catalogue is inserted in big statements.
const database = await openDatabase({ url: config.databaseUrl, dataDir, timeouts: { statementMs: 0 } });
if (values.reset && config.databaseUrl) {
  await database.db.execute(sql`DO $$ DECLARE r record; BEGIN FOR r IN SELECT tablename FROM pg_tables WHERE schemaname = 'public' LOOP EXECUTE 'TRUNCATE TABLE ' || quote_ident(r.tablename) || ' RESTART IDENTITY CASCADE'; END LOOP; END $$`);
}
if (!(await isEmpty(database.db))) {
  console.error('The database already has a catalogue. Pass --reset to replace it.');
  await database.close();
  process.exit(1);
}
const started = Date.now();
const result = await seedDatabase(database.db, { cars: count, locationOfficer: config.locationOfficer });
console.log(`Seeded ${result.cars} cars and ${result.butlerCars} butler cars in ${Date.now() - started} ms.`);
await database.close();
