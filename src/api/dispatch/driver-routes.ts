import { Hono } from 'hono';
import type { DriverInviteAnswer, DriverStageAnswer, DriverTripsAnswer, TripPositionView } from '../../domain/driver-day';
import { IdParamSchema } from '../../domain/schemas/catalogue';
import { AcceptInviteSchema, NoticesReadSchema, PastTripsQuerySchema, PickupChangeSchema, TripChangeSchema, DriverInviteSchema, DriverStageParamSchema, DriverStageSchema, InviteCodeParamSchema, LocationConsentSchema, PositionSchema, StageCorrectionSchema, TestTripEarlierSchema } from '../../domain/schemas/driver-day';
import { ok, validJson, validParams, validQuery, type AppEnv } from '../http';
import { driverNoticeList, markNoticesRead } from '../notifications/driver-notices';
import { changePickup, changeTrip, previewTripChange } from './trip-change';
import { postGuestMessage, readGuestThread, type GuestThreadAnswer } from './guest-thread';
import { GuestThreadTokenSchema } from '../../domain/schemas/driver-day';
import type { TripChangeAnswer, TripChangePreview } from '../../domain/trip-change';
import type { DriverNoticesAnswer, DriverPastTripsAnswer } from '../../domain/driver-notices';
import { requireAdmin, requireFixtures, requireUser } from '../auth/guards';
import { requireDriver } from './driver-guard';
import { moveTripEarlier } from './test-trip';
import { ipLimit } from '../middleware/rate-limit';
import { acceptInvite, correctStages, driverPastTrips, driverTrips, inviteDriver, inviteInfo, postPosition, recordStage } from './driver-day';
import { driverHandovers } from './driver-handovers';
import { recordHandover } from './handover-record';
import { HandoverRecordSchema } from '../../domain/schemas/handover';
import type { DriverHandoversAnswer, HandoverRecordAnswer } from '../../domain/handover';
import { drivers } from '../db/schema';
import { eq } from 'drizzle-orm';
import type { HandoverPhotoAnswer } from '../../domain/handover';
import { addHandoverPhoto } from './handover-photos';
import { photoBody } from './handover-routes';
import { customerPosition, driverLocation, setConsents, staffPosition } from './location';
import { locationConsentTexts, type DriverLocationAnswer } from '../../domain/location';
import { TripMessageSchema, type TripMessageAnswer, type TripThreadAnswer } from '../../domain/trip-thread';
import { postMessage, readThread } from './trip-thread';
import type { Db } from '../db/client';

const MINUTE = 60_000;

/** The driver as the audit and the handover record name them. */
async function driverActor(db: Db, userId: number, driverId: number) {
  const [driver] = await db.select({ name: drivers.name }).from(drivers).where(eq(drivers.id, driverId));
  return { userId, name: `driver:${driver?.name ?? driverId}` };
}

/** What a staff change of a trip reckons with: the driver's gap between trips and the waiting rule. */
const changeOptions = (deps: AppEnv['Variables']['deps']) => ({ bufferMinutes: deps.config.dispatch.bufferMinutes, waiting: deps.config.payments.butlerWaiting });

/**
 * The driver's phone (/driver): accepting an invite, the driver's own trips, stage taps and the
 * live position. Every trip route is for the trip's own driver account (403 for customers, staff
 * sessions and other drivers).
 */
