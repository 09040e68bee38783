import { and, asc, count, desc, eq, ilike, isNotNull, isNull, or, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { FEE_TERMS, type Car } from '../../domain/car';
import { inTransaction, type Db } from '../db/client';
import { isUniqueViolation } from '../db/errors';
import { brands, butlerCars, butlerRequests, cars, faqs, models, policyDocuments, subscriptionRequests } from '../db/schema';
import { badRequest, conflict, notFound } from '../errors';
import type { Deps } from '../http';
import type { StaffActor } from '../auth/guards';
import { ADMIN_PAGE_SIZE, onPage, paginationInfo, totalRows } from '../pagination';
import type { ConsoleBrand, ConsoleButlerCar, ConsoleCarPage, ConsoleFaq, ConsolePolicy, ConsoleRows } from '../../domain/console';
import type { GalleryInput } from '../../domain/schemas/admin';
import { resolveGallery } from './photos/gallery';
import { recordAudit, type AuditEntry } from '../audit/audit';
import { bumpCatalogueVersion, feeColumns, toCar } from './catalogue';
import { rowTime } from '../jobs/clock';

/** The table-driven catalogue entities; each route answers its row under this name ({ car: … }). */
export type EntityName = keyof ConsoleRows;

/**
 * A catalogue write: the change, its audit row and the catalogue version bump in one
 * transaction; onCatalogueChange (cache drop, rebuild) after it commits.
 */
async function catalogueWrite<T>(deps: Deps, actor: StaffActor, work: (tx: Db) => Promise<{ result: T; audit: AuditEntry }>): Promise<T> {
  const result = await inTransaction(deps.db, async (tx) => {
    const { result, audit } = await work(tx);
    await recordAudit(tx, actor, audit);
    await bumpCatalogueVersion(tx);
    return result;
  });
  deps.onCatalogueChange();
  return result;
}

/** API field → row property, for the simple tables. */
type FieldMap = Record<string, string>;

/** Row properties for the API fields present in `input` (undefined means "not sent", null clears). */
function columnsOf(input: Record<string, unknown>, map: FieldMap): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [api, prop] of Object.entries(map)) if (input[api] !== undefined) out[prop] = input[api];
  return out;
}

function viewOf(row: Record<string, unknown>, map: FieldMap): Record<string, unknown> {
  const out: Record<string, unknown> = { id: row.id };
  for (const [api, prop] of Object.entries(map)) out[api] = row[prop] instanceof Date ? row[prop].toISOString() : row[prop];
  return out;
}

const BRAND: FieldMap = { name: 'name', slug: 'slug', image: 'image', sort_order: 'sortOrder' };
const MODEL: FieldMap = { brand_id: 'brandId', name: 'name', image: 'image' };
const FAQ: FieldMap = { question: 'question', answer: 'answer', category: 'category', sort_order: 'sortOrder' };
const POLICY: FieldMap = { kind: 'kind', title: 'title', content: 'content', version: 'version', effective_date: 'effectiveDate', created_at: 'createdAt' };
const BUTLER: FieldMap = {
  model_id: 'modelId', sub_model: 'subModel', gallery: 'images', color: 'color', mileage: 'mileage', license_plate: 'licensePlate',
  description: 'description', retail_price: 'retailPrice', butler_fee: 'butlerFee', butler_overtime_fee: 'butlerOvertimeFee', archived_at: 'archivedAt',
};
const CAR: FieldMap = {
  model_id: 'modelId', sub_model: 'subModel', trim: 'trim', gallery: 'images', color: 'color', mileage: 'mileage', license_plate: 'licensePlate',
  description: 'description', retail_price: 'retailPrice', is_new: 'isNew', is_hot: 'isHot', is_subscriptable: 'isSubscriptable',
  subscription_available_from: 'subscriptionAvailableFrom', release_date: 'releaseDate', option_prices: 'optionPrices',
};

/** A car as the console edits it: the API's Car plus its model id (the form's field) and archive time. */
type AdminCar = Car & { model_id: number; archived_at: string | null };

interface Spec {
  entity: EntityName;
  table: PgTable & { id: PgColumn };
  missing: string;
  /** The row in console shape, or null. */
  load: (db: Db, id: number) => Promise<Record<string, unknown> | null>;
  /** Row properties of a create (current absent) or a partial update. */
  columns: (input: Record<string, unknown>, current?: Record<string, unknown>) => Record<string, unknown>;
  /** Foreign keys and other checks against the database (throws the Korean 400); answers the input to store. */
  prepare?: (db: Db, input: Record<string, unknown>) => Promise<Record<string, unknown>>;
  /** Korean reason when the row is still referenced (delete is refused; archive instead). */
  inUse?: (db: Db, id: number) => Promise<string | null>;
  /** Korean 409 for a unique violation. */
  duplicate?: string;
}

