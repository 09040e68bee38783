import { and, asc, desc, eq, gt, gte, inArray, isNotNull, lt, ne, sql, type SQL } from 'drizzle-orm';
import { MAX_TRIP_HOURS, tripDays } from '../../domain/butler';
import { addDays, HOUR_MS, koreaDayStart, todayInKorea } from '../../domain/dates';
import { customerCarName } from '../../domain/butler-own-car';
import { averageScore, driverSuits, driverWindow, tripStage, windowsOverlap, type DispatchTrip, type Driver, type DriverRatingSummary } from '../../domain/dispatch';
import type { DriverInput, DriverPatch } from '../../domain/schemas/dispatch';
import { inTransaction, type Db } from '../db/client';
import { butlerCars, butlerRequests, butlerWaypoints, drivers, models, tripRatings, users } from '../db/schema';
import { conflict, notFound, unprocessable } from '../errors';
import type { StaffActor } from '../auth/guards';
import { confirmInTransaction } from '../orders/butler-confirm';
import { recordAudit } from '../audit/audit';
import { handoverClashes } from './handover-busy';
import { rowTime } from '../jobs/clock';
import { tellDriver } from '../notifications/driver-notices';

/**
 * Butler dispatch: the drivers staff keep, the board of trips to staff, and the assignment of a
 * driver to a trip. A driver is never on two trips whose busy windows (the trip plus the
 * configured buffer each side, src/domain/dispatch.ts) overlap, nor on a trip and a 탁송·반납
 * (./handover-schedule.ts, ./swap-handovers.ts) at once: the assignment checks both after
 * locking the driver's row, so concurrent assignments of one driver take turns.
 */

type DriverRow = typeof drivers.$inferSelect;
type RequestRow = typeof butlerRequests.$inferSelect;

const driverNotFound = () => notFound('기사를 찾을 수 없습니다.');
const requestNotFound = () => notFound('요청을 찾을 수 없습니다.');
const cancelledRequest = () => conflict('취소된 의전 요청입니다.');

function toDriver(row: DriverRow): Driver {
  return {
    id: row.id,
    name: row.name,
    phone: row.phone,
    gender: row.gender,
    licence_classes: row.licenceClasses,
    active: row.active,
    days_off: row.daysOff,
    memo: row.memo,
    created_at: row.createdAt.toISOString(),
    modified_at: row.modifiedAt.toISOString(),
  };
}

/** GET /admin/drivers: active drivers first, then by name. */
export async function listDrivers(db: Db): Promise<Driver[]> {
  return (await db.select().from(drivers).orderBy(desc(drivers.active), asc(drivers.name), asc(drivers.id))).map(toDriver);
}

/** Each rated driver's average score (one decimal) and count of ratings, for the roster. */
export async function driverRatings(db: Db): Promise<DriverRatingSummary[]> {
  const rows = await db
    .select({ driverId: tripRatings.driverId, sum: sql<number>`sum(${tripRatings.score})::int`, count: sql<number>`count(*)::int` })
    .from(tripRatings)
    .where(isNotNull(tripRatings.driverId))
    .groupBy(tripRatings.driverId)
    .orderBy(asc(tripRatings.driverId));
  return rows.flatMap((r) => (r.driverId === null ? [] : [{ driver_id: r.driverId, average: averageScore(Number(r.sum), Number(r.count)) ?? 0, count: Number(r.count) }]));
}

export async function driverRow(db: Db, id: number, { lock = false }: { lock?: boolean } = {}): Promise<DriverRow> {
  const q = db.select().from(drivers).where(eq(drivers.id, id));
  const [row] = lock ? await q.for('update') : await q;
  if (!row) throw driverNotFound();
  return row;
}

/** POST /admin/drivers; audited. */
export async function createDriver(db: Db, actor: StaffActor, input: DriverInput): Promise<Driver> {
  return inTransaction(db, async (tx) => {
    const [row] = await tx
      .insert(drivers)
      .values({ name: input.name, phone: input.phone, gender: input.gender, licenceClasses: input.licence_classes, active: input.active, daysOff: input.days_off, memo: input.memo ?? null })
      .returning();
    const driver = toDriver(row);
    await recordAudit(tx, actor, { action: 'create', entity: 'driver', entityId: row.id, before: null, after: driver });
    return driver;
  });
}

