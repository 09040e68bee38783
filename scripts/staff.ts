import path from 'node:path';
import { openDatabase } from '../src/api/db/client';
import { DatabaseInUseError } from '../src/api/db/lock';
import { loadConfig } from '../src/api/env';
import { listStaff, setStaffRole } from '../src/api/accounts/staff';

/**
 * npm run staff -- add EMAIL | remove EMAIL | list: who may use the console at /admin, on the
 * configured database (DATABASE_URL, else the PGlite folder under DATA_DIR). The account must
 * exist (sign up first). On PGlite only one process may open the folder: while `npm start` runs on
 * it this refuses (exit 1) and says to stop the server first; on PostgreSQL it works beside servers.
 */
const [command, email] = process.argv.slice(2);
const usage = 'usage: npm run staff -- add EMAIL | remove EMAIL | list';
if (!['add', 'remove', 'list'].includes(command ?? '') || (command !== 'list' && !email)) {
  console.error(usage);
  process.exit(2);
}
const config = loadConfig();
// On the embedded database a running server holds the folder: refused with what to do (src/api/db/lock.ts).
const database = await openDatabase({ url: config.databaseUrl, dataDir: path.join(path.resolve(config.dataDir), 'pglite') }).catch((err: unknown) => {
  if (!(err instanceof DatabaseInUseError)) throw err;
  console.error(`Nothing changed. ${err.message}`);
  process.exit(1);
});
let code = 0;
try {
  if (command === 'list') {
    const staff = await listStaff(database.db);
    if (!staff.length) console.log('No staff accounts.');
    for (const s of staff) console.log(`${s.id}\t${s.email ?? '-'}\t${s.name ?? ''}`);
  } else {
    const member = await setStaffRole(database.db, email, command === 'add');
    if (!member) {
      console.error(`No account with the email ${email}. Sign up first, then run this again.`);
      code = 1;
    } else console.log(`${member.email} is ${command === 'add' ? 'now staff' : 'no longer staff'}.`);
  }
} finally {
  await database.close();
}
process.exit(code);
