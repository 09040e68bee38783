import { and, asc, desc, eq, inArray, isNotNull, isNull, lte, notInArray, or, sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FEATURED_BRAND_SLUGS, FEE_TERMS, GARAGE_PAGE_SIZE, OTHERS_SLUG, type FeeTerm } from '../../src/domain/car';
import { GarageQuerySchema, type GarageQuery } from '../../src/domain/schemas/catalogue';
import type { GaragePage, HomeCarsAnswer } from '../../src/domain/catalogue';
import { allCars, bumpCatalogueVersion, garageJson, homeCarsJson } from '../../src/api/catalogue/catalogue';
import { carJson, garageIndex, garagePositions, patchGarageIndex, type IndexRow } from '../../src/api/catalogue/garage-index';
import type { Car } from '../../src/domain/car';
import { insertCar, insertModel, upsertBrand } from '../../src/api/seed/factories';
import { brands, cars, models } from '../../src/api/db/schema';
import { createTestContext, type TestContext } from './helpers';

/**
 * The garage answers from an in-memory index of live cars (catalogue/garage-index.ts). Its rules
 * must be the SQL's: this test keeps the SQL the index replaced as an oracle and asks both the
 * same random queries on a random catalogue with nulls, ties, archived cars and other brands.
 */
let ctx: TestContext;
const TODAY = '2026-06-15';

// A small deterministic generator, so a failure repeats.
let seed = 20261125;
const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)];
const maybe = <T>(value: T, p = 0.3) => (rand() < p ? null : value);
const day = () => `2026-${String(1 + Math.floor(rand() * 12)).padStart(2, '0')}-${String(1 + Math.floor(rand() * 28)).padStart(2, '0')}`;

beforeAll(async () => {
  ctx = await createTestContext();
  const { db } = ctx.database;
  const brandSlugs = [...FEATURED_BRAND_SLUGS, 'bentley', 'maserati'];
  const modelIds: number[] = [];
  for (const [i, slug] of brandSlugs.entries()) {
    const brand = await upsertBrand(db, { name: slug, slug, sortOrder: i });
    for (const name of ['A', 'B']) modelIds.push((await insertModel(db, { brandId: brand.id, name: `${slug}-${name}` })).id);
  }
  for (let i = 0; i < 160; i++) {
    const fees = Object.fromEntries(FEE_TERMS.map((t) => [`subscription_fee_${t}`, rand() < 0.5 ? pick([900_000, 1_200_000, 1_500_000, 2_000_000]) : null]));
    await insertCar(db, pick(modelIds), {
      fees,
      mileage: maybe(pick([0, 1200, 5000, 5000, 30_000])),
      releaseDate: maybe(day()),
      subscriptionAvailableFrom: maybe(day()),
      isSubscriptable: rand() < 0.8,
      isNew: rand() < 0.3,
      isHot: rand() < 0.3,
      archivedAt: rand() < 0.1 ? new Date() : null,
    });
  }
  await bumpCatalogueVersion(db);
});
afterAll(() => ctx.close());

/** The garage and home as the API writes them (JSON text put together per request). */
const garage = async (db: TestContext['database']['db'], q: GarageQuery, today: string) => JSON.parse(Buffer.concat(await garageJson(db, q, today, new Date(`${today}T12:00:00+09:00`))).toString()) as GaragePage;
const homeCars = async (db: TestContext['database']['db']) => JSON.parse((await homeCarsJson(db)).toString()) as HomeCarsAnswer;

const sortColumn = { subscription_fee_minimum: cars.subscriptionFeeMinimum, mileage: cars.mileage, release_date: cars.releaseDate, subscription_available_from: cars.subscriptionAvailableFrom } as const;

/** The garage's SQL before the index: ids of the page and the total. */
async function oracle(q: GarageQuery): Promise<{ ids: number[]; total: number }> {
  const where: SQL[] = [isNull(cars.archivedAt)];
  if (q.available_only) where.push(eq(cars.isSubscriptable, true), or(isNull(cars.subscriptionAvailableFrom), lte(cars.subscriptionAvailableFrom, TODAY))!);
  if (q.brand.length) {
    const slugs = q.brand.filter((b) => b !== OTHERS_SLUG);
    const conds: SQL[] = [];
    if (slugs.length) conds.push(inArray(brands.slug, slugs));
    if (q.brand.includes(OTHERS_SLUG)) conds.push(notInArray(brands.slug, [...FEATURED_BRAND_SLUGS]));
    where.push(or(...conds)!);
  }
  if (q.model.length) where.push(inArray(models.id, q.model));
  if (q.month.length) where.push(or(...(q.month as FeeTerm[]).map((m) => isNotNull(cars[`fee${m}`])))!);
  const order: SQL[] = q.sort ? [sql`${sortColumn[q.sort]} ${sql.raw(q.order)} nulls last`] : [desc(cars.isHot), desc(cars.isNew)];
  const rows = await ctx.database.db
    .select({ id: cars.id })
    .from(cars)
    .innerJoin(models, eq(cars.modelId, models.id))
    .innerJoin(brands, eq(models.brandId, brands.id))
    .where(and(...where))
    .orderBy(...order, asc(cars.id));
  const ids = rows.map((r) => r.id);
  return { ids: ids.slice((q.page - 1) * GARAGE_PAGE_SIZE, q.page * GARAGE_PAGE_SIZE), total: ids.length };
}

