import { Hono } from 'hono';
import { z } from 'zod';
import {
  AdminAuditQuerySchema,
  AdminBrandPatchSchema,
  AdminBrandSchema,
  AdminButlerCarPatchSchema,
  AdminButlerCarSchema,
  AdminCarPatchSchema,
  AdminCarSchema,
  AdminFaqPatchSchema,
  AdminFaqSchema,
  AdminListQuerySchema,
  AdminModelPatchSchema,
  AdminModelSchema,
  AdminPolicyPatchSchema,
  AdminPolicyQuerySchema,
  AdminPolicySchema,
} from '../../../domain/schemas/admin';
import { IdParamSchema } from '../../../domain/schemas/catalogue';
import { ok, validJson, validParams, validQuery, type AppEnv, type Ctx } from '../../http';
import type { ConsoleRows } from '../../../domain/console';
import { adminArchive, adminBrandList, adminButlerCarList, adminCarList, adminCreate, adminDelete, adminFaqList, adminGet, adminPolicyList, adminUpdate, type EntityName } from '../admin';
import { auditList } from '../../audit/audit';

const actor = (c: Ctx) => c.get('actor');

/** A row under its entity's name, every write's answer: `{ car: {…} }`. */
const named = <E extends EntityName>(entity: E, row: ConsoleRows[E]) => ({ [entity]: row }) as { [K in E]: ConsoleRows[E] };

/**
 * POST (create), GET/PATCH/DELETE by id for one catalogue entity at `path`: validated with
 * zod, audited, each write bumps the catalogue version and triggers a rebuild. PATCH changes
 * only the fields sent. Typed by path, body and answer: the console's sections name these
 * routes in the typed client (src/islands/admin/sections.tsx).
 */
function crud<P extends string, E extends EntityName, C extends z.ZodType, U extends z.ZodType>(path: P, entity: E, create: C, patch: U) {
  return new Hono<AppEnv>()
    .post(path, validJson(create), async (c) => {
      const input = c.req.valid('json' as never) as Record<string, unknown>;
      return ok(c, named(entity, await adminCreate(c.var.deps, actor(c), entity, input)), 201);
    })
    .get(`${path}/:id`, validParams(IdParamSchema), async (c) => ok(c, named(entity, await adminGet(c.var.deps.db, entity, c.req.valid('param').id))))
    .patch(`${path}/:id`, validParams(IdParamSchema), validJson(patch), async (c) => {
      const input = c.req.valid('json' as never) as Record<string, unknown>;
      return ok(c, named(entity, await adminUpdate(c.var.deps, actor(c), entity, c.req.valid('param').id, input)));
    })
    .delete(`${path}/:id`, validParams(IdParamSchema), async (c) => ok(c, await adminDelete(c.var.deps, actor(c), entity, c.req.valid('param').id)));
}

function archiving<P extends string, E extends 'car' | 'butler_car'>(path: P, entity: E) {
  return new Hono<AppEnv>()
    .post(`${path}/:id/archive`, validParams(IdParamSchema), async (c) => ok(c, named(entity, await adminArchive(c.var.deps, actor(c), entity, c.req.valid('param').id, true))))
    .post(`${path}/:id/restore`, validParams(IdParamSchema), async (c) => ok(c, named(entity, await adminArchive(c.var.deps, actor(c), entity, c.req.valid('param').id, false))));
}

/** The staff console's catalogue API (staff accounts or the machine token: app.ts mounts it behind requireAdmin). */
export const adminCatalogueRoutes = new Hono<AppEnv>()
  .get('/cars', validQuery(AdminListQuerySchema), async (c) => ok(c, await adminCarList(c.var.deps.db, c.req.valid('query'))))
  .get('/butler-cars', validQuery(AdminListQuerySchema), async (c) => ok(c, await adminButlerCarList(c.var.deps.db, c.req.valid('query'))))
  .get('/brands', async (c) => ok(c, await adminBrandList(c.var.deps.db)))
  .get('/faqs', async (c) => ok(c, await adminFaqList(c.var.deps.db)))
  .get('/policies', validQuery(AdminPolicyQuerySchema), async (c) => ok(c, await adminPolicyList(c.var.deps.db, c.req.valid('query').kind)))
  .get('/audit', validQuery(AdminAuditQuerySchema), async (c) => ok(c, await auditList(c.var.deps.db, c.req.valid('query'))))
  .route('/', crud('/cars', 'car', AdminCarSchema, AdminCarPatchSchema))
  .route('/', archiving('/cars', 'car'))
  .route('/', crud('/butler-cars', 'butler_car', AdminButlerCarSchema, AdminButlerCarPatchSchema))
  .route('/', archiving('/butler-cars', 'butler_car'))
  .route('/', crud('/brands', 'brand', AdminBrandSchema, AdminBrandPatchSchema))
  .route('/', crud('/models', 'model', AdminModelSchema, AdminModelPatchSchema))
  .route('/', crud('/faqs', 'faq', AdminFaqSchema, AdminFaqPatchSchema))
  .route('/', crud('/policies', 'policy', AdminPolicySchema, AdminPolicyPatchSchema));