export const driverRoutes = new Hono<AppEnv>()
  .get('/invites/:code', ipLimit('driver-invite', 30, 10 * MINUTE), validParams(InviteCodeParamSchema), async (c) => {
    const { db, clock, config } = c.var.deps;
    // The optional 위치정보 consents the sign-up form shows (docs/decisions/legal.md §5).
    return ok(c, { invite: await inviteInfo(db, c.req.valid('param').code, clock.now()), location_texts: locationConsentTexts({ ...config.locationOfficer, company: config.company.name }) });
  })
  .post('/invites/accept', ipLimit('driver-invite', 30, 10 * MINUTE), validJson(AcceptInviteSchema), async (c) => {
    const { deps } = c.var;
    return ok(c, await acceptInvite(deps.db, deps.config, c.req.valid('json'), deps.clock.now()), 201);
  })
  .get('/trips', requireDriver, async (c) => ok(c, (await driverTrips(c.var.deps.db, c.var.userId, c.var.deps.clock.now(), c.var.deps.config.payments.butlerWaiting)) satisfies DriverTripsAnswer))
  .get('/trips/past', requireDriver, validQuery(PastTripsQuerySchema), async (c) =>
    ok(c, (await driverPastTrips(c.var.deps.db, c.var.userId, c.req.valid('query').page, c.var.deps.clock.now())) satisfies DriverPastTripsAnswer),
  )
  // 알림: what the driver was told (assigned, changed, unassigned, cancelled), their own only; read once the page shows them.
  .get('/notices', requireDriver, async (c) => ok(c, (await driverNoticeList(c.var.deps.db, c.var.driverId)) satisfies DriverNoticesAnswer))
  .post('/notices/read', requireDriver, validJson(NoticesReadSchema), async (c) => {
    const { db, clock } = c.var.deps;
    return ok(c, { marked: await markNoticesRead(db, c.var.driverId, c.req.valid('json').up_to_id, clock.now()) });
  })
  .post('/trips/:id/stages/:stage', requireDriver, validParams(DriverStageParamSchema), validJson(DriverStageSchema), async (c) => {
    const { id, stage } = c.req.valid('param');
    const answer = await recordStage(c.var.deps, c.var.userId, id, stage, c.req.valid('json').tapped_at);
    return ok(c, answer satisfies DriverStageAnswer, answer.recorded ? 201 : 200);
  })
  // 고객과 메시지: the assigned driver's thread with the customer (another driver's trip: 404); reading marks the customer's messages read.
  .get('/trips/:id/messages', requireDriver, validParams(IdParamSchema), async (c) => {
    const { db, clock } = c.var.deps;
    return ok(c, { thread: await readThread(db, { side: 'driver', userId: c.var.userId, driverId: c.var.driverId }, c.req.valid('param').id, clock.now()) } satisfies TripThreadAnswer);
  })
  .post('/trips/:id/messages', requireDriver, validParams(IdParamSchema), validJson(TripMessageSchema), async (c) => {
    const { db, clock } = c.var.deps;
    const answer = await postMessage(db, { side: 'driver', userId: c.var.userId, driverId: c.var.driverId }, c.req.valid('param').id, c.req.valid('json'), clock.now());
    return ok(c, answer satisfies TripMessageAnswer, answer.created ? 201 : 200);
  })
  // 위치정보: the driver's consents, the texts and who read their position (확인자료); give or withdraw (withdrawing deletes positions at once).
  .get('/location', requireDriver, async (c) => {
    const { db, config } = c.var.deps;
    return ok(c, (await driverLocation(db, config, c.var.driverId)) satisfies DriverLocationAnswer);
  })
  .put('/location/consents', requireDriver, validJson(LocationConsentSchema), async (c) => {
    const { db, config, clock } = c.var.deps;
    const { driverId } = c.var;
    await setConsents(db, driverId, c.var.userId, c.req.valid('json'), clock.now());
    return ok(c, (await driverLocation(db, config, driverId)) satisfies DriverLocationAnswer);
  })
  .post('/trips/:id/position', requireDriver, validParams(IdParamSchema), validJson(PositionSchema), async (c) =>
    ok(c, await postPosition(c.var.deps, c.var.userId, c.req.valid('param').id, c.req.valid('json'))),
  )
  // 탁송·반납 (docs/decisions/handover.md): the driver's own, and their record at the handover.
  .get('/handovers', requireDriver, async (c) => {
    return ok(c, { handovers: await driverHandovers(c.var.deps.db, c.var.driverId, c.var.deps.clock.now()) } satisfies DriverHandoversAnswer);
  })
  .post('/handovers/:id/record', requireDriver, validParams(IdParamSchema), validJson(HandoverRecordSchema), async (c) => {
    const { driverId, userId } = c.var;
    const actor = await driverActor(c.var.deps.db, userId, driverId);
    return ok(c, (await recordHandover(c.var.deps, actor, c.req.valid('param').id, c.req.valid('json'), { driverId })) satisfies HandoverRecordAnswer);
  })
  // 상태 사진: the handover's own driver adds condition photos (raw body; another driver 403).
  .post('/handovers/:id/photos', requireDriver, validParams(IdParamSchema), async (c) => {
    const { db, clock } = c.var.deps;
    const { driverId, userId } = c.var;
    const actor = await driverActor(db, userId, driverId);
    const { photo, created } = await addHandoverPhoto(db, actor, c.req.valid('param').id, () => photoBody(c), clock.now(), { driverId });
    return ok(c, { photo } satisfies HandoverPhotoAnswer, created ? 201 : 200);
  });

/**
 * The customer's live trip page: the driver's last shared position of their own active trip, and
 * the business clock's now (the page says how long ago the position was shared by it, not the phone's clock);
 * and the booking's message thread with its driver.
 */
