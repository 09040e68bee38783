import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The link a company trip's guest gets in their copy of the trip messages (issue 52): the trip id
 * and an HMAC of it and the guest's phone under the server's secret, so it needs no table and a new
 * guest phone voids the old link. Read by src/api/dispatch/guest-thread.ts.
 */

const signature = (secret: string, tripId: number, guestPhone: string) => createHmac('sha256', secret).update(`luxe:trip-guest:v1:${tripId}:${guestPhone}`).digest('base64url');

/** The token of a trip's guest link, or null when the trip has no guest. */
export function guestThreadToken(secret: string, trip: { id: number; guestPhone: string | null }): string | null {
  return trip.guestPhone ? `${trip.id}.${signature(secret, trip.id, trip.guestPhone)}` : null;
}

/** The page a guest's message links to. */
export const guestThreadPath = (token: string) => `/butler/guest?t=${encodeURIComponent(token)}`;

/** The trip id a well-formed token names (its signature still to be checked against the trip's guest phone), or null. */
export function guestTokenTrip(token: string): number | null {
  const m = /^([1-9]\d{0,9})\.([A-Za-z0-9_-]{43})$/.exec(token);
  return m && Number(m[1]) <= 2_147_483_647 ? Number(m[1]) : null;
}

/** Whether the token is this trip's for this guest phone. */
export function guestTokenMatches(secret: string, token: string, trip: { id: number; guestPhone: string }): boolean {
  const expected = Buffer.from(`${trip.id}.${signature(secret, trip.id, trip.guestPhone)}`);
  const given = Buffer.from(token);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
