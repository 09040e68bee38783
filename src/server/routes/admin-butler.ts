import { Hono } from 'hono';
import { IdParamSchema } from '../../domain/schemas/catalogue';
import { ok, reservationWrites, validParams, type AppEnv } from '../http';
import { requireAdmin } from '../middleware/auth';
import { auditedAction } from '../services/admin-catalogue';
import { adminCancelButlerRequest, confirmButlerRequest } from '../services/butler-orders';

/** Staff actions on butler requests (staff or ADMIN_TOKEN; audited): confirm after 입금 확인, or cancel. */
export const adminButlerRoutes = new Hono<AppEnv>()
  .use('/butler-requests/*', reservationWrites)
  .post('/butler-requests/:id/confirm', requireAdmin, validParams(IdParamSchema), async (c) => {
    const { id } = c.req.valid('param');
    const sub = await auditedAction(c.var.deps.db, c.get('actor'), { action: 'confirm', entity: 'butler_request', entityId: id }, (tx) => confirmButlerRequest(tx, id));
    return ok(c, { butler_subscription: sub }, 201);
  })
  .post('/butler-requests/:id/cancel', requireAdmin, validParams(IdParamSchema), async (c) => {
    const { id } = c.req.valid('param');
    return ok(c, await auditedAction(c.var.deps.db, c.get('actor'), { action: 'cancel', entity: 'butler_request', entityId: id }, (tx) => adminCancelButlerRequest(tx, id)));
  });
