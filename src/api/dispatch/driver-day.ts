import { randomBytes } from 'node:crypto';
import { and, asc, desc, eq, gte, inArray, isNotNull, isNull, lt, or } from 'drizzle-orm';
import { addDays, HOUR_MS, koreaDayStart, todayInKorea } from '../../domain/dates';
import { tripStage } from '../../domain/dispatch';
import {
  CANCELLED_TRIPS_DAYS, DRIVER_INVITE_TTL_HOURS, DRIVER_STAGE_LABEL, DRIVER_STAGES, maskPhone, nextStage, POSITION_KEEP_MINUTES, previousStage, stageOrderProblem,
  type DriverStage, type DriverStageAnswer, type DriverTrip, type StageTimes,
} from '../../domain/driver-day';
import type { AcceptInviteInput, DriverInviteInput, StageCorrectionInput } from '../../domain/schemas/driver-day';
import { overtimeHours } from '../../domain/butler';
import { DRIVER_DAYS_AHEAD, PAST_TRIPS_DAYS, PAST_TRIPS_PAGE_SIZE, usedHours, type DriverPastTripsAnswer } from '../../domain/driver-notices';
import { withParticle } from '../../domain/korean';
import { paymentIds } from '../../domain/payments';
import { inTransaction, type Db } from '../db/client';
import { butlerCars, butlerRequests, butlerWaypoints, driverInvites, drivers, models, tripPositions, tripRatings, users } from '../db/schema';
import { conflict, forbidden, notFound, unprocessable } from '../errors';
import type { Config } from '../env';
import type { Deps } from '../http';
import { enqueue, type JobOutcome } from '../jobs/queue';
import { sha256 } from '../auth/tokens';
import type { StaffActor } from '../auth/guards';
import { recordAudit } from '../audit/audit';
import { emit } from '../notifications/events';
import { createDriverAccount, emailTaken } from '../accounts/accounts';
import { issueTokens, type TokenResult } from '../accounts/sessions';
import { customerCarName } from '../../domain/butler-own-car';
import { executeCharge } from '../billing/charges';
import { paymentById, toPaymentView } from '../billing/ledger';
import { recordOvertime, tripCar } from '../billing/butler-billing';
import type { PaymentView } from '../../domain/payments';
import type { WaitingPolicy } from '../../domain/waiting';
import { locationAllowed, setConsents } from './location';

/**
 * The day of a chauffeured trip (docs/decisions/driver-day.md): staff invite a roster driver, the
 * driver signs up and sees their own trips of today and tomorrow on /driver, and taps 출발 →
 * 도착 → 탑승 → 운행 종료. Each tap is recorded once per (trip, stage): a tap sent again (a
 * retry, a tap kept offline) answers the same record. 운행 종료 records the actual end and charges
 * the overtime once, by the rule staff's trip record uses (billing/butler-billing.ts).
 */

type RequestRow = typeof butlerRequests.$inferSelect;

/** Column of each stage. */
const COLUMN = { departed: 'departedAt', arrived: 'arrivedAt', boarded: 'actualStartAt', ended: 'actualEndAt' } as const satisfies Record<DriverStage, keyof RequestRow>;

const timesOf = (r: RequestRow): StageTimes => ({
  departed: r.departedAt?.toISOString() ?? null,
  arrived: r.arrivedAt?.toISOString() ?? null,
  boarded: r.actualStartAt?.toISOString() ?? null,
  ended: r.actualEndAt?.toISOString() ?? null,
});

/** How early before the booked start the driver may tap 출발. */
const DEPART_WINDOW_HOURS = 12;
/** How far back a tap's own time (a tap kept offline) is believed; older taps are recorded at arrival. */
const TAP_TRUST_HOURS = 12;

// ── Invites ─────────────────────────────────────────────────────────────────

/**
 * POST /admin/drivers/{id}/invite (audited): a single-use code valid DRIVER_INVITE_TTL_HOURS,
 * sent as a link to /driver by 알림톡 (the roster's number unless another is given) or email.
 * Earlier unused invites of the driver stop working. 409 when the driver already has an account.
 */
