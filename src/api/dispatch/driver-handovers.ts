import { and, eq, gte, lt, ne, or } from 'drizzle-orm';
import { addDays, koreaDayStart, todayInKorea } from '../../domain/dates';
import type { BoardHandover } from '../../domain/handover';
import type { Db } from '../db/client';
import { subscriptionHandovers } from '../db/schema';
import { boardRows } from './handover-board-rows';

/**
 * GET /driver/handovers: the driver's own live deliveries and returns scheduled today or tomorrow
 * (Korean days), and any still unrecorded from the three days before, by window. The customer's
 * number stays with staff (the driver calls the office).
 */
export async function driverHandovers(db: Db, driverId: number, now: Date): Promise<BoardHandover[]> {
  const today = todayInKorea(now);
  const rows = await boardRows(
    db,
    and(
      eq(subscriptionHandovers.driverId, driverId),
      ne(subscriptionHandovers.status, 'CANCELLED'),
      lt(subscriptionHandovers.startsAt, koreaDayStart(addDays(today, 2))),
      or(gte(subscriptionHandovers.startsAt, koreaDayStart(today)), and(eq(subscriptionHandovers.status, 'SCHEDULED'), gte(subscriptionHandovers.startsAt, koreaDayStart(addDays(today, -3))))),
    ),
  );
  return rows.map((h) => ({ ...h, customer: { name: h.customer.name, mobile: null } }));
}

/** A driver's live deliveries and returns on one Korean day (the 운행표 lists them with the trips). */
export async function driverDayHandovers(db: Db, driverId: number, date: string): Promise<BoardHandover[]> {
  return boardRows(
    db,
    and(eq(subscriptionHandovers.driverId, driverId), ne(subscriptionHandovers.status, 'CANCELLED'), gte(subscriptionHandovers.startsAt, koreaDayStart(date)), lt(subscriptionHandovers.startsAt, koreaDayStart(addDays(date, 1)))),
  );
}
