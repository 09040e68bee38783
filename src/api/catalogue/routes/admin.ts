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
import { adminArchive, adminBrandList, adminButlerCarList, adminCarList, adminCreate, adminDelete, adminFaqList, adminGet, adminPolicyList, adminUpdate, type EntityName } from '../admin';
import { auditList } from '../../audit/audit';

const actor = (c: Ctx) => c.get('actor');

/**
 * POST (create), GET/PATCH/DELETE by id for one catalogue entity at `path`: validated with
 * zod, audited, each write bumps the catalogue version and triggers a rebuild. PATCH changes
 * only the fields sent.
 */
function crud(path: string, entity: EntityName, create: z.ZodType, patch: z.ZodType, key: string) {
  return new Hono<AppEnv>()
    .post(path, validJson(create), async (c) => {
      const input = c.req.valid('json' as never) as Record<string, unknown>;
      return ok(c, { [key]: await adminCreate(c.var.deps, actor(c), entity, input) }, 201);
    })
    .get(`${path}/:id`, validParams(IdParamSchema), async (c) => ok(c, { [key]: await adminGet(c.var.deps.db, entity, c.req.valid('param').id) }))
    .patch(`${path}/:id`, validParams(IdParamSchema), validJson(patch), async (c) => {
      const input = c.req.valid('json' as never) as Record<string, unknown>;
      return ok(c, { [key]: await adminUpdate(c.var.deps, actor(c), entity, c.req.valid('param').id, input) });
    })
    .delete(`${path}/:id`, validParams(IdParamSchema), async (c) => ok(c, await adminDelete(c.var.deps, actor(c), entity, c.req.valid('param').id)));
}

function archiving(path: string, entity: 'car' | 'butler_car', key: string) {
  return new Hono<AppEnv>()
    .post(`${path}/:id/archive`, validParams(IdParamSchema), async (c) => ok(c, { [key]: await adminArchive(c.var.deps, actor(c), entity, c.req.valid('param').id, true) }))
    .post(`${path}/:id/restore`, validParams(IdParamSchema), async (c) => ok(c, { [key]: await adminArchive(c.var.deps, actor(c), entity, c.req.valid('param').id, false) }));
}

/** The staff console's catalogue API (staff accounts or the machine token: app.ts mounts it behind requireAdmin). */
export const adminCatalogueRoutes = new Hono<AppEnv>()
  .get('/cars', validQuery(AdminListQuerySchema), async (c) => ok(c, await adminCarList(c.var.deps.db, c.req.valid('query'))))
  .get('/butler-cars', validQuery(AdminListQuerySchema), async (c) => ok(c, await adminButlerCarList(c.var.deps.db, c.req.valid('query'))))
  .get('/brands', async (c) => ok(c, await adminBrandList(c.var.deps.db)))
  .get('/faqs', async (c) => ok(c, await adminFaqList(c.var.deps.db)))
  .get('/policies', validQuery(AdminPolicyQuerySchema), async (c) => ok(c, await adminPolicyList(c.var.deps.db, c.req.valid('query').kind)))
  .get('/audit', validQuery(AdminAuditQuerySchema), async (c) => ok(c, await auditList(c.var.deps.db, c.req.valid('query'))))
  .route('/', crud('/cars', 'car', AdminCarSchema, AdminCarPatchSchema, 'car'))
  .route('/', archiving('/cars', 'car', 'car'))
  .route('/', crud('/butler-cars', 'butler_car', AdminButlerCarSchema, AdminButlerCarPatchSchema, 'butler_car'))
  .route('/', archiving('/butler-cars', 'butler_car', 'butler_car'))
  .route('/', crud('/brands', 'brand', AdminBrandSchema, AdminBrandPatchSchema, 'brand'))
  .route('/', crud('/models', 'model', AdminModelSchema, AdminModelPatchSchema, 'model'))
  .route('/', crud('/faqs', 'faq', AdminFaqSchema, AdminFaqPatchSchema, 'faq'))
  .route('/', crud('/policies', 'policy', AdminPolicySchema, AdminPolicyPatchSchema, 'policy'));
