import { and, eq, gt, isNotNull, lt, ne, notInArray, type SQL } from 'drizzle-orm';
import { windowsOverlap, type BusyWindow } from '../../domain/dispatch';
import type { Db } from '../db/client';
import { subscriptionHandovers } from '../db/schema';

/**
 * The 탁송·반납 side of a driver's day: live (not cancelled) deliveries and returns whose window,
 * widened by the dispatch buffer, meets `bare` (a butler trip's or another handover's own span),
 * with their driver. `sameTime`: the spans themselves overlap; otherwise only the gap is too short.
 * The butler assignment and the handover schedule both read it after locking the driver's row.
 * `exceptIds`: the rows being moved (a swap's pair is moved together, one driver and one window).
 */
export async function handoverClashes(
  db: Db, bare: BusyWindow, bufferMinutes: number, opts: { driverId?: number; exceptIds?: readonly number[] } = {},
): Promise<{ id: number; driverId: number; sameTime: boolean }[]> {
  const reach = bufferMinutes * 60_000;
  const where: (SQL | undefined)[] = [
    opts.driverId === undefined ? isNotNull(subscriptionHandovers.driverId) : eq(subscriptionHandovers.driverId, opts.driverId),
    ne(subscriptionHandovers.status, 'CANCELLED'),
    lt(subscriptionHandovers.startsAt, new Date(bare.to.getTime() + reach)),
    gt(subscriptionHandovers.endsAt, new Date(bare.from.getTime() - reach)),
    opts.exceptIds?.length ? notInArray(subscriptionHandovers.id, [...opts.exceptIds]) : undefined,
  ];
  const rows = await db
    .select({ id: subscriptionHandovers.id, driverId: subscriptionHandovers.driverId, startsAt: subscriptionHandovers.startsAt, endsAt: subscriptionHandovers.endsAt })
    .from(subscriptionHandovers)
    .where(and(...where));
  return rows.map((r) => ({ id: r.id, driverId: r.driverId, sameTime: windowsOverlap(bare, { from: r.startsAt, to: r.endsAt }) }));
}
