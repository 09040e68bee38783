import { createHash } from 'node:crypto';
import { and, asc, count, eq, gt, gte, inArray, isNull, sql } from 'drizzle-orm';
import { FEE_TERMS, GARAGE_PAGE_SIZE, minimumFee, type Car, type FeeFields, type FeeTerm } from '../../domain/car';
import { addDays } from '../../domain/dates';
import type { GarageQuery } from '../../domain/schemas/catalogue';
import type { Db } from '../db/client';
import type { ButlerCar } from '../../domain/butler';
import type { GarageBrand } from '../../domain/catalogue';
import { brands, butlerCars, butlerReservedDates, cars, catalogueState, models } from '../db/schema';
import { notFound } from '../errors';
import { paginationInfo } from '../pagination';
import { carsTakenNow } from './inventory';
import { carJson, changedSince, garageIndex, garagePositions, patchGarageIndex, type GarageIndex } from './garage-index';
import { rowTime, wallMs } from '../jobs/clock';

const carSelection = {
  car: cars,
  model: { id: models.id, name: models.name, image: models.image },
  brand: { id: brands.id, name: brands.name, image: brands.image, slug: brands.slug },
};

type CarRow = { car: typeof cars.$inferSelect; model: { id: number; name: string; image: string | null }; brand: { id: number; name: string; image: string | null; slug: string }; rowVersion?: string };

/** A database row in the API's Car shape. */
export function toCar({ car, model, brand }: CarRow): Car {
  const fees = Object.fromEntries(FEE_TERMS.map((t) => [`subscription_fee_${t}`, car[`fee${t}` as keyof typeof car] ?? null])) as FeeFields;
  return {
    id: car.id,
    model: { id: model.id, name: model.name, image: model.image, brand: { id: brand.id, name: brand.name, image: brand.image } },
    sub_model: car.subModel,
    trim: car.trim,
    images: car.images.map((image) => image.src),
    gallery: car.images,
    color: car.color,
    mileage: car.mileage,
    license_plate: car.licensePlate,
    description: car.description,
    retail_price: car.retailPrice,
    is_new: car.isNew,
    is_hot: car.isHot,
    is_subscriptable: car.isSubscriptable,
    subscription_available_from: car.subscriptionAvailableFrom,
    release_date: car.releaseDate,
    subscription_fee_minimum: car.subscriptionFeeMinimum,
    option_prices: car.optionPrices ?? null,
    ...fees,
  };
}

/** A car row's version (xmin: changes with every write of the row). */
const rowVersion = sql<string>`${cars}.xmin::text`;

function carQuery(db: Db) {
  return db.select({ ...carSelection, rowVersion }).from(cars).innerJoin(models, eq(cars.modelId, models.id)).innerJoin(brands, eq(models.brandId, brands.id));
}

/** Cars staff have not archived: every public catalogue query filters on it (orders still find archived cars by id). */
const live = isNull(cars.archivedAt);

/** New and hot cars for home (garage-index.ts homeOf) as JSON (a HomeCarsAnswer, UTF-8), written once per catalogue version. */
export async function homeCarsJson(db: Db): Promise<Buffer> {
  return (await currentGarageIndex(db, await indexVersion(db))).home;
}

/** One car by id, or 404 with a Korean message; an archived car only with `archived: true` (an order's car). */
export async function carById(db: Db, id: number, opts: { archived?: boolean } = { archived: true }): Promise<Car> {
  const [row] = await carQuery(db).where(opts.archived ? eq(cars.id, id) : and(live, eq(cars.id, id))).limit(1);
  if (!row) throw notFound('차량 정보를 찾을 수 없습니다.');
  return toCar(row);
}

/**
 * Cars by id, archived ones too (orders' cars), in one query whatever their number: a list reads
 * its rows' cars at once, not one query a row. 404 as carById when one is missing.
 */
export async function carsByIds(db: Db, ids: readonly number[]): Promise<Map<number, Car>> {
  const wanted = [...new Set(ids)];
  const out = new Map<number, Car>();
  if (!wanted.length) return out;
  for (const row of await carQuery(db).where(inArray(cars.id, wanted))) out.set(row.car.id, toCar(row));
  if (out.size !== wanted.length) throw notFound('차량 정보를 찾을 수 없습니다.');
  return out;
}

/** Every car, for the static build. */
export async function allCars(db: Db): Promise<Car[]> {
  return (await carQuery(db).where(live).orderBy(asc(cars.id))).map(toCar);
}

/**
 * Every live car by id, `size` at a time (keyset pages): a build of 100,000 cars never holds them
 * all in the server, and the server answers between pages.
 */
