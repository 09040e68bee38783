import { and, asc, count, eq, gt, isNull, like, lt, ne } from 'drizzle-orm';
import {
  GUEST_MESSAGE_LIMIT, GUEST_MESSAGE_LIMITED, GUEST_MESSAGE_WINDOW_MS, GUEST_NOTICE_GAP_MS, THREAD_CLOSED, threadWindow, type TripMessageInput, type TripMessageSender, type TripMessageView, type TripThreadReader, type TripThreadView,
} from '../../domain/trip-thread';
import { ErrorCode } from '../../domain/error-codes';
import { inTransaction, type Db } from '../db/client';
import { butlerRequests, jobs, tripMessages } from '../db/schema';
import { ApiError, conflict, notFound } from '../errors';
import { emit, notifyJobKey } from '../notifications/events';
import { guestTokenMatches } from '../notifications/guest-link';

/**
 * 기사님과 메시지 (issue 50): the trip's thread, kept with the booking. The customer reads and
 * writes their own booking's, the assigned driver their trip's (anyone else: 404), staff any; a
 * company trip's guest writes through their link (issue 52; read by dispatch/guest-thread.ts).
 * Posting needs the thread open (threadWindow: 409 otherwise). The other side is told once per
 * batch: a message starts a batch when its reader has nothing unread before it; reading the
 * thread (GET by that side) marks it read, so the next message starts the next batch.
 */

type Trip = typeof butlerRequests.$inferSelect;
type Row = typeof tripMessages.$inferSelect;

/**
 * Who is reading or writing: a side, with the account (staff: null for the machine token). A company
 * trip's guest has no account: their link's token (src/api/notifications/guest-link.ts), checked
 * against the trip's guest phone under the server's secret, is their only claim to the trip.
 */
export type ThreadActor =
  | { side: 'customer'; userId: number }
  | { side: 'driver'; userId: number; driverId: number }
  | { side: 'staff'; userId: number | null }
  | { side: 'guest'; token: string; secret: string };

const actorUserId = (actor: ThreadActor) => (actor.side === 'guest' ? null : actor.userId);

const NOT_FOUND = '요청을 찾을 수 없습니다.';
/** A guest's link that is not this trip's (forged, another trip's, voided): the page's own words. */
export const GUEST_NOT_FOUND = '링크가 올바르지 않거나 만료되었습니다.';

/** The trip if the actor may see its thread; 404 otherwise (a stranger learns nothing of it). */
async function tripFor(db: Db, actor: ThreadActor, tripId: number, lock = false): Promise<Trip> {
  const q = db.select().from(butlerRequests).where(eq(butlerRequests.id, tripId));
  const [row] = lock ? await q.for('update') : await q;
  if (!row) throw notFound(actor.side === 'guest' ? GUEST_NOT_FOUND : NOT_FOUND);
  if (actor.side === 'customer' && row.userId !== actor.userId) throw notFound(NOT_FOUND);
  if (actor.side === 'driver' && row.driverId !== actor.driverId) throw notFound(NOT_FOUND);
  // A guest's link: a company trip with a guest, and the token of this trip and this guest phone (a changed phone voids it).
  if (actor.side === 'guest' && (!row.companyId || !row.guestPhone || !guestTokenMatches(actor.secret, actor.token, { id: row.id, guestPhone: row.guestPhone }))) throw notFound(GUEST_NOT_FOUND);
  return row;
}

const readColumn = (side: TripThreadReader) => (side === 'customer' ? tripMessages.readByCustomerAt : tripMessages.readByDriverAt);

function view(r: Row, actor: ThreadActor): TripMessageView {
  return { id: r.id, sender: r.sender, mine: r.sender === actor.side, body: r.body, created_at: r.createdAt.toISOString() };
}

function threadView(trip: Trip, rows: Row[], actor: ThreadActor, now: Date): TripThreadView {
  const w = threadWindow(trip, now);
  return {
    open: w.open,
    closed_message: w.open ? null : THREAD_CLOSED[w.reason],
    closes_at: w.closesAt?.toISOString() ?? null,
    messages: rows.map((r) => view(r, actor)),
  };
}

/** GET …/messages: the thread, oldest first; the customer's or driver's read marks what the other sides wrote as read. */
export async function readThread(db: Db, actor: ThreadActor, tripId: number, now: Date): Promise<TripThreadView> {
  const trip = await tripFor(db, actor, tripId);
  if (actor.side === 'customer' || actor.side === 'driver') {
    const col = readColumn(actor.side);
    await db.update(tripMessages).set(actor.side === 'customer' ? { readByCustomerAt: now } : { readByDriverAt: now }).where(and(eq(tripMessages.butlerRequestId, tripId), ne(tripMessages.sender, actor.side), isNull(col)));
  }
  const rows = await db.select().from(tripMessages).where(eq(tripMessages.butlerRequestId, tripId)).orderBy(asc(tripMessages.id));
  return threadView(trip, rows, actor, now);
}

