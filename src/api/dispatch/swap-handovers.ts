import { and, desc, eq } from 'drizzle-orm';
import { handoverWindow, type Handover } from '../../domain/handover';
import type { ScheduleSwapHandoversInput } from '../../domain/schemas/handover';
import { inTransaction, type Db } from '../db/client';
import { subscriptionHandovers, subscriptionSwaps } from '../db/schema';
import { conflict, notFound, unprocessable } from '../errors';
import type { StaffActor } from '../auth/guards';
import { recordAudit } from '../audit/audit';
import { emit } from '../notifications/events';
import { driverRow } from './dispatch';
import { requireDriverFree, requireDriverWorking } from './handover-driver-checks';
import { audited, livePair, subscriptionNotFound, subscriptionOf, swapNotFound, swapOfRow, swapsOf, SWAP_KINDS, toHandover, withDrivers, type Row } from './handover-rows';

/** The swap of a subscription, for its pair: 404 when it is not this subscription's (or was withdrawn). */
async function swapFor(db: Db, subscriptionId: number, swapId: number) {
  const [swap] = await db.select().from(subscriptionSwaps).where(and(eq(subscriptionSwaps.id, swapId), eq(subscriptionSwaps.subscriptionId, subscriptionId)));
  if (!swap || swap.status === 'CANCELLED') throw swapNotFound();
  return swap;
}

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
    requireDriverWorking(driver, swap.swapDate);
    // One window for both: checked once, the pair's own rows aside.
    await requireDriverFree(tx, driver.id, window, bufferMinutes, live.map((h) => h.id));
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

/**
 * Calls a swap's live pair off in the caller's transaction (audited as `actor`): staff from the
 * board, or the customer cancelling the swap itself. Once either row is recorded, neither (409).
 * Returns the rows called off (none: nothing was booked).
 */
export async function callOffSwapPair(tx: Db, actor: StaffActor, swapId: number, now: Date): Promise<Row[]> {
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
