import { and, asc, desc, eq, gte, inArray, isNull, lt, sql } from 'drizzle-orm';
import { addDays, koreaDayStart, todayInKorea } from '../../domain/dates';
import {
  continuesReadSession, LOCATION_CONSENT_KINDS, LOCATION_CONSENT_VERSION, LOCATION_PURPOSE, locationConsentTexts, locationLogCutoff, locationNoticeDue,
  type DriverLocationAnswer, type LocationAccessView, type LocationConsentKind, type LocationReaderRole,
} from '../../domain/location';
import type { TripPositionView } from '../../domain/driver-day';
import { inTransaction, type Db } from '../db/client';
import { butlerRequests, driverLocationConsents, locationAccessLog, tripPositions, users } from '../db/schema';
import { notFound, unprocessable } from '../errors';
import type { Config } from '../env';
import { enqueue, type JobOutcome } from '../jobs/queue';
import { emit } from '../notifications/events';
import type { StaffActor } from '../auth/guards';

/**
 * 위치정보 of the driver (docs/decisions/legal.md §5): the driver's two optional consents, the
 * 확인자료 row written by every read of a position by a customer or staff, and the daily job that
 * purges rows past their keep time and sends the 30-day batch notice of reads.
 */

type ConsentRow = typeof driverLocationConsents.$inferSelect;

/** The driver's live consents (the newest not withdrawn of each kind). */
async function liveConsents(db: Db, driverId: number): Promise<Record<LocationConsentKind, ConsentRow | null>> {
  const rows = await db
    .select()
    .from(driverLocationConsents)
    .where(and(eq(driverLocationConsents.driverId, driverId), isNull(driverLocationConsents.withdrawnAt)))
    .orderBy(desc(driverLocationConsents.agreedAt), desc(driverLocationConsents.id));
  return { terms: rows.find((r) => r.kind === 'terms') ?? null, third_party: rows.find((r) => r.kind === 'third_party') ?? null };
}

/** Whether the driver's position may be collected (terms) and shown to the trip's customer (terms and third_party). */
export async function locationAllowed(db: Db, driverId: number): Promise<{ collect: boolean; provide: boolean }> {
  const c = await liveConsents(db, driverId);
  return { collect: Boolean(c.terms), provide: Boolean(c.terms && c.third_party) };
}

/** The key of the daily job of a Korean day (one chain: each run queues the next day's). */
const DAILY_JOB = 'location.daily';
const dailyKey = (day: string) => `${DAILY_JOB}:${day}`;
export const LOCATION_DAILY_JOB = DAILY_JOB;

/** Queues the daily purge-and-notice job for the next Korean day at 04:00 (idempotent per day). */
async function scheduleDaily(tx: Db, now: Date) {
  const day = addDays(todayInKorea(now), 1);
  await enqueue(tx, { kind: DAILY_JOB, key: dailyKey(day), runAt: new Date(koreaDayStart(day).getTime() + 4 * 3600_000) });
}

/**
 * Gives and withdraws the driver's consents: `true` gives one not yet live (stored with its
 * version and time), `false` withdraws a live one. The third-party consent needs the terms (422).
 * Withdrawing deletes the driver's stored positions at once and the 확인자료 of what was withdrawn
 * (위치정보법 제24조제4항): every row for the terms, the customers' reads for the third party.
 */