export const tripPositionRoutes = new Hono<AppEnv>()
  .get('/requests/:id/position', requireUser, validParams(IdParamSchema), async (c) => {
    const now = c.var.deps.clock.now();
    return ok(c, { position: (await customerPosition(c.var.deps.db, c.var.userId, c.req.valid('param').id, now)) satisfies TripPositionView | null, now: now.toISOString() });
  })
  // 기사님과 메시지: the customer's own booking's thread with its driver (no numbers shown; another's: 404); reading marks the driver's messages read.
  .get('/requests/:id/messages', requireUser, validParams(IdParamSchema), async (c) =>
    ok(c, { thread: await readThread(c.var.deps.db, { side: 'customer', userId: c.var.userId }, c.req.valid('param').id, c.var.deps.clock.now()) } satisfies TripThreadAnswer),
  )
  .post('/requests/:id/messages', requireUser, validParams(IdParamSchema), validJson(TripMessageSchema), async (c) => {
    const answer = await postMessage(c.var.deps.db, { side: 'customer', userId: c.var.userId }, c.req.valid('param').id, c.req.valid('json'), c.var.deps.clock.now());
    return ok(c, answer satisfies TripMessageAnswer, answer.created ? 201 : 200);
  })
  // A company trip's guest reads its thread through their link's token (no login, no numbers).
  .get('/guest-thread/:token', validParams(GuestThreadTokenSchema), async (c) =>
    ok(c, (await readGuestThread(c.var.deps.db, c.var.deps.config.jwtSecret, c.req.valid('param').token, c.var.deps.clock.now())) satisfies GuestThreadAnswer))
  // The guest's reply through the same link: limited per address (counted before the token is checked) and per trip.
  .post('/guest-thread/:token/messages', ipLimit('guest-message', 20, 10 * MINUTE), validParams(GuestThreadTokenSchema), validJson(TripMessageSchema), async (c) => {
    const answer = await postGuestMessage(c.var.deps.db, c.var.deps.config.jwtSecret, c.req.valid('param').token, c.req.valid('json'), c.var.deps.clock.now());
    return ok(c, answer satisfies TripMessageAnswer, answer.created ? 201 : 200);
  });

/** Staff: invite a roster driver; correct a trip's recorded times (audited). */
export const adminDriverDayRoutes = new Hono<AppEnv>()
  .post('/drivers/:id/invite', requireAdmin, validParams(IdParamSchema), validJson(DriverInviteSchema), async (c) => {
    const invite = await inviteDriver(c.var.deps.db, c.get('actor'), c.req.valid('param').id, c.req.valid('json'), c.var.deps.clock.now());
    return ok(c, { invite } satisfies DriverInviteAnswer, 201);
  })
  // 배차 관제: the driver's last position of an active trip (with the driver's consent); each read is in the 확인자료.
  .get('/butler-requests/:id/position', requireAdmin, validParams(IdParamSchema), async (c) =>
    ok(c, { position: (await staffPosition(c.var.deps.db, c.get('actor'), c.req.valid('param').id, c.var.deps.clock.now())) satisfies TripPositionView | null }),
  )
  // 픽업 변경 (a late flight, an address): audited; the driver's board checked again; driver and customer told once.
  .patch('/butler-requests/:id/pickup', requireAdmin, validParams(IdParamSchema), validJson(PickupChangeSchema), async (c) => {
    const { deps } = c.var;
    const { trip, changed } = await changePickup(deps, c.get('actor'), c.req.valid('param').id, c.req.valid('json'), changeOptions(deps));
    return ok(c, { trip, changed });
  })
  // 운행 변경 (waypoints, flight number, times, addresses): what it changes and costs first, nothing saved.
  .post('/butler-requests/:id/trip/preview', requireAdmin, validParams(IdParamSchema), validJson(TripChangeSchema), async (c) =>
    ok(c, (await previewTripChange(c.var.deps, c.req.valid('param').id, c.req.valid('json'), { ...changeOptions(c.var.deps), action: 'change_trip' })) satisfies TripChangePreview),
  )
  // Saved for the price staff confirmed (difference charged or refunded), audited; driver and customer told once.
  .patch('/butler-requests/:id/trip', requireAdmin, validParams(IdParamSchema), validJson(TripChangeSchema), async (c) => {
    const { deps } = c.var;
    return ok(c, (await changeTrip(deps, c.get('actor'), c.req.valid('param').id, c.req.valid('json'), { ...changeOptions(deps), action: 'change_trip' })) satisfies TripChangeAnswer);
  })
  // 기사님과 메시지: staff read a trip's thread (not marking it read) and may write in it as LUXE 고객센터.
  .get('/butler-requests/:id/messages', requireAdmin, validParams(IdParamSchema), async (c) =>
    ok(c, { thread: await readThread(c.var.deps.db, { side: 'staff', userId: c.get('actor').userId }, c.req.valid('param').id, c.var.deps.clock.now()) } satisfies TripThreadAnswer),
  )
  .post('/butler-requests/:id/messages', requireAdmin, validParams(IdParamSchema), validJson(TripMessageSchema), async (c) => {
    const answer = await postMessage(c.var.deps.db, { side: 'staff', userId: c.get('actor').userId }, c.req.valid('param').id, c.req.valid('json'), c.var.deps.clock.now());
    return ok(c, answer satisfies TripMessageAnswer, answer.created ? 201 : 200);
  })
  .patch('/butler-requests/:id/stages', requireAdmin, validParams(IdParamSchema), validJson(StageCorrectionSchema), async (c) =>
    ok(c, await correctStages(c.var.deps, c.get('actor'), c.req.valid('param').id, c.req.valid('json'))),
  )
  // Test fixture (TEST_FIXTURES=on only): a booked trip moved back, so an e2e day can have passed without the shared clock.
  .post('/test-trip-earlier', requireFixtures, requireAdmin, validJson(TestTripEarlierSchema), async (c) => ok(c, await moveTripEarlier(c.var.deps.db, c.req.valid('json'))));
