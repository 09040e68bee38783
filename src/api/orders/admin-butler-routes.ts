import { Hono } from 'hono';
import type { ButlerCancelAnswer } from '../../domain/butler';
import { IdParamSchema } from '../../domain/schemas/catalogue';
import { ok, reservationWrites, validJson, validParams, type AppEnv } from '../http';
import { EligibilityRefusalSchema } from '../../domain/schemas/butler';
import { requireAdmin } from '../auth/guards';
import { adminCancelButlerRequest, confirmButlerRequest } from './butler-orders';
import { auditedAction, auditedCall } from '../audit/audit';

/** Staff actions on butler requests (staff or ADMIN_TOKEN; audited): confirm after 입금 확인, or cancel. */
export const adminButlerRoutes = new Hono<AppEnv>()
  .use('/butler-requests/*', reservationWrites)
  .post('/butler-requests/:id/confirm', requireAdmin, validParams(IdParamSchema), async (c) => {
    const { id } = c.req.valid('param');
    const sub = await auditedAction(c.var.deps.db, c.get('actor'), { action: 'confirm', entity: 'butler_request', entityId: id }, (tx) => confirmButlerRequest(tx, id, c.var.deps.clock.now()));
    return ok(c, { butler_subscription: sub }, 201);
  })
  .post('/butler-requests/:id/cancel', requireAdmin, validParams(IdParamSchema), async (c) => {
    const { id } = c.req.valid('param');
    const actor = c.get('actor');
    const cancelled = await auditedCall(c.var.deps.db, actor, { action: 'cancel', entity: 'butler_request', entityId: id }, (audit) => adminCancelButlerRequest(c.var.deps, id, { actor: `staff:${actor.name}`, audit }));
    return ok(c, cancelled satisfies ButlerCancelAnswer);
  })
  // BUTLER_LEGAL_MODEL=exemptions: staff find the claimed 시행령 제18조 case unproven: cancelled, refunded in full, the reason kept.
  .post('/butler-requests/:id/refuse-eligibility', requireAdmin, validParams(IdParamSchema), validJson(EligibilityRefusalSchema), async (c) => {
    const { id } = c.req.valid('param');
    const { reason } = c.req.valid('json');
    const actor = c.get('actor');
    const cancelled = await auditedCall(c.var.deps.db, actor, { action: 'refuse_eligibility', entity: 'butler_request', entityId: id }, (audit) => adminCancelButlerRequest(c.var.deps, id, { actor: `staff:${actor.name}`, audit }, { reason }));
    return ok(c, cancelled satisfies ButlerCancelAnswer);
  });
