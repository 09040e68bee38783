import { createHash } from 'node:crypto';
import { asc, eq } from 'drizzle-orm';
import { tripDays } from '../../domain/butler';
import type { DispatchTrip } from '../../domain/dispatch';
import { shiftTrip, tripChanges, type TripPlan } from '../../domain/driver-notices';
import type { PickupChangeInput } from '../../domain/schemas/driver-day';
import { inTransaction, type Db } from '../db/client';
import { butlerRequests, butlerWaypoints } from '../db/schema';
import { conflict, unprocessable } from '../errors';
import type { StaffActor } from '../auth/guards';
import { recordAudit } from '../audit/audit';
import { emit } from '../notifications/events';
import { rowTime, type Clock } from '../jobs/clock';
import { scheduleReminder } from '../orders/butler-orders';
import { driverRow, requestRow, requireDriverFree, tripOf } from './dispatch';
import { tellDriver } from '../notifications/driver-notices';

/**
 * PATCH /admin/butler-requests/{id}/pickup (docs/decisions/driver-day.md "Notices"): staff move a
 * trip's pickup (a late flight: +30/+60 minutes or a chosen time) or change its addresses, with a
 * reason. The end and each waypoint's time move with the start (the booked hours, and so the
 * price, stay); a move to another Korean day is refused (its car's days are booked by day). The
 * driver's board is checked again under the driver's row lock (the assignment's rule), the
 * reminder and staff alerts follow the new start, the change is audited, and the driver and the
 * customer are told once per change: the key holds the row's version before the change and a
 * hash of what changed, so a retried request (nothing left to change) sends nothing more.
 */
export async function changePickup(db: Db, clock: Clock, actor: StaffActor, id: number, input: PickupChangeInput, bufferMinutes: number): Promise<{ trip: DispatchTrip; changed: boolean }> {
  return inTransaction(db, async (tx) => {
    const first = await requestRow(tx, id);
    // The driver's row first, as an assignment locks it, so the two take turns.
    if (first.driverId !== null) await driverRow(tx, first.driverId, { lock: true });
    const row = await requestRow(tx, id, { lock: true });
    const now = clock.now();
    if (row.status === 'CANCELLED') throw conflict('취소된 의전 요청입니다.');
    if (row.departedAt) throw conflict('기사님이 이미 출발한 운행은 픽업을 변경할 수 없습니다. 기사님께 직접 연락해주세요.');
    if (row.driverId !== first.driverId) throw conflict('방금 배차가 바뀌었습니다. 새로고침 후 다시 시도해주세요.');
    const points = await tx.select().from(butlerWaypoints).where(eq(butlerWaypoints.butlerRequestId, id)).orderBy(asc(butlerWaypoints.position), asc(butlerWaypoints.id));
    const before = {
      start_at: row.startAt.toISOString(), end_at: row.endAt?.toISOString() ?? null, start_location: row.startLocation, end_location: row.endLocation,
      way_points: points.map((w) => ({ address: w.address, scheduled_time: w.scheduledTime?.toISOString() ?? null })), flight_number: row.flightNumber,
    };
    const moved = input.start_at ? shiftTrip(before, input.start_at) : before;
    const after = { ...moved, start_location: input.start_location ?? row.startLocation, end_location: input.end_location ?? row.endLocation };
    const changes = tripChanges(before satisfies TripPlan, after);
    if (!changes.length) return { trip: await tripOf(tx, id, now), changed: false };

    const start = new Date(after.start_at);
    const end = after.end_at ? new Date(after.end_at) : null;
    if (start.getTime() !== row.startAt.getTime()) {
      if (start <= now) throw unprocessable('픽업 시각은 지금 이후여야 합니다.', { start_at: ['픽업 시각은 지금 이후여야 합니다.'] });
      if (tripDays(start, end).join() !== tripDays(row.startAt, row.endAt).join()) {
        throw unprocessable('날짜가 바뀌는 변경은 할 수 없습니다. 같은 날 안에서 시각을 옮기거나, 예약을 취소 후 다시 접수해주세요.', { start_at: ['같은 날 안에서만 옮길 수 있습니다.'] });
      }
      if (row.driverId !== null) await requireDriverFree(tx, { id, startAt: start, endAt: end }, row.driverId, bufferMinutes);
    }

    await tx.update(butlerRequests).set({ startAt: start, endAt: end, startLocation: after.start_location, endLocation: after.end_location, modifiedAt: rowTime() }).where(eq(butlerRequests.id, id));
    for (const [i, w] of points.entries()) {
      const t = after.way_points[i].scheduled_time;
      await tx.update(butlerWaypoints).set({ scheduledTime: t ? new Date(t) : null }).where(eq(butlerWaypoints.id, w.id));
    }
    if (start.getTime() !== row.startAt.getTime()) await scheduleReminder(tx, { clock }, id, row.userId, start);

    const version = `${row.modifiedAt.getTime()}:${createHash('sha256').update(JSON.stringify(changes)).digest('hex').slice(0, 16)}`;
    if (row.driverId !== null) await tellDriver(tx, now, { kind: 'changed', butlerRequestId: id, driverId: row.driverId, key: `driver.trip_changed:${id}:${version}`, changes });
    await emit(tx, `butler.trip_changed:${id}:${version}`, { type: 'butler.trip_changed', userId: row.userId, butlerRequestId: id, cause: input.cause, changes }, now);
    const trip = await tripOf(tx, id, now);
    await recordAudit(tx, actor, { action: 'change_pickup', entity: 'butler_request', entityId: id, before: { ...before, reason: input.reason, cause: input.cause }, after: { ...after, changes } });
    return { trip, changed: true };
  });
}