const exists = async (db: Db, table: PgTable & { id: PgColumn }, id: number) => (await db.select({ id: table.id }).from(table).where(eq(table.id, id)).limit(1)).length > 0;

/** A car's or butler car's input: its model must exist, and its gallery's photos are looked up (resolveGallery). */
const prepareCar = async (db: Db, input: Record<string, unknown>) => {
  if (typeof input.model_id === 'number' && !(await exists(db, models, input.model_id))) throw badRequest('존재하지 않는 모델입니다.', { model_id: ['존재하지 않는 모델입니다.'] });
  return Array.isArray(input.gallery) ? { ...input, gallery: await resolveGallery(db, input.gallery as GalleryInput) } : input;
};

async function simpleRow(db: Db, table: PgTable & { id: PgColumn }, id: number, map: FieldMap) {
  const [row] = await db.select().from(table).where(eq(table.id, id)).limit(1);
  return row ? viewOf(row, map) : null;
}

/** A car in console shape (archived ones included), or null. */
async function adminCar(db: Db, id: number): Promise<AdminCar | null> {
  const [row] = await db
    .select({ car: cars, model: { id: models.id, name: models.name, image: models.image }, brand: { id: brands.id, name: brands.name, image: brands.image, slug: brands.slug } })
    .from(cars)
    .innerJoin(models, eq(cars.modelId, models.id))
    .innerJoin(brands, eq(models.brandId, brands.id))
    .where(eq(cars.id, id))
    .limit(1);
  return row ? { ...toCar(row), model_id: row.car.modelId, archived_at: row.car.archivedAt?.toISOString() ?? null } : null;
}

const SPECS: Record<EntityName, Spec> = {
  car: {
    entity: 'car',
    table: cars,
    missing: '차량 정보를 찾을 수 없습니다.',
    load: (db, id) => adminCar(db, id) as Promise<Record<string, unknown> | null>,
    columns: (input, current) => {
      const out = columnsOf(input, CAR);
      // Fees: the terms sent over the current ones, with the minimum recomputed; untouched when none is sent.
      if (FEE_TERMS.some((t) => input[`subscription_fee_${t}`] !== undefined)) {
        const merged: Record<string, unknown> = {};
        for (const t of FEE_TERMS) {
          const k = `subscription_fee_${t}`;
          merged[k] = input[k] !== undefined ? input[k] : (current?.[k] ?? null);
        }
        Object.assign(out, feeColumns(merged));
      } else if (!current) Object.assign(out, feeColumns({}));
      return out;
    },
    prepare: prepareCar,
    inUse: async (db, id) =>
      (await db.select({ n: count() }).from(subscriptionRequests).where(eq(subscriptionRequests.carId, id)))[0].n > 0 ? '주문 이력이 있는 차량은 삭제할 수 없습니다. 보관 처리해주세요.' : null,
  },
  butler_car: {
    entity: 'butler_car',
    table: butlerCars,
    missing: '의전 차량을 찾을 수 없습니다.',
    load: (db, id) => simpleRow(db, butlerCars, id, BUTLER),
    columns: (input) => columnsOf(input, BUTLER),
    prepare: prepareCar,
    inUse: async (db, id) =>
      (await db.select({ n: count() }).from(butlerRequests).where(eq(butlerRequests.butlerCarId, id)))[0].n > 0 ? '예약 이력이 있는 의전 차량은 삭제할 수 없습니다. 보관 처리해주세요.' : null,
  },
  brand: {
    entity: 'brand',
    table: brands,
    missing: '브랜드를 찾을 수 없습니다.',
    load: (db, id) => simpleRow(db, brands, id, BRAND),
    columns: (input) => columnsOf(input, BRAND),
    inUse: async (db, id) => ((await db.select({ n: count() }).from(models).where(eq(models.brandId, id)))[0].n > 0 ? '모델이 있는 브랜드는 삭제할 수 없습니다.' : null),
    duplicate: '이미 사용 중인 주소 이름입니다.',
  },
  model: {
    entity: 'model',
    table: models,
    missing: '모델을 찾을 수 없습니다.',
    load: (db, id) => simpleRow(db, models, id, MODEL),
    columns: (input) => columnsOf(input, MODEL),
    prepare: async (db, input) => {
      if (typeof input.brand_id === 'number' && !(await exists(db, brands, input.brand_id))) throw badRequest('존재하지 않는 브랜드입니다.', { brand_id: ['존재하지 않는 브랜드입니다.'] });
      return input;
    },
    inUse: async (db, id) => {
      const [a] = await db.select({ n: count() }).from(cars).where(eq(cars.modelId, id));
      const [b] = await db.select({ n: count() }).from(butlerCars).where(eq(butlerCars.modelId, id));
      return a.n + b.n > 0 ? '차량이 있는 모델은 삭제할 수 없습니다.' : null;
    },
  },
  faq: { entity: 'faq', table: faqs, missing: 'FAQ를 찾을 수 없습니다.', load: (db, id) => simpleRow(db, faqs, id, FAQ), columns: (input) => columnsOf(input, FAQ) },
  policy: {
    entity: 'policy',
    table: policyDocuments,
    missing: '문서를 찾을 수 없습니다.',
    load: (db, id) => simpleRow(db, policyDocuments, id, POLICY),
    columns: (input) => columnsOf(input, POLICY),
  },
};