export async function inviteDriver(db: Db, actor: StaffActor, driverId: number, input: DriverInviteInput, now: Date) {
  return inTransaction(db, async (tx) => {
    const [driver] = await tx.select().from(drivers).where(eq(drivers.id, driverId)).for('update');
    if (!driver) throw notFound('기사를 찾을 수 없습니다.');
    if (!driver.active) throw unprocessable('근무하지 않는 기사는 초대할 수 없습니다.', { driver_id: ['근무하지 않는 기사입니다.'] });
    const [account] = await tx.select({ id: users.id }).from(users).where(and(eq(users.driverId, driverId), isNull(users.deletedAt)));
    if (account) throw conflict('이미 계정이 있는 기사입니다. 기사 본인이 로그인하면 됩니다.');
    const address = input.channel === 'email' ? input.email : (input.phone ?? driver.phone);
    const code = randomBytes(32).toString('base64url');
    // One live invite per driver: a new one voids the ones before it.
    await tx.update(driverInvites).set({ expiresAt: now }).where(and(eq(driverInvites.driverId, driverId), isNull(driverInvites.usedAt), gte(driverInvites.expiresAt, now)));
    const [row] = await tx
      .insert(driverInvites)
      .values({ driverId, channel: input.channel, address, codeHash: sha256(code), expiresAt: new Date(now.getTime() + DRIVER_INVITE_TTL_HOURS * HOUR_MS), createdAt: now })
      .returning();
    await emit(tx, `driver.invited:${row.id}`, { type: 'driver.invited', inviteId: row.id, code }, now);
    const invite = { id: row.id, channel: row.channel, address: row.address, expires_at: row.expiresAt.toISOString() };
    await recordAudit(tx, actor, { action: 'invite', entity: 'driver', entityId: driverId, before: null, after: invite });
    return invite;
  });
}

async function liveInvite(db: Db, code: string, now: Date, lock = false) {
  const q = db.select({ invite: driverInvites, driver: drivers }).from(driverInvites).innerJoin(drivers, eq(drivers.id, driverInvites.driverId)).where(eq(driverInvites.codeHash, sha256(code)));
  const [row] = lock ? await q.for('update', { of: driverInvites }) : await q;
  if (!row) throw notFound('초대 링크가 올바르지 않습니다. 직원에게 새 초대를 요청해주세요.');
  if (row.invite.usedAt) throw conflict('이미 사용된 초대 링크입니다. 만든 계정으로 로그인해주세요.');
  if (row.invite.expiresAt <= now) throw conflict('초대 링크가 만료되었습니다. 직원에게 새 초대를 요청해주세요.');
  return row;
}

/** GET /driver/invites/{code}: the driver's name and, for an email invite, the email they sign in with. */
export async function inviteInfo(db: Db, code: string, now: Date) {
  const { invite, driver } = await liveInvite(db, code, now);
  return { driver_name: driver.name, channel: invite.channel, email: invite.channel === 'email' ? invite.address : null, expires_at: invite.expiresAt.toISOString() };
}

/**
 * POST /driver/invites/accept: makes the driver's account (role 'driver') and signs in. The invite
 * row is locked and marked used in the same transaction, so of two accepts exactly one succeeds.
 * An email invite signs in with that email; a phone invite asks for one.
 */
