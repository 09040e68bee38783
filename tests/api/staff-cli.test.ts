import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/api/db/client';
import { insertUser } from '../../src/api/seed/factories';
import { DatabaseInUseError } from '../../src/api/db/lock';
import { users } from '../../src/api/db/schema';

/**
 * `npm run staff -- add EMAIL` beside a running `npm start` on the embedded database once printed
 * "is now staff" and changed nothing (the server's PGlite overwrote it). The folder is now held by
 * whoever opened it: the script refuses, says to stop the server, and works once it has stopped.
 */
const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');
const dataDir = mkdtempSync(path.join(tmpdir(), 'luxe-staff-cli-'));
const pgliteDir = path.join(dataDir, 'pglite');
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** The staff script as `npm run staff` runs it, on this data folder; its exit code and output. */
async function staff(...args: string[]) {
  const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', NODE_ENV: 'development' };
  try {
    const { stdout, stderr } = await run(path.join(root, 'node_modules/.bin/tsx'), [path.join(root, 'scripts/staff.ts'), ...args], { cwd: root, env, timeout: 60_000 });
    return { code: 0, out: stdout + stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: e.stdout + e.stderr };
  }
}

describe('npm run staff on the embedded database', () => {
  it('refuses while another process holds the folder, changing nothing; works once it is closed', async () => {
    // This test process stands for the running server.
    const server = await openDatabase({ dataDir: pgliteDir });
    const user = await insertUser(server.db, { email: 'staff-cli@luxe.test' });
    expect(existsSync(`${pgliteDir}.lock`)).toBe(true);

    const refused = await staff('add', 'staff-cli@luxe.test');
    expect(refused.code).toBe(1);
    expect(refused.out).toMatch(/Nothing changed/);
    expect(refused.out).toMatch(/Stop the server first/);
    expect(refused.out).not.toMatch(/is now staff/);
    expect((await server.db.select().from(users).where(eq(users.id, user.id)))[0].role).toBe('user');
    // A second opener in this process is refused too.
    await expect(openDatabase({ dataDir: pgliteDir })).rejects.toBeInstanceOf(DatabaseInUseError);
    await server.close();
    expect(existsSync(`${pgliteDir}.lock`)).toBe(false);

    const added = await staff('add', 'staff-cli@luxe.test');
    expect(added).toMatchObject({ code: 0 });
    expect(added.out).toMatch(/staff-cli@luxe.test is now staff/);
    const after = await openDatabase({ dataDir: pgliteDir });
    expect((await after.db.select().from(users).where(eq(users.id, user.id)))[0].role).toBe('staff');
    await after.close();
  }, 120_000);

  it('takes over a lock left by a process that is gone (kill -9)', async () => {
    const { writeFileSync } = await import('node:fs');
    const { hostname } = await import('node:os');
    writeFileSync(`${pgliteDir}.lock`, JSON.stringify({ pid: 2 ** 22 + 7, host: hostname(), since: '2026-01-01T00:00:00Z' }));
    const listed = await staff('list');
    expect(listed.code).toBe(0);
    expect(listed.out).toMatch(/staff-cli@luxe.test/);
  }, 120_000);
});
