import { and, asc, eq, inArray } from 'drizzle-orm';
import type { BoardHandover, HandoverKind } from '../../domain/handover';
import type { Db } from '../db/client';
import { drivers, subscriptionHandovers, subscriptionRequests, subscriptionSwaps, subscriptions, users } from '../db/schema';
import { orderDriverViews } from '../licences/licences';
import { carOnDay } from '../../domain/swap-cars';
import { carNames, swapOfRow, swapsOf, toHandover } from './handover-rows';

/** The CONFIRMED swaps of subscriptions, by subscription (which car each holds on which day). */
export async function confirmedSwapsBySubscription(db: Db, ids: number[]): Promise<Map<number, { id: number; fromCarId: number; toCarId: number; swapDate: string }[]>> {
  const out = new Map<number, { id: number; fromCarId: number; toCarId: number; swapDate: string }[]>();
  if (!ids.length) return out;
  const rows = await db
    .select({ id: subscriptionSwaps.id, subscriptionId: subscriptionSwaps.subscriptionId, fromCarId: subscriptionSwaps.fromCarId, toCarId: subscriptionSwaps.toCarId, swapDate: subscriptionSwaps.swapDate })
    .from(subscriptionSwaps)
    .where(and(inArray(subscriptionSwaps.subscriptionId, [...new Set(ids)]), eq(subscriptionSwaps.status, 'CONFIRMED')));
  for (const r of rows) out.set(r.subscriptionId, [...(out.get(r.subscriptionId) ?? []), r]);
  return out;
}

/**
 * The car a subscription's own handover hands over: the order's at the delivery; at the return the
 * car held on its day (or at the end, if later): after a 차량 교체 that is the swap's new car, not the order's.
 */
function heldCarId(orderCarId: number, kind: HandoverKind, day: string, endDate: string, swaps: { fromCarId: number; toCarId: number; swapDate: string }[]): number {
  if (kind === 'DELIVERY' || !swaps.length) return orderCarId;
  return carOnDay(orderCarId, swaps, day > endDate ? day : endDate);
}

/** Handovers with their driver, subscription, car and customer, in the board's order (by window start). */
export async function boardRows(db: Db, where: ReturnType<typeof and>): Promise<BoardHandover[]> {
  const rows = await db
    .select({
      h: subscriptionHandovers,
      driver: { id: drivers.id, name: drivers.name, phone: drivers.phone },
      sub: { startDate: subscriptions.startDate, endDate: subscriptions.endDate, requestId: subscriptions.requestId },
      orderCarId: subscriptionRequests.carId,
      customer: { name: users.name, mobile: users.mobile },
    })
    .from(subscriptionHandovers)
    .innerJoin(drivers, eq(drivers.id, subscriptionHandovers.driverId))
    .innerJoin(subscriptions, eq(subscriptions.id, subscriptionHandovers.subscriptionId))
    .innerJoin(subscriptionRequests, eq(subscriptionRequests.id, subscriptions.requestId))
    .innerJoin(users, eq(users.id, subscriptions.userId))
    .where(where)
    .orderBy(asc(subscriptionHandovers.startsAt), asc(subscriptionHandovers.id));
  const swaps = await swapsOf(db, rows.map((r) => r.h));
  const held = await confirmedSwapsBySubscription(db, rows.filter((r) => r.h.swapId === null && r.h.kind === 'RETURN').map((r) => r.h.subscriptionId));
  const carIds = rows.map((r) => heldCarId(r.orderCarId, r.h.kind, r.h.scheduledDate, r.sub.endDate, r.h.swapId === null ? (held.get(r.h.subscriptionId) ?? []) : []));
  const names = await carNames(db, carIds);
  const licences = await orderDriverViews(db, [...new Set(rows.map((r) => r.sub.requestId))]);
  return rows.map(({ h, driver, sub, customer }, i) => {
    const swap = swapOfRow(h, swaps);
    const licenceStatus = (licences.get(sub.requestId) ?? []).map((l) => ({ name: l.name, role: l.role, status: l.status, status_text: l.status_text, expires_on: l.expires_on, checked_at: l.checked_at }));
    // A swap's pair hands over the swap's cars; the subscription's own return, the car held then.
    const own = names.get(carIds[i]);
    return {
      ...toHandover(h, driver, swap), car: swap ? swap.car : (own?.car ?? ''), plate: swap ? swap.plate : (own?.plate ?? null),
      customer: { name: customer.name ?? '', mobile: customer.mobile }, start_date: sub.startDate, end_date: sub.endDate,
      licences: licenceStatus,
    };
  });
}
