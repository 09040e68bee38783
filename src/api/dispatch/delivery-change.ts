import { and, eq, isNull } from 'drizzle-orm';
import { inclusiveSpan } from '../../domain/availability';
import { todayInKorea } from '../../domain/dates';
import { DELIVERY_WINDOW_TIMES, deliveryChangeClosed, deliveryChangeDeadline, deliveryChangeLines, earliestMovedStart, movedEnd, zoneChangeRefusal } from '../../domain/delivery-change';
import { handoverWindow } from '../../domain/handover';
import type { DeliveryWindow, Handover, StoredOrderOptions } from '../../domain/subscription-price';
import { recordAudit } from '../audit/audit';
import { inTransaction, type Db } from '../db/client';
import { subscriptionHandovers, subscriptionRequests, subscriptions, users } from '../db/schema';
import { conflict, notFound, unprocessable } from '../errors';
import { emit } from '../notifications/events';
import type { PaymentContext } from '../payment-context';
import { moveSubscriptionStart } from '../billing/subscription-billing';
import { carById } from '../catalogue/catalogue';
import { clashingTrips, driverRow } from './dispatch';
import { handoverClashes } from './handover-busy';
import { lockCar, requestedStart, requireConfirmable, requireFree } from '../orders/availability';

/**
 * 탁송 정보 변경 (issue 49): the customer changes the delivery address, window and the start date of
 * a request or a confirmed subscription on /my, until SUBSCRIPTION_CHANGE_CUTOFF_DAYS before the
 * start (src/domain/delivery-change.ts). A new start is checked against the car's timeline (as an
 * order and a confirmation are); a delivery already on the dispatch board is moved with it and
 * checked against its driver's other trips and handovers. Staff hear of each change once.
 */

export interface DeliveryView {
  request_id: number;
  subscription_id: number | null;
  handover: Handover;
  delivery_address: string | null;
  delivery_window: DeliveryWindow | null;
  start_date: string;
  /** The last day a change is accepted. */
  deadline: string;
  changeable: boolean;
  reason: string | null;
  /** The earliest start one may move to today. */
  earliest_start: string;
}

export interface DeliveryChange {
  delivery_address?: string;
  delivery_window?: DeliveryWindow;
  start_date?: string;
}

type Target = { requestId: number } | { subscriptionId: number };

async function load(db: Db, target: Target, userId: number, lock = false) {
  const notFoundText = 'subscriptionId' in target ? '구독을 찾을 수 없습니다.' : '구독 신청을 찾을 수 없습니다.';
  let sub: typeof subscriptions.$inferSelect | undefined;
  let requestId: number;
  if ('subscriptionId' in target) {
    const q = db.select().from(subscriptions).where(eq(subscriptions.id, target.subscriptionId));
    [sub] = lock ? await q.for('update') : await q;
    if (!sub || sub.userId !== userId) throw notFound(notFoundText);
    requestId = sub.requestId;
  } else requestId = target.requestId;
  const q = db.select().from(subscriptionRequests).where(eq(subscriptionRequests.id, requestId));
  const [req] = lock ? await q.for('update') : await q;
  if (!req || req.userId !== userId || req.status === 'CANCELLED') throw notFound(notFoundText);
  // A confirmed request is changed through its subscription (its dates live there).
  if (!sub && req.status === 'CONFIRMED') [sub] = await db.select().from(subscriptions).where(eq(subscriptions.requestId, req.id));
  return { req, sub };
}
type Loaded = Awaited<ReturnType<typeof load>>;

const startOf = ({ req, sub }: Loaded) => sub?.startDate ?? req.requestedStart ?? req.startDate ?? '';

function view(l: Loaded, today: string, cutoffDays: number): DeliveryView {
  const o = l.req.options?.options;
  const start = startOf(l);
  const ended = l.sub ? !l.sub.isActive || l.sub.billingStatus === 'CANCELLED' : false;
  const reason = ended ? '해지된 구독은 탁송 정보를 변경할 수 없습니다.' : !start ? '시작일이 정해지지 않은 신청입니다. 고객센터로 문의해주세요.' : deliveryChangeClosed(start, today, cutoffDays);
  return {
    request_id: l.req.id, subscription_id: l.sub?.id ?? null, handover: o?.handover ?? 'PICKUP', delivery_address: o?.delivery_address ?? null, delivery_window: o?.delivery_window ?? null,
    start_date: start, deadline: start ? deliveryChangeDeadline(start, cutoffDays) : '', changeable: reason === null, reason, earliest_start: earliestMovedStart(today, cutoffDays),
  };
}

export async function getDelivery(ctx: PaymentContext, target: Target, userId: number, cutoffDays: number): Promise<DeliveryView> {
  return view(await load(ctx.db, target, userId), todayInKorea(ctx.clock.now()), cutoffDays);
}

/** The live delivery handover on the board (not a swap's), if staff booked one. */
async function boardDelivery(db: Db, subscriptionId: number) {
  const [row] = await db
    .select()
    .from(subscriptionHandovers)
    .where(and(eq(subscriptionHandovers.subscriptionId, subscriptionId), eq(subscriptionHandovers.kind, 'DELIVERY'), isNull(subscriptionHandovers.swapId), eq(subscriptionHandovers.status, 'SCHEDULED')));
  return row;
}

