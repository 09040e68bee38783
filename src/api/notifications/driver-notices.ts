import { and, desc, eq, isNull, lte, sql } from 'drizzle-orm';
import { DRIVER_NOTICE_TITLE, DRIVER_NOTICES_SHOWN, type DriverNoticeKind, type DriverNoticesAnswer, type TripChange } from '../../domain/driver-notices';
import type { Db } from '../db/client';
import { butlerRequests, driverNotices } from '../db/schema';
import { emit } from './events';

/**
 * What a driver is told about their trips (docs/decisions/driver-day.md "Notices"): one
 * driver_notices row and one `driver.*` message per change, written in the change's transaction.
 * `key` names the change (the trip, the driver and the change's version): a retried change writes
 * no second row, and the message is emitted only with the row, under the same key, so the outbox
 * sends it once.
 */
export async function tellDriver(tx: Db, now: Date, n: { kind: DriverNoticeKind; butlerRequestId: number; driverId: number; key: string; changes?: TripChange[] }): Promise<boolean> {
  const [row] = await tx
    .insert(driverNotices)
    .values({ driverId: n.driverId, butlerRequestId: n.butlerRequestId, kind: n.kind, changes: n.changes ?? [], key: n.key, createdAt: now })
    .onConflictDoNothing({ target: driverNotices.key })
    .returning({ id: driverNotices.id });
  if (!row) return false;
  const base = { butlerRequestId: n.butlerRequestId, driverId: n.driverId };
  if (n.kind === 'cancelled') await emit(tx, n.key, { type: 'driver.trip_cancelled', ...base }, now);
  else if (n.kind === 'assigned') await emit(tx, n.key, { type: 'driver.trip_assigned', ...base }, now);
  else if (n.kind === 'unassigned') await emit(tx, n.key, { type: 'driver.trip_unassigned', ...base }, now);
  else await emit(tx, n.key, { type: 'driver.trip_changed', ...base, noticeId: row.id }, now);
  return true;
}

/** A notice row (for the change message's template). */
export async function driverNotice(db: Db, id: number) {
  const [row] = await db.select().from(driverNotices).where(eq(driverNotices.id, id));
  return row;
}

/** GET /driver/notices: the driver's own newest notices (DRIVER_NOTICES_SHOWN), with the trip's current start and pickup. */
export async function driverNoticeList(db: Db, driverId: number): Promise<DriverNoticesAnswer> {
  const rows = await db
    .select({ n: driverNotices, startAt: butlerRequests.startAt, startLocation: butlerRequests.startLocation })
    .from(driverNotices)
    .innerJoin(butlerRequests, eq(butlerRequests.id, driverNotices.butlerRequestId))
    .where(eq(driverNotices.driverId, driverId))
    .orderBy(desc(driverNotices.createdAt), desc(driverNotices.id))
    .limit(DRIVER_NOTICES_SHOWN);
  const [{ unread }] = await db.select({ unread: sql<number>`count(*)::int` }).from(driverNotices).where(and(eq(driverNotices.driverId, driverId), isNull(driverNotices.readAt)));
  return {
    notices: rows.map(({ n, startAt, startLocation }) => ({
      id: n.id, kind: n.kind, title: DRIVER_NOTICE_TITLE[n.kind], trip_id: n.butlerRequestId, start_at: startAt.toISOString(), start_location: startLocation,
      changes: n.changes, created_at: n.createdAt.toISOString(), read: n.readAt !== null,
    })),
    unread: Number(unread),
  };
}

/** POST /driver/notices/read: the driver's own notices up to `upToId` are read (seen on /driver); another driver's are untouched. */
export async function markNoticesRead(db: Db, driverId: number, upToId: number, now: Date): Promise<number> {
  const rows = await db
    .update(driverNotices)
    .set({ readAt: now })
    .where(and(eq(driverNotices.driverId, driverId), lte(driverNotices.id, upToId), isNull(driverNotices.readAt)))
    .returning({ id: driverNotices.id });
  return rows.length;
}