export async function* liveCarChunks(db: Db, size = 500): AsyncGenerator<Car[]> {
  let after = 0;
  for (;;) {
    const rows = await carQuery(db).where(and(live, gt(cars.id, after))).orderBy(asc(cars.id)).limit(size);
    if (!rows.length) return;
    yield rows.map(toCar);
    after = rows[rows.length - 1].car.id;
  }
}

/** The live car rows of these ids, by id, 1,000 ids a query (an edit reads only the cars it changed). */
async function liveRowsWithIds(db: Db, ids: readonly number[]): Promise<CarRow[]> {
  const out: CarRow[] = [];
  for (let i = 0; i < ids.length; i += 1000) out.push(...(await carQuery(db).where(and(live, inArray(cars.id, ids.slice(i, i + 1000)))).orderBy(asc(cars.id))));
  return out;
}

/** The live cars of these ids, by id (a publish reads only the cars an edit changed). */
export const carsWithIds = async (db: Db, ids: readonly number[]): Promise<Car[]> => (await liveRowsWithIds(db, ids)).map(toCar);

/** Change notices so far (a local write, before and after its commit; another replica's; the version poll's). */
let changeNotices = 0;
/** The catalogue version the index last read from the database, when, and how many notices had come when the read started. */
const versionSeen = new WeakMap<Db, { version: number; at: number; notices: number }>();
/** The version read in flight, if any, and the notices counted when it started. */
const versionReads = new WeakMap<Db, { read: Promise<number>; notices: number }>();
/** How long a version read stays good while nothing changed: other replicas' writes show after at most this. */
const VERSION_RECHECK_MS = 1000;

/**
 * Marks the catalogue as changed: the next reads ask the database for its version. A write
 * notes it inside its transaction (bumpCatalogueVersion) and again once it committed (the
 * catalogue cache's drop, deps.onCatalogueChange), so a read started after the last notice sees
 * every committed write this process heard of.
 */
export function noteCatalogueChange(): void {
  changeNotices++;
}

/**
 * The catalogue version for the index, without a query per request: a version read is trusted
 * for a second when no change notice came since it started, and the requests that need a new one
 * share the read in flight when it too started after the last notice. (Each asking the database
 * itself put up to 200 queries in the pool's queue; after every edit, one query per garage key.)
 */
async function indexVersion(db: Db): Promise<number> {
  const now = wallMs();
  const seen = versionSeen.get(db);
  if (seen && seen.notices === changeNotices && now - seen.at < VERSION_RECHECK_MS) return seen.version;
  const reading = versionReads.get(db);
  if (reading && reading.notices === changeNotices) return reading.read;
  const notices = changeNotices;
  const read = catalogueVersion(db).then((version) => {
    // Kept unless a read that started later (after more notices, or at a later moment) already answered.
    const last = versionSeen.get(db);
    if (!last || last.notices < notices || (last.notices === notices && last.at <= now)) versionSeen.set(db, { version, at: now, notices });
    return version;
  });
  const slot = { read, notices };
  versionReads.set(db, slot);
  const done = () => versionReads.get(db) === slot && versionReads.delete(db);
  void read.then(done, done);
  return read;
}

const garageListCache = new WeakMap<Db, { version: number; list: Promise<Buffer> }>();
const garageIndexes = new WeakMap<Db, { version: number; index: Promise<GarageIndex> }>();

/** garage_list changes only with the catalogue, so its JSON is kept per catalogue version. */
function cachedGarageList(db: Db, version: number): Promise<Buffer> {
  const hit = garageListCache.get(db);
  if (hit && hit.version === version) return hit.list;
  const list = garageList(db).then((brands) => Buffer.from(JSON.stringify(brands)));
  garageListCache.set(db, { version, list });
  list.catch(() => garageListCache.delete(db));
  return list;
}

/**
 * The live cars of the catalogue version, in memory (garage-index.ts), made when the version
 * moves: from the last version's index and the cars whose row version moved since (an edit reads
 * a few rows, not 100,000), or from every car when there is none, the brands and models changed
 * (the cars' JSON shows them) or many cars did (an import: reading every car is as fast).
 */
function currentGarageIndex(db: Db, version: number): Promise<GarageIndex> {
  const hit = garageIndexes.get(db);
  if (hit && hit.version === version) return hit.index;
  const index = (async () => {
    // The row versions first: any row read after them is at least as new, and a newer one is read again next time.
    const [rowVersions, models] = await Promise.all([liveRowVersions(db), modelsDigest(db)]);
    const last = hit && (await hit.index.catch(() => null));
    const changed = last && last.models === models ? changedSince(last, rowVersions) : null;
    if (last && changed && changed.length <= Math.max(1000, rowVersions.size / 4)) {
      return patchGarageIndex(last, version, rowVersions, indexRows(await liveRowsWithIds(db, changed)));
    }
    return garageIndex(version, indexRows(await carQuery(db).where(live).orderBy(asc(cars.id))), models);
  })();
  garageIndexes.set(db, { version, index });
  index.catch(() => garageIndexes.delete(db));
  return index;
}

