import { Hono } from 'hono';
import type { AdminHandoversAnswer, HandoverAnswer, HandoverListAnswer, HandoverRecordAnswer } from '../../domain/handover';
import { IdParamSchema } from '../../domain/schemas/catalogue';
import { AcknowledgeHandoverSchema, HandoverBoardQuerySchema, HandoverRecordSchema, ScheduleHandoverSchema } from '../../domain/schemas/handover';
import { ok, validJson, validParams, validQuery, type AppEnv } from '../http';
import { requireAdmin, requireUser } from '../auth/guards';
import { acknowledgeHandover, cancelHandover, customerHandovers, handoverBoard, recordHandover, scheduleHandover } from './handovers';

/**
 * 탁송·반납 (issue 39). Staff (staff or ADMIN_TOKEN; every write audited): the handovers of the
 * dispatch board's days and the subscriptions still missing one, scheduling, calling off and
 * recording. The customer: their own handovers and the acknowledgement of a record.
 */
export const adminHandoverRoutes = new Hono<AppEnv>()
  .get('/handovers', requireAdmin, validQuery(HandoverBoardQuerySchema), async (c) => {
    const { handovers, open } = await handoverBoard(c.var.deps.db, c.req.valid('query'), c.var.deps.clock.now());
    return ok(c, { handovers, open } satisfies AdminHandoversAnswer);
  })
  .post('/subscriptions/:id/handovers', requireAdmin, validParams(IdParamSchema), validJson(ScheduleHandoverSchema), async (c) => {
    const { deps } = c.var;
    const { handover, created } = await scheduleHandover(deps.db, c.get('actor'), c.req.valid('param').id, c.req.valid('json'), deps.config.dispatch.bufferMinutes, deps.clock.now());
    return ok(c, { handover } satisfies HandoverAnswer, created ? 201 : 200);
  })
  .post('/handovers/:id/record', requireAdmin, validParams(IdParamSchema), validJson(HandoverRecordSchema), async (c) =>
    ok(c, (await recordHandover(c.var.deps, c.get('actor'), c.req.valid('param').id, c.req.valid('json'))) satisfies HandoverRecordAnswer),
  )
  .delete('/handovers/:id', requireAdmin, validParams(IdParamSchema), async (c) =>
    ok(c, { handover: await cancelHandover(c.var.deps.db, c.get('actor'), c.req.valid('param').id, c.var.deps.clock.now()) } satisfies HandoverAnswer),
  );

export const handoverRoutes = new Hono<AppEnv>()
  .get('/', requireUser, async (c) => ok(c, { handovers: await customerHandovers(c.var.deps.db, c.var.userId) } satisfies HandoverListAnswer))
  .post('/:id/acknowledge', requireUser, validParams(IdParamSchema), validJson(AcknowledgeHandoverSchema), async (c) =>
    ok(c, { handover: await acknowledgeHandover(c.var.deps.db, c.var.userId, c.req.valid('param').id, c.req.valid('json').name, c.var.deps.clock.now()) } satisfies HandoverAnswer),
  );