export async function acceptInvite(db: Db, config: Config, input: AcceptInviteInput, now: Date): Promise<TokenResult> {
  const user = await inTransaction(db, async (tx) => {
    const { invite, driver } = await liveInvite(tx, input.code, now, true);
    const email = invite.channel === 'email' ? invite.address : input.email;
    if (!email) throw unprocessable('로그인에 쓸 이메일을 입력해주세요.', { email: ['이메일을 입력해주세요.'] });
    if (await emailTaken(tx, email)) throw conflict('이미 사용 중인 이메일입니다. 다른 이메일을 입력해주세요.', { email: ['이미 사용 중인 이메일입니다.'] });
    const [account] = await tx.select({ id: users.id }).from(users).where(eq(users.driverId, driver.id));
    if (account) throw conflict('이미 계정이 있는 기사입니다. 로그인해주세요.');
    const row = await createDriverAccount(tx, { email, password: input.password, name: driver.name, mobile: driver.phone, driverId: driver.id });
    await tx.update(driverInvites).set({ usedAt: now, userId: row.id }).where(eq(driverInvites.id, invite.id));
    // The optional 위치정보 consents, each on its own (the third party needs the terms: 422).
    if (input.location_terms || input.location_third_party) await setConsents(tx, driver.id, row.id, { terms: Boolean(input.location_terms), third_party: Boolean(input.location_third_party) }, now);
    return row;
  });
  return issueTokens(db, config, user);
}

// ── The driver's trips ──────────────────────────────────────────────────────

/** The roster id of a signed-in driver account; 403 for any other account. */
export async function driverIdOf(db: Db, userId: number): Promise<number> {
  const [u] = await db.select({ role: users.role, driverId: users.driverId }).from(users).where(eq(users.id, userId));
  if (u?.role !== 'driver' || !u.driverId) throw forbidden('기사 계정으로 로그인해주세요.');
  return u.driverId;
}

async function driverTripsWhere(db: Db, where: ReturnType<typeof and>, now: Date): Promise<DriverTrip[]> {
  const rows = await db
    .select({ r: butlerRequests, model: models.name, subModel: butlerCars.subModel, plate: butlerCars.licensePlate, name: users.name, mobile: users.mobile })
    .from(butlerRequests)
    // A driver-only booking (own-car) has no fleet car: the driver is shown the customer's car.
    .leftJoin(butlerCars, eq(butlerCars.id, butlerRequests.butlerCarId))
    .leftJoin(models, eq(models.id, butlerCars.modelId))
    .innerJoin(users, eq(users.id, butlerRequests.userId))
    .where(where)
    .orderBy(asc(butlerRequests.startAt), asc(butlerRequests.id));
  if (!rows.length) return [];
  const points = await db.select().from(butlerWaypoints).where(inArray(butlerWaypoints.butlerRequestId, rows.map(({ r }) => r.id))).orderBy(asc(butlerWaypoints.position), asc(butlerWaypoints.id));
  return rows.map(({ r, model, subModel, plate, name, mobile }) => {
    const times = timesOf(r);
    return {
      id: r.id,
      stage: tripStage({ status: r.status, driver_id: r.driverId, start_at: r.startAt, actual_start_at: r.actualStartAt, actual_end_at: r.actualEndAt, departed_at: r.departedAt, arrived_at: r.arrivedAt }, now),
      start_at: r.startAt.toISOString(),
      end_at: r.endAt?.toISOString() ?? null,
      start_location: r.startLocation,
      end_location: r.endLocation,
      way_points: points.filter((w) => w.butlerRequestId === r.id).map((w) => ({ address: w.address, scheduled_time: w.scheduledTime?.toISOString() ?? null })),
      passenger_count: r.passengerCount,
      purpose: r.purpose,
      memo: r.memo,
      flight_number: r.flightNumber,
      // A company trip's passenger is the guest the booker named, not the booker.
      passenger: { name: r.guestName ?? name ?? '고객', phone_masked: maskPhone(r.guestPhone ?? mobile) },
      car: r.customerCar ? { name: customerCarName(r.customerCar), license_plate: r.customerCar.plate } : { name: [model, subModel].filter(Boolean).join(' '), license_plate: plate },
      times,
      next_stage: nextStage(times),
    };
  });
}

/**
 * GET /driver/trips: the driver's confirmed trips starting today and the next 7 days
 * (DRIVER_DAYS_AHEAD Korean days; the page groups them by day), and
 * any of theirs already under way (출발 tapped, not ended) from before, by start.
 */
