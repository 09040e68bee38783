import { and, eq, gt, gte, inArray, isNotNull, lte, ne, or, type SQL } from 'drizzle-orm';
import { holdLive, inclusiveSpan, termAvailability, termAvailabilityText, termSpan, type CarAvailability, type DaySpan } from '../../domain/availability';
import { FEE_TERMS, type Car } from '../../domain/car';
import { addDays, todayInKorea } from '../../domain/dates';
import type { Db } from '../db/client';
import { cars, subscriptionRequests, subscriptionSwaps, subscriptions } from '../db/schema';
import { carSpans, type CarSpan } from '../../domain/swap-cars';
import { wallMs } from '../jobs/clock';

/*
 * Inventory: which days each car is taken, read from the orders' rows (confirmed subscriptions and
 * live holds). Here, below orders, because the garage's "지금 구독 가능" filter needs it as much as
 * the order's overlap check does (orders/availability.ts). docs/decisions/availability.md.
 */

/** A subscription's live swaps (PENDING, CONFIRMED), joined to the subscription's term and order car. */
type LiveSwap = { subscriptionId: number; requestId: number; orderCarId: number; start: string; end: string; fromCarId: number; toCarId: number; swapDate: string; status: 'PENDING' | 'CONFIRMED' | 'CANCELLED' };

/** The live swaps of switched-on subscriptions matching `where` (few rows: swaps are rare next to subscriptions). */
async function liveSwaps(db: Db, where: SQL | undefined): Promise<LiveSwap[]> {
  return db
    .select({
      subscriptionId: subscriptions.id, requestId: subscriptions.requestId, orderCarId: subscriptionRequests.carId, start: subscriptions.startDate, end: subscriptions.endDate,
      fromCarId: subscriptionSwaps.fromCarId, toCarId: subscriptionSwaps.toCarId, swapDate: subscriptionSwaps.swapDate, status: subscriptionSwaps.status,
    })
    .from(subscriptionSwaps)
    .innerJoin(subscriptions, eq(subscriptions.id, subscriptionSwaps.subscriptionId))
    .innerJoin(subscriptionRequests, eq(subscriptionRequests.id, subscriptions.requestId))
    .where(and(ne(subscriptionSwaps.status, 'CANCELLED'), eq(subscriptions.isActive, true), where));
}

/**
 * The days each car is held by subscriptions that have swaps (docs/decisions/swap.md): the cars'
 * spans by the CONFIRMED swaps (src/domain/swap-cars.ts; the swap day is both cars'), and a PENDING
 * swap's new car from its day to the end (its difference is being charged). Keyed by subscription.
 */
function swapHolds(rows: readonly LiveSwap[]): Map<number, CarSpan[]> {
  const bySub = new Map<number, LiveSwap[]>();
  for (const r of rows) bySub.set(r.subscriptionId, [...(bySub.get(r.subscriptionId) ?? []), r]);
  const out = new Map<number, CarSpan[]>();
  for (const [id, list] of bySub) {
    const { start, end, orderCarId } = list[0];
    const spans = carSpans(start, end, orderCarId, list.filter((r) => r.status === 'CONFIRMED'));
    for (const p of list) if (p.status === 'PENDING' && p.swapDate <= end) spans.push({ carId: p.toCarId, from: p.swapDate, to: end });
    out.set(id, spans);
  }
  return out;
}

/**
 * The car's timeline (src/domain/availability.ts) read from the orders: confirmed subscriptions
 * that staff have not switched off (after a 차량 교체, each car for its own days), and pending
 * requests whose hold has not lapsed. docs/decisions/availability.md, docs/decisions/swap.md.
 */
