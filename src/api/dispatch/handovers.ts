import { and, asc, eq, gte, inArray, lt, ne, or, sql } from 'drizzle-orm';
import { inclusiveSpan } from '../../domain/availability';
import { addDays, koreaDate, koreaDayStart, todayInKorea } from '../../domain/dates';
import {
  acknowledgementMatches, handoverWindow, shiftedTerm, HANDOVER_KIND_LABEL,
  type BoardHandover, type Handover, type HandoverKind, type HandoverReadings, type HandoverRecordAnswer, type OpenHandover,
} from '../../domain/handover';
import type { HandoverRecordInput, ScheduleHandoverInput } from '../../domain/schemas/handover';
import { inTransaction, type Db } from '../db/client';
import { brands, cars, drivers, models, subscriptionHandovers, subscriptionRequests, subscriptions, users } from '../db/schema';
import { ApiError, conflict, forbidden, notFound, unprocessable } from '../errors';
import type { StaffActor } from '../auth/guards';
import { recordAudit } from '../audit/audit';
import { emit } from '../notifications/events';
import { moveSubscriptionStart, secondMonthTried, termMonthsSql } from '../billing/subscription-billing';
import { recordOdometerReading } from '../billing/mileage';
import type { PaymentContext } from '../payment-context';
import { lockCar, requireConfirmable } from '../orders/availability';
import { clashingTrips, driverRow } from './dispatch';
import { handoverClashes } from './handover-busy';

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

