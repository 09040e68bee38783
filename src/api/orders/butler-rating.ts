import type { TripRating } from '../../domain/butler';
import { LOW_RATING_MAX } from '../../domain/dispatch';
import type { z } from 'zod';
import type { TripRatingSchema } from '../../domain/schemas/butler';
import type { Db } from '../db/client';
import { tripRatings } from '../db/schema';
import { conflict } from '../errors';
import { emit } from '../notifications/events';
import { inTransaction } from './checkout';
import { ownRequest } from './butler-requests';
import { toRating } from './butler-views';

/**
 * POST /butlers/requests/{id}/rating: the customer rates their finished trip once (1–5, optional
 * comment), credited to the driver who drove it. Another user's or an unknown booking is 404;
 * before the actual end is recorded, or a second time, 409 (the unique booking id settles two at once).
 */
export async function rateTrip(db: Db, userId: number, id: number, input: z.output<typeof TripRatingSchema>, now: Date): Promise<TripRating> {
  const row = await ownRequest(db, userId, id);
  if (!row.actualEndAt) throw conflict('운행이 끝난 뒤에 평가할 수 있습니다.');
  const saved = await inTransaction(db, async (tx) => {
    const [inserted] = await tx
      .insert(tripRatings)
      .values({ butlerRequestId: id, userId, driverId: row.driverId, score: input.score, comment: input.comment, createdAt: now })
      .onConflictDoNothing()
      .returning();
    // A poor trip is staff's to follow up at once (issue 50); every comment is on the console's list.
    if (inserted && inserted.score <= LOW_RATING_MAX) await emit(tx, `staff.trip_rated_low:${id}`, { type: 'staff.trip_rated_low', butlerRequestId: id }, now);
    return inserted;
  });
  if (!saved) throw conflict('이미 평가한 운행입니다. 평가는 한 번만 남길 수 있습니다.');
  return toRating(saved);
}
