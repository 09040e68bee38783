import { and, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import { koreaDate } from '../../domain/dates';
import type { Handover, HandoverKind, HandoverSwap } from '../../domain/handover';
import type { Db } from '../db/client';
import { brands, cars, drivers, models, subscriptionHandovers, subscriptionRequests, subscriptionSwaps, subscriptions } from '../db/schema';
import { notFound } from '../errors';
import { termMonthsSql } from '../billing/subscription-billing';

/**
 * The handover rows and the lookups every handover file shares (the row as the API answers it,
 * its driver, its swap's cars, the subscription it belongs to).
 *
 * 탁송(인도)·반납 of a subscription's car (issue 39): staff schedule each on the dispatch board with a
 * roster driver and a window (never at once with the driver's butler trips or other handovers: the
 * driver's row is locked first, as in the butler assignment), record the odometer and fuel at the
 * handover, and the customer acknowledges the record on /my/subscriptions. A delivery recorded on
 * another day than the confirmed start moves the subscription's dates while billing allows it.
 * docs/decisions/handover.md.
 */

export type Row = typeof subscriptionHandovers.$inferSelect;
type DriverLite = { id: number; name: string; phone: string };

export const handoverNotFound = () => notFound('탁송·반납 일정을 찾을 수 없습니다.');
export const subscriptionNotFound = () => notFound('구독을 찾을 수 없습니다.');

const carLabel = sql<string>`trim(${brands.name} || ' ' || ${models.name} || coalesce(' ' || ${cars.subModel}, ''))`;

export function toHandover(row: Row, driver: DriverLite, swap: HandoverSwap | null = null): Handover {
  const recorded = row.status === 'DONE' && row.recordedAt && row.odometerKm !== null && row.fuelPercent !== null;
  return {
    id: row.id,
    subscription_id: row.subscriptionId,
    kind: row.kind,
    status: row.status,
    scheduled_date: row.scheduledDate,
    window_start: row.windowStart,
    window_end: row.windowEnd,
    address: row.address,
    driver,
    swap: row.swapId === null ? null : swap,
    record: recorded
      ? { odometer_km: row.odometerKm!, fuel_percent: row.fuelPercent!, notes: row.notes, recorded_at: row.recordedAt!.toISOString(), recorded_by: row.recordedBy ?? '', actual_date: row.actualDate ?? koreaDate(row.recordedAt!) }
      : null,
    acknowledged_at: row.acknowledgedAt ? row.acknowledgedAt.toISOString() : null,
    acknowledged_name: row.acknowledgedName,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** What the audit log keeps of a handover (the row's own fields). */
export const audited = (row: Row) => ({ ...toHandover(row, { id: row.driverId, name: '', phone: '' }), driver: { id: row.driverId }, swap: row.swapId === null ? null : { id: row.swapId } });

export async function withDriver(db: Db, row: Row): Promise<Handover> {
  const [d] = await db.select({ id: drivers.id, name: drivers.name, phone: drivers.phone }).from(drivers).where(eq(drivers.id, row.driverId));
  return toHandover(row, d ?? { id: row.driverId, name: '', phone: '' }, swapOfRow(row, await swapsOf(db, [row])));
}

/** withDriver of each row, one after another: a transaction is one client, and a client runs one query at a time. */
export async function withDrivers(tx: Db, rows: Row[]): Promise<Handover[]> {
  const out: Handover[] = [];
  for (const row of rows) out.push(await withDriver(tx, row));
  return out;
}

export const swapNotFound = () => notFound('차량 교체 내역을 찾을 수 없습니다.');

/** Cars' names and plates by id. */
export async function carNames(db: Db, ids: number[]): Promise<Map<number, { car: string; plate: string | null }>> {
  if (!ids.length) return new Map();
  const rows = await db
    .select({ id: cars.id, car: carLabel, plate: cars.licensePlate })
    .from(cars)
    .innerJoin(models, eq(models.id, cars.modelId))
    .innerJoin(brands, eq(brands.id, models.brandId))
    .where(inArray(cars.id, [...new Set(ids)]));
  return new Map(rows.map((r) => [r.id, { car: r.car, plate: r.plate }]));
}

type SwapCars = { id: number; swapDate: string; fromCarId: number; toCarId: number; names: Map<number, { car: string; plate: string | null }> };

/** The swaps of handover rows (a swap's pair), with their cars' names and plates. */
export async function swapsOf(db: Db, rows: Pick<Row, 'swapId'>[]): Promise<Map<number, SwapCars>> {
  const ids = [...new Set(rows.flatMap((r) => (r.swapId === null ? [] : [r.swapId])))];
  if (!ids.length) return new Map();
  const swaps = await db
    .select({ id: subscriptionSwaps.id, swapDate: subscriptionSwaps.swapDate, fromCarId: subscriptionSwaps.fromCarId, toCarId: subscriptionSwaps.toCarId })
    .from(subscriptionSwaps)
    .where(inArray(subscriptionSwaps.id, ids));
  const names = await carNames(db, swaps.flatMap((s) => [s.fromCarId, s.toCarId]));
  return new Map(swaps.map((s) => [s.id, { ...s, names }]));
}

/** A swap handover's swap and car: the old car for the pair's RETURN, the new one for its DELIVERY. */
export function swapOfRow(row: Pick<Row, 'swapId' | 'kind'>, swaps: Map<number, SwapCars>): HandoverSwap | null {
  const s = row.swapId === null ? undefined : swaps.get(row.swapId);
  if (!s) return null;
  const carId = row.kind === 'RETURN' ? s.fromCarId : s.toCarId;
  const name = s.names.get(carId);
  return { id: s.id, swap_date: s.swapDate, car_id: carId, car: name?.car ?? '', plate: name?.plate ?? null };
}

/** The subscription with its term and car (locked for the schedule and the record). */
export async function subscriptionOf(db: Db, id: number, { lock = false } = {}) {
  const q = db
    .select({ sub: subscriptions, term: termMonthsSql, carId: subscriptionRequests.carId })
    .from(subscriptions)
    .innerJoin(subscriptionRequests, eq(subscriptionRequests.id, subscriptions.requestId))
    .where(eq(subscriptions.id, id));
  const [row] = lock ? await q.for('update', { of: subscriptions }) : await q;
  return row;
}

export async function handoverRow(db: Db, id: number, { lock = false } = {}): Promise<Row> {
  const q = db.select().from(subscriptionHandovers).where(eq(subscriptionHandovers.id, id));
  const [row] = lock ? await q.for('update') : await q;
  if (!row) throw handoverNotFound();
  return row;
}

/** A swap's live pair (RETURN first), locked. */
export async function livePair(db: Db, swapId: number): Promise<Row[]> {
  return db
    .select()
    .from(subscriptionHandovers)
    .where(and(eq(subscriptionHandovers.swapId, swapId), ne(subscriptionHandovers.status, 'CANCELLED')))
    .orderBy(desc(subscriptionHandovers.kind))
    .for('update');
}

export const SWAP_KINDS: HandoverKind[] = ['RETURN', 'DELIVERY'];
