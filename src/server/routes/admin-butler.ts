import { Hono } from 'hono';
import { IdParamSchema } from '../../domain/schemas/catalogue';
import { ok, reservationWrites, validParams, type AppEnv } from '../http';
import { requireAdmin } from '../middleware/auth';
import { adminCancelButlerRequest, confirmButlerRequest } from '../services/butler-orders';

/** Staff actions on butler requests (ADMIN_TOKEN): confirm after 입금 확인, or cancel. */
export const adminButlerRoutes = new Hono<AppEnv>()
  .use('/butler-requests/*', reservationWrites)
  .post('/butler-requests/:id/confirm', requireAdmin, validParams(IdParamSchema), async (c) => {
    const { id } = c.req.valid('param');
    return ok(c, { butler_subscription: await confirmButlerRequest(c.var.deps.db, id) }, 201);
  })
  .post('/butler-requests/:id/cancel', requireAdmin, validParams(IdParamSchema), async (c) => {
    const { id } = c.req.valid('param');
    return ok(c, await adminCancelButlerRequest(c.var.deps.db, id));
  });
