import { Hono } from 'hono';
import { GarageQuerySchema, IdParamSchema } from '../../domain/schemas/catalogue';
import { ok, parseParams, parseQuery, type AppEnv } from '../http';
import { carById, garage, homeCars, modelById, modelList } from '../services/catalogue';

/** The public subscription catalogue: home cars, car detail, garage, models. */
export const subscriptionCatalogueRoutes = new Hono<AppEnv>()
  .get('/cars', async (c) => ok(c, await homeCars(c.var.deps.db)))
  .get('/cars/:id', async (c) => {
    const { id } = parseParams(c, IdParamSchema);
    return ok(c, { car: await carById(c.var.deps.db, id) });
  })
  .get('/garages', async (c) => ok(c, await garage(c.var.deps.db, parseQuery(c, GarageQuerySchema))))
  .get('/models', async (c) => ok(c, { models: await modelList(c.var.deps.db) }))
  .get('/models/:id', async (c) => {
    const { id } = parseParams(c, IdParamSchema);
    return ok(c, { model: await modelById(c.var.deps.db, id) });
  });