/** PATCH /admin/drivers/{id}: only the fields sent change; audited (before/after). No delete: staff deactivate. */
export async function updateDriver(db: Db, actor: StaffActor, id: number, patch: DriverPatch): Promise<Driver> {
  return inTransaction(db, async (tx) => {
    const before = toDriver(await driverRow(tx, id, { lock: true }));
    const [row] = await tx
      .update(drivers)
      .set({
        name: patch.name, phone: patch.phone, gender: patch.gender, licenceClasses: patch.licence_classes,
        active: patch.active, daysOff: patch.days_off, memo: patch.memo, modifiedAt: rowTime(),
      })
      .where(eq(drivers.id, id))
      .returning();
    const after = toDriver(row);
    await recordAudit(tx, actor, { action: 'update', entity: 'driver', entityId: id, before, after });
    return after;
  });
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** Trips in board shape (car, customer, driver and waypoints joined), ordered by start. */
async function tripsWhere(db: Db, where: SQL | undefined, now: Date): Promise<DispatchTrip[]> {
  const rows = await db
    .select({
      r: butlerRequests,
      car: { id: butlerCars.id, sub_model: butlerCars.subModel, license_plate: butlerCars.licensePlate },
      model: models.name,
      customer: { name: users.name, mobile: users.mobile },
      driver: { id: drivers.id, name: drivers.name, phone: drivers.phone },
    })
    .from(butlerRequests)
    // A driver-only booking (own-car) has no fleet car: the customer's car stands in (customer_car).
    .leftJoin(butlerCars, eq(butlerCars.id, butlerRequests.butlerCarId))
    .leftJoin(models, eq(models.id, butlerCars.modelId))
    .innerJoin(users, eq(users.id, butlerRequests.userId))
    .leftJoin(drivers, eq(drivers.id, butlerRequests.driverId))
    .where(where)
    .orderBy(asc(butlerRequests.startAt), asc(butlerRequests.id));
  if (!rows.length) return [];
  const points = await db
    .select({ requestId: butlerWaypoints.butlerRequestId, address: butlerWaypoints.address, scheduledTime: butlerWaypoints.scheduledTime })
    .from(butlerWaypoints)
    .where(inArray(butlerWaypoints.butlerRequestId, rows.map(({ r }) => r.id)))
    .orderBy(asc(butlerWaypoints.position), asc(butlerWaypoints.id));
  return rows.map(({ r, car, model, customer, driver }) => {
    const stops = points.filter((w) => w.requestId === r.id);
    return {
      id: r.id,
      status: r.status,
      stage: tripStage({ status: r.status, driver_id: r.driverId, start_at: r.startAt, actual_start_at: r.actualStartAt, actual_end_at: r.actualEndAt, departed_at: r.departedAt, arrived_at: r.arrivedAt }, now),
      start_at: r.startAt.toISOString(),
      end_at: iso(r.endAt),
      start_location: r.startLocation,
      end_location: r.endLocation,
      way_points: stops.map((w) => w.address),
      waypoints: stops.map((w) => ({ address: w.address, scheduled_time: iso(w.scheduledTime) })),
      passenger_count: r.passengerCount,
      purpose: r.purpose,
      memo: r.memo,
      driver_preference: r.driverPreference,
      flight_number: r.flightNumber,
      car: r.customerCar || !car
        ? { id: 0, name: r.customerCar ? customerCarName(r.customerCar) : '', license_plate: r.customerCar?.plate ?? null }
        : { id: car.id, name: [model, car.sub_model].filter(Boolean).join(' '), license_plate: car.license_plate },
      customer_car: r.customerCar ?? null,
      customer: { name: customer.name ?? '', mobile: customer.mobile },
      driver: driver && r.driverId ? driver : null,
      actual_start_at: iso(r.actualStartAt),
      actual_end_at: iso(r.actualEndAt),
      departed_at: iso(r.departedAt),
      arrived_at: iso(r.arrivedAt),
    };
  });
}

export async function tripOf(db: Db, id: number, now: Date): Promise<DispatchTrip> {
  const [trip] = await tripsWhere(db, eq(butlerRequests.id, id), now);
  if (!trip) throw requestNotFound();
  return trip;
}

/** Trips starting on the Korean days [from, to). */
const startsWithin = (from: string, to: string) => and(gte(butlerRequests.startAt, koreaDayStart(from)), lt(butlerRequests.startAt, koreaDayStart(to)));

/** GET /admin/dispatch: non-cancelled trips starting on `days` Korean days from `from`, unassigned first, then by start; with every driver. */
export async function dispatchBoard(db: Db, q: { from?: string; days: number }, bufferMinutes: number, now: Date) {
  const from = q.from ?? todayInKorea(now);
  const to = addDays(from, q.days);
  const trips = await tripsWhere(db, and(ne(butlerRequests.status, 'CANCELLED'), startsWithin(from, to)), now);
  // A stable sort keeps the start order within each group.
  trips.sort((a, b) => Number(a.driver !== null) - Number(b.driver !== null));
  return { from, to, buffer_minutes: bufferMinutes, trips, drivers: await listDrivers(db) };
}

type TripTimes = Pick<RequestRow, 'id' | 'startAt' | 'endAt'>;

/**
 * Other live trips with a driver that fall within this trip's busy window (its times widened by
 * the buffer on both sides), with their driver: between two trips of one driver there is at least
 * the buffer. Only trips starting near enough to clash are read (a trip lasts at most MAX_TRIP_HOURS).
 */
export async function clashingTrips(db: Db, trip: TripTimes, bufferMinutes: number, driverId?: number): Promise<{ id: number; driverId: number; sameTime: boolean }[]> {
  const own = driverWindow(trip.startAt, trip.endAt, bufferMinutes);
  const reach = bufferMinutes * 60_000;
  const rows = await db
    .select({ id: butlerRequests.id, driverId: butlerRequests.driverId, startAt: butlerRequests.startAt, endAt: butlerRequests.endAt })
    .from(butlerRequests)
    .where(
      and(
        driverId === undefined ? isNotNull(butlerRequests.driverId) : eq(butlerRequests.driverId, driverId),
        ne(butlerRequests.id, trip.id),
        ne(butlerRequests.status, 'CANCELLED'),
        lt(butlerRequests.startAt, new Date(own.to.getTime() + reach)),
        gt(butlerRequests.startAt, new Date(own.from.getTime() - reach - MAX_TRIP_HOURS * HOUR_MS)),
      ),
    );
  const bare = driverWindow(trip.startAt, trip.endAt, 0);
  return rows.flatMap((r) => {
    const theirs = driverWindow(r.startAt, r.endAt, 0);
    // sameTime: the trips themselves overlap; otherwise only the gap between them is too short.
    return r.driverId !== null && windowsOverlap(own, theirs) ? [{ id: r.id, driverId: r.driverId, sameTime: windowsOverlap(bare, theirs) }] : [];
  });
}

export async function requestRow(db: Db, id: number, { lock = false }: { lock?: boolean } = {}): Promise<RequestRow> {
  const q = db.select().from(butlerRequests).where(eq(butlerRequests.id, id));
  const [row] = lock ? await q.for('update') : await q;
  if (!row) throw requestNotFound();
  return row;
}

const tripOfRow = (row: RequestRow) => ({ start_at: row.startAt, end_at: row.endAt, driver_preference: row.driverPreference });

/**
 * GET /admin/butler-requests/{id}/driver-proposals: active drivers who suit the trip (gender
 * preference, days off) and are free for its busy window; the assigned driver stays in the list
 * while still suitable. None for a cancelled request.
 */
export async function driverProposals(db: Db, id: number, bufferMinutes: number): Promise<Driver[]> {
  const row = await requestRow(db, id);
  if (row.status === 'CANCELLED') return [];
  const busy = new Set([...(await clashingTrips(db, row, bufferMinutes)), ...(await handoverClashes(db, driverWindow(row.startAt, row.endAt, 0), bufferMinutes))].map((t) => t.driverId));
  const candidates = await db.select().from(drivers).where(eq(drivers.active, true)).orderBy(asc(drivers.name), asc(drivers.id));
  return candidates.filter((d) => !busy.has(d.id) && driverSuits({ active: d.active, gender: d.gender, days_off: d.daysOff }, tripOfRow(row))).map(toDriver);
}

/**
 * POST /admin/butler-requests/{id}/assign, inside the caller's (audited) transaction. The
 * driver's row is locked first, so two assignments of one driver run one after the other and
 * the second sees the first's trip. A pending request is confirmed in the same transaction
 * (the confirm route's effects); another driver already on the trip is replaced.
 */
export async function assignDriver(tx: Db, id: number, driverId: number, bufferMinutes: number, now: Date): Promise<DispatchTrip> {
  const driver = await driverRow(tx, driverId, { lock: true });
  const row = await requestRow(tx, id, { lock: true });
  if (row.status === 'CANCELLED') throw cancelledRequest();
  if (!driver.active) throw unprocessable('근무하지 않는 기사입니다. 기사 정보에서 근무 상태를 확인해주세요.', { driver_id: ['근무하지 않는 기사입니다.'] });
  const offDays = tripDays(row.startAt, row.endAt).filter((day) => driver.daysOff.includes(day));
  if (offDays.length) throw unprocessable(`해당 기사의 휴무일입니다. (${offDays.join(', ')})`, { driver_id: [`휴무일: ${offDays.join(', ')}`] });
  await requireDriverFree(tx, row, driverId, bufferMinutes);
  if (row.status === 'PENDING') await confirmInTransaction(tx, id, now);
  if (row.driverId !== driverId) {
    await tx.update(butlerRequests).set({ driverId, dispatchedAt: now, modifiedAt: rowTime() }).where(eq(butlerRequests.id, id));
    // Both drivers are told, once per assignment (keyed by the trip, the driver and the row's version before it).
    await tellDriver(tx, now, { kind: 'assigned', butlerRequestId: id, driverId, key: `driver.trip_assigned:${id}:${driverId}:${row.modifiedAt.getTime()}` });
    if (row.driverId !== null) await tellUnassigned(tx, row, now);
  }
  return tripOf(tx, id, now);
}

/** The driver taken off a trip hears so once (keyed by the row's version before the change). */
async function tellUnassigned(tx: Db, row: RequestRow, now: Date) {
  if (row.driverId === null) return;
  await tellDriver(tx, now, { kind: 'unassigned', butlerRequestId: row.id, driverId: row.driverId, key: `driver.trip_unassigned:${row.id}:${row.driverId}:${row.modifiedAt.getTime()}` });
}

/**
 * 409 unless the driver is free for the trip's times: no other trip of theirs within the buffer
 * (the same time is its own message) and no 탁송·반납. Call with the driver's row locked.
 */
export async function requireDriverFree(tx: Db, row: TripTimes, driverId: number, bufferMinutes: number): Promise<void> {
  const clashes = await clashingTrips(tx, row, bufferMinutes, driverId);
  if (clashes.some((c) => c.sameTime)) throw conflict('해당 기사는 같은 시간대에 다른 운행이 배정되어 있습니다.');
  if (clashes.length) throw conflict(`해당 기사의 앞뒤 운행과 간격이 ${bufferMinutes}분보다 짧습니다. 운행 사이에는 이동과 준비를 위해 ${bufferMinutes}분 이상이 필요합니다.`);
  const handovers = await handoverClashes(tx, driverWindow(row.startAt, row.endAt, 0), bufferMinutes, { driverId });
  if (handovers.some((c) => c.sameTime)) throw conflict('해당 기사는 같은 시간대에 차량 탁송·반납 일정이 있습니다.');
  if (handovers.length) throw conflict(`해당 기사의 앞뒤 탁송·반납 일정과 간격이 ${bufferMinutes}분보다 짧습니다. 일정 사이에는 이동과 준비를 위해 ${bufferMinutes}분 이상이 필요합니다.`);
}

/** DELETE /admin/butler-requests/{id}/driver, inside the caller's (audited) transaction: the trip goes back to 접수. */
export async function unassignDriver(tx: Db, id: number, now: Date): Promise<DispatchTrip> {
  const row = await requestRow(tx, id, { lock: true });
  if (row.status === 'CANCELLED') throw cancelledRequest();
  if (row.driverId !== null) {
    await tx.update(butlerRequests).set({ driverId: null, dispatchedAt: null, modifiedAt: rowTime() }).where(eq(butlerRequests.id, id));
    await tellUnassigned(tx, row, now);
  }
  return tripOf(tx, id, now);
}

/** GET /admin/dispatch/run-sheet: one driver's live trips starting on one Korean day, by start. */
export async function runSheet(db: Db, driverId: number, date: string, now: Date) {
  const driver = toDriver(await driverRow(db, driverId));
  const trips = await tripsWhere(db, and(eq(butlerRequests.driverId, driverId), ne(butlerRequests.status, 'CANCELLED'), startsWithin(date, addDays(date, 1))), now);
  return { driver, date, trips };
}