export async function driverTrips(db: Db, userId: number, now: Date, waiting: WaitingPolicy) {
  const driverId = await driverIdOf(db, userId);
  const [driver] = await db.select({ id: drivers.id, name: drivers.name }).from(drivers).where(eq(drivers.id, driverId));
  const today = todayInKorea(now);
  const trips = await driverTripsWhere(
    db,
    and(
      eq(butlerRequests.driverId, driverId),
      eq(butlerRequests.status, 'CONFIRMED'),
      or(
        and(gte(butlerRequests.startAt, koreaDayStart(today)), lt(butlerRequests.startAt, koreaDayStart(addDays(today, DRIVER_DAYS_AHEAD)))),
        and(isNotNull(butlerRequests.departedAt), isNull(butlerRequests.actualEndAt), gte(butlerRequests.startAt, koreaDayStart(addDays(today, -3)))),
      ),
    ),
    now,
  );
  const cancelled = await db
    .select({ id: butlerRequests.id, startAt: butlerRequests.startAt, startLocation: butlerRequests.startLocation, modifiedAt: butlerRequests.modifiedAt })
    .from(butlerRequests)
    .where(and(eq(butlerRequests.driverId, driverId), eq(butlerRequests.status, 'CANCELLED'), gte(butlerRequests.startAt, koreaDayStart(today)), lt(butlerRequests.startAt, koreaDayStart(addDays(today, CANCELLED_TRIPS_DAYS)))))
    .orderBy(asc(butlerRequests.startAt));
  return {
    driver, today, trips,
    cancelled: cancelled.map((c) => ({ id: c.id, start_at: c.startAt.toISOString(), start_location: c.startLocation, cancelled_at: c.modifiedAt.toISOString() })),
    now: now.toISOString(),
    waiting_policy: { airport_free_minutes: waiting.airportFreeMinutes, free_minutes: waiting.freeMinutes, step_minutes: waiting.stepMinutes },
  };
}

/**
 * GET /driver/trips/past?page=: the driver's own trips that started in the last PAST_TRIPS_DAYS
 * days (before now, cancelled ones included as such), newest first, PAST_TRIPS_PAGE_SIZE a page,
 * each with its record (도착, 탑승, 운행 종료, the hours used) and the customer's rating if any.
 */
export async function driverPastTrips(db: Db, userId: number, page: number, now: Date): Promise<DriverPastTripsAnswer> {
  const driverId = await driverIdOf(db, userId);
  const rows = await db
    .select({ r: butlerRequests, score: tripRatings.score })
    .from(butlerRequests)
    .leftJoin(tripRatings, eq(tripRatings.butlerRequestId, butlerRequests.id))
    .where(and(eq(butlerRequests.driverId, driverId), lt(butlerRequests.startAt, now), gte(butlerRequests.startAt, koreaDayStart(addDays(todayInKorea(now), -PAST_TRIPS_DAYS)))))
    .orderBy(desc(butlerRequests.startAt), desc(butlerRequests.id))
    .limit(PAST_TRIPS_PAGE_SIZE + 1)
    .offset((page - 1) * PAST_TRIPS_PAGE_SIZE);
  return {
    page,
    has_more: rows.length > PAST_TRIPS_PAGE_SIZE,
    trips: rows.slice(0, PAST_TRIPS_PAGE_SIZE).map(({ r, score }) => {
      const times = timesOf(r);
      return {
        id: r.id, start_at: r.startAt.toISOString(), start_location: r.startLocation, end_location: r.endLocation, status: r.status,
        times: { arrived: times.arrived, boarded: times.boarded, ended: times.ended }, used_hours: usedHours(times.boarded, times.ended), rating: score ?? null,
      };
    }),
  };
}

/** One trip as its driver sees it; another driver's (or a customer asking) is 403, an unknown id 404. */
async function ownTripRow(db: Db, driverId: number, tripId: number, lock = false): Promise<RequestRow> {
  const q = db.select().from(butlerRequests).where(eq(butlerRequests.id, tripId));
  const [row] = lock ? await q.for('update') : await q;
  if (!row) throw notFound('운행을 찾을 수 없습니다.');
  if (row.driverId !== driverId) throw forbidden('배정된 기사만 볼 수 있는 운행입니다.');
  return row;
}