/** Whether `reader` has a message unread from before `message` (then it was already told of this batch). */
async function hasOlderUnread(tx: Db, reader: TripThreadReader, message: Row): Promise<boolean> {
  const [older] = await tx
    .select({ id: tripMessages.id })
    .from(tripMessages)
    .where(and(eq(tripMessages.butlerRequestId, message.butlerRequestId), lt(tripMessages.id, message.id), ne(tripMessages.sender, reader), isNull(readColumn(reader))))
    .limit(1);
  return Boolean(older);
}

/** The keys of a trip's notices to its guest: this prefix and the answer's id (the prefix finds the last one). */
const guestNoticePrefix = (tripId: number) => `butler.guest_trip_message:${tripId}:`;

/** Whether the trip's guest was told of an answer after `since` (a notice queued then, on the business clock). */
async function guestToldSince(tx: Db, tripId: number, since: Date): Promise<boolean> {
  const pattern = `${notifyJobKey(guestNoticePrefix(tripId)).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const [told] = await tx.select({ id: jobs.id }).from(jobs).where(and(like(jobs.key, pattern), gt(jobs.runAt, since))).limit(1);
  return Boolean(told);
}

/**
 * POST …/messages: one message from the actor's side (409 with the reason when the thread is
 * closed). A client_id already posted on the trip returns that message (created false) and tells
 * no one again. The text is kept as written.
 */
export async function postMessage(db: Db, actor: ThreadActor, tripId: number, input: TripMessageInput, now: Date): Promise<{ message: TripMessageView; created: boolean }> {
  return inTransaction(db, async (tx) => {
    // The trip row locked: two posts at once count their batch one after the other.
    const trip = await tripFor(tx, actor, tripId, true);
    if (input.client_id) {
      const [seen] = await tx.select().from(tripMessages).where(and(eq(tripMessages.butlerRequestId, tripId), eq(tripMessages.clientId, input.client_id)));
      if (seen) return { message: view(seen, actor), created: false };
    }
    const w = threadWindow(trip, now);
    if (!w.open) throw conflict(THREAD_CLOSED[w.reason]);
    // A guest's link can be forwarded: a trip takes at most GUEST_MESSAGE_LIMIT guest messages in the window (beside the per-address limit of the route).
    if (actor.side === 'guest') {
      const [recent] = await tx.select({ n: count() }).from(tripMessages).where(and(eq(tripMessages.butlerRequestId, tripId), eq(tripMessages.sender, 'guest'), gt(tripMessages.createdAt, new Date(now.getTime() - GUEST_MESSAGE_WINDOW_MS))));
      if (recent.n >= GUEST_MESSAGE_LIMIT) throw new ApiError(429, ErrorCode.RATE_LIMITED, GUEST_MESSAGE_LIMITED);
    }
    const sender: TripMessageSender = actor.side;
    const [row] = await tx
      .insert(tripMessages)
      .values({
        butlerRequestId: tripId, sender, senderUserId: actorUserId(actor), body: input.body, clientId: input.client_id ?? null, createdAt: now,
        readByCustomerAt: sender === 'customer' ? now : null, readByDriverAt: sender === 'driver' ? now : null,
      })
      .returning();
    const readers = (['customer', 'driver'] as const).filter((side) => side !== sender);
    for (const reader of readers) {
      if (await hasOlderUnread(tx, reader, row)) continue;
      if (reader === 'customer') {
        await emit(tx, `butler.trip_message:${tripId}:${row.id}`, { type: 'butler.trip_message', userId: trip.userId, butlerRequestId: tripId, messageId: row.id }, now);
      } else if (trip.driverId !== null) {
        await emit(tx, `driver.trip_message:${tripId}:${trip.driverId}:${row.id}`, { type: 'driver.trip_message', butlerRequestId: tripId, driverId: trip.driverId, messageId: row.id }, now);
      }
    }
    // A company trip's guest has no thread of their own to be unread in: an answer (not their own message) tells them by 알림톡, once per GUEST_NOTICE_GAP_MS.
    if (sender !== 'guest' && trip.companyId && trip.guestPhone && !(await guestToldSince(tx, tripId, new Date(now.getTime() - GUEST_NOTICE_GAP_MS)))) {
      await emit(tx, `${guestNoticePrefix(tripId)}${row.id}`, { type: 'butler.guest_trip_message', butlerRequestId: tripId, messageId: row.id }, now);
    }
    return { message: view(row, actor), created: true };
  });
}
