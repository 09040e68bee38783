import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Car } from '../../src/domain/car';
import { readForBuild, readForEdit } from '../../src/api/catalogue/snapshot';
import { seedDatabase } from '../../src/api/seed/seed';
import { createTestContext, type TestContext } from '../api/helpers';

/**
 * What a publish reads of the catalogue (src/api/catalogue/snapshot.ts), without building: an
 * edit's read is one transaction, one client, so its queries go one after another (on
 * PostgreSQL, tests/api/pg-one-query-at-a-time.ts fails the test otherwise).
 */
describe('what a publish reads of the catalogue', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
    await seedDatabase(t.database.db, { cars: 6 });
  });
  afterAll(() => t.close());

  it('an edit reads in its transaction what a full build reads: the row versions, the models digest, the rest and the cars it picks', async () => {
    const { db } = t.database;
    const full = await readForBuild(db);
    const cars: Car[] = [];
    for await (const chunk of full.cars()) cars.push(...chunk);
    const picked = cars.slice(1, 3).map((c) => c.id);
    const seen: unknown[] = [];
    const edit = await readForEdit(db, (versions, models) => (seen.push(versions, models), picked));
    expect(seen).toEqual([full.versions, full.models]);
    expect(edit).toEqual({ versions: full.versions, models: full.models, data: { rest: full.rest, cars: cars.slice(1, 3) } });
    // A full build follows: nothing more is read.
    expect(await readForEdit(db, () => null)).toEqual({ versions: full.versions, models: full.models, data: null });
  });
});