export async function changeDelivery(ctx: PaymentContext, target: Target, userId: number, input: DeliveryChange, cfg: { cutoffDays: number; bufferMinutes: number }): Promise<DeliveryView> {
  const now = ctx.clock.now();
  const today = todayInKorea(now);
  const first = await load(ctx.db, target, userId);
  const car = await carById(ctx.db, first.req.carId);
  const booked = first.sub ? await boardDelivery(ctx.db, first.sub.id) : undefined;
  return inTransaction(ctx.db, async (tx) => {
    // The driver's row first (as the board locks it), then the car's, then the order's.
    if (booked) await driverRow(tx, booked.driverId, { lock: true });
    await lockCar(tx, first.req.carId);
    const l = await load(tx, target, userId, true);
    const before = view(l, today, cfg.cutoffDays);
    if (!before.changeable) throw conflict(before.reason!, { start_date: [before.reason!] }, { deadline: before.deadline });
    const stored = l.req.options;
    const wantsDelivery = input.delivery_address !== undefined || input.delivery_window !== undefined;
    if (wantsDelivery && (!stored || stored.options.handover !== 'DELIVERY')) {
      throw unprocessable('라운지 인수로 신청한 구독은 탁송 주소와 시간대가 없습니다. 인수 방법을 바꾸려면 고객센터로 문의해주세요.', { delivery_address: ['탁송으로 신청한 구독만 변경할 수 있습니다.'] });
    }
    const address = input.delivery_address ?? before.delivery_address;
    const window = input.delivery_window ?? before.delivery_window;
    const start = input.start_date ?? before.start_date;
    if (input.delivery_address !== undefined) {
      const zone = zoneChangeRefusal(before.delivery_address, input.delivery_address);
      if (zone) throw unprocessable(zone, { delivery_address: [zone] });
    }
    const lines = deliveryChangeLines({ address: before.delivery_address, window: before.delivery_window, start: before.start_date }, { address, window, start });
    // The same change sent again (a retry) changes nothing and tells no one twice.
    if (!lines.length) return before;

    if (start !== before.start_date) {
      const earliest = earliestMovedStart(today, cfg.cutoffDays);
      if (start < earliest) throw unprocessable(`새 시작일은 ${earliest} 이후로 선택해주세요.`, { start_date: [`${earliest} 이후 날짜를 선택해주세요.`] });
      requestedStart(car, start, today);
      if (l.sub) {
        const end = movedEnd(l.sub.startDate, l.sub.endDate, l.req.month + l.sub.extendedMonths, start);
        await requireConfirmable(tx, l.req.carId, inclusiveSpan(start, end), l.req.month, l.req.id, now);
        if (!(await moveSubscriptionStart(tx, l.sub.id, start, end, now))) throw conflict('이미 다음 달 구독료 결제가 시작되어 시작일을 바꿀 수 없습니다. 고객센터로 문의해주세요.');
      } else {
        await requireFree(tx, car, start, l.req.month, now, l.req.id);
        await tx.update(subscriptionRequests).set({ requestedStart: start, updatedAt: now }).where(eq(subscriptionRequests.id, l.req.id));
      }
    }
    if (stored && (address !== before.delivery_address || window !== before.delivery_window)) {
      const options: StoredOrderOptions = { ...stored, options: { ...stored.options, delivery_address: address, delivery_window: window } };
      await tx.update(subscriptionRequests).set({ options, updatedAt: now }).where(eq(subscriptionRequests.id, l.req.id));
    }
    if (l.sub) await moveBoardDelivery(tx, l.sub.id, { address, window, start, windowChanged: window !== before.delivery_window || start !== before.start_date }, cfg.bufferMinutes, now);

    const [user] = await tx.select({ email: users.email }).from(users).where(eq(users.id, userId));
    await recordAudit(tx, { userId, name: user?.email ?? `user:${userId}` }, {
      action: 'update', entity: 'subscription_request', entityId: l.req.id, before: { delivery: before }, after: { delivery: { address, window, start }, changes: lines },
    });
    await emit(tx, `staff.delivery_changed:${l.req.id}:${now.getTime()}`, { type: 'staff.delivery_changed', subscriptionId: l.sub?.id ?? null, requestId: l.req.id, changes: lines }, now);
    return view(await load(tx, target, userId), today, cfg.cutoffDays);
  });
}


/**
 * A delivery staff already booked on the board follows the change: the new address, and for a new
 * day or window the window's times, checked against the driver's days off, trips and handovers.
 */
async function moveBoardDelivery(tx: Db, subscriptionId: number, to: { address: string | null; window: DeliveryWindow | null; start: string; windowChanged: boolean }, bufferMinutes: number, now: Date): Promise<void> {
  const row = await boardDelivery(tx, subscriptionId);
  if (!row) return;
  if (!to.windowChanged || !to.window) {
    if (to.address && to.address !== row.address) await tx.update(subscriptionHandovers).set({ address: to.address, updatedAt: now }).where(eq(subscriptionHandovers.id, row.id));
    return;
  }
  const times = DELIVERY_WINDOW_TIMES[to.window];
  const span = handoverWindow(to.start, times.start, times.end);
  if ('error' in span) throw unprocessable(span.error);
  const driver = await driverRow(tx, row.driverId);
  const busy = '배정된 탁송 기사의 다른 일정과 겹쳐 이 날짜·시간대로 변경할 수 없습니다. 다른 시간대를 선택하거나 고객센터로 문의해주세요.';
  if (driver.daysOff.includes(to.start)) throw conflict(busy, { delivery_window: [busy] });
  const trips = await clashingTrips(tx, { id: 0, startAt: span.from, endAt: span.to }, bufferMinutes, driver.id);
  const others = await handoverClashes(tx, span, bufferMinutes, { driverId: driver.id, exceptIds: [row.id] });
  if (trips.length || others.length) throw conflict(busy, { delivery_window: [busy] });
  await tx
    .update(subscriptionHandovers)
    .set({ scheduledDate: to.start, windowStart: times.start, windowEnd: times.end, startsAt: span.from, endsAt: span.to, ...(to.address ? { address: to.address } : {}), updatedAt: now })
    .where(eq(subscriptionHandovers.id, row.id));
}
