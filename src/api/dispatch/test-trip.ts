import { eq, sql } from 'drizzle-orm';
import { inTransaction, type Db } from '../db/client';
import { butlerRequests, butlerWaypoints } from '../db/schema';
import { conflict, notFound } from '../errors';

/**
 * POST /admin/test-trip-earlier (TEST_FIXTURES=on only: end-to-end tests). The e2e server's
 * business clock is shared by every spec running at once, so a day that has to have passed (an
 * airport wait, a trip longer than booked) is walked through by moving one booking back instead:
 * its start, end, waypoint times and recorded 출발/도착 by `minutes`. Refused (409) once the trip
 * has a 탑승 or 운행 종료 (money is reckoned from those) or is not a confirmed booking.
 */
export async function moveTripEarlier(db: Db, input: { butler_request_id: number; minutes: number }): Promise<{ start_at: string }> {
  const by = sql`make_interval(mins => ${input.minutes}::int)`;
  return inTransaction(db, async (tx) => {
    const [row] = await tx.select().from(butlerRequests).where(eq(butlerRequests.id, input.butler_request_id)).for('update');
    if (!row) throw notFound('요청을 찾을 수 없습니다.');
    if (row.status !== 'CONFIRMED') throw conflict('확정된 예약만 옮길 수 있습니다.');
    if (row.actualStartAt || row.actualEndAt) throw conflict('탑승이 기록된 운행은 옮길 수 없습니다.');
    const [moved] = await tx
      .update(butlerRequests)
      .set({
        startAt: sql`${butlerRequests.startAt} - ${by}`,
        endAt: sql`${butlerRequests.endAt} - ${by}`,
        departedAt: sql`${butlerRequests.departedAt} - ${by}`,
        arrivedAt: sql`${butlerRequests.arrivedAt} - ${by}`,
      })
      .where(eq(butlerRequests.id, row.id))
      .returning({ startAt: butlerRequests.startAt });
    await tx.update(butlerWaypoints).set({ scheduledTime: sql`${butlerWaypoints.scheduledTime} - ${by}` }).where(eq(butlerWaypoints.butlerRequestId, row.id));
    return { start_at: moved.startAt.toISOString() };
  });
}
