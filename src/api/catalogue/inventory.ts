import { and, eq, gt, gte, inArray, isNotNull, lte, ne } from 'drizzle-orm';
import { availabilityText, firstFreeDay, holdLive, inclusiveSpan, termSpan, type CarAvailability, type DaySpan } from '../../domain/availability';
import type { Car } from '../../domain/car';
import { addDays, todayInKorea } from '../../domain/dates';
import type { Db } from '../db/client';
import { cars, subscriptionRequests, subscriptions } from '../db/schema';

/*
 * Inventory: which days each car is taken, read from the orders' rows (confirmed subscriptions and
 * live holds). Here, below orders, because the garage's "지금 구독 가능" filter needs it as much as
 * the order's overlap check does (orders/availability.ts). docs/decisions/availability.md.
 */

/**
 * The car's timeline (src/domain/availability.ts) read from the orders: confirmed subscriptions
 * that staff have not switched off, and pending requests whose hold has not lapsed.
 * docs/decisions/availability.md.
 */
export async function timelines(db: Db, carIds: readonly number[], now: Date, exceptRequestId?: number): Promise<Map<number, DaySpan[]>> {
  const out = new Map<number, DaySpan[]>(carIds.map((id) => [id, []]));
  if (!carIds.length) return out;
  const other = exceptRequestId ? ne(subscriptionRequests.id, exceptRequestId) : undefined;
  const confirmed = await db
    .select({ carId: subscriptionRequests.carId, start: subscriptions.startDate, end: subscriptions.endDate })
    .from(subscriptions)
    .innerJoin(subscriptionRequests, eq(subscriptionRequests.id, subscriptions.requestId))
    .where(and(inArray(subscriptionRequests.carId, [...carIds]), eq(subscriptions.isActive, true), other));
  for (const r of confirmed) out.get(r.carId)!.push(inclusiveSpan(r.start, r.end));
  const held = await db
    .select({ carId: subscriptionRequests.carId, start: subscriptionRequests.requestedStart, month: subscriptionRequests.month, until: subscriptionRequests.holdUntil })
    .from(subscriptionRequests)
    .where(and(inArray(subscriptionRequests.carId, [...carIds]), eq(subscriptionRequests.status, 'PENDING'), isNotNull(subscriptionRequests.requestedStart), gt(subscriptionRequests.holdUntil, now), other));
  for (const r of held) if (holdLive(r.until, now)) out.get(r.carId)!.push(termSpan(r.start!, r.month));
  for (const spans of out.values()) spans.sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
  return out;
}

/** The earliest start an order may ask for: tomorrow in Korea, or the car's first day when later. */
export function earliestStart(car: Pick<Car, 'subscription_available_from'>, today: string): string {
  const tomorrow = addDays(today, 1);
  const from = car.subscription_available_from?.slice(0, 10);
  return from && from > tomorrow ? from : tomorrow;
}

/** GET /subscriptions/availability: what the pages show now, per car. */
export async function availabilityOf(db: Db, carIds: readonly number[], now: Date): Promise<CarAvailability[]> {
  const rows = await db.select({ id: cars.id, from: cars.subscriptionAvailableFrom }).from(cars).where(inArray(cars.id, [...carIds]));
  const today = todayInKorea(now);
  const lines = await timelines(db, rows.map((r) => r.id), now);
  return rows.map((r) => {
    const earliest = earliestStart({ subscription_available_from: r.from }, today);
    const free = firstFreeDay(lines.get(r.id) ?? [], earliest);
    return { car_id: r.id, available_from: free, text: availabilityText(free, earliest) };
  });
}

/**
 * The cars taken on `day` (a confirmed subscription or a live hold covers it): the garage's
 * "지금 구독 가능" filter leaves them out. Only the rows that could cover the day are read.
 */
export async function carsTakenOn(db: Db, day: string, now: Date): Promise<Set<number>> {
  const confirmed = await db
    .select({ carId: subscriptionRequests.carId })
    .from(subscriptions)
    .innerJoin(subscriptionRequests, eq(subscriptionRequests.id, subscriptions.requestId))
    .where(and(eq(subscriptions.isActive, true), lte(subscriptions.startDate, day), gte(subscriptions.endDate, day)));
  const held = await db
    .select({ carId: subscriptionRequests.carId, start: subscriptionRequests.requestedStart, month: subscriptionRequests.month, until: subscriptionRequests.holdUntil })
    .from(subscriptionRequests)
    .where(and(eq(subscriptionRequests.status, 'PENDING'), isNotNull(subscriptionRequests.requestedStart), lte(subscriptionRequests.requestedStart, day), gt(subscriptionRequests.holdUntil, now)));
  const taken = new Set(confirmed.map((r) => r.carId));
  for (const r of held) if (holdLive(r.until, now) && day < termSpan(r.start!, r.month).end) taken.add(r.carId);
  return taken;
}

/** When this process last booked or freed a car, or heard of another replica doing so. */
let bookingsChangedAt = 0;
/** How long a read of the taken cars is trusted while no booking is heard of: a hold lapses by the clock alone. */
const TAKEN_RECHECK_MS = 5_000;
const takenReads = new WeakMap<Db, { day: string; at: number; taken: Promise<Set<number>> }>();

/** A booking changed (deps.onReservationChange here, the cache's NOTIFY from another replica): the next garage read asks again. */
export function noteBookingChange(): void {
  bookingsChangedAt = Date.now();
}

/**
 * carsTakenOn for the garage's every request: one read shared for up to 5 s, read again at once
 * after a booking. The uncached garage answers thousands of requests a second; two queries each
 * would put them in the pool's queue.
 */
export function carsTakenNow(db: Db, day: string, now: Date): Promise<Set<number>> {
  const at = Date.now();
  const seen = takenReads.get(db);
  if (seen && seen.day === day && at - seen.at < TAKEN_RECHECK_MS && seen.at > bookingsChangedAt) return seen.taken;
  const taken = carsTakenOn(db, day, now);
  takenReads.set(db, { day, at, taken });
  taken.catch(() => takenReads.get(db)?.taken === taken && takenReads.delete(db));
  return taken;
}