export async function setConsents(db: Db, driverId: number, userId: number | null, want: Partial<Record<LocationConsentKind, boolean>>, now: Date) {
  const next = { ...want };
  // Withdrawing the terms withdraws the third party too (nothing is collected to provide).
  if (next.terms === false && next.third_party === undefined) next.third_party = false;
  return inTransaction(db, async (tx) => {
    const live = await liveConsents(tx, driverId);
    const will = (k: LocationConsentKind) => next[k] ?? Boolean(live[k]);
    if (will('third_party') && !will('terms')) {
      throw unprocessable('고객에게 위치를 보여주려면 위치기반서비스 이용약관에도 동의해야 합니다.', { third_party: ['위치기반서비스 이용약관 동의가 필요합니다.'] });
    }
    const withdrawn: LocationConsentKind[] = [];
    for (const kind of LOCATION_CONSENT_KINDS) {
      if (next[kind] === true && !live[kind]) {
        await tx.insert(driverLocationConsents).values({ driverId, userId, kind, version: LOCATION_CONSENT_VERSION[kind], agreedAt: now });
      }
      if (next[kind] === false && live[kind]) withdrawn.push(kind);
    }
    if (withdrawn.length) {
      await tx
        .update(driverLocationConsents)
        .set({ withdrawnAt: now })
        .where(and(eq(driverLocationConsents.driverId, driverId), inArray(driverLocationConsents.kind, withdrawn), isNull(driverLocationConsents.withdrawnAt)));
      await tx.delete(tripPositions).where(eq(tripPositions.driverId, driverId));
      const logs = withdrawn.includes('terms') ? eq(locationAccessLog.driverId, driverId) : and(eq(locationAccessLog.driverId, driverId), eq(locationAccessLog.readerRole, 'customer'));
      await tx.delete(locationAccessLog).where(logs);
    }
    if (next.terms || next.third_party) await scheduleDaily(tx, now);
    return { withdrawn };
  });
}

interface LocationReader {
  userId: number | null;
  role: LocationReaderRole;
  /** What the driver is shown (예약 고객, or the staff account). */
  label: string;
  purpose: string;
}

/**
 * Writes the 확인자료 of one read of a driver's position: a read by the same reader of the same
 * trip within LOCATION_READ_SESSION_MINUTES of the row's last read moves that row (last time,
 * count); otherwise a new row. So the trip page's 10-second polling is one row per viewing.
 */
async function logLocationRead(db: Db, driverId: number, tripId: number, reader: LocationReader, now: Date): Promise<void> {
  const [last] = await db
    .select()
    .from(locationAccessLog)
    .where(
      and(
        eq(locationAccessLog.butlerRequestId, tripId),
        eq(locationAccessLog.driverId, driverId),
        eq(locationAccessLog.readerRole, reader.role),
        reader.userId === null ? isNull(locationAccessLog.readerUserId) : eq(locationAccessLog.readerUserId, reader.userId),
        eq(locationAccessLog.purpose, reader.purpose),
      ),
    )
    .orderBy(desc(locationAccessLog.lastReadAt))
    .limit(1);
  if (last && last.noticedAt === null && continuesReadSession(last.lastReadAt, now)) {
    await db.update(locationAccessLog).set({ lastReadAt: now, reads: sql`${locationAccessLog.reads} + 1` }).where(eq(locationAccessLog.id, last.id));
    return;
  }
  await inTransaction(db, async (tx) => {
    await tx.insert(locationAccessLog).values({ driverId, butlerRequestId: tripId, readerUserId: reader.userId, readerRole: reader.role, readerLabel: reader.label, purpose: reader.purpose, firstReadAt: now, lastReadAt: now });
    await scheduleDaily(tx, now);
  });
}

const view = (p: typeof tripPositions.$inferSelect): TripPositionView => ({ lat: p.lat, lng: p.lng, accuracy: p.accuracy, recorded_at: p.recordedAt.toISOString() });

/**
 * GET /butlers/requests/{id}/position: the customer's own trip's last shared position while it is
 * active, when the driver consents to showing it (null otherwise); another user's trip is 404.
 * A position shown writes the read into the 확인자료.
 */
export async function customerPosition(db: Db, userId: number, tripId: number, now: Date): Promise<TripPositionView | null> {
  const [row] = await db.select().from(butlerRequests).where(eq(butlerRequests.id, tripId));
  if (!row || row.status === 'CANCELLED' || row.userId !== userId) throw notFound('요청을 찾을 수 없습니다.');
  if (!row.departedAt || row.actualEndAt) return null;
  const [p] = await db.select().from(tripPositions).where(eq(tripPositions.butlerRequestId, tripId));
  if (!p || !(await locationAllowed(db, p.driverId)).provide) return null;
  await logLocationRead(db, p.driverId, tripId, { userId, role: 'customer', label: '예약 고객', purpose: LOCATION_PURPOSE.customer }, now);
  return view(p);
}