async function loadOr404(db: Db, spec: Spec, id: number) {
  const row = await spec.load(db, id);
  if (!row) throw notFound(spec.missing);
  return row;
}

function duplicateOr(err: unknown, spec: Spec): never {
  if (spec.duplicate && isUniqueViolation(err)) throw conflict(spec.duplicate, { slug: [spec.duplicate] });
  throw err;
}

/** A row as SPECS[entity].load reads it, in the console shape of its entity (ConsoleRows, the routes' typed answer). */
const consoleRow = <E extends EntityName>(_entity: E, row: Record<string, unknown>) => row as ConsoleRows[E];

/** One row in console shape or 404. */
export const adminGet = async <E extends EntityName>(db: Db, entity: E, id: number) => consoleRow(entity, await loadOr404(db, SPECS[entity], id));

/** Creates a row; audited, versioned. */
export async function adminCreate<E extends EntityName>(deps: Deps, actor: StaffActor, entity: E, sent: Record<string, unknown>): Promise<ConsoleRows[E]> {
  const spec = SPECS[entity];
  const input = (await spec.prepare?.(deps.db, sent)) ?? sent;
  return consoleRow(entity, await catalogueWrite(deps, actor, async (tx) => {
    const [row] = await tx
      .insert(spec.table)
      .values(spec.columns(input) as never)
      .returning({ id: spec.table.id })
      .catch((err: unknown) => duplicateOr(err, spec));
    const after = await loadOr404(tx, spec, row.id as number);
    return { result: after, audit: { action: 'create', entity, entityId: row.id as number, before: null, after } };
  }));
}

/** A partial update: only the fields sent change. Audited (before/after), versioned. */
export async function adminUpdate<E extends EntityName>(deps: Deps, actor: StaffActor, entity: E, id: number, sent: Record<string, unknown>): Promise<ConsoleRows[E]> {
  const spec = SPECS[entity];
  const input = (await spec.prepare?.(deps.db, sent)) ?? sent;
  return consoleRow(entity, await catalogueWrite(deps, actor, async (tx) => {
    const before = await loadOr404(tx, spec, id);
    const values = spec.columns(input, before);
    if ('updatedAt' in spec.table) values.updatedAt = rowTime();
    if (Object.keys(values).length) {
      await tx
        .update(spec.table)
        .set(values as never)
        .where(eq(spec.table.id, id))
        .catch((err: unknown) => duplicateOr(err, spec));
    }
    const after = await loadOr404(tx, spec, id);
    return { result: after, audit: { action: 'update', entity, entityId: id, before, after } };
  }));
}

/** Deletes a row nothing references (409 with the reason otherwise). */
export async function adminDelete(deps: Deps, actor: StaffActor, entity: EntityName, id: number) {
  const spec = SPECS[entity];
  return catalogueWrite(deps, actor, async (tx) => {
    const before = await loadOr404(tx, spec, id);
    const reason = await spec.inUse?.(tx, id);
    if (reason) throw conflict(reason);
    await tx.delete(spec.table).where(eq(spec.table.id, id));
    return { result: { id, deleted: true }, audit: { action: 'delete', entity, entityId: id, before, after: null } };
  });
}

/** Archives (leaves every public list and the built site; orders keep it) or restores a car or butler car. */
export async function adminArchive<E extends 'car' | 'butler_car'>(deps: Deps, actor: StaffActor, entity: E, id: number, archived: boolean): Promise<ConsoleRows[E]> {
  const spec = SPECS[entity];
  const table = entity === 'car' ? cars : butlerCars;
  return consoleRow(entity, await catalogueWrite(deps, actor, async (tx) => {
    const before = await loadOr404(tx, spec, id);
    await tx.update(table).set({ archivedAt: archived ? rowTime() : null, updatedAt: rowTime() }).where(eq(table.id, id));
    const after = await loadOr404(tx, spec, id);
    return { result: after, audit: { action: archived ? 'archive' : 'restore', entity, entityId: id, before, after } };
  }));
}