function randomQuery(modelIds: number[]): GarageQuery {
  const raw: Record<string, unknown> = {};
  if (rand() < 0.4) raw.available_only = 'true';
  if (rand() < 0.5) raw.brand = Array.from({ length: 1 + Math.floor(rand() * 2) }, () => pick([...FEATURED_BRAND_SLUGS, OTHERS_SLUG, 'bentley']));
  if (rand() < 0.2) raw.model = [String(pick(modelIds))];
  if (rand() < 0.4) raw.month = Array.from({ length: 1 + Math.floor(rand() * 2) }, () => String(pick(FEE_TERMS)));
  if (rand() < 0.7) raw.sort = pick(Object.keys(sortColumn));
  if (rand() < 0.5) raw.order = pick(['asc', 'desc']);
  raw.page = String(1 + Math.floor(rand() * 4));
  return GarageQuerySchema.parse(raw);
}

describe('the in-memory garage', () => {
  it('answers 400 random filter, sort and page combinations exactly as the SQL it replaced', async () => {
    const modelIds = (await ctx.database.db.select({ id: models.id }).from(models)).map((m) => m.id);
    for (let i = 0; i < 400; i++) {
      const q = randomQuery(modelIds);
      const got = await garage(ctx.database.db, q, TODAY);
      const want = await oracle(q);
      expect({ q, ids: got.cars.map((c) => c.id), total: got.pagination_info.count }).toEqual({ q, ...want });
    }
  });

  it('home cars: new ones by release day newest first (no day first, as PostgreSQL sorts DESC), hot ones by id', async () => {
    const { db } = ctx.database;
    const live = isNull(cars.archivedAt);
    const fresh = await db.select({ id: cars.id }).from(cars).where(and(live, eq(cars.isNew, true))).orderBy(desc(cars.releaseDate), asc(cars.id)).limit(12);
    const hot = await db.select({ id: cars.id }).from(cars).where(and(live, eq(cars.isHot, true))).orderBy(asc(cars.id)).limit(8);
    const got = await homeCars(db);
    expect({ fresh: got.new_cars.map((c) => c.id), hot: got.hot_cars.map((c) => c.id) }).toEqual({ fresh: fresh.map((r) => r.id), hot: hot.map((r) => r.id) });
  });

  it('sees a catalogue write on the next read (the index is per catalogue version)', async () => {
    const { db } = ctx.database;
    const q = GarageQuerySchema.parse({ sort: 'mileage', order: 'asc' });
    const before = await garage(db, q, TODAY);
    const [model] = await db.select({ id: models.id }).from(models).limit(1);
    const added = await insertCar(db, model.id, { mileage: -1 });
    await bumpCatalogueVersion(db);
    const after = await garage(db, q, TODAY);
    expect(after.cars[0].id).toBe(added.id);
    expect(after.pagination_info.count).toBe(before.pagination_info.count + 1);
  });

  it('after edits of every kind the index made from the last one still answers as the SQL: prices, terms, availability, tags, archived and new cars, a brand renamed', async () => {
    const { db } = ctx.database;
    const modelIds = (await db.select({ id: models.id }).from(models)).map((m) => m.id);
    const home = async () => {
      const live = isNull(cars.archivedAt);
      const fresh = await db.select({ id: cars.id }).from(cars).where(and(live, eq(cars.isNew, true))).orderBy(desc(cars.releaseDate), asc(cars.id)).limit(12);
      const hot = await db.select({ id: cars.id }).from(cars).where(and(live, eq(cars.isHot, true))).orderBy(asc(cars.id)).limit(8);
      return { fresh: fresh.map((r) => r.id), hot: hot.map((r) => r.id) };
    };
    for (let round = 0; round < 8; round++) {
      const ids = (await db.select({ id: cars.id }).from(cars)).map((r) => r.id);
      for (let k = 0; k < 6; k++) {
        const id = pick(ids);
        const edit = pick(['fee', 'mileage', 'release', 'available', 'tags', 'archive', 'restore', 'add'] as const);
        if (edit === 'fee') await db.update(cars).set({ fee12: maybe(pick([700_000, 2_500_000])), fee1: maybe(900_000), subscriptionFeeMinimum: pick([700_000, 900_000, 2_500_000]) }).where(eq(cars.id, id));
        if (edit === 'mileage') await db.update(cars).set({ mileage: maybe(Math.floor(rand() * 40_000)) }).where(eq(cars.id, id));
        if (edit === 'release') await db.update(cars).set({ releaseDate: maybe(day()) }).where(eq(cars.id, id));
        if (edit === 'available') await db.update(cars).set({ subscriptionAvailableFrom: maybe(day()), isSubscriptable: rand() < 0.7 }).where(eq(cars.id, id));
        if (edit === 'tags') await db.update(cars).set({ isNew: rand() < 0.5, isHot: rand() < 0.5 }).where(eq(cars.id, id));
        if (edit === 'archive') await db.update(cars).set({ archivedAt: new Date() }).where(eq(cars.id, id));
        if (edit === 'restore') await db.update(cars).set({ archivedAt: null }).where(eq(cars.id, id));
        if (edit === 'add') await insertCar(db, pick(modelIds), { mileage: maybe(1234), releaseDate: maybe(day()), isNew: rand() < 0.5, isHot: rand() < 0.5 });
      }
      // The last round renames a brand: every car's JSON shows it, so the index is made again from every car.
      if (round === 7) await db.update(brands).set({ name: 'Ferrari Renamed' }).where(eq(brands.slug, 'ferrari'));
      await bumpCatalogueVersion(db);
      for (let i = 0; i < 40; i++) {
        const q = randomQuery(modelIds);
        const got = await garage(db, q, TODAY);
        expect({ round, q, ids: got.cars.map((c) => c.id), total: got.pagination_info.count }).toEqual({ round, q, ...(await oracle(q)) });
        // Each car as the API answers it: the JSON the index keeps is the row's now.
        for (const car of got.cars) expect(car).toEqual((await ctx.call('GET', `/subscriptions/cars/${car.id}`)).body.data.car);
      }
      const got = await homeCars(db);
      expect({ round, fresh: got.new_cars.map((c) => c.id), hot: got.hot_cars.map((c) => c.id) }).toEqual({ round, ...(await home()) });
    }
    const ferrari = await garage(db, GarageQuerySchema.parse({ brand: 'ferrari' }), TODAY);
    for (const car of ferrari.cars) expect(car.model.brand.name).toBe('Ferrari Renamed');
  });

  it('an edit that keeps the same cars mends the last index (its sorted orders too) and answers as one made from every car', async () => {
    const { db } = ctx.database;
    const slugOf = new Map((await db.select().from(brands)).map((b) => [b.id, b.slug]));
    const rowOf = (car: Car, rowVersion: number): IndexRow => ({ car, brandSlug: slugOf.get(car.model.brand.id)!, rowVersion });
    const before = (await allCars(db)).map((car) => rowOf(car, 1));
    const modelIds = [...new Set(before.map((r) => r.car.model.id))];
    const last = await garageIndex(1, before, 'models');
    const queries = Array.from({ length: 80 }, () => randomQuery(modelIds));
    const lastAnswers = queries.map((q) => garagePositions(last, q, TODAY));
    expect(last.orders.size).toBeGreaterThan(1);
    for (let round = 0; round < 5; round++) {
      // Six cars edited in every field the index reads: fees and terms, mileage, days, tags, another model (and brand).
      const edited = new Map<number, IndexRow>();
      for (let k = 0; k < 6; k++) {
        const { car } = pick(before);
        const model = pick(before).car.model;
        const fees = Object.fromEntries(FEE_TERMS.map((t) => [`subscription_fee_${t}`, maybe(pick([800_000, 1_900_000]), 0.5)]));
        edited.set(car.id, rowOf({ ...car, ...fees, model, subscription_fee_minimum: maybe(pick([800_000, 1_900_000])), mileage: maybe(pick([0, 5000, 77_777])), release_date: maybe(day()), subscription_available_from: maybe(day()), is_hot: rand() < 0.5, is_new: rand() < 0.5, is_subscriptable: rand() < 0.8 }, 2 + round));
      }
      const after = before.map((r) => edited.get(r.car.id) ?? r);
      const patched = await patchGarageIndex(last, 2, new Map(after.map((r) => [r.car.id, r.rowVersion])), [...edited.values()]);
      // The orders sorted for the last index come along, mended, before any query asks for them.
      expect(patched.orders.size).toBe(last.orders.size);
      const fresh = await garageIndex(2, after, 'models');
      for (const q of [...queries, ...Array.from({ length: 40 }, () => randomQuery(modelIds))]) {
        expect({ round, q, ...garagePositions(patched, q, TODAY) }).toEqual({ round, q, ...garagePositions(fresh, q, TODAY) });
      }
      for (let i = 0; i < fresh.count; i++) expect(carJson(patched, i).toString()).toBe(carJson(fresh, i).toString());
      expect(patched.home.toString()).toBe(fresh.home.toString());
      // The last index is untouched: requests still answering from it get its answers.
      expect(queries.map((q) => garagePositions(last, q, TODAY))).toEqual(lastAnswers);
    }
  });
});