/**
 * GET /admin/butler-requests/{id}/position: staff see the driver's last position of an active trip
 * (배차 관제), when the driver consents to the terms; each read is in the 확인자료 with the staff
 * account. 404 for an unknown trip.
 */
export async function staffPosition(db: Db, actor: StaffActor, tripId: number, now: Date): Promise<TripPositionView | null> {
  const [row] = await db.select().from(butlerRequests).where(eq(butlerRequests.id, tripId));
  if (!row) throw notFound('요청을 찾을 수 없습니다.');
  if (row.status === 'CANCELLED' || !row.departedAt || row.actualEndAt) return null;
  const [p] = await db.select().from(tripPositions).where(eq(tripPositions.butlerRequestId, tripId));
  if (!p || !(await locationAllowed(db, p.driverId)).collect) return null;
  await logLocationRead(db, p.driverId, tripId, { userId: actor.userId, role: 'staff', label: `LUXE 직원 (${actor.name})`, purpose: LOCATION_PURPOSE.staff }, now);
  return view(p);
}

/** GET /driver/location: the driver's consents, the texts with the officer, and the 확인자료 rows kept. */
export async function driverLocation(db: Db, config: Config, driverId: number): Promise<DriverLocationAnswer> {
  const consents = await liveConsents(db, driverId);
  const rows = await db.select().from(locationAccessLog).where(eq(locationAccessLog.driverId, driverId)).orderBy(desc(locationAccessLog.lastReadAt), desc(locationAccessLog.id)).limit(200);
  const c = (r: ConsentRow | null) => (r ? { version: r.version, agreed_at: r.agreedAt.toISOString() } : null);
  return {
    consents: { terms: c(consents.terms), third_party: c(consents.third_party) },
    texts: locationConsentTexts({ ...config.locationOfficer, company: config.company.name }),
    officer: config.locationOfficer,
    reads: rows.map(
      (r): LocationAccessView => ({
        id: r.id, reader: r.readerLabel, reader_role: r.readerRole, butler_request_id: r.butlerRequestId, purpose: r.purpose,
        first_read_at: r.firstReadAt.toISOString(), last_read_at: r.lastReadAt.toISOString(), reads: r.reads, noticed_at: r.noticedAt?.toISOString() ?? null,
      }),
    ),
  };
}

/**
 * The daily job: queues tomorrow's run first (so a failure never ends the chain), deletes the
 * 확인자료 rows last read before the keep cutoff (6 months), and sends each driver whose oldest
 * untold read is LOCATION_NOTICE_DAYS old one message listing every untold read (the rows are
 * marked with the batch time in the same transaction as the event, so a rerun tells nothing twice).
 */
export async function locationDaily(db: Db, now: Date): Promise<JobOutcome> {
  await scheduleDaily(db, now);
  await db.delete(locationAccessLog).where(lt(locationAccessLog.lastReadAt, locationLogCutoff(now)));
  const untold = await db
    .select({ driverId: locationAccessLog.driverId, oldest: sql<string>`min(${locationAccessLog.firstReadAt})` })
    .from(locationAccessLog)
    .where(isNull(locationAccessLog.noticedAt))
    .groupBy(locationAccessLog.driverId)
    .orderBy(asc(locationAccessLog.driverId));
  for (const { driverId, oldest } of untold) {
    if (!locationNoticeDue(new Date(oldest), now)) continue;
    await inTransaction(db, async (tx) => {
      const [account] = await tx.select({ id: users.id }).from(users).where(and(eq(users.driverId, driverId), isNull(users.deletedAt)));
      const marked = await tx
        .update(locationAccessLog)
        .set({ noticedAt: now })
        .where(and(eq(locationAccessLog.driverId, driverId), isNull(locationAccessLog.noticedAt), gte(locationAccessLog.lastReadAt, locationLogCutoff(now))))
        .returning({ id: locationAccessLog.id });
      if (account && marked.length) await emit(tx, `driver.location_reads:${driverId}:${now.toISOString()}`, { type: 'driver.location_reads', userId: account.id, driverId, batchAt: now.toISOString() }, now);
    });
  }
}