export function toHandover(row: Row, driver: DriverLite): Handover {
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
const audited = (row: Row) => ({ ...toHandover(row, { id: row.driverId, name: '', phone: '' }), driver: { id: row.driverId } });

async function withDriver(db: Db, row: Row): Promise<Handover> {
  const [d] = await db.select({ id: drivers.id, name: drivers.name, phone: drivers.phone }).from(drivers).where(eq(drivers.id, row.driverId));
  return toHandover(row, d ?? { id: row.driverId, name: '', phone: '' });
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
      .where(and(eq(subscriptionHandovers.subscriptionId, subscriptionId), eq(subscriptionHandovers.kind, input.kind), ne(subscriptionHandovers.status, 'CANCELLED')))
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

/** DELETE /admin/handovers/{id}: a scheduled handover is called off (audited); a recorded one stays. */
export async function cancelHandover(db: Db, actor: StaffActor, id: number, now: Date): Promise<Handover> {
  return inTransaction(db, async (tx) => {
    const row = await handoverRow(tx, id, { lock: true });
    if (row.status === 'DONE') throw conflict('이미 기록이 완료된 일정은 취소할 수 없습니다.');
    if (row.status === 'CANCELLED') return withDriver(tx, row);
    const [after] = await tx.update(subscriptionHandovers).set({ status: 'CANCELLED', updatedAt: now }).where(eq(subscriptionHandovers.id, id)).returning();
    await recordAudit(tx, actor, { action: 'cancel', entity: 'subscription_handover', entityId: id, before: audited(row), after: audited(after) });
    return withDriver(tx, after);
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
export async function recordHandover(ctx: PaymentContext, actor: StaffActor, id: number, input: HandoverRecordInput, opts: { driverId?: number } = {}): Promise<HandoverRecordAnswer> {
  // A return's odometer is the RETURN reading; the overage is settled with the rest by 반납 정산
  // (deposit first: docs/decisions/settlement.md), which staff run from the console after it.
  return recordHandoverRow(ctx.db, actor, id, input, ctx.clock.now(), opts);
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
    const [after] = await tx
      .update(subscriptionHandovers)
      .set({ status: 'DONE', odometerKm: input.odometer_km, fuelPercent: input.fuel_percent, notes: input.notes, recordedAt: now, recordedBy: actor.name.slice(0, 254), actualDate, updatedAt: now })
      .where(eq(subscriptionHandovers.id, id))
      .returning();
    // The odometer is the mileage's reading at delivery (HANDOVER) or return (RETURN): the overage rule reads it.
    await recordOdometerReading(tx, { subscriptionId: found.sub.id, km: input.odometer_km, source: row.kind === 'DELIVERY' ? 'HANDOVER' : 'RETURN', readOn: actualDate, recordedBy: actor, now });
    let answer = dates(false, null);
    if (row.kind === 'DELIVERY') {
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

/** Handovers with their driver, subscription, car and customer, in the board's order (by window start). */
async function boardRows(db: Db, where: ReturnType<typeof and>): Promise<BoardHandover[]> {
  const rows = await db
    .select({
      h: subscriptionHandovers,
      driver: { id: drivers.id, name: drivers.name, phone: drivers.phone },
      sub: { startDate: subscriptions.startDate, endDate: subscriptions.endDate },
      car: carLabel,
      customer: { name: users.name, mobile: users.mobile },
    })
    .from(subscriptionHandovers)
    .innerJoin(drivers, eq(drivers.id, subscriptionHandovers.driverId))
    .innerJoin(subscriptions, eq(subscriptions.id, subscriptionHandovers.subscriptionId))
    .innerJoin(subscriptionRequests, eq(subscriptionRequests.id, subscriptions.requestId))
    .innerJoin(cars, eq(cars.id, subscriptionRequests.carId))
    .innerJoin(models, eq(models.id, cars.modelId))
    .innerJoin(brands, eq(brands.id, models.brandId))
    .innerJoin(users, eq(users.id, subscriptions.userId))
    .where(where)
    .orderBy(asc(subscriptionHandovers.startsAt), asc(subscriptionHandovers.id));
  return rows.map(({ h, driver, sub, car, customer }) => ({
    ...toHandover(h, driver), car, customer: { name: customer.name ?? '', mobile: customer.mobile }, start_date: sub.startDate, end_date: sub.endDate,
  }));
}

/**
 * GET /admin/handovers: the live handovers scheduled on `days` Korean days from `from` (the
 * dispatch board's range), and the subscriptions still missing a delivery or a return (running:
 * the delivery from confirmation, the return once the end is within 60 days; ended early by 해지
 * or 중도 해지: the return of a delivered car), soonest first.
 */
export async function handoverBoard(db: Db, q: { from?: string; days: number }, now: Date): Promise<{ from: string; to: string; handovers: BoardHandover[]; open: OpenHandover[] }> {
  const from = q.from ?? todayInKorea(now);
  const to = addDays(from, q.days);
  const handovers = await boardRows(db, and(ne(subscriptionHandovers.status, 'CANCELLED'), gte(subscriptionHandovers.startsAt, koreaDayStart(from)), lt(subscriptionHandovers.startsAt, koreaDayStart(to))));
  const active = await db
    .select({ id: subscriptions.id, startDate: subscriptions.startDate, endDate: subscriptions.endDate, running: sql<boolean>`${subscriptions.isActive} and ${subscriptions.billingStatus} <> 'CANCELLED'`, car: carLabel, customer: { name: users.name, mobile: users.mobile } })
    .from(subscriptions)
    .innerJoin(subscriptionRequests, eq(subscriptionRequests.id, subscriptions.requestId))
    .innerJoin(cars, eq(cars.id, subscriptionRequests.carId))
    .innerJoin(models, eq(models.id, cars.modelId))
    .innerJoin(brands, eq(brands.id, models.brandId))
    .innerJoin(users, eq(users.id, subscriptions.userId))
    .where(gte(subscriptions.endDate, todayInKorea(now)))
    .orderBy(asc(subscriptions.startDate), asc(subscriptions.id))
    .limit(200);
  const live = active.length
    ? await db
        .select({ subscriptionId: subscriptionHandovers.subscriptionId, kind: subscriptionHandovers.kind, status: subscriptionHandovers.status })
        .from(subscriptionHandovers)
        .where(and(inArray(subscriptionHandovers.subscriptionId, active.map((a) => a.id)), ne(subscriptionHandovers.status, 'CANCELLED')))
    : [];
  const has = new Set(live.map((l) => `${l.subscriptionId}:${l.kind}`));
  const delivered = new Set(live.filter((l) => l.kind === 'DELIVERY' && l.status === 'DONE').map((l) => l.subscriptionId));
  const returnFrom = addDays(todayInKorea(now), 60);
  const open = active.flatMap((a): OpenHandover[] => {
    const missing: HandoverKind[] = [];
    // Running: the delivery from confirmation, the return once the end is near. Ended early (해지, 중도 해지): the return of a delivered car.
    if (a.running && !has.has(`${a.id}:DELIVERY`)) missing.push('DELIVERY');
    if (!has.has(`${a.id}:RETURN`) && (a.running ? a.endDate <= returnFrom : delivered.has(a.id))) missing.push('RETURN');
    return missing.length ? [{ subscription_id: a.id, car: a.car, customer: { name: a.customer.name ?? '', mobile: a.customer.mobile }, start_date: a.startDate, end_date: a.endDate, missing }] : [];
  });
  return { from, to, handovers, open };
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
  return rows.map(({ car: _car, customer: _customer, start_date: _s, end_date: _e, ...h }) => forCustomer(h));
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
    if (row.status !== 'DONE') throw conflict('아직 인수 기록이 작성되지 않았습니다. 기록이 올라온 뒤 확인해주세요.');
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
    .where(and(eq(subscriptionHandovers.subscriptionId, subscriptionId), eq(subscriptionHandovers.status, 'DONE')));
  const reading = (kind: HandoverKind) => {
    const r = rows.find((x) => x.kind === kind);
    return r && r.odometerKm !== null && r.fuelPercent !== null && r.recordedAt
      ? { odometer_km: r.odometerKm, fuel_percent: r.fuelPercent, recorded_at: r.recordedAt, actual_date: r.actualDate ?? koreaDate(r.recordedAt) }
      : null;
  };
  return { delivery: reading('DELIVERY'), return: reading('RETURN') };
}
