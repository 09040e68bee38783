import { Hono } from 'hono';
import { ButlerRequestUpdateSchema, ButlerReservationSchema, CarIdParamSchema } from '../../domain/schemas/butler';
import { IdParamSchema } from '../../domain/schemas/catalogue';
import { ok, parseJson, parseParams, type AppEnv } from '../http';
import { requireUser } from '../middleware/auth';
import {
  cancelButlerRequest, createButlerRequest, getButlerRequest, listButlerRequests, listButlerSubscriptions, updateButlerRequest,
} from '../services/butler-orders';
import { userCouponList } from '../services/coupons';

/**
 * The user's side of the butler service (mounted under /butlers next to the public fleet
 * routes, which stay open). Each route carries requireUser itself: a router-wide middleware
 * here would also close GET /butlers/cars.
 */
export const butlerOrderRoutes = new Hono<AppEnv>()
  .get('/', requireUser, async (c) => ok(c, { butlers: await listButlerSubscriptions(c.var.deps.db, c.var.userId) }))
  .get('/coupons', requireUser, async (c) => ok(c, { coupons: await userCouponList(c.var.deps.db, c.var.userId, 'BUTLER') }))
  .post('/cars/:carId/request', requireUser, async (c) => {
    const { carId } = parseParams(c, CarIdParamSchema);
    const input = await parseJson(c, ButlerReservationSchema);
    const { db, config } = c.var.deps;
    const { created, request } = await createButlerRequest(db, config, c.var.userId, carId, input);
    return ok(c, { butler_request: request, created }, created ? 201 : 200);
  })
  .get('/requests', requireUser, async (c) => ok(c, { butler_requests: await listButlerRequests(c.var.deps.db, c.var.userId) }))
  .get('/requests/:id', requireUser, async (c) => {
    const { id } = parseParams(c, IdParamSchema);
    return ok(c, { butler_request: await getButlerRequest(c.var.deps.db, c.var.userId, id) });
  })
  .put('/requests/:id', requireUser, async (c) => {
    const { id } = parseParams(c, IdParamSchema);
    const input = await parseJson(c, ButlerRequestUpdateSchema);
    return ok(c, { butler_request: await updateButlerRequest(c.var.deps.db, c.var.userId, id, input) });
  })
  .delete('/requests/:id', requireUser, async (c) => {
    const { id } = parseParams(c, IdParamSchema);
    return ok(c, await cancelButlerRequest(c.var.deps.db, c.var.userId, id));
  });
