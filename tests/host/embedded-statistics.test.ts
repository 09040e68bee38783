import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../src/api/db/client';
import { seedDatabase } from '../../src/api/seed/seed';

const reltuples = async (db: Db, table: string) => {
  const [row] = await db.select({ reltuples: sql<number>`reltuples` }).from(sql`pg_class`).where(sql`relname = ${table} AND relnamespace = 'public'::regnamespace`);
  return Number(row.reltuples);
};

describe('the embedded database’s planner statistics (PGlite runs no autovacuum)', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'luxe-stats-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a table filled and never analyzed is analyzed when the database opens again; an empty one is left alone', async () => {
    const first = await openDatabase({ dataDir: dir });
    expect(await reltuples(first.db, 'cars')).toBeLessThan(0);
    await seedDatabase(first.db, { cars: 40 });
    // Written since it opened: no statistics yet, the planner would guess.
    expect(await reltuples(first.db, 'cars')).toBeLessThan(0);
    await first.close();

    const again = await openDatabase({ dataDir: dir });
    try {
      expect(await reltuples(again.db, 'cars')).toBeGreaterThanOrEqual(40);
      // A table nothing wrote to keeps no statistics (nothing to analyze).
      expect(await reltuples(again.db, 'tax_invoices')).toBeLessThan(0);
    } finally {
      await again.close();
    }
  });
});
