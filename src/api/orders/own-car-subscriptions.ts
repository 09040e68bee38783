import { and, desc, eq, inArray } from 'drizzle-orm';
import type { SubscriptionCarChoice } from '../../domain/butler-own-car';
import { carDisplayName } from '../../domain/car';
import { subscriptionActive } from '../../domain/subscriptions';
import { carOnDay } from '../../domain/swap-cars';
import type { Db } from '../db/client';
import { subscriptionRequests, subscriptions, subscriptionSwaps } from '../db/schema';
import { carsByIds } from '../catalogue/catalogue';
import { notFound, unprocessable } from '../errors';

/**
 * The LUXE subscription cars a customer may book a driver for under BUTLER_LEGAL_MODEL=own-car:
 * their own subscriptions that are active (not switched off, not past their end), each with the
 * car it holds on `day` (confirmed swaps applied) and its plate.
 */

/** Each subscription's car on `day` with its plate, in two queries whatever their number (their confirmed swaps, then the cars). */
async function choicesOf(db: Db, rows: readonly { sub: typeof subscriptions.$inferSelect; carId: number }[], day: string): Promise<SubscriptionCarChoice[]> {
  if (!rows.length) return [];
  const swaps = await db
    .select({ subscriptionId: subscriptionSwaps.subscriptionId, fromCarId: subscriptionSwaps.fromCarId, toCarId: subscriptionSwaps.toCarId, swapDate: subscriptionSwaps.swapDate })
    .from(subscriptionSwaps)
    .where(and(inArray(subscriptionSwaps.subscriptionId, rows.map((r) => r.sub.id)), eq(subscriptionSwaps.status, 'CONFIRMED')));
  const carIdOf = new Map(rows.map((r) => [r.sub.id, carOnDay(r.carId, swaps.filter((w) => w.subscriptionId === r.sub.id), day)]));
  const cars = await carsByIds(db, [...carIdOf.values()]);
  return rows.map(({ sub }) => {
    const car = cars.get(carIdOf.get(sub.id)!)!;
    return { subscription_id: sub.id, car_id: car.id, name: carDisplayName(car), plate: car.license_plate ?? null };
  });
}

/** GET /butlers/own-car/cars: the user's active subscriptions' cars (as of `today`), newest first. */
export async function subscriptionCarChoices(db: Db, userId: number, today: string): Promise<SubscriptionCarChoice[]> {
  const rows = await db
    .select({ sub: subscriptions, carId: subscriptionRequests.carId })
    .from(subscriptions)
    .innerJoin(subscriptionRequests, eq(subscriptionRequests.id, subscriptions.requestId))
    .where(eq(subscriptions.userId, userId))
    .orderBy(desc(subscriptions.createdAt), desc(subscriptions.id));
  return choicesOf(db, rows.filter((r) => subscriptionActive(r.sub, today)), today);
}

/**
 * The subscription car a driver-only booking names, checked: another user's or an unknown
 * subscription is 404 (as every stranger's subscription reads); one not active, or a trip outside
 * its period, is 422 with the reason.
 */
export async function subscriptionCarFor(db: Db, userId: number, subscriptionId: number, trip: { firstDay: string; lastDay: string; today: string }): Promise<SubscriptionCarChoice> {
  const [row] = await db
    .select({ sub: subscriptions, carId: subscriptionRequests.carId })
    .from(subscriptions)
    .innerJoin(subscriptionRequests, eq(subscriptionRequests.id, subscriptions.requestId))
    .where(eq(subscriptions.id, subscriptionId));
  if (!row || row.sub.userId !== userId) throw notFound('구독을 찾을 수 없습니다.');
  if (!subscriptionActive(row.sub, trip.today)) {
    const m = '이용 중인 구독 차량만 선택할 수 있습니다. 종료되었거나 중지된 구독입니다.';
    throw unprocessable(m, { 'customer_car.subscription_id': [m] });
  }
  if (trip.firstDay < row.sub.startDate || trip.lastDay > row.sub.endDate) {
    const m = `구독 기간(${row.sub.startDate} ~ ${row.sub.endDate}) 안의 날짜만 구독 차량으로 예약할 수 있습니다.`;
    throw unprocessable(m, { start_at: [m] });
  }
  return (await choicesOf(db, [row], trip.firstDay))[0];
}
