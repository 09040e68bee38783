import { and, asc, desc, eq, gte, inArray, isNotNull, isNull, lt, ne, or, sql } from 'drizzle-orm';
import { inclusiveSpan } from '../../domain/availability';
import { addDays, koreaDate, koreaDayStart, todayInKorea } from '../../domain/dates';
import {
  acknowledgementMatches, handoverWindow, shiftedTerm, HANDOVER_KIND_LABEL, HANDOVER_RECORD_LABEL,
  type BoardHandover, type Handover, type HandoverKind, type HandoverReadings, type HandoverRecordAnswer, type HandoverSwap, type OpenHandover, type OpenSwap,
} from '../../domain/handover';
import type { HandoverRecordInput, ScheduleHandoverInput, ScheduleSwapHandoversInput } from '../../domain/schemas/handover';
import { inTransaction, type Db } from '../db/client';
import { brands, cars, drivers, models, subscriptionHandovers, subscriptionRequests, subscriptionSwaps, subscriptions, users } from '../db/schema';
import { ApiError, conflict, forbidden, notFound, unprocessable } from '../errors';
import type { StaffActor } from '../auth/guards';
import { recordAudit } from '../audit/audit';
import type { Job } from '../jobs/queue';
import { emit } from '../notifications/events';
import { moveSubscriptionStart, secondMonthTried, termMonthsSql } from '../billing/subscription-billing';
import { recordOdometerReading } from '../billing/mileage';
import type { PaymentContext } from '../payment-context';
import type { LicenceContext } from '../licence-provider';
import { handoverLicenceCheck, orderDriverViews } from '../licences/licences';
import { lockCar, requireConfirmable } from '../orders/availability';
import { clashingTrips, driverRow } from './dispatch';
import { handoverClashes } from './handover-busy';
import { carOnDay } from '../../domain/swap-cars';

/**
 * 탁송(인도)·반납 of a subscription's car (issue 39): staff schedule each on the dispatch board with a
 * roster driver and a window (never at once with the driver's butler trips or other handovers: the
 * driver's row is locked first, as in the butler assignment), record the odometer and fuel at the
 * handover, and the customer acknowledges the record on /my/subscriptions. A delivery recorded on
 * another day than the confirmed start moves the subscription's dates while billing allows it.
 * docs/decisions/handover.md.
 */

type Row = typeof subscriptionHandovers.$inferSelect;
type DriverLite = { id: number; name: string; phone: string };

const handoverNotFound = () => notFound('탁송·반납 일정을 찾을 수 없습니다.');
const subscriptionNotFound = () => notFound('구독을 찾을 수 없습니다.');

const carLabel = sql<string>`trim(${brands.name} || ' ' || ${models.name} || coalesce(' ' || ${cars.subModel}, ''))`;

