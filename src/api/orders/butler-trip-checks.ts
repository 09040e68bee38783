import { and, asc, eq, inArray, isNull, ne, or } from 'drizzle-orm';
import { tripProblems, type ButlerCar } from '../../domain/butler';
import type { Db } from '../db/client';
import { butlerRequests, butlerReservedDates, butlerWaypoints } from '../db/schema';
import { conflict, notFound, unprocessable } from '../errors';
import { butlerCarList } from '../catalogue/catalogue';

/** A butler trip's times and the car's days: checked, reserved, with the trip's waypoints. */

export type WaypointInput = { address: string; scheduled_time: string | null };

export const dayTaken = (days: string[]) => conflict('선택한 날짜에 이미 예약된 차량입니다.', { start_at: [`이미 예약된 날짜: ${days.join(', ')}`] });

/** The butler car or 404. */
export async function butlerCar(db: Db, carId: number, today: string): Promise<ButlerCar> {
  const [car] = await butlerCarList(db, { id: carId, today });
  if (!car) throw notFound('차량 정보를 찾을 수 없습니다.');
  return car;
}

/** 422 with every problem of the trip's times (the first one as the message). */
export function checkTrip(start: Date, end: Date | null, waypoints: WaypointInput[], waypointField: string, now: Date) {
  const problems = tripProblems({ start, end, waypoints }, now, waypointField);
  if (!problems.length) return;
  const fields: Record<string, string[]> = {};
  for (const p of problems) (fields[p.field] ??= []).push(p.message);
  throw unprocessable(problems[0].message, fields);
}

/**
 * Days among `days` already reserved for the car by someone else: a staff block, or another
 * request than `own` (on edit) or than the one behind `billingKey` (a repeat of the same order
 * must reach the checkout's repeat (inOrderLock), not a 409 for its own days).
 */
export async function takenDays(db: Db, carId: number, days: string[], own: { requestId?: number; billingKey?: string }): Promise<string[]> {
  if (!days.length) return [];
  const rd = butlerReservedDates;
  const notOwn = own.requestId !== undefined ? ne(rd.butlerRequestId, own.requestId) : own.billingKey !== undefined ? ne(butlerRequests.billingKey, own.billingKey) : undefined;
  const rows = await db
    .select({ date: rd.date })
    .from(rd)
    .leftJoin(butlerRequests, eq(butlerRequests.id, rd.butlerRequestId))
    .where(and(eq(rd.butlerCarId, carId), inArray(rd.date, days), notOwn ? or(isNull(rd.butlerRequestId), notOwn) : undefined))
    .orderBy(asc(rd.date));
  return rows.map((r) => r.date);
}

/**
 * Reserves `days` (ascending, so concurrent bookings lock rows in one order) for the request
 * inside the caller's transaction. A day someone else holds makes nothing of it stick: the 409
 * rolls the whole transaction back, and of two racing bookings exactly one gets the day.
 */
export async function reserveDays(tx: Db, carId: number, requestId: number, days: string[]): Promise<void> {
  if (!days.length) return;
  const sorted = [...days].sort();
  const rows = await tx
    .insert(butlerReservedDates)
    .values(sorted.map((date) => ({ butlerCarId: carId, date, butlerRequestId: requestId })))
    .onConflictDoNothing()
    .returning({ date: butlerReservedDates.date });
  if (rows.length < sorted.length) {
    const got = new Set(rows.map((r) => r.date));
    throw dayTaken(sorted.filter((d) => !got.has(d)));
  }
}

export async function insertWaypoints(tx: Db, requestId: number, waypoints: WaypointInput[]) {
  if (!waypoints.length) return;
  await tx.insert(butlerWaypoints).values(
    waypoints.map((w, i) => ({ butlerRequestId: requestId, position: i, address: w.address, scheduledTime: w.scheduled_time ? new Date(w.scheduled_time) : null })),
  );
}