type ListQuery = { q?: string; archived: 'exclude' | 'only' | 'include'; page: number };

const archivedFilter = (column: PgColumn, archived: ListQuery['archived']) =>
  archived === 'only' ? isNotNull(column) : archived === 'exclude' ? isNull(column) : undefined;

/** Like-pattern of a search text (wildcards in it are literal). */
const pattern = (q: string) => `%${q.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;

/** The console's car list: search by id, brand, model, sub model, trim, colour or plate; newest first. */
export async function adminCarList(db: Db, q: ListQuery): Promise<ConsoleCarPage> {
  const where: SQL[] = [];
  const archived = archivedFilter(cars.archivedAt, q.archived);
  if (archived) where.push(archived);
  if (q.q) {
    const p = pattern(q.q);
    const byId = /^\d{1,9}$/.test(q.q) ? [eq(cars.id, Number(q.q))] : [];
    where.push(or(...byId, ilike(brands.name, p), ilike(models.name, p), ilike(cars.subModel, p), ilike(cars.trim, p), ilike(cars.color, p), ilike(cars.licensePlate, p))!);
  }
  const query = db
    .select({ id: cars.id, total: totalRows() })
    .from(cars)
    .innerJoin(models, eq(cars.modelId, models.id))
    .innerJoin(brands, eq(models.brandId, brands.id))
    .where(where.length ? and(...where) : undefined)
    .orderBy(desc(cars.id));
  const rows = await onPage(query.$dynamic(), q.page, ADMIN_PAGE_SIZE);
  const list = await Promise.all(rows.map((r) => adminCar(db, r.id)));
  return { cars: list.filter(Boolean) as AdminCar[], pagination_info: paginationInfo(q.page, rows[0]?.total ?? 0, ADMIN_PAGE_SIZE) };
}

/** The console's butler fleet (archived ones by filter). */
export async function adminButlerCarList(db: Db, q: ListQuery): Promise<{ butler_cars: ConsoleButlerCar[] }> {
  const where: SQL[] = [];
  const archived = archivedFilter(butlerCars.archivedAt, q.archived);
  if (archived) where.push(archived);
  if (q.q) {
    const p = pattern(q.q);
    where.push(or(ilike(models.name, p), ilike(butlerCars.subModel, p), ilike(butlerCars.licensePlate, p), ilike(butlerCars.color, p))!);
  }
  const rows = await db
    .select({ car: butlerCars, model_name: models.name, brand_name: brands.name })
    .from(butlerCars)
    .innerJoin(models, eq(butlerCars.modelId, models.id))
    .innerJoin(brands, eq(models.brandId, brands.id))
    .where(where.length ? and(...where) : undefined)
    .orderBy(asc(butlerCars.id));
  return { butler_cars: rows.map((r) => ({ ...consoleRow('butler_car', viewOf(r.car as unknown as Record<string, unknown>, BUTLER)), model_name: r.model_name, brand_name: r.brand_name })) };
}

/** Brands with their models for the console (the BRAND and MODEL fields, typed for the console's client). */
export async function adminBrandList(db: Db): Promise<{ brands: ConsoleBrand[] }> {
  const [brandRows, modelRows] = await Promise.all([
    db.select().from(brands).orderBy(asc(brands.sortOrder), asc(brands.name)),
    db.select().from(models).orderBy(asc(models.name)),
  ]);
  return {
    brands: brandRows.map((b) => ({
      id: b.id, name: b.name, slug: b.slug, image: b.image, sort_order: b.sortOrder,
      models: modelRows.filter((m) => m.brandId === b.id).map((m) => ({ id: m.id, brand_id: m.brandId, name: m.name, image: m.image })),
    })),
  };
}

export async function adminFaqList(db: Db): Promise<{ faqs: ConsoleFaq[] }> {
  return { faqs: (await db.select().from(faqs).orderBy(asc(faqs.sortOrder), asc(faqs.id))).map((f) => consoleRow('faq', viewOf(f, FAQ))) };
}

export async function adminPolicyList(db: Db, kind?: 'terms' | 'privacy'): Promise<{ policies: ConsolePolicy[] }> {
  const rows = await db
    .select()
    .from(policyDocuments)
    .where(kind ? eq(policyDocuments.kind, kind) : undefined)
    .orderBy(asc(policyDocuments.kind), desc(policyDocuments.effectiveDate), desc(policyDocuments.id));
  return { policies: rows.map((p) => consoleRow('policy', viewOf(p, POLICY))) };
}