/** The time a tap is recorded at: its own time when sent later (kept offline) and believable, else now; never before the previous stage. */
function tapTime(tappedAt: string | undefined, previous: Date | null, now: Date): Date {
  const own = tappedAt ? new Date(tappedAt) : null;
  let at = own && own <= now && own.getTime() >= now.getTime() - TAP_TRUST_HOURS * HOUR_MS ? own : now;
  if (previous && at < previous) at = now < previous ? previous : now;
  return at;
}

async function overtimeAnswer(db: Db, row: RequestRow): Promise<{ amount: number; hours: number; payment: PaymentView | null }> {
  const payment = await paymentById(db, paymentIds.butlerOvertime(row.id));
  return {
    amount: payment?.amount ?? 0,
    hours: row.actualStartAt && row.actualEndAt ? overtimeHours(row.actualStartAt, row.actualEndAt) : 0,
    payment: payment ? toPaymentView(payment) : null,
  };
}

/**
 * POST /driver/trips/{id}/stages/{stage}: records the tap once. Idempotent per (trip, stage): a
 * stage already recorded answers the record as it stands (`recorded: false`), so a retried or
 * offline-kept tap never records twice. Out of order is 409 in Korean. 출발 tells the customer
 * (알림톡 "기사님이 출발했습니다"); 운행 종료 records the end and the overtime charge in one
 * transaction and sends the charge after it (a charge left PENDING by a crash is sent again by
 * the next tap of 운행 종료, under the same payment id).
 */
export async function recordStage(deps: Deps, userId: number, tripId: number, stage: DriverStage, tappedAt: string | undefined): Promise<DriverStageAnswer> {
  const driverId = await driverIdOf(deps.db, userId);
  const now = deps.clock.now();
  const result = await inTransaction(deps.db, async (tx) => {
    const row = await ownTripRow(tx, driverId, tripId, true);
    if (row.status === 'CANCELLED') throw conflict('취소된 운행입니다.');
    if (row.status !== 'CONFIRMED') throw conflict('확정되지 않은 예약입니다. 직원에게 확인해주세요.');
    const times = timesOf(row);
    if (times[stage]) return { recorded: false };
    const before = previousStage(stage);
    if (before && !times[before]) throw conflict(`${withParticle(DRIVER_STAGE_LABEL[before], '을/를')} 먼저 눌러주세요. 출발 → 도착 → 탑승 → 운행 종료 순서로 기록합니다.`);
    const later = DRIVER_STAGES.slice(DRIVER_STAGES.indexOf(stage) + 1).find((s) => times[s]);
    if (later) throw conflict(`이미 ${DRIVER_STAGE_LABEL[later]}까지 기록된 운행입니다.`);
    if (stage === 'departed' && now.getTime() < row.startAt.getTime() - DEPART_WINDOW_HOURS * HOUR_MS) {
      throw conflict(`출발은 운행 시작 ${DEPART_WINDOW_HOURS}시간 전부터 기록할 수 있습니다.`);
    }
    const previous = before ? new Date(times[before]!) : null;
    let at = tapTime(tappedAt, previous, now);
    // 운행 종료 must come after 탑승 (the overtime is priced on the span between them).
    if (stage === 'ended' && previous && at.getTime() <= previous.getTime()) at = new Date(previous.getTime() + 1000);
    if (stage === 'ended' && (await paymentById(tx, paymentIds.butlerOvertime(row.id)))) throw conflict('이미 초과 요금을 정산한 예약입니다.');
    await tx.update(butlerRequests).set({ [COLUMN[stage]]: at, modifiedAt: now }).where(eq(butlerRequests.id, row.id));
    if (stage === 'departed') {
      await emit(tx, `butler.driver_departed:${row.id}`, { type: 'butler.driver_departed', userId: row.userId, butlerRequestId: row.id }, now);
      await schedulePositionPurge(tx, row.id, at);
    }
    if (stage === 'ended') {
      const car = await tripCar(tx, row, todayInKorea(now));
      await recordOvertime(tx, deps.payments.name, car, row, { start: row.actualStartAt!, end: at }, now, deps.config.payments.butlerWaiting);
      await schedulePositionPurge(tx, row.id, at);
    }
    return { recorded: true };
  });
  if (stage === 'ended') {
    const pending = await paymentById(deps.db, paymentIds.butlerOvertime(tripId));
    if (pending?.status === 'PENDING') await executeCharge(deps, pending.id, pending);
  }
  const row = await ownTripRow(deps.db, driverId, tripId);
  const [trip] = await driverTripsWhere(deps.db, and(eq(butlerRequests.id, tripId)), now);
  const overtime = row.actualEndAt ? await overtimeAnswer(deps.db, row) : null;
  return { trip, recorded: result.recorded, overtime: overtime && { amount: overtime.amount, hours: overtime.hours } };
}