function toHandover(row: Row, driver: DriverLite, swap: HandoverSwap | null = null): Handover {
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
const audited = (row: Row) => ({ ...toHandover(row, { id: row.driverId, name: '', phone: '' }), driver: { id: row.driverId }, swap: row.swapId === null ? null : { id: row.swapId } });

async function withDriver(db: Db, row: Row): Promise<Handover> {
  const [d] = await db.select({ id: drivers.id, name: drivers.name, phone: drivers.phone }).from(drivers).where(eq(drivers.id, row.driverId));
  return toHandover(row, d ?? { id: row.driverId, name: '', phone: '' }, swapOfRow(row, await swapsOf(db, [row])));
}

/** withDriver of each row, one after another: a transaction is one client, and a client runs one query at a time. */
async function withDrivers(tx: Db, rows: Row[]): Promise<Handover[]> {
  const out: Handover[] = [];
  for (const row of rows) out.push(await withDriver(tx, row));
  return out;
}

const swapNotFound = () => notFound('차량 교체 내역을 찾을 수 없습니다.');

/** Cars' names and plates by id. */
async function carNames(db: Db, ids: number[]): Promise<Map<number, { car: string; plate: string | null }>> {
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
async function swapsOf(db: Db, rows: Pick<Row, 'swapId'>[]): Promise<Map<number, SwapCars>> {
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
function swapOfRow(row: Pick<Row, 'swapId' | 'kind'>, swaps: Map<number, SwapCars>): HandoverSwap | null {
  const s = row.swapId === null ? undefined : swaps.get(row.swapId);
  if (!s) return null;
  const carId = row.kind === 'RETURN' ? s.fromCarId : s.toCarId;
  const name = s.names.get(carId);
  return { id: s.id, swap_date: s.swapDate, car_id: carId, car: name?.car ?? '', plate: name?.plate ?? null };
}

/** The subscription with its term and car (locked for the schedule and the record). */
async function subscriptionOf(db: Db, id: number, { lock = false } = {}) {
  const q = db
    .select({ sub: subscriptions, term: termMonthsSql, carId: subscriptionRequests.carId })
    .from(subscriptions)
    .innerJoin(subscriptionRequests, eq(subscriptionRequests.id, subscriptions.requestId))
    .where(eq(subscriptions.id, id));
  const [row] = lock ? await q.for('update', { of: subscriptions }) : await q;
  return row;
}

async function handoverRow(db: Db, id: number, { lock = false } = {}): Promise<Row> {
  const q = db.select().from(subscriptionHandovers).where(eq(subscriptionHandovers.id, id));
  const [row] = lock ? await q.for('update') : await q;
  if (!row) throw handoverNotFound();
  return row;
}

/**
 * POST /admin/subscriptions/{id}/handovers: schedules the delivery or the return of an active
 * subscription, or reschedules the live one of that kind (audited; the customer is told). The
 * driver's row is locked before anything is read, so two schedules or a schedule and a butler
 * assignment of one driver take turns and the second sees the first. Sending the same schedule
 * again changes nothing (no second row, no second message).
 */
export async function scheduleHandover(db: Db, actor: StaffActor, subscriptionId: number, input: ScheduleHandoverInput, bufferMinutes: number, now: Date): Promise<{ handover: Handover; created: boolean }> {
  const window = handoverWindow(input.date, input.window_start, input.window_end);
  if ('error' in window) throw unprocessable(window.error, { window_end: [window.error] });
  return inTransaction(db, async (tx) => {
    const driver = await driverRow(tx, input.driver_id, { lock: true });
    const found = await subscriptionOf(tx, subscriptionId, { lock: true });
    if (!found) throw subscriptionNotFound();
    // A car out must come back: a return may be booked after 해지 or 중도 해지 too; a delivery only while the subscription runs.
    if (input.kind === 'DELIVERY' && (!found.sub.isActive || found.sub.billingStatus === 'CANCELLED')) throw conflict('해지된 구독은 탁송 일정을 잡을 수 없습니다.');
    const [live] = await tx
      .select()
      .from(subscriptionHandovers)
      .where(and(eq(subscriptionHandovers.subscriptionId, subscriptionId), eq(subscriptionHandovers.kind, input.kind), isNull(subscriptionHandovers.swapId), ne(subscriptionHandovers.status, 'CANCELLED')))
      .for('update');
    const label = HANDOVER_KIND_LABEL[input.kind];
    if (live?.status === 'DONE') throw conflict(`이미 ${label} 기록이 완료된 구독입니다. 일정을 바꿀 수 없습니다.`);
    const same = live && live.driverId === driver.id && live.scheduledDate === input.date && live.windowStart === input.window_start && live.windowEnd === input.window_end && live.address === input.address;
    if (same) return { handover: toHandover(live, { id: driver.id, name: driver.name, phone: driver.phone }), created: false };
    if (!driver.active) throw unprocessable('근무하지 않는 기사입니다. 기사 정보에서 근무 상태를 확인해주세요.', { driver_id: ['근무하지 않는 기사입니다.'] });
    if (driver.daysOff.includes(input.date)) throw unprocessable(`해당 기사의 휴무일입니다. (${input.date})`, { driver_id: [`휴무일: ${input.date}`] });
    if (input.kind === 'RETURN' && input.date < found.sub.startDate) throw unprocessable('반납일은 구독 시작일 이후여야 합니다.', { date: ['구독 시작일 이후로 잡아주세요.'] });
    const trips = await clashingTrips(tx, { id: 0, startAt: window.from, endAt: window.to }, bufferMinutes, driver.id);
    const others = await handoverClashes(tx, window, bufferMinutes, { driverId: driver.id, exceptId: live?.id });
    if (trips.some((c) => c.sameTime)) throw conflict('해당 기사는 같은 시간대에 의전 운행이 배정되어 있습니다.');
    if (others.some((c) => c.sameTime)) throw conflict('해당 기사는 같은 시간대에 다른 탁송·반납 일정이 있습니다.');
    if (trips.length || others.length) throw conflict(`해당 기사의 앞뒤 일정과 간격이 ${bufferMinutes}분보다 짧습니다. 일정 사이에는 이동과 준비를 위해 ${bufferMinutes}분 이상이 필요합니다.`);
    const values = {
      driverId: driver.id, scheduledDate: input.date, windowStart: input.window_start, windowEnd: input.window_end,
      startsAt: window.from, endsAt: window.to, address: input.address, updatedAt: now,
    };
    const [row] = live
      ? await tx.update(subscriptionHandovers).set(values).where(eq(subscriptionHandovers.id, live.id)).returning()
      : await tx.insert(subscriptionHandovers).values({ ...values, subscriptionId, kind: input.kind, createdAt: now }).returning();
    await recordAudit(tx, actor, { action: live ? 'update' : 'create', entity: 'subscription_handover', entityId: row.id, before: live ? audited(live) : null, after: audited(row) });
    await emit(tx, `subscription.handover_scheduled:${row.id}:${now.getTime()}`, { type: 'subscription.handover_scheduled', userId: found.sub.userId, subscriptionId, handoverId: row.id }, now);
    return { handover: toHandover(row, { id: driver.id, name: driver.name, phone: driver.phone }), created: !live };
  });
}

/** DELETE /admin/handovers/{id}: a scheduled handover is called off (audited); a recorded one stays. A swap's pair is called off together. */
export async function cancelHandover(db: Db, actor: StaffActor, id: number, now: Date): Promise<Handover> {
  const first = await handoverRow(db, id);
  if (first.swapId !== null && first.status === 'SCHEDULED') {
    const pair = await cancelSwapHandovers(db, actor, first.subscriptionId, first.swapId, now);
    return pair.find((h) => h.id === id) ?? withDriver(db, await handoverRow(db, id));
  }
  return inTransaction(db, async (tx) => {
    const row = await handoverRow(tx, id, { lock: true });
    if (row.status === 'DONE') throw conflict('이미 기록이 완료된 일정은 취소할 수 없습니다.');
    if (row.status === 'CANCELLED') return withDriver(tx, row);
    const [after] = await tx.update(subscriptionHandovers).set({ status: 'CANCELLED', updatedAt: now }).where(eq(subscriptionHandovers.id, id)).returning();
    await recordAudit(tx, actor, { action: 'cancel', entity: 'subscription_handover', entityId: id, before: audited(row), after: audited(after) });
    return withDriver(tx, after);
  });
}

/** The swap of a subscription, for its pair: 404 when it is not this subscription's (or was withdrawn). */
async function swapFor(db: Db, subscriptionId: number, swapId: number) {
  const [swap] = await db.select().from(subscriptionSwaps).where(and(eq(subscriptionSwaps.id, swapId), eq(subscriptionSwaps.subscriptionId, subscriptionId)));
  if (!swap || swap.status === 'CANCELLED') throw swapNotFound();
  return swap;
}

/** A swap's live pair (RETURN first), locked. */
async function livePair(db: Db, swapId: number): Promise<Row[]> {
  return db
    .select()
    .from(subscriptionHandovers)
    .where(and(eq(subscriptionHandovers.swapId, swapId), ne(subscriptionHandovers.status, 'CANCELLED')))
    .orderBy(desc(subscriptionHandovers.kind))
    .for('update');
}

const SWAP_KINDS: HandoverKind[] = ['RETURN', 'DELIVERY'];

/**
 * POST /admin/subscriptions/{id}/swaps/{swapId}/handovers: the pair of a CONFIRMED 차량 교체 — the
 * old car's RETURN and the new car's DELIVERY — with one driver and one window on the swap day (the
 * day billing prorated: another day is a 422). The driver's row is locked first and the window
 * checked once against their butler trips and other handovers (the pair's own rows aside), as for
 * a single handover. Sending it again changes nothing; another driver or window moves both rows.
 * The customer gets one message for the pair. docs/decisions/handover.md (Swaps).
 */
export async function scheduleSwapHandovers(
  db: Db, actor: StaffActor, subscriptionId: number, swapId: number, input: ScheduleSwapHandoversInput, bufferMinutes: number, now: Date,
): Promise<{ handovers: Handover[]; created: boolean }> {
  return inTransaction(db, async (tx) => {
    const driver = await driverRow(tx, input.driver_id, { lock: true });
    const found = await subscriptionOf(tx, subscriptionId, { lock: true });
    if (!found) throw subscriptionNotFound();
    const swap = await swapFor(tx, subscriptionId, swapId);
    if (swap.status !== 'CONFIRMED') throw conflict('교체 요금 결제가 확인된 뒤 교체 일정을 잡을 수 있습니다.');
    // The pair hands over a new car: only while the subscription runs (as a delivery).
    if (!found.sub.isActive || found.sub.billingStatus === 'CANCELLED') throw conflict('해지된 구독은 차량 교체 일정을 잡을 수 없습니다.');
    if (input.date !== undefined && input.date !== swap.swapDate) {
      const reason = `차량 교체 일정은 교체일(${swap.swapDate})에만 잡을 수 있습니다. 교체일을 기준으로 요금이 정산되었습니다.`;
      throw unprocessable(reason, { date: [reason] });
    }
    const window = handoverWindow(swap.swapDate, input.window_start, input.window_end);
    if ('error' in window) throw unprocessable(window.error, { window_end: [window.error] });
    const live = await livePair(tx, swapId);
    if (live.some((h) => h.status === 'DONE')) throw conflict('교체 인수 기록이 이미 작성되어 교체 일정을 바꿀 수 없습니다.');
    const swaps = await swapsOf(tx, [{ swapId }]);
    const view = (row: Row) => toHandover(row, { id: driver.id, name: driver.name, phone: driver.phone }, swapOfRow(row, swaps));
    const same = live.length === SWAP_KINDS.length && live.every((h) => h.driverId === driver.id && h.scheduledDate === swap.swapDate && h.windowStart === input.window_start && h.windowEnd === input.window_end && h.address === input.address);
    if (same) return { handovers: live.map(view), created: false };
    if (!driver.active) throw unprocessable('근무하지 않는 기사입니다. 기사 정보에서 근무 상태를 확인해주세요.', { driver_id: ['근무하지 않는 기사입니다.'] });
    if (driver.daysOff.includes(swap.swapDate)) throw unprocessable(`해당 기사의 휴무일입니다. (${swap.swapDate})`, { driver_id: [`휴무일: ${swap.swapDate}`] });
    // One window for both: checked once, the pair's own rows aside.
    const trips = await clashingTrips(tx, { id: 0, startAt: window.from, endAt: window.to }, bufferMinutes, driver.id);
    const others = await handoverClashes(tx, window, bufferMinutes, { driverId: driver.id, exceptIds: live.map((h) => h.id) });
    if (trips.some((c) => c.sameTime)) throw conflict('해당 기사는 같은 시간대에 의전 운행이 배정되어 있습니다.');
    if (others.some((c) => c.sameTime)) throw conflict('해당 기사는 같은 시간대에 다른 탁송·반납 일정이 있습니다.');
    if (trips.length || others.length) throw conflict(`해당 기사의 앞뒤 일정과 간격이 ${bufferMinutes}분보다 짧습니다. 일정 사이에는 이동과 준비를 위해 ${bufferMinutes}분 이상이 필요합니다.`);
    const values = {
      driverId: driver.id, scheduledDate: swap.swapDate, windowStart: input.window_start, windowEnd: input.window_end,
      startsAt: window.from, endsAt: window.to, address: input.address, updatedAt: now,
    };
    const rows: Row[] = [];
    for (const kind of SWAP_KINDS) {
      const before = live.find((h) => h.kind === kind);
      const [row] = before
        ? await tx.update(subscriptionHandovers).set(values).where(eq(subscriptionHandovers.id, before.id)).returning()
        : await tx.insert(subscriptionHandovers).values({ ...values, subscriptionId, kind, swapId, createdAt: now }).returning();
      await recordAudit(tx, actor, { action: before ? 'update' : 'create', entity: 'subscription_handover', entityId: row.id, before: before ? audited(before) : null, after: audited(row) });
      rows.push(row);
    }
    // One message for the pair (the delivery's row carries it; the template names both cars).
    const delivery = rows.find((r) => r.kind === 'DELIVERY')!;
    await emit(tx, `subscription.handover_scheduled:${delivery.id}:${now.getTime()}`, { type: 'subscription.handover_scheduled', userId: found.sub.userId, subscriptionId, handoverId: delivery.id }, now);
    return { handovers: rows.map(view), created: live.length === 0 };
  });
}

/**
 * DELETE /admin/subscriptions/{id}/swaps/{swapId}/handovers (and DELETE /admin/handovers/{id} of
 * either row): the pair is called off together (audited); once either is recorded, neither (409).
 * Calling it off again answers the last pair called off.
 */
export async function cancelSwapHandovers(db: Db, actor: StaffActor, subscriptionId: number, swapId: number, now: Date): Promise<Handover[]> {
  return inTransaction(db, async (tx) => {
    const found = await subscriptionOf(tx, subscriptionId, { lock: true });
    if (!found) throw subscriptionNotFound();
    // A swap withdrawn on the customer side after its pair was booked: the pair can still be called off.
    const [swap] = await tx.select({ id: subscriptionSwaps.id }).from(subscriptionSwaps).where(and(eq(subscriptionSwaps.id, swapId), eq(subscriptionSwaps.subscriptionId, subscriptionId)));
    if (!swap) throw swapNotFound();
    const calledOff = await callOffSwapPair(tx, actor, swapId, now);
    if (!calledOff.length) {
      const last = await tx.select().from(subscriptionHandovers).where(eq(subscriptionHandovers.swapId, swapId)).orderBy(desc(subscriptionHandovers.id)).limit(SWAP_KINDS.length);
      if (!last.length) throw notFound('잡힌 교체 일정이 없습니다.');
      return withDrivers(tx, last);
    }
    return withDrivers(tx, calledOff);
  });
}

/** The job a customer's 교체 취소 queues (src/api/orders/swap-cancel.ts): the pair called off, audited as the customer. */
export async function swapPairCallOffJobHandler(db: Db, job: Job, now: Date): Promise<void> {
  const { swapId, actor } = job.payload as { swapId: number; actor: string };
  const [swap] = await db.select({ status: subscriptionSwaps.status, userId: subscriptionSwaps.userId }).from(subscriptionSwaps).where(eq(subscriptionSwaps.id, Number(swapId)));
  if (swap?.status !== 'CANCELLED') return;
  await inTransaction(db, (tx) => callOffSwapPair(tx, { userId: swap.userId, name: actor }, Number(swapId), now));
}

/**
 * Calls a swap's live pair off in the caller's transaction (audited as `actor`): staff from the
 * board, or the customer cancelling the swap itself. Once either row is recorded, neither (409).
 * Returns the rows called off (none: nothing was booked).
 */
async function callOffSwapPair(tx: Db, actor: StaffActor, swapId: number, now: Date): Promise<Row[]> {
  const live = await livePair(tx, swapId);
  if (live.some((h) => h.status === 'DONE')) throw conflict('교체 인수 기록이 이미 작성되어 교체 일정을 취소할 수 없습니다.');
  const out: Row[] = [];
  for (const row of live) {
    const [after] = await tx.update(subscriptionHandovers).set({ status: 'CANCELLED', updatedAt: now }).where(eq(subscriptionHandovers.id, row.id)).returning();
    await recordAudit(tx, actor, { action: 'cancel', entity: 'subscription_handover', entityId: row.id, before: audited(row), after: audited(after) });
    out.push(after);
  }
  return out;
}

/**
 * POST /admin/test-swap (TEST_FIXTURES=on only: scripts and end-to-end tests): a CONFIRMED swap as
 * the customer side's quote and confirm leave it, with no money (adjustment 0), from the car the
 * subscription holds before that day. The operations side reads nothing else of it.
 */
export async function insertTestSwap(db: Db, input: { subscription_id: number; to_car_id: number; swap_date: string }): Promise<{ id: number }> {
  return inTransaction(db, async (tx) => {
    const found = await subscriptionOf(tx, input.subscription_id, { lock: true });
    if (!found) throw subscriptionNotFound();
    const [car] = await tx.select({ id: cars.id }).from(cars).where(eq(cars.id, input.to_car_id));
    if (!car) throw notFound('차량을 찾을 수 없습니다.');
    const earlier = await tx
      .select({ toCarId: subscriptionSwaps.toCarId })
      .from(subscriptionSwaps)
      .where(and(eq(subscriptionSwaps.subscriptionId, found.sub.id), eq(subscriptionSwaps.status, 'CONFIRMED'), lt(subscriptionSwaps.swapDate, input.swap_date)))
      .orderBy(desc(subscriptionSwaps.swapDate))
      .limit(1);
    // The money columns are the customer side's (placeholders here: no adjustment).
    const fee = 0;
    const [row] = await tx
      .insert(subscriptionSwaps)
      .values({
        subscriptionId: found.sub.id, userId: found.sub.userId, fromCarId: earlier[0]?.toCarId ?? found.carId, toCarId: car.id, swapDate: input.swap_date,
        billingMonth: 1, firstNewMonth: 2, oldFee: fee, newFee: fee, baseFee: fee, optionExtras: 0, prorateDays: 0, monthDays: 30, adjustment: 0, status: 'CONFIRMED',
      })
      .onConflictDoNothing()
      .returning({ id: subscriptionSwaps.id });
    if (!row) throw conflict('그 날짜에는 이미 차량 교체가 있습니다.');
    return row;
  });
}

const SHIFT_REASON: Record<string, string> = {
  'same-day': '예정된 시작일에 인도되었습니다.',
  billed: '2개월 차 요금이 이미 결제(또는 시도)되어 시작일을 옮기지 않았습니다.',
  inactive: '해지된 구독이라 시작일을 옮기지 않았습니다.',
  exit: '중도 해지가 신청된 구독이라 시작일을 옮기지 않았습니다.',
  'car-busy': '옮긴 기간에 이 차량의 다른 구독 일정이 있어 시작일을 옮기지 않았습니다.',
};

/**
 * POST /admin/handovers/{id}/record: the odometer, fuel (or charge) and notes read at the
 * handover, on the business clock's day (audited; the customer is asked to acknowledge). A
 * delivery recorded on another day than the start moves the subscription's dates when the rule
 * allows (domain shiftedTerm, billing's moveSubscriptionStart, the car free for the moved days).
 * The same record sent again answers the first; a different one after it is a 409. From /driver
 * (`opts.driverId`), only the handover's own driver records it (403 for another).
 */
export async function recordHandover(ctx: PaymentContext & LicenceContext, actor: StaffActor, id: number, input: HandoverRecordInput, opts: { driverId?: number } = {}): Promise<HandoverRecordAnswer> {
  await requireDriversLicensed(ctx, id, opts);
  // A return's odometer is the RETURN reading; the overage is settled with the rest by 반납 정산
  // (deposit first: docs/decisions/settlement.md), which staff run from the console after it.
  return recordHandoverRow(ctx.db, actor, id, input, ctx.clock.now(), opts);
}

/**
 * 운전자격 확인 again before a car is handed to the customer (the delivery, or a swap's new car): a
 * licence that lapsed since the order stops the handover, and the customer and staff are told once.
 */
async function requireDriversLicensed(ctx: LicenceContext, id: number, opts: { driverId?: number }): Promise<void> {
  const row = await handoverRow(ctx.db, id);
  if (opts.driverId !== undefined && row.driverId !== opts.driverId) throw forbidden('배정된 기사만 기록할 수 있는 일정입니다.');
  if (row.kind !== 'DELIVERY' || row.status !== 'SCHEDULED') return;
  const found = await subscriptionOf(ctx.db, row.subscriptionId);
  if (!found) return;
  const refusal = await handoverLicenceCheck(ctx, found.sub.requestId, row.swapId === null ? 'DELIVERY' : 'SWAP_DELIVERY', id);
  if (!refusal) return;
  const now = ctx.clock.now();
  await inTransaction(ctx.db, async (tx) => {
    await emit(tx, `subscription.licence_refused:${id}`, { type: 'subscription.licence_refused', userId: found.sub.userId, subscriptionId: found.sub.id, handoverId: id, reason: refusal }, now);
    await emit(tx, `staff.licence_refused:${id}`, { type: 'staff.licence_refused', subscriptionId: found.sub.id, handoverId: id, reason: refusal }, now);
  });
  throw conflict(`${refusal} 고객과 운영팀에 알렸습니다.`);
}

/** The record itself, with the odometer as the subscription's HANDOVER or RETURN reading, in one transaction. */
async function recordHandoverRow(db: Db, actor: StaffActor, id: number, input: HandoverRecordInput, now: Date, opts: { driverId?: number }): Promise<HandoverRecordAnswer> {
  return inTransaction(db, async (tx) => {
    const first = await handoverRow(tx, id);
    if (opts.driverId !== undefined && first.driverId !== opts.driverId) throw forbidden('배정된 기사만 기록할 수 있는 일정입니다.');
    // The subscription first, then the handover: the order the schedule locks them in.
    const found = await subscriptionOf(tx, first.subscriptionId, { lock: true });
    const row = await handoverRow(tx, id, { lock: true });
    if (!found) throw subscriptionNotFound();
    const dates = (moved: boolean, reason: string | null) => ({ start_date: found.sub.startDate, end_date: found.sub.endDate, moved, reason });
    if (row.status === 'CANCELLED') throw conflict('취소된 일정입니다.');
    if (row.status === 'DONE') {
      if (row.odometerKm === input.odometer_km && row.fuelPercent === input.fuel_percent && row.notes === input.notes) return { handover: await withDriver(tx, row), dates: dates(false, null) };
      throw conflict('이미 기록된 인수 내역입니다. 고객 확인이 끝난 기록은 바꿀 수 없으니 고객센터 메모로 남겨주세요.');
    }
    const actualDate = koreaDate(now);
    const swap = row.swapId === null ? null : (await tx.select().from(subscriptionSwaps).where(eq(subscriptionSwaps.id, row.swapId)))[0];
    const [after] = await tx
      .update(subscriptionHandovers)
      .set({ status: 'DONE', odometerKm: input.odometer_km, fuelPercent: input.fuel_percent, notes: input.notes, recordedAt: now, recordedBy: actor.name.slice(0, 254), actualDate, updatedAt: now })
      .where(eq(subscriptionHandovers.id, id))
      .returning();
    // The odometer is the mileage's reading at delivery (HANDOVER) or return (RETURN): the overage rule reads it.
    // A swap's pair reads both cars: the old one handed back (SWAP_OUT), the new one handed over (SWAP_IN).
    if (swap) {
      const out = row.kind === 'RETURN';
      await recordOdometerReading(tx, {
        subscriptionId: found.sub.id, km: input.odometer_km, source: out ? 'SWAP_OUT' : 'SWAP_IN', readOn: actualDate, recordedBy: actor, now,
        swap: { id: swap.id, carId: out ? swap.fromCarId : swap.toCarId },
      });
    } else await recordOdometerReading(tx, { subscriptionId: found.sub.id, km: input.odometer_km, source: row.kind === 'DELIVERY' ? 'HANDOVER' : 'RETURN', readOn: actualDate, recordedBy: actor, now });
    let answer = dates(false, null);
    // Only the subscription's own delivery moves its first day; a swap's delivery never does.
    if (row.kind === 'DELIVERY' && !swap) {
      const shift = shiftedTerm(
        { start: found.sub.startDate, end: found.sub.endDate, months: found.term },
        actualDate,
        { paidMonths: found.sub.paidMonths, month2Tried: await secondMonthTried(tx, found.sub.id), active: found.sub.isActive && found.sub.billingStatus !== 'CANCELLED', exitSet: found.sub.exitDate !== null },
      );
      if (!shift.move) answer = dates(false, SHIFT_REASON[shift.reason]);
      else {
        let free = true;
        try {
          await lockCar(tx, found.carId);
          await requireConfirmable(tx, found.carId, inclusiveSpan(shift.start, shift.end), found.term, found.sub.requestId, now);
        } catch (e) {
          if (!(e instanceof ApiError) || e.status !== 409) throw e;
          free = false;
        }
        const moved = free && (await moveSubscriptionStart(tx, found.sub.id, shift.start, shift.end, now));
        answer = moved
          ? { start_date: shift.start, end_date: shift.end, moved: true, reason: `실제 인도일(${shift.start})에 맞춰 구독 기간을 옮겼습니다.` }
          : dates(false, SHIFT_REASON[free ? 'billed' : 'car-busy']);
        if (moved) {
          await recordAudit(tx, actor, {
            action: 'update', entity: 'subscription', entityId: found.sub.id,
            before: { start_date: found.sub.startDate, end_date: found.sub.endDate }, after: { start_date: shift.start, end_date: shift.end, reason: 'handover' },
          });
        }
      }
    }
    await recordAudit(tx, actor, { action: 'update', entity: 'subscription_handover', entityId: id, before: audited(row), after: { ...audited(after), dates: answer } });
    await emit(tx, `subscription.handover_recorded:${id}`, { type: 'subscription.handover_recorded', userId: found.sub.userId, subscriptionId: found.sub.id, handoverId: id }, now);
    return { handover: await withDriver(tx, after), dates: answer };
  });
}

/** The CONFIRMED swaps of subscriptions, by subscription (which car each holds on which day). */
async function confirmedSwapsBySubscription(db: Db, ids: number[]): Promise<Map<number, { id: number; fromCarId: number; toCarId: number; swapDate: string }[]>> {
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
async function boardRows(db: Db, where: ReturnType<typeof and>): Promise<BoardHandover[]> {
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

/** GET /handovers: the signed-in customer's live deliveries and returns (their own subscriptions only). */
export async function customerHandovers(db: Db, userId: number): Promise<Handover[]> {
  const rows = await boardRows(db, and(eq(subscriptions.userId, userId), ne(subscriptionHandovers.status, 'CANCELLED')));
  return rows.map(({ car: _car, plate: _plate, customer: _customer, start_date: _s, end_date: _e, ...h }) => forCustomer(h));
}

/**
 * POST /handovers/{id}/acknowledge: the customer confirms the record with their name as typed
 * (their account's name). Only their own (another customer's is 404, as if it did not exist);
 * only once recorded; a second tap answers the first acknowledgement.
 */
export async function acknowledgeHandover(db: Db, userId: number, id: number, typedName: string, now: Date): Promise<Handover> {
  return inTransaction(db, async (tx) => {
    const [found] = await tx
      .select({ h: subscriptionHandovers, owner: subscriptions.userId })
      .from(subscriptionHandovers)
      .innerJoin(subscriptions, eq(subscriptions.id, subscriptionHandovers.subscriptionId))
      .where(eq(subscriptionHandovers.id, id))
      .for('update', { of: subscriptionHandovers });
    if (!found || found.owner !== userId || found.h.status === 'CANCELLED') throw handoverNotFound();
    const row = found.h;
    if (row.status !== 'DONE') throw conflict(`아직 ${HANDOVER_RECORD_LABEL[row.kind]}이 작성되지 않았습니다. 기록이 올라온 뒤 확인해주세요.`);
    if (row.acknowledgedAt) return forCustomer(await withDriver(tx, row));
    const [user] = await tx.select({ name: users.name, email: users.email, username: users.username }).from(users).where(eq(users.id, userId));
    if (!acknowledgementMatches(typedName, user?.name ?? null)) throw unprocessable('회원 정보에 등록된 이름을 정확히 입력해주세요.', { name: ['회원 정보의 이름과 같게 입력해주세요.'] });
    const [after] = await tx.update(subscriptionHandovers).set({ acknowledgedAt: now, acknowledgedName: typedName.trim().slice(0, 40), updatedAt: now }).where(eq(subscriptionHandovers.id, id)).returning();
    await recordAudit(tx, { userId, name: `customer:${user?.email ?? user?.username ?? userId}` }, { action: 'confirm', entity: 'subscription_handover', entityId: id, before: audited(row), after: audited(after) });
    return forCustomer(await withDriver(tx, after));
  });
}

/** What the customer sees of a handover: the driver's name (the phone stays with staff), not which staff account recorded it. */
const forCustomer = (h: Handover): Handover => ({ ...h, driver: { ...h.driver, phone: '' }, record: h.record ? { ...h.record, recorded_by: '' } : null });

/**
 * The odometer (and fuel) recorded at a subscription's delivery and at its return; null for the
 * one not recorded yet. What mileage and overage (src/api/billing/mileage.ts, wired by the lead)
 * read as the start and end readings.
 */
export async function handoverReadings(db: Db, subscriptionId: number): Promise<HandoverReadings> {
  const rows = await db
    .select()
    .from(subscriptionHandovers)
    .where(and(eq(subscriptionHandovers.subscriptionId, subscriptionId), isNull(subscriptionHandovers.swapId), eq(subscriptionHandovers.status, 'DONE')));
  const reading = (kind: HandoverKind) => {
    const r = rows.find((x) => x.kind === kind);
    return r && r.odometerKm !== null && r.fuelPercent !== null && r.recordedAt
      ? { odometer_km: r.odometerKm, fuel_percent: r.fuelPercent, recorded_at: r.recordedAt, actual_date: r.actualDate ?? koreaDate(r.recordedAt) }
      : null;
  };
  return { delivery: reading('DELIVERY'), return: reading('RETURN') };
}
