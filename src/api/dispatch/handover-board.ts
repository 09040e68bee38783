import { and, asc, eq, gte, inArray, isNotNull, isNull, lt, ne, sql } from 'drizzle-orm';
import { addDays, koreaDayStart, todayInKorea } from '../../domain/dates';
import type { BoardHandover, HandoverKind, OpenHandover, OpenSwap } from '../../domain/handover';
import type { Db } from '../db/client';
import { subscriptionHandovers, subscriptionRequests, subscriptionSwaps, subscriptions, users } from '../db/schema';
import { carOnDay } from '../../domain/swap-cars';
import { carNames } from './handover-rows';
import { boardRows, confirmedSwapsBySubscription } from './handover-board-rows';

/**
 * GET /admin/handovers: the live handovers scheduled on `days` Korean days from `from` (the
 * dispatch board's range), and the subscriptions still missing a delivery or a return (running:
 * the delivery from confirmation, the return once the end is within 60 days; ended early by 해지
 * or 중도 해지: the return of a delivered car), soonest first.
 */
export async function handoverBoard(db: Db, q: { from?: string; days: number }, now: Date): Promise<{ from: string; to: string; handovers: BoardHandover[]; open: OpenHandover[]; open_swaps: OpenSwap[] }> {
  const from = q.from ?? todayInKorea(now);
  const to = addDays(from, q.days);
  const handovers = await boardRows(db, and(ne(subscriptionHandovers.status, 'CANCELLED'), gte(subscriptionHandovers.startsAt, koreaDayStart(from)), lt(subscriptionHandovers.startsAt, koreaDayStart(to))));
  const active = await db
    .select({
      id: subscriptions.id, startDate: subscriptions.startDate, endDate: subscriptions.endDate, running: sql<boolean>`${subscriptions.isActive} and ${subscriptions.billingStatus} <> 'CANCELLED'`,
      orderCarId: subscriptionRequests.carId, options: subscriptionRequests.options, customer: { name: users.name, mobile: users.mobile },
    })
    .from(subscriptions)
    .innerJoin(subscriptionRequests, eq(subscriptionRequests.id, subscriptions.requestId))
    .innerJoin(users, eq(users.id, subscriptions.userId))
    .where(gte(subscriptions.endDate, todayInKorea(now)))
    .orderBy(asc(subscriptions.startDate), asc(subscriptions.id))
    .limit(200);
  const live = active.length
    ? await db
        .select({ subscriptionId: subscriptionHandovers.subscriptionId, kind: subscriptionHandovers.kind, status: subscriptionHandovers.status })
        .from(subscriptionHandovers)
        .where(and(inArray(subscriptionHandovers.subscriptionId, active.map((a) => a.id)), isNull(subscriptionHandovers.swapId), ne(subscriptionHandovers.status, 'CANCELLED')))
    : [];
  const has = new Set(live.map((l) => `${l.subscriptionId}:${l.kind}`));
  const delivered = new Set(live.filter((l) => l.kind === 'DELIVERY' && l.status === 'DONE').map((l) => l.subscriptionId));
  const returnFrom = addDays(todayInKorea(now), 60);
  // The car a missing return takes back is the one held at the end: after a swap, the swap's new car.
  const held = await confirmedSwapsBySubscription(db, active.map((a) => a.id));
  const heldIds = active.map((a) => (delivered.has(a.id) ? carOnDay(a.orderCarId, held.get(a.id) ?? [], a.endDate) : a.orderCarId));
  const names = await carNames(db, heldIds);
  const open = active.flatMap((a, i): OpenHandover[] => {
    const missing: HandoverKind[] = [];
    // Running: the delivery from confirmation, the return once the end is near. Ended early (해지, 중도 해지): the return of a delivered car.
    if (a.running && !has.has(`${a.id}:DELIVERY`)) missing.push('DELIVERY');
    if (!has.has(`${a.id}:RETURN`) && (a.running ? a.endDate <= returnFrom : delivered.has(a.id))) missing.push('RETURN');
    const car = names.get(heldIds[i]);
    const o = a.options?.options;
    const choice = o ? { handover: o.handover, address: o.handover === 'DELIVERY' ? o.delivery_address : null, window: o.handover === 'DELIVERY' ? o.delivery_window : null } : null;
    return missing.length ? [{ subscription_id: a.id, car: car?.car ?? '', plate: car?.plate ?? null, customer: { name: a.customer.name ?? '', mobile: a.customer.mobile }, start_date: a.startDate, end_date: a.endDate, missing, choice }] : [];
  });
  return { from, to, handovers, open, open_swaps: await openSwaps(db, now) };
}

/**
 * 교체 배차 대기: CONFIRMED swaps (from a week back on) with no live pair, soonest first, with the
 * place of the subscription's own delivery as the pair's default place.
 */
async function openSwaps(db: Db, now: Date): Promise<OpenSwap[]> {
  const rows = await db
    .select({ swap: subscriptionSwaps, customer: { name: users.name, mobile: users.mobile } })
    .from(subscriptionSwaps)
    .innerJoin(subscriptions, eq(subscriptions.id, subscriptionSwaps.subscriptionId))
    .innerJoin(users, eq(users.id, subscriptions.userId))
    .where(and(
      eq(subscriptionSwaps.status, 'CONFIRMED'),
      gte(subscriptionSwaps.swapDate, addDays(todayInKorea(now), -7)),
      sql`not exists (select 1 from ${subscriptionHandovers} where ${subscriptionHandovers.swapId} = ${subscriptionSwaps.id} and ${subscriptionHandovers.status} <> 'CANCELLED')`,
    ))
    .orderBy(asc(subscriptionSwaps.swapDate), asc(subscriptionSwaps.id))
    .limit(200);
  if (!rows.length) return [];
  const names = await carNames(db, rows.flatMap((r) => [r.swap.fromCarId, r.swap.toCarId]));
  const places = await db
    .select({ subscriptionId: subscriptionHandovers.subscriptionId, address: subscriptionHandovers.address })
    .from(subscriptionHandovers)
    .where(and(inArray(subscriptionHandovers.subscriptionId, rows.map((r) => r.swap.subscriptionId)), isNull(subscriptionHandovers.swapId), eq(subscriptionHandovers.kind, 'DELIVERY'), ne(subscriptionHandovers.status, 'CANCELLED'), isNotNull(subscriptionHandovers.address)));
  const place = new Map(places.map((p) => [p.subscriptionId, p.address]));
  const car = (id: number) => ({ id, car: names.get(id)?.car ?? '', plate: names.get(id)?.plate ?? null });
  return rows.map(({ swap, customer }) => ({
    swap_id: swap.id, subscription_id: swap.subscriptionId, customer: { name: customer.name ?? '', mobile: customer.mobile }, swap_date: swap.swapDate,
    from_car: car(swap.fromCarId), to_car: car(swap.toCarId), address: place.get(swap.subscriptionId) ?? null,
  }));
}
