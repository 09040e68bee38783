import { Hono } from 'hono';
import { ok, type AppEnv } from '../../http';
import { catalogueSnapshot } from '../snapshot';

/**
 * GET /catalogue: everything the static build pre-renders, in one response, with the
 * catalogue version the build records so `npm start` knows when it is stale.
 */
export const catalogueRoutes = new Hono<AppEnv>().get('/', async (c) => ok(c, await catalogueSnapshot(c.var.deps.db)));
