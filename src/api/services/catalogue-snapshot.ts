import { createHash } from 'node:crypto';
import { asc, isNull, sql } from 'drizzle-orm';
import type { Car } from '../../domain/car';
import type { CatalogueSnapshot } from '../../domain/catalogue';
import { inTransaction, type Db } from '../db/client';
import { brands, cars, models } from '../db/schema';
import { allCars, butlerCarList, carsWithIds, catalogueVersion, garageList } from './catalogue';
import { faqList, policyList } from './content';

/**
 * Everything the static build pre-renders, with the catalogue version: GET /catalogue answers it
 * and the publisher writes it into each build's snapshot (src/host/publish/rebuild.ts).
 */
export async function catalogueSnapshot(db: Db): Promise<CatalogueSnapshot> {
  const [rest, list] = await Promise.all([catalogueRest(db), allCars(db)]);
  return { ...rest, cars: list };
}

/** The catalogue but its cars: a few hundred rows, read whole for every publish. */
export async function catalogueRest(db: Db): Promise<Omit<CatalogueSnapshot, 'cars'>> {
  const [version, butler_cars, garage_list, faqs, terms, privacy_policies] = await Promise.all([
    catalogueVersion(db),
    butlerCarList(db),
    garageList(db),
    faqList(db),
    policyList(db, 'terms'),
    policyList(db, 'privacy'),
  ]);
  return { version, butler_cars, garage_list, faqs, terms, privacy_policies };
}

/**
 * Each live car's row version: PostgreSQL's `xmin`, the transaction that last wrote the row, new
 * with every change of it by anyone (the console, a script, SQL by hand). A publish compares
 * them with the served build's to find the cars that changed, without reading every car.
 */
export async function carVersions(db: Db): Promise<Record<string, string>> {
  const rows = await db.select({ id: cars.id, version: sql<string>`${cars}.xmin::text` }).from(cars).where(isNull(cars.archivedAt)).orderBy(asc(cars.id));
  return Object.fromEntries(rows.map((r) => [String(r.id), r.version]));
}

/** A digest of the brands and models: their names are on every car page, so a change to them renders every car page. */
export async function modelsDigest(db: Db): Promise<string> {
  const [brandRows, modelRows] = await Promise.all([db.select().from(brands).orderBy(asc(brands.id)), db.select().from(models).orderBy(asc(models.id))]);
  return createHash('sha256').update(JSON.stringify([brandRows, modelRows])).digest('base64url').slice(0, 22);
}

export interface CatalogueRead<T> {
  /** Row versions of every live car (carVersions). */
  versions: Record<string, string>;
  models: string;
  /** The full catalogue, or what `pick` chose of it. */
  data: T;
}

/** Which cars a publish reads once it has seen the row versions: these ids, all of them, or none (null: it stops there). */
type Pick = (versions: Record<string, string>, models: string) => number[] | 'all' | null;

/**
 * One consistent read for a publish (a repeatable-read transaction): the cars' row versions, the
 * models' digest, and either the whole catalogue (`full`) or the rest of it with the cars `pick`
 * names once it has seen the versions.
 */
export async function readForPublish(db: Db, mode: { full: true }): Promise<CatalogueRead<CatalogueSnapshot>>;
export async function readForPublish(db: Db, mode: { pick: Pick }): Promise<CatalogueRead<{ rest: Omit<CatalogueSnapshot, 'cars'>; cars: Car[] } | null>>;
export async function readForPublish(db: Db, mode: { full: true } | { pick: Pick }) {
  return inTransaction(db, async (tx) => {
    await tx.execute(sql`SET TRANSACTION ISOLATION LEVEL REPEATABLE READ`);
    const [versions, digest] = await Promise.all([carVersions(tx), modelsDigest(tx)]);
    if ('full' in mode) return { versions, models: digest, data: await catalogueSnapshot(tx) };
    const ids = mode.pick(versions, digest);
    if (!ids) return { versions, models: digest, data: null };
    const [rest, picked] = await Promise.all([catalogueRest(tx), ids === 'all' ? allCars(tx) : carsWithIds(tx, ids)]);
    return { versions, models: digest, data: { rest, cars: picked } };
  });
}