/** Rows as the index takes them (each with its row version, read with it). */
const indexRows = (rows: CarRow[]) => rows.map((row) => ({ car: toCar(row), brandSlug: row.brand.slug, rowVersion: Number(row.rowVersion) }));

/**
 * Each live car's row version: PostgreSQL's `xmin`, the transaction that last wrote the row, new
 * with every change of it by anyone (the console, a script, SQL by hand). A publish and the
 * garage index compare them with what they made last to find the cars that changed, without
 * reading every car. Read as one string "id:xmin,…" in id order: one row instead of one a car for
 * the driver and drizzle to map (at 100,000 cars on PGlite 0.08 s against 0.37 s, every edit).
 */
async function eachRowVersion(db: Db, take: (id: string, version: string) => void): Promise<void> {
  const [row] = await db.select({ all: sql<string | null>`string_agg(${cars.id}::text || ':' || ${rowVersion}, ',' ORDER BY ${cars.id})` }).from(cars).where(live);
  for (const pair of row?.all ? row.all.split(',') : []) {
    const at = pair.indexOf(':');
    take(pair.slice(0, at), pair.slice(at + 1));
  }
}

/** The row versions as a build keeps them beside its pages (car id → version). */
export async function carVersions(db: Db): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  await eachRowVersion(db, (id, version) => (out[id] = version));
  return out;
}

/** The row versions as the garage index takes them. */
async function liveRowVersions(db: Db): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  await eachRowVersion(db, (id, version) => out.set(Number(id), Number(version)));
  return out;
}

/**
 * A digest of the brands and models: their names are on every car page and in every car's JSON.
 * One query after the other: an edit's publish reads it in a transaction (one client).
 */
export async function modelsDigest(db: Db): Promise<string> {
  const brandRows = await db.select().from(brands).orderBy(asc(brands.id));
  const modelRows = await db.select().from(models).orderBy(asc(models.id));
  return createHash('sha256').update(JSON.stringify([brandRows, modelRows])).digest('base64url').slice(0, 22);
}

/** Brands in showcase order, each with its models and how many cars each has. */
export async function garageList(db: Db): Promise<GarageBrand[]> {
  const rows = await db
    .select({ brandId: brands.id, slug: brands.slug, brandName: brands.name, modelId: models.id, modelName: models.name, carCount: count(cars.id) })
    .from(brands)
    .innerJoin(models, eq(models.brandId, brands.id))
    // Inner join: a brand or model with no subscription car (butler-only) is not listed.
    .innerJoin(cars, and(eq(cars.modelId, models.id), live))
    .groupBy(brands.id, brands.slug, brands.name, brands.sortOrder, models.id, models.name)
    .orderBy(asc(brands.sortOrder), asc(brands.name), asc(models.name));
  const list: GarageBrand[] = [];
  for (const row of rows) {
    let entry = list.at(-1);
    if (!entry || entry.slug !== row.slug) list.push((entry = { slug: row.slug, name: row.brandName, model_list: [] }));
    entry.model_list.push({ id: row.modelId, name: row.modelName, car_count: Number(row.carCount) });
  }
  return list;
}

const GARAGE_PARTS = { open: Buffer.from('{"garage_list":'), cars: Buffer.from(',"cars":['), comma: Buffer.from(','), pages: Buffer.from('],"pagination_info":'), close: Buffer.from('}') };

/**
 * The garage as JSON (a GaragePage, in UTF-8 parts): filter, sort (nulls last) and one page of
 * GARAGE_PAGE_SIZE cars from the in-memory index of live cars. The brands' and each car's JSON
 * are written once per catalogue version, so a request only joins their bytes.
 */
export async function garageJson(db: Db, q: GarageQuery, today: string, now: Date): Promise<Buffer[]> {
  const version = await indexVersion(db);
  const [index, list, taken] = await Promise.all([
    currentGarageIndex(db, version),
    cachedGarageList(db, version),
    // "지금 구독 가능" means a start tomorrow (the earliest an order may ask for) is free.
    q.available_only ? carsTakenNow(db, addDays(today, 1), now) : undefined,
  ]);
  const { positions, total } = garagePositions(index, q, today, taken);
  const parts = [GARAGE_PARTS.open, list, GARAGE_PARTS.cars];
  positions.forEach((position, i) => parts.push(...(i ? [GARAGE_PARTS.comma] : []), carJson(index, position)));
  parts.push(GARAGE_PARTS.pages, Buffer.from(JSON.stringify(paginationInfo(q.page, total, GARAGE_PAGE_SIZE))), GARAGE_PARTS.close);
  return parts;
}

