import { asc, eq } from 'drizzle-orm';
import { THREAD_CLOSED, threadWindow, type TripMessageAnswer, type TripMessageInput, type TripThreadView } from '../../domain/trip-thread';
import type { Db } from '../db/client';
import { butlerRequests, drivers, tripMessages } from '../db/schema';
import { notFound } from '../errors';
import { guestTokenMatches, guestTokenTrip } from '../notifications/guest-link';
import { GUEST_NOT_FOUND, postMessage } from './trip-thread';

/**
 * The guest's view of a company trip's thread (issue 52): the passenger a booker named has no
 * account, so they read the thread through a link whose token is the trip id and an HMAC of it and
 * the guest's phone under the server's secret. A new guest phone (the booker changed it) voids the
 * old link; a trip without a guest has none (src/api/notifications/guest-link.ts). The guest may
 * reply (postGuestMessage): a message in the same thread, which the booker and the driver read and
 * are told of as of any message. Nobody's number is in it: the booker's and the driver's phones are
 * never selected, the driver is named only.
 */

export interface GuestThreadAnswer {
  trip: { id: number; start_at: string; end_at: string | null; start_location: string; end_location: string; guest_name: string | null; driver_name: string | null };
  thread: TripThreadView;
}

const NOT_FOUND = GUEST_NOT_FOUND;

/** GET /butlers/guest-thread/{token}: the trip and its thread for its guest; a bad, forged or voided token is 404. */
export async function readGuestThread(db: Db, secret: string, token: string, now: Date): Promise<GuestThreadAnswer> {
  const id = guestTokenTrip(token);
  if (id === null) throw notFound(NOT_FOUND);
  const [trip] = await db.select().from(butlerRequests).where(eq(butlerRequests.id, id));
  if (!trip?.guestPhone || !trip.companyId || !guestTokenMatches(secret, token, { id, guestPhone: trip.guestPhone })) throw notFound(NOT_FOUND);
  const [driver] = trip.driverId ? await db.select({ name: drivers.name }).from(drivers).where(eq(drivers.id, trip.driverId)) : [];
  const rows = await db.select({ id: tripMessages.id, sender: tripMessages.sender, body: tripMessages.body, createdAt: tripMessages.createdAt }).from(tripMessages).where(eq(tripMessages.butlerRequestId, id)).orderBy(asc(tripMessages.id));
  const w = threadWindow(trip, now);
  return {
    trip: {
      id, start_at: trip.startAt.toISOString(), end_at: trip.endAt?.toISOString() ?? null, start_location: trip.startLocation, end_location: trip.endLocation,
      guest_name: trip.guestName, driver_name: driver?.name ?? null,
    },
    thread: {
      open: w.open, closed_message: w.open ? null : THREAD_CLOSED[w.reason], closes_at: w.closesAt?.toISOString() ?? null,
      messages: rows.map((r) => ({ id: r.id, sender: r.sender, mine: r.sender === 'guest', body: r.body, created_at: r.createdAt.toISOString() })),
    },
  };
}

/**
 * POST /butlers/guest-thread/{token}/messages: the guest's reply, checked as the read is (a bad,
 * forged, voided or another trip's token is 404) and posted as any message of the thread (409 once
 * it is closed, a retried client_id is the same message, at most GUEST_MESSAGE_LIMIT a window). The
 * answer is the guest's own message only.
 */
export async function postGuestMessage(db: Db, secret: string, token: string, input: TripMessageInput, now: Date): Promise<TripMessageAnswer> {
  const id = guestTokenTrip(token);
  if (id === null) throw notFound(NOT_FOUND);
  return postMessage(db, { side: 'guest', token, secret }, id, input, now);
}
