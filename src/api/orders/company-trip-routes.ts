import { Hono } from 'hono';
import type { ButlerRequestAnswer, CompanyTripsAnswer } from '../../domain/butler';
import { ButlerRequestUpdateSchema } from '../../domain/schemas/butler';
import { ApprovalDecisionSchema, CompanyIdParamSchema, CompanyTripParamSchema } from '../../domain/schemas/company';
import { requireUser } from '../auth/guards';
import { ok, reservationWrites, validJson, validParams, type AppEnv } from '../http';
import { updateButlerRequest } from './butler-orders';
import { decideApproval, listCompanyTrips } from './company-butler';

/** /companies/{id}/trips: the company's butler trips for its admins and bookers, their changes (company-trip-edit.ts), and the admin's approvals. */
export const companyTripRoutes = new Hono<AppEnv>()
  .use('/:id/trips/*', reservationWrites)
  .get('/:id/trips', requireUser, validParams(CompanyIdParamSchema), async (c) =>
    ok(c, { trips: await listCompanyTrips(c.var.deps.db, c.req.valid('param').id, c.var.userId, c.var.deps.clock.now()) } satisfies CompanyTripsAnswer))
  .put('/:id/trips/:tripId', requireUser, validParams(CompanyTripParamSchema), validJson(ButlerRequestUpdateSchema), async (c) => {
    const { id, tripId } = c.req.valid('param');
    return ok(c, { butler_request: await updateButlerRequest(c.var.deps, c.var.userId, tripId, c.req.valid('json'), c.var.deps.clock.now(), { companyId: id }) } satisfies ButlerRequestAnswer);
  })
  .post('/:id/trips/:tripId/approval', requireUser, validParams(CompanyTripParamSchema), validJson(ApprovalDecisionSchema), async (c) => {
    const { id, tripId } = c.req.valid('param');
    return ok(c, { butler_request: await decideApproval(c.var.deps, id, c.var.userId, tripId, c.req.valid('json')) } satisfies ButlerRequestAnswer);
  });