/** Models with their brand and car count. */
export async function modelList(db: Db) {
  const rows = await db
    .select({ id: models.id, name: models.name, image: models.image, brand: { id: brands.id, name: brands.name, image: brands.image }, car_count: count(cars.id) })
    .from(models)
    .innerJoin(brands, eq(models.brandId, brands.id))
    .leftJoin(cars, and(eq(cars.modelId, models.id), live))
    .groupBy(models.id, models.name, models.image, brands.id, brands.name, brands.image, brands.sortOrder)
    .orderBy(asc(brands.sortOrder), asc(models.name));
  return rows.map((r) => ({ ...r, car_count: Number(r.car_count) }));
}

/** One model with its cars. */
export async function modelById(db: Db, id: number) {
  const all = await modelList(db);
  const model = all.find((m) => m.id === id);
  if (!model) throw notFound('모델 정보를 찾을 수 없습니다.');
  const list = (await carQuery(db).where(and(live, eq(models.id, id))).orderBy(asc(cars.id))).map(toCar);
  return { ...model, cars: list };
}

/** Which butler cars butlerCarList reads: one car (`id`), and archived ones too (`archived`: views of existing bookings). */
export interface ButlerCarQuery {
  id?: number;
  /** Reserved days from this Korean day on (the business clock's today). */
  today: string;
  archived?: boolean;
  /**
   * The cars' plates: for staff and for a booking's dispatch details only. A plate tells where a
   * client's car stands; the customer learns it from the Korean day before the trip (docs/butler-dispatch.md).
   */
  plates?: boolean;
}

/** Butler cars with their reserved days from `today` on: the bookable fleet, or what a query names. */
export async function butlerCarList(db: Db, { id, today, archived = false, plates = false }: ButlerCarQuery): Promise<ButlerCar[]> {
  const rows = await db
    .select({ car: butlerCars, model: { id: models.id, name: models.name, image: models.image }, brand: { id: brands.id, name: brands.name, image: brands.image } })
    .from(butlerCars)
    .innerJoin(models, eq(butlerCars.modelId, models.id))
    .innerJoin(brands, eq(models.brandId, brands.id))
    .where(and(id ? eq(butlerCars.id, id) : undefined, archived ? undefined : isNull(butlerCars.archivedAt)))
    .orderBy(asc(butlerCars.id));
  if (!rows.length) return [];
  const reserved = await db
    .select({ carId: butlerReservedDates.butlerCarId, date: butlerReservedDates.date })
    .from(butlerReservedDates)
    .where(and(inArray(butlerReservedDates.butlerCarId, rows.map((r) => r.car.id)), gte(butlerReservedDates.date, today)))
    .orderBy(asc(butlerReservedDates.date));
  return rows.map(({ car, model, brand }) => ({
    id: car.id,
    sub_model: car.subModel,
    butler_fee: car.butlerFee,
    butler_overtime_fee: car.butlerOvertimeFee,
    model: { ...model, brand },
    images: car.images.map((image) => image.src),
    gallery: car.images,
    color: car.color,
    mileage: car.mileage,
    license_plate: plates ? car.licensePlate : null,
    retail_price: car.retailPrice,
    description: car.description,
    butler_reservated_dates: reserved.filter((r) => r.carId === car.id).map((r) => r.date),
  }));
}

/** The catalogue version; bumped by every catalogue write. */
export async function catalogueVersion(db: Db): Promise<number> {
  const [row] = await db.select({ version: catalogueState.version }).from(catalogueState).limit(1);
  return row?.version ?? 0;
}

/** The database's identity (random, made once): part of every build's stamp. */
export async function databaseIdentity(db: Db): Promise<string> {
  await db.insert(catalogueState).values({ id: 1 }).onConflictDoNothing();
  const [row] = await db.select({ id: catalogueState.instanceId }).from(catalogueState).limit(1);
  return row.id;
}

export async function bumpCatalogueVersion(db: Db): Promise<number> {
  noteCatalogueChange();
  const [row] = await db
    .insert(catalogueState)
    .values({ id: 1, version: 1 })
    .onConflictDoUpdate({ target: catalogueState.id, set: { version: sql`${catalogueState.version} + 1`, updatedAt: rowTime() } })
    .returning({ version: catalogueState.version });
  // Again once written: outside a transaction that is after the commit (inside one, the caller's
  // deps.onCatalogueChange notes it after the commit).
  noteCatalogueChange();
  return row.version;
}

/** Fee columns of a car insert/update from API-shaped fees, with the minimum kept in step. */
export function feeColumns(fees: Partial<FeeFields>) {
  const out: Record<string, number | null> = {};
  for (const t of FEE_TERMS) out[`fee${t}`] = fees[`subscription_fee_${t}`] ?? null;
  return { ...out, subscriptionFeeMinimum: minimumFee(fees) } as Pick<typeof cars.$inferInsert, `fee${FeeTerm}` | 'subscriptionFeeMinimum'>;
}