/**
 * PATCH /admin/butler-requests/{id}/stages (audited, with a reason): staff correct recorded times
 * (null clears one). The result must stay in order and not lie in the future. 탑승/운행 종료 cannot
 * change once an overtime charge exists (a refund adjusts money); setting 운행 종료 on a trip
 * without one charges the overtime as the driver's tap would.
 */
export async function correctStages(deps: Deps, actor: StaffActor, tripId: number, input: StageCorrectionInput) {
  const now = deps.clock.now();
  const fields = { departed: input.departed_at, arrived: input.arrived_at, boarded: input.boarded_at, ended: input.ended_at } satisfies Record<DriverStage, string | null | undefined>;
  await inTransaction(deps.db, async (tx) => {
    const [row] = await tx.select().from(butlerRequests).where(eq(butlerRequests.id, tripId)).for('update');
    if (!row) throw notFound('요청을 찾을 수 없습니다.');
    if (row.status !== 'CONFIRMED') throw conflict('확정된 예약만 운행 기록을 고칠 수 있습니다.');
    const before = timesOf(row);
    const after: StageTimes = { ...before };
    for (const s of DRIVER_STAGES) if (fields[s] !== undefined) after[s] = fields[s] ? new Date(fields[s]).toISOString() : null;
    for (const s of DRIVER_STAGES) {
      if (after[s] && Date.parse(after[s]) > now.getTime()) throw unprocessable(`${DRIVER_STAGE_LABEL[s]} 시각이 아직 오지 않았습니다.`, { [`${s}_at`]: ['아직 오지 않은 시각입니다.'] });
    }
    const problem = stageOrderProblem(after);
    if (problem) throw unprocessable(problem);
    const moneyChanged = after.boarded !== before.boarded || after.ended !== before.ended;
    const charged = await paymentById(tx, paymentIds.butlerOvertime(row.id));
    if (moneyChanged && charged) throw conflict('이미 초과 요금을 정산한 예약입니다. 탑승·종료 시각은 바꿀 수 없고, 금액은 환불로 조정해주세요.');
    const date = (v: string | null) => (v ? new Date(v) : null);
    await tx
      .update(butlerRequests)
      .set({ departedAt: date(after.departed), arrivedAt: date(after.arrived), actualStartAt: date(after.boarded), actualEndAt: date(after.ended), modifiedAt: now })
      .where(eq(butlerRequests.id, row.id));
    if (after.ended && after.boarded && after.ended !== before.ended) {
      const car = await tripCar(tx, row, todayInKorea(now));
      await recordOvertime(tx, deps.payments.name, car, row, { start: new Date(after.boarded), end: new Date(after.ended), arrived: after.arrived ? new Date(after.arrived) : null }, now, deps.config.payments.butlerWaiting);
      await schedulePositionPurge(tx, row.id, new Date(after.ended));
    }
    await recordAudit(tx, actor, { action: 'correct_stages', entity: 'butler_request', entityId: row.id, before, after: { ...after, reason: input.reason } });
  });
  const pending = await paymentById(deps.db, paymentIds.butlerOvertime(tripId));
  if (pending?.status === 'PENDING') await executeCharge(deps, pending.id, pending);
  const [row] = await deps.db.select().from(butlerRequests).where(eq(butlerRequests.id, tripId));
  const overtime = await overtimeAnswer(deps.db, row);
  return { times: timesOf(row), overtime };
}

