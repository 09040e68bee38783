import { and, eq, inArray, isNotNull, or } from 'drizzle-orm';
import { bookingConflicts, clashes, inclusiveSpan, nextFreeStart, overlapMessage, termSpan, type BookingConflict, type DaySpan, type DeskBooking, type OverlapRefusal } from '../../domain/availability';
import { ORDER_KINDS, paidAmount } from '../../domain/payments';
import { carDisplayName, feeForTerm, isGarageActive, type Car } from '../../domain/car';
import { addDays, dotDate, todayInKorea } from '../../domain/dates';
import type { Db } from '../db/client';
import { cars, payments, subscriptionRequests, subscriptions } from '../db/schema';
import { conflict, unprocessable } from '../errors';
import { allCars } from '../catalogue/catalogue';
import { earliestStart, timelines } from '../catalogue/inventory';

/** Locks the car's row for the rest of the transaction: orders and confirmations of one car run one at a time. */
export async function lockCar(tx: Db, carId: number): Promise<void> {
  await tx.select({ id: cars.id }).from(cars).where(eq(cars.id, carId)).for('update');
}

/** How far ahead a start may be asked for, in days. */
const MAX_START_AHEAD_DAYS = 730;

/** The start an order asks for (its own, or the earliest), 422 when before the earliest or too far ahead. */
export function requestedStart(car: Car, asked: string | undefined, today: string): string {
  const earliest = earliestStart(car, today);
  if (!asked) return earliest;
  if (asked < earliest) throw unprocessable(`구독 시작일은 ${earliest} 이후로 선택해주세요.`, { start_date: [`${earliest} 이후 날짜를 선택해주세요.`] });
  if (asked > addDays(today, MAX_START_AHEAD_DAYS)) throw unprocessable(`구독 시작일은 오늘부터 ${MAX_START_AHEAD_DAYS}일 이내로 선택해주세요.`, { start_date: [`${MAX_START_AHEAD_DAYS}일 이내 날짜를 선택해주세요.`] });
  return asked;
}

/** Up to three other live cars offering the term, same brand or a monthly fee within 30%, free for the span. */
async function similarCars(db: Db, car: Car, month: number, span: DaySpan, now: Date): Promise<OverlapRefusal['similar_cars']> {
  const fee = feeForTerm(car, month) ?? 0;
  const today = todayInKorea(now);
  const near = (await allCars(db))
    .filter((c) => c.id !== car.id && isGarageActive(c, today) && feeForTerm(c, month) !== null)
    .map((c) => ({ c, fee: feeForTerm(c, month)!, brand: c.model.brand.id === car.model.brand.id }))
    .filter((x) => x.brand || Math.abs(x.fee - fee) <= fee * 0.3)
    .sort((a, b) => Number(b.brand) - Number(a.brand) || Math.abs(a.fee - fee) - Math.abs(b.fee - fee))
    .slice(0, 10);
  const lines = await timelines(db, near.map((x) => x.c.id), now);
  return near
    .filter((x) => !clashes(lines.get(x.c.id) ?? [], span).length)
    .slice(0, 3)
    .map((x) => ({ id: x.c.id, name: carDisplayName(x.c), fee: x.fee }));
}

/**
 * 409 with the next free start and similar cars when a term of `month` from `start` overlaps the
 * car's timeline. Runs before any charge (validate) and again under the car's lock (price).
 */
export async function requireFree(db: Db, car: Car, start: string, month: number, now: Date, exceptRequestId?: number): Promise<void> {
  const line = (await timelines(db, [car.id], now, exceptRequestId)).get(car.id)!;
  const span = termSpan(start, month);
  if (!clashes(line, span).length) return;
  const next = nextFreeStart(line, month, start);
  const similar = await similarCars(db, car, month, span, now);
  const data: OverlapRefusal = { next_start_date: next, similar_cars: similar };
  throw conflict(overlapMessage(span, next, similar.map((s) => s.name)), { start_date: [`${next}부터 선택할 수 있습니다.`] }, data);
}

/** Staff confirmation: 409 when the confirmed days overlap another subscription or a live hold of the car. */
export async function requireConfirmable(db: Db, carId: number, span: DaySpan, month: number, requestId: number, now: Date): Promise<void> {
  const line = (await timelines(db, [carId], now, requestId)).get(carId)!;
  const hit = clashes(line, span)[0];
  if (!hit) return;
  const next = nextFreeStart(line, month, span.start);
  throw conflict(
    `이 차량은 ${dotDate(hit.start)}~${dotDate(addDays(hit.end, -1))}에 다른 구독 일정(확정 또는 결제 후 대기)이 있어 이 기간으로 확정할 수 없습니다. ${dotDate(next)}부터 확정할 수 있습니다.`,
    { start_date: ['다른 구독 일정과 겹칩니다.'] },
    { next_start_date: next },
  );
}

/**
 * Issue 49: every paid pending request (hold live or lapsed) and every active confirmed one of
 * these cars, as the desk compares them. A pending request counts as paid while its first month
 * is paid and not refunded in full.
 */
export async function bookingsOf(db: Db, carIds: readonly number[]): Promise<Map<number, DeskBooking[]>> {
  const out = new Map<number, DeskBooking[]>(carIds.map((id) => [id, []]));
  if (!carIds.length) return out;
  const rows = await db
    .select({ id: subscriptionRequests.id, carId: subscriptionRequests.carId, status: subscriptionRequests.status, month: subscriptionRequests.month, requested: subscriptionRequests.requestedStart, start: subscriptions.startDate, end: subscriptions.endDate, active: subscriptions.isActive })
    .from(subscriptionRequests)
    .leftJoin(subscriptions, eq(subscriptions.requestId, subscriptionRequests.id))
    .where(and(inArray(subscriptionRequests.carId, [...carIds]), or(and(eq(subscriptionRequests.status, 'PENDING'), isNotNull(subscriptionRequests.requestedStart)), eq(subscriptionRequests.status, 'CONFIRMED'))));
  const pendingIds = rows.filter((r) => r.status === 'PENDING').map((r) => r.id);
  const charges = pendingIds.length
    ? await db.select().from(payments).where(and(eq(payments.refType, ORDER_KINDS.SUBSCRIBE.refType), eq(payments.purpose, 'SUBSCRIPTION_FIRST'), inArray(payments.refId, pendingIds)))
    : [];
  const paid = new Set(charges.filter((p) => paidAmount(p) > 0).map((p) => p.refId));
  for (const r of rows) {
    if (r.status === 'CONFIRMED') {
      if (r.start && r.end && r.active) out.get(r.carId)!.push({ id: r.id, status: 'CONFIRMED', span: inclusiveSpan(r.start, r.end), paid: true });
    } else if (r.requested) {
      out.get(r.carId)!.push({ id: r.id, status: 'PENDING', span: termSpan(r.requested, r.month), paid: paid.has(r.id) });
    }
  }
  return out;
}

/** The conflicts of one request against the other bookings of its car (span: what it asks or would be confirmed for). */
export async function conflictsOf(db: Db, carId: number, requestId: number, span: DaySpan): Promise<BookingConflict[]> {
  const others = (await bookingsOf(db, [carId])).get(carId) ?? [];
  return bookingConflicts({ id: requestId, status: 'PENDING', span, paid: true }, others);
}
