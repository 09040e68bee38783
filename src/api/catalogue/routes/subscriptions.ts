import { Hono } from 'hono';
import type { CarAnswer, GaragePage, HomeCarsAnswer } from '../../../domain/catalogue';
import { GarageQuerySchema, IdParamSchema } from '../../../domain/schemas/catalogue';
import { todayInKorea } from '../../../domain/dates';
import { ok, okJson, validParams, validQuery, type AppEnv } from '../../http';
import { carById, garageJson, homeCarsJson, modelById, modelList } from '../catalogue';

/** The public subscription catalogue: home cars (a HomeCarsAnswer), car detail, garage (a GaragePage), models. */
export const subscriptionCatalogueRoutes = new Hono<AppEnv>()
  .get('/cars', async (c) => okJson<HomeCarsAnswer>(c, [await homeCarsJson(c.var.deps.db)]))
  .get('/cars/:id', validParams(IdParamSchema), async (c) => ok(c, { car: await carById(c.var.deps.db, c.req.valid('param').id, { archived: false }) } satisfies CarAnswer))
  .get('/garages', validQuery(GarageQuerySchema), async (c) => {
    const now = c.var.deps.clock.now();
    return okJson<GaragePage>(c, await garageJson(c.var.deps.db, c.req.valid('query'), todayInKorea(now), now));
  })
  .get('/models', async (c) => ok(c, { models: await modelList(c.var.deps.db) }))
  .get('/models/:id', validParams(IdParamSchema), async (c) => ok(c, { model: await modelById(c.var.deps.db, c.req.valid('param').id) }));
