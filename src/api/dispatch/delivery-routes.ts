import { Hono } from 'hono';
import { IdParamSchema } from '../../domain/schemas/catalogue';
import { DeliveryChangeSchema } from '../../domain/schemas/subscription-options';
import { requireUser } from '../auth/guards';
import { ok, reservationWrites, validJson, validParams, type AppEnv } from '../http';
import { changeDelivery, getDelivery, type DeliveryView } from './delivery-change';

/** The customer's 탁송 정보 변경 (issue 49) under /subscriptions: a request's and a confirmed subscription's. */
export const deliveryChangeRoutes = new Hono<AppEnv>()
  // 탁송 정보 변경 of a request not yet confirmed (issue 49): address, window, start; until the cutoff.
  .get('/requests/:id/delivery', requireUser, validParams(IdParamSchema), async (c) => {
    const { id } = c.req.valid('param');
    return ok(c, { delivery: await getDelivery(c.var.deps, { requestId: id }, c.var.userId, c.var.deps.config.deliveryChange.cutoffDays) } satisfies { delivery: DeliveryView });
  })
  .patch('/requests/:id/delivery', requireUser, reservationWrites, validParams(IdParamSchema), validJson(DeliveryChangeSchema), async (c) => {
    const { id } = c.req.valid('param');
    const cfg = { cutoffDays: c.var.deps.config.deliveryChange.cutoffDays, bufferMinutes: c.var.deps.config.dispatch.bufferMinutes };
    return ok(c, { delivery: await changeDelivery(c.var.deps, { requestId: id }, c.var.userId, c.req.valid('json'), cfg) } satisfies { delivery: DeliveryView });
  })
  // 탁송 정보 변경 of a confirmed subscription (issue 49): the board's delivery and the car's timeline re-checked.
  .get('/:id/delivery', requireUser, validParams(IdParamSchema), async (c) => {
    const { id } = c.req.valid('param');
    return ok(c, { delivery: await getDelivery(c.var.deps, { subscriptionId: id }, c.var.userId, c.var.deps.config.deliveryChange.cutoffDays) } satisfies { delivery: DeliveryView });
  })
  // A new start moves the car's days: the garage's cached answers are dropped.
  .patch('/:id/delivery', requireUser, reservationWrites, validParams(IdParamSchema), validJson(DeliveryChangeSchema), async (c) => {
    const { id } = c.req.valid('param');
    const cfg = { cutoffDays: c.var.deps.config.deliveryChange.cutoffDays, bufferMinutes: c.var.deps.config.dispatch.bufferMinutes };
    return ok(c, { delivery: await changeDelivery(c.var.deps, { subscriptionId: id }, c.var.userId, c.req.valid('json'), cfg) } satisfies { delivery: DeliveryView });
  });
