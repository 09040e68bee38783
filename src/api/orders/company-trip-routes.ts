import { Hono } from 'hono';
import type { ButlerRequestAnswer, CompanyTripsAnswer } from '../../domain/butler';
import { ButlerRequestUpdateSchema } from '../../domain/schemas/butler';
import { ApprovalDecisionSchema, CompanyIdParamSchema, CompanySubscriptionParamSchema, CompanyTripParamSchema } from '../../domain/schemas/company';
import { requireUser } from '../auth/guards';
import { ok, reservationWrites, validJson, validParams, type AppEnv } from '../http';
import { updateButlerRequest } from './butler-request-update';
import { decideApproval, listCompanyTrips } from './company-butler';
import type { CompanySubscriptionsAnswer } from '../../domain/company';
import { cancelCompanySubscriptionRequest, companyContract, listCompanySubscriptions } from './company-subscription';
import { contractFileName } from '../../domain/contract';
import { contractResponse } from './contracts';

/**
 * /companies/{id}/trips: the company's butler trips for its admins and bookers, their changes
 * (company-trip-edit.ts), and the admin's approvals; /companies/{id}/subscriptions: its
 * subscriptions for its admins.
 */
export const companyTripRoutes = new Hono<AppEnv>()
  .use('/:id/trips/*', reservationWrites)
  .use('/:id/subscriptions/*', reservationWrites)
  .get('/:id/trips', requireUser, validParams(CompanyIdParamSchema), async (c) =>
    ok(c, { trips: await listCompanyTrips(c.var.deps.db, c.req.valid('param').id, c.var.userId, c.var.deps.clock.now()) } satisfies CompanyTripsAnswer))
  .get('/:id/subscriptions', requireUser, validParams(CompanyIdParamSchema), async (c) =>
    ok(c, { subscriptions: await listCompanySubscriptions(c.var.deps.db, c.req.valid('param').id, c.var.userId, c.var.deps.clock.now()) } satisfies CompanySubscriptionsAnswer))
  .get('/:id/subscriptions/:requestId/contract', requireUser, validParams(CompanySubscriptionParamSchema), async (c) => {
    const { id, requestId } = c.req.valid('param');
    return contractResponse(await companyContract(c.var.deps, id, c.var.userId, requestId), contractFileName(requestId));
  })
  .put('/:id/trips/:tripId', requireUser, validParams(CompanyTripParamSchema), validJson(ButlerRequestUpdateSchema), async (c) => {
    const { id, tripId } = c.req.valid('param');
    return ok(c, { butler_request: await updateButlerRequest(c.var.deps, c.var.userId, tripId, c.req.valid('json'), c.var.deps.clock.now(), { companyId: id }) } satisfies ButlerRequestAnswer);
  })
  .delete('/:id/subscriptions/:requestId', requireUser, validParams(CompanySubscriptionParamSchema), async (c) => {
    const { id, requestId } = c.req.valid('param');
    return ok(c, { request: await cancelCompanySubscriptionRequest(c.var.deps, id, c.var.userId, requestId) });
  })
  .post('/:id/trips/:tripId/approval', requireUser, validParams(CompanyTripParamSchema), validJson(ApprovalDecisionSchema), async (c) => {
    const { id, tripId } = c.req.valid('param');
    return ok(c, { butler_request: await decideApproval(c.var.deps, id, c.var.userId, tripId, c.req.valid('json')) } satisfies ButlerRequestAnswer);
  });