export async function timelines(db: Db, carIds: readonly number[], now: Date, exceptRequestId?: number): Promise<Map<number, DaySpan[]>> {
  const out = new Map<number, DaySpan[]>(carIds.map((id) => [id, []]));
  if (!carIds.length) return out;
  const ids = [...carIds];
  const other = exceptRequestId ? ne(subscriptionRequests.id, exceptRequestId) : undefined;
  // Subscriptions with a live swap hold cars by their spans; they are read here and skipped below.
  const withSwaps = db
    .select({ id: subscriptionSwaps.subscriptionId })
    .from(subscriptionSwaps)
    .innerJoin(subscriptions, eq(subscriptions.id, subscriptionSwaps.subscriptionId))
    .innerJoin(subscriptionRequests, eq(subscriptionRequests.id, subscriptions.requestId))
    .where(and(ne(subscriptionSwaps.status, 'CANCELLED'), or(inArray(subscriptionSwaps.toCarId, ids), inArray(subscriptionSwaps.fromCarId, ids), inArray(subscriptionRequests.carId, ids))));
  const swapped = await liveSwaps(db, and(other, inArray(subscriptions.id, withSwaps)));
  const holds = swapHolds(swapped);
  for (const spans of holds.values()) for (const p of spans) out.get(p.carId)?.push(inclusiveSpan(p.from, p.to));
  const confirmed = await db
    .select({ id: subscriptions.id, carId: subscriptionRequests.carId, start: subscriptions.startDate, end: subscriptions.endDate })
    .from(subscriptions)
    .innerJoin(subscriptionRequests, eq(subscriptionRequests.id, subscriptions.requestId))
    .where(and(inArray(subscriptionRequests.carId, ids), eq(subscriptions.isActive, true), other));
  for (const r of confirmed) if (!holds.has(r.id)) out.get(r.carId)!.push(inclusiveSpan(r.start, r.end));
  const held = await db
    .select({ carId: subscriptionRequests.carId, start: subscriptionRequests.requestedStart, month: subscriptionRequests.month, until: subscriptionRequests.holdUntil })
    .from(subscriptionRequests)
    .where(and(inArray(subscriptionRequests.carId, ids), eq(subscriptionRequests.status, 'PENDING'), isNotNull(subscriptionRequests.requestedStart), gt(subscriptionRequests.holdUntil, now), other));
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

/** What a page asks availability for: a term (the car page's slider, the garage's months filter, the order), a start (the order page's). */
export interface AvailabilityAsk {
  month?: number;
  start?: string;
}

/**
 * GET /subscriptions/availability: per car, whether the asked term fits from the asked start
 * (never before the car's earliest start), from when it does, and the longest term that fits now.
 * A car that does not offer the asked term is judged as with no term. docs/decisions/availability.md.
 */
export async function availabilityOf(db: Db, carIds: readonly number[], now: Date, ask: AvailabilityAsk = {}): Promise<CarAvailability[]> {
  const { fee1, fee3, fee6, fee12, fee24, fee36, fee48, fee60, fee72, fee84, fee96 } = cars;
  const rows = await db
    .select({ id: cars.id, from: cars.subscriptionAvailableFrom, fee1, fee3, fee6, fee12, fee24, fee36, fee48, fee60, fee72, fee84, fee96 })
    .from(cars)
    .where(inArray(cars.id, [...carIds]));
  const today = todayInKorea(now);
  const lines = await timelines(db, rows.map((r) => r.id), now);
  return rows.map((r) => {
    const terms = FEE_TERMS.filter((t) => typeof r[`fee${t}`] === 'number');
    const earliest = earliestStart({ subscription_available_from: r.from }, today);
    const start = ask.start && ask.start > earliest ? ask.start : earliest;
    const month = ask.month && (terms as readonly number[]).includes(ask.month) ? ask.month : null;
    const a = termAvailability(lines.get(r.id) ?? [], start, month, terms);
    return { car_id: r.id, ...a, available_from: a.next_start, text: termAvailabilityText(a, terms) };
  });
}

/**
 * The cars taken on `day` (a confirmed subscription or a live hold covers it): the garage's
 * "지금 구독 가능" filter leaves them out. Only the rows that could cover the day are read.
 */
export async function carsTakenOn(db: Db, day: string, now: Date): Promise<Set<number>> {
  const confirmed = await db
    .select({ id: subscriptions.id, carId: subscriptionRequests.carId })
    .from(subscriptions)
    .innerJoin(subscriptionRequests, eq(subscriptionRequests.id, subscriptions.requestId))
    .where(and(eq(subscriptions.isActive, true), lte(subscriptions.startDate, day), gte(subscriptions.endDate, day)));
  // After a 차량 교체 the subscription holds the car of the day (both on the swap day; a PENDING swap's new car too).
  const holds = swapHolds(await liveSwaps(db, and(lte(subscriptions.startDate, day), gte(subscriptions.endDate, day))));
  const held = await db
    .select({ carId: subscriptionRequests.carId, start: subscriptionRequests.requestedStart, month: subscriptionRequests.month, until: subscriptionRequests.holdUntil })
    .from(subscriptionRequests)
    .where(and(eq(subscriptionRequests.status, 'PENDING'), isNotNull(subscriptionRequests.requestedStart), lte(subscriptionRequests.requestedStart, day), gt(subscriptionRequests.holdUntil, now)));
  const taken = new Set(confirmed.filter((r) => !holds.has(r.id)).map((r) => r.carId));
  for (const spans of holds.values()) for (const p of spans) if (p.from <= day && day <= p.to) taken.add(p.carId);
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
  bookingsChangedAt = wallMs();
}

/**
 * carsTakenOn for the garage's every request: one read shared for up to 5 s, read again at once
 * after a booking. The uncached garage answers thousands of requests a second; two queries each
 * would put them in the pool's queue.
 */
export function carsTakenNow(db: Db, day: string, now: Date): Promise<Set<number>> {
  const at = wallMs();
  const seen = takenReads.get(db);
  if (seen && seen.day === day && at - seen.at < TAKEN_RECHECK_MS && seen.at > bookingsChangedAt) return seen.taken;
  const taken = carsTakenOn(db, day, now);
  takenReads.set(db, { day, at, taken });
  taken.catch(() => takenReads.get(db)?.taken === taken && takenReads.delete(db));
  return taken;
}
