import { desc, eq } from 'drizzle-orm';
import type { StaffTripRating } from '../../domain/dispatch';
import type { Db } from '../db/client';
import { butlerRequests, drivers, tripRatings } from '../db/schema';

/** How many of the newest ratings staff read at once. */
const STAFF_RATINGS_SHOWN = 50;

/** GET /admin/trip-ratings: every rating with its trip and driver, and the comment the customer left for the driver, newest first. */
export async function staffTripRatings(db: Db): Promise<StaffTripRating[]> {
  const rows = await db
    .select({ r: tripRatings, startAt: butlerRequests.startAt, startLocation: butlerRequests.startLocation, driverName: drivers.name })
    .from(tripRatings)
    .innerJoin(butlerRequests, eq(butlerRequests.id, tripRatings.butlerRequestId))
    .leftJoin(drivers, eq(drivers.id, tripRatings.driverId))
    .orderBy(desc(tripRatings.createdAt), desc(tripRatings.id))
    .limit(STAFF_RATINGS_SHOWN);
  return rows.map(({ r, startAt, startLocation, driverName }) => ({
    id: r.id, butler_request_id: r.butlerRequestId, start_at: startAt.toISOString(), start_location: startLocation,
    driver: r.driverId !== null && driverName !== null ? { id: r.driverId, name: driverName } : null,
    score: r.score, comment: r.comment, created_at: r.createdAt.toISOString(),
  }));
}
