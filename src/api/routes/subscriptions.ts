import { Hono } from 'hono';
import type { CarAnswer, GaragePage, HomeCarsAnswer } from '../../domain/catalogue';
import { GarageQuerySchema, IdParamSchema } from '../../domain/schemas/catalogue';
import { ok, validParams, validQuery, type AppEnv } from '../http';
import { carById, garage, homeCars, modelById, modelList } from '../services/catalogue';

/** The public subscription catalogue: home cars, car detail, garage, models. */
export const subscriptionCatalogueRoutes = new Hono<AppEnv>()
  .get('/cars', async (c) => ok(c, (await homeCars(c.var.deps.db)) satisfies HomeCarsAnswer))
  .get('/cars/:id', validParams(IdParamSchema), async (c) => ok(c, { car: await carById(c.var.deps.db, c.req.valid('param').id, { archived: false }) } satisfies CarAnswer))
  .get('/garages', validQuery(GarageQuerySchema), async (c) => ok(c, (await garage(c.var.deps.db, c.req.valid('query'))) satisfies GaragePage))
  .get('/models', async (c) => ok(c, { models: await modelList(c.var.deps.db) }))
  .get('/models/:id', validParams(IdParamSchema), async (c) => ok(c, { model: await modelById(c.var.deps.db, c.req.valid('param').id) }));
