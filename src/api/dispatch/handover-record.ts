import { eq } from 'drizzle-orm';
import { inclusiveSpan } from '../../domain/availability';
import { koreaDate } from '../../domain/dates';
import { shiftedTerm, type HandoverRecordAnswer } from '../../domain/handover';
import type { HandoverRecordInput } from '../../domain/schemas/handover';
import { inTransaction, type Db } from '../db/client';
import { subscriptionHandovers, subscriptionSwaps } from '../db/schema';
import { ApiError, conflict, forbidden } from '../errors';
import type { StaffActor } from '../auth/guards';
import { recordAudit } from '../audit/audit';
import { emit } from '../notifications/events';
import { moveSubscriptionStart, secondMonthTried } from '../billing/subscription-billing';
import { recordOdometerReading } from '../billing/mileage';
import type { PaymentContext } from '../payment-context';
import type { LicenceContext } from '../licence-provider';
import { handoverLicenceCheck } from '../licences/licences';
import { lockCar, requireConfirmable } from '../orders/availability';
import { audited, handoverRow, subscriptionNotFound, subscriptionOf, withDriver } from './handover-rows';

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
