import { Hono } from 'hono';
import type { DispatchBoardAnswer, DispatchTripAnswer, DriverAnswer, DriverListAnswer, DriverProposalsAnswer, RunSheetAnswer, StaffTripRatingsAnswer } from '../../domain/dispatch';
import { staffTripRatings } from './ratings';
import { IdParamSchema } from '../../domain/schemas/catalogue';
import { AssignDriverSchema, DispatchBoardQuerySchema, DriverPatchSchema, DriverSchema, RunSheetQuerySchema } from '../../domain/schemas/dispatch';
import { ok, validJson, validParams, validQuery, type AppEnv } from '../http';
import { requireAdmin } from '../auth/guards';
import { assignDriver, createDriver, dispatchBoard, driverRatings, driverProposals, listDrivers, runSheet, unassignDriver, updateDriver } from './dispatch';
import { auditedAction } from '../audit/audit';
import { driverDayHandovers } from './driver-handovers';
import type { BoardHandover } from '../../domain/handover';
import { maskPhone } from '../../domain/driver-day';

/**
 * Butler dispatch for staff (staff or ADMIN_TOKEN; every write audited): the drivers, the
 * board of trips to staff, proposals and assignment of a driver to a trip, a driver's run sheet.
 */

/** Rows whose customer's number is shown as 010-****-5678 (maskPhone), for what leaves the console. */
const withMaskedPhones = <T extends { customer: { mobile: string | null } }>(rows: T[]): T[] => rows.map((r) => ({ ...r, customer: { ...r.customer, mobile: maskPhone(r.customer.mobile) } }));

export const adminDispatchRoutes = new Hono<AppEnv>()
  // What customers wrote about their trips ("기사님께 전하고 싶은 말"), newest first.
  .get('/trip-ratings', requireAdmin, async (c) => ok(c, { ratings: await staffTripRatings(c.var.deps.db) } satisfies StaffTripRatingsAnswer))
  .get('/drivers', requireAdmin, async (c) => ok(c, { drivers: await listDrivers(c.var.deps.db), ratings: await driverRatings(c.var.deps.db) } satisfies DriverListAnswer))
  .post('/drivers', requireAdmin, validJson(DriverSchema), async (c) => {
    const driver = await createDriver(c.var.deps.db, c.get('actor'), c.req.valid('json'));
    return ok(c, { driver } satisfies DriverAnswer, 201);
  })
  .patch('/drivers/:id', requireAdmin, validParams(IdParamSchema), validJson(DriverPatchSchema), async (c) => {
    const driver = await updateDriver(c.var.deps.db, c.get('actor'), c.req.valid('param').id, c.req.valid('json'));
    return ok(c, { driver } satisfies DriverAnswer);
  })
  .get('/dispatch', requireAdmin, validQuery(DispatchBoardQuerySchema), async (c) => {
    const { deps } = c.var;
    return ok(c, (await dispatchBoard(deps.db, c.req.valid('query'), deps.config.dispatch.bufferMinutes, deps.clock.now())) satisfies DispatchBoardAnswer);
  })
  .get('/dispatch/run-sheet', requireAdmin, validQuery(RunSheetQuerySchema), async (c) => {
    const { driver_id, date } = c.req.valid('query');
    const sheet = await runSheet(c.var.deps.db, driver_id, date, c.var.deps.clock.now());
    // The driver's 탁송·반납 of that day are on the same sheet. The sheet is printed and handed to the
    // driver: customers' numbers are masked as on /driver (the desk keeps them in full for staff).
    const handovers = await driverDayHandovers(c.var.deps.db, driver_id, date);
    return ok(c, { ...sheet, trips: withMaskedPhones(sheet.trips), handovers: withMaskedPhones(handovers) } satisfies RunSheetAnswer & { handovers: BoardHandover[] });
  })
  .get('/butler-requests/:id/driver-proposals', requireAdmin, validParams(IdParamSchema), async (c) => {
    const { deps } = c.var;
    return ok(c, { drivers: await driverProposals(deps.db, c.req.valid('param').id, deps.config.dispatch.bufferMinutes) } satisfies DriverProposalsAnswer);
  })
  .post('/butler-requests/:id/assign', requireAdmin, validParams(IdParamSchema), validJson(AssignDriverSchema), async (c) => {
    const { deps } = c.var;
    const { id } = c.req.valid('param');
    const { driver_id } = c.req.valid('json');
    const trip = await auditedAction(deps.db, c.get('actor'), { action: 'assign', entity: 'butler_request', entityId: id }, (tx) =>
      assignDriver(tx, id, driver_id, deps.config.dispatch.bufferMinutes, deps.clock.now()),
    );
    return ok(c, { trip } satisfies DispatchTripAnswer);
  })
  .delete('/butler-requests/:id/driver', requireAdmin, validParams(IdParamSchema), async (c) => {
    const { deps } = c.var;
    const { id } = c.req.valid('param');
    const trip = await auditedAction(deps.db, c.get('actor'), { action: 'unassign', entity: 'butler_request', entityId: id }, (tx) => unassignDriver(tx, id, deps.clock.now()));
    return ok(c, { trip } satisfies DispatchTripAnswer);
  });
