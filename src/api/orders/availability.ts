import { eq } from 'drizzle-orm';
import { clashes, dotDate, nextFreeStart, overlapMessage, termSpan, type DaySpan, type OverlapRefusal } from '../../domain/availability';
import { carDisplayName, feeForTerm, isGarageActive, type Car } from '../../domain/car';
import { addDays, todayInKorea } from '../../domain/dates';
import type { Db } from '../db/client';
import { cars } from '../db/schema';
import { conflict, unprocessable } from '../errors';
import { allCars } from '../catalogue/catalogue';
import { earliestStart, timelines } from '../catalogue/inventory';

/** Locks the car's row for the rest of the transaction: orders and confirmations of one car run one at a time. */
export async function lockCar(tx: Db, carId: number): Promise<void> {
  await tx.select({ id: cars.id }).from(cars).where(eq(cars.id, carId)).for('update');
}

/** How far ahead a start may be asked for, in days. */
export const MAX_START_AHEAD_DAYS = 730;

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
