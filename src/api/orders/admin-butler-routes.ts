import { Hono } from 'hono';
import type { ButlerCancelAnswer, ButlerCancelPreview } from '../../domain/butler';
import { IdParamSchema } from '../../domain/schemas/catalogue';
import { ok, reservationWrites, validJson, validParams, type AppEnv } from '../http';
import { EligibilityRefusalSchema, StaffButlerCancelSchema } from '../../domain/schemas/butler';
import { requireAdmin } from '../auth/guards';
import { adminCancelButlerRequest, previewStaffCancel } from './butler-cancel';
import { confirmButlerRequest } from './butler-confirm';
import { auditedAction, auditedCall } from '../audit/audit';

/** Staff actions on butler requests (staff or ADMIN_TOKEN; audited): confirm after 입금 확인, or cancel. */
export const adminButlerRoutes = new Hono<AppEnv>()
  .use('/butler-requests/*', reservationWrites)
  .post('/butler-requests/:id/confirm', requireAdmin, validParams(IdParamSchema), async (c) => {
    const { id } = c.req.valid('param');
    const sub = await auditedAction(c.var.deps.db, c.get('actor'), { action: 'confirm', entity: 'butler_request', entityId: id }, (tx) => confirmButlerRequest(tx, id, c.var.deps.clock.now()));
    return ok(c, { butler_subscription: sub }, 201);
  })
  // What a staff cancel refunds now by the rule the customer was shown (the console's dialog offers the full refund beside it).
  .get('/butler-requests/:id/cancel-preview', requireAdmin, validParams(IdParamSchema), async (c) =>
    ok(c, (await previewStaffCancel(c.var.deps, c.var.deps.config.payments.butlerRefund, c.req.valid('param').id)) satisfies ButlerCancelPreview),
  )
  // By the customer's rule, unless staff decide on a full refund and say why (audited; the customer is told it was the operator's decision).
  .post('/butler-requests/:id/cancel', requireAdmin, validParams(IdParamSchema), validJson(StaffButlerCancelSchema), async (c) => {
    const { id } = c.req.valid('param');
    const { full_refund_reason: fullRefundReason } = c.req.valid('json');
    const actor = c.get('actor');
    const policy = c.var.deps.config.payments.butlerRefund;
    const cancelled = await auditedCall(c.var.deps.db, actor, { action: 'cancel', entity: 'butler_request', entityId: id }, (audit) => adminCancelButlerRequest(c.var.deps, policy, id, { actor: `staff:${actor.name}`, audit }, { fullRefundReason }));
    return ok(c, cancelled satisfies ButlerCancelAnswer);
  })
  // BUTLER_LEGAL_MODEL=exemptions: staff find the claimed 시행령 제18조 case unproven: cancelled, refunded in full, the reason kept.
  .post('/butler-requests/:id/refuse-eligibility', requireAdmin, validParams(IdParamSchema), validJson(EligibilityRefusalSchema), async (c) => {
    const { id } = c.req.valid('param');
    const { reason } = c.req.valid('json');
    const actor = c.get('actor');
    const cancelled = await auditedCall(c.var.deps.db, actor, { action: 'refuse_eligibility', entity: 'butler_request', entityId: id }, (audit) => adminCancelButlerRequest(c.var.deps, c.var.deps.config.payments.butlerRefund, id, { actor: `staff:${actor.name}`, audit }, { refusal: { reason } }));
    return ok(c, cancelled satisfies ButlerCancelAnswer);
  });
