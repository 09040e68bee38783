import { and, eq, isNull, ne } from 'drizzle-orm';
import { handoverWindow, HANDOVER_KIND_LABEL, type Handover } from '../../domain/handover';
import type { ScheduleHandoverInput } from '../../domain/schemas/handover';
import { inTransaction, type Db } from '../db/client';
import { subscriptionHandovers } from '../db/schema';
import { conflict, unprocessable } from '../errors';
import type { StaffActor } from '../auth/guards';
import { recordAudit } from '../audit/audit';
import { emit } from '../notifications/events';
import { driverRow } from './dispatch';
import { requireDriverFree, requireDriverWorking } from './handover-driver-checks';
import { audited, handoverRow, subscriptionNotFound, subscriptionOf, toHandover, withDriver } from './handover-rows';
import { cancelSwapHandovers } from './swap-handovers';

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
    requireDriverWorking(driver, input.date);
    if (input.kind === 'RETURN' && input.date < found.sub.startDate) throw unprocessable('반납일은 구독 시작일 이후여야 합니다.', { date: ['구독 시작일 이후로 잡아주세요.'] });
    await requireDriverFree(tx, driver.id, window, bufferMinutes, live ? [live.id] : []);
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