// ── Live position ───────────────────────────────────────────────────────────

export const POSITION_PURGE_JOB = 'trip-positions.purge';

/**
 * Schedules the purge of the trip's position (one job per trip, from 출발 on): the job looks again
 * until the trip has ended (or was cancelled) and the keep time has passed, then deletes it.
 */
async function schedulePositionPurge(tx: Db, tripId: number, from: Date) {
  await enqueue(tx, { kind: POSITION_PURGE_JOB, key: `${POSITION_PURGE_JOB}:${tripId}`, payload: { butlerRequestId: tripId }, runAt: new Date(from.getTime() + POSITION_KEEP_MINUTES * 60_000) });
}

/**
 * The purge job: a trip ended (or cancelled) POSITION_KEEP_MINUTES ago or more loses its position;
 * a trip still under way is looked at again later. Positions of other trips past their time go too
 * (in case a job was lost).
 */
export async function purgePositions(db: Db, tripId: number | null, now: Date): Promise<JobOutcome> {
  const keep = POSITION_KEEP_MINUTES * 60_000;
  const cutoff = new Date(now.getTime() - keep);
  const stale = db.select({ id: butlerRequests.id }).from(butlerRequests).where(or(lt(butlerRequests.actualEndAt, cutoff), eq(butlerRequests.status, 'CANCELLED')));
  await db.delete(tripPositions).where(inArray(tripPositions.butlerRequestId, stale));
  if (!tripId) return;
  const [row] = await db.select({ status: butlerRequests.status, endedAt: butlerRequests.actualEndAt }).from(butlerRequests).where(eq(butlerRequests.id, tripId));
  if (!row || row.status === 'CANCELLED') return;
  if (!row.endedAt) return { runAgainAt: new Date(now.getTime() + keep) };
  if (row.endedAt.getTime() + keep > now.getTime()) return { runAgainAt: new Date(row.endedAt.getTime() + keep) };
  await db.delete(tripPositions).where(eq(tripPositions.butlerRequestId, tripId));
}

/**
 * POST /driver/trips/{id}/position: the driver's page shares the browser's position while the trip
 * is active (출발 tapped, 운행 종료 not); one row per trip, replaced by each post. 409 otherwise.
 */
export async function postPosition(deps: Deps, userId: number, tripId: number, p: { lat: number; lng: number; accuracy?: number | null }) {
  const driverId = await driverIdOf(deps.db, userId);
  const row = await ownTripRow(deps.db, driverId, tripId);
  if (row.status !== 'CONFIRMED' || !row.departedAt || row.actualEndAt) throw conflict('운행 중에만 위치를 공유합니다.');
  // No collection without the driver's consent to the 위치기반서비스 이용약관 (docs/decisions/legal.md §5).
  if (!(await locationAllowed(deps.db, driverId)).collect) throw conflict('위치 공유가 꺼져 있습니다. 위치정보 이용약관에 동의하면 운행 중 위치를 공유합니다.');
  const now = deps.clock.now();
  const values = { butlerRequestId: tripId, driverId, lat: p.lat, lng: p.lng, accuracy: p.accuracy ?? null, recordedAt: now };
  await deps.db.insert(tripPositions).values(values).onConflictDoUpdate({ target: tripPositions.butlerRequestId, set: { lat: values.lat, lng: values.lng, accuracy: values.accuracy, recordedAt: now } });
  return { recorded_at: now.toISOString() };
}
