import { createHash } from 'node:crypto';
import { asc, eq } from 'drizzle-orm';
import { requoteButler, tripDays, tripProblems, type ButlerQuote } from '../../domain/butler';
import { ORDER_KINDS } from '../../domain/payments';
import { todayInKorea } from '../../domain/dates';
import type { DispatchTrip } from '../../domain/dispatch';
import { shiftTrip, tripChanges, type TripPlan } from '../../domain/driver-notices';
import { won } from '../../domain/money';
import type { PickupChangeInput, TripChangeInput } from '../../domain/schemas/driver-day';
import { bookedHours, type TripChangePreview, type TripPriceChange } from '../../domain/trip-change';
import { freeWaitingMinutes, isAirportPickup, type WaitingPolicy } from '../../domain/waiting';
import { inTransaction, type Db } from '../db/client';
import { butlerRequests, butlerWaypoints } from '../db/schema';
import { conflict, unprocessable } from '../errors';
import type { StaffActor } from '../auth/guards';
import { recordAudit } from '../audit/audit';
import { emit } from '../notifications/events';
import { rowTime } from '../jobs/clock';
import type { PaymentContext } from '../payment-context';
import { scheduleReminder } from '../orders/butler-reminders';
import { heldCoupon, tripCar, tripCardKey } from '../billing/butler-billing';
import { paidForOrder, settlePriceChange, type PaidOrder } from '../billing/order-charges';
import { creditPoints } from '../wallet/points';
import { driverRow, requestRow, requireDriverFree, tripOf } from './dispatch';
import { tellDriver } from '../notifications/driver-notices';

/**
 * Staff change a booked trip (docs/decisions/driver-day.md "Notices"): PATCH …/pickup (a late
 * flight: +30/+60 minutes or a chosen time, or an address) and PATCH …/trip (also the end, the
 * waypoints and the flight number), each with a reason. A moved pickup takes its end and each
 * waypoint's time along (the booked hours stay); a move to another Korean day is refused (its
 * car's days are booked by day). A change of the booked hours is re-priced by the booking's own
 * rule (requoteButler on the car it is reckoned on, the held coupon, the points) and the
 * difference is charged to, or refunded on, the card through the order's edit path
 * (settlePriceChange) before the change is saved, for the price staff confirmed. The driver's
 * board is checked again under the driver's row lock, the reminder follows the new start, the
 * change is audited, and the driver and the customer are told once per change: the key holds the
 * row's version before the change and a hash of what changed, so a retried request (nothing left
 * to change) sends nothing and charges nothing more.
 */

type RequestRow = typeof butlerRequests.$inferSelect;
type WaypointRow = typeof butlerWaypoints.$inferSelect;

export interface TripChangeOptions {
  bufferMinutes: number;
  waiting: WaitingPolicy;
  /** The audit's action: change_pickup (…/pickup) or change_trip (…/trip). */
  action: 'change_pickup' | 'change_trip';
}

interface Planned extends TripChangePreview {
  row: RequestRow;
  points: WaypointRow[];
  before: TripPlan;
  after: TripPlan;
  /** The new quote when the booked hours change. */
  quote: ButlerQuote | null;
}

const waypointsOf = (tx: Db, id: number) => tx.select().from(butlerWaypoints).where(eq(butlerWaypoints.butlerRequestId, id)).orderBy(asc(butlerWaypoints.position), asc(butlerWaypoints.id));
const paidOrder = (row: RequestRow): PaidOrder => ({ kind: 'BUTLER', id: row.id, userId: row.userId, billingKey: row.billingKey });

/** The trip as it is and as the input would make it, what that changes, and its price; refusals as 409/422. */
async function plan(tx: Db, row: RequestRow, input: TripChangeInput, now: Date, opts: TripChangeOptions): Promise<Planned> {
  if (row.status === 'CANCELLED') throw conflict('취소된 의전 요청입니다.');
  if (row.departedAt) throw conflict('기사님이 이미 출발한 운행은 픽업을 변경할 수 없습니다. 기사님께 직접 연락해주세요.');
  const points = await waypointsOf(tx, row.id);
  const before = {
    start_at: row.startAt.toISOString(), end_at: row.endAt?.toISOString() ?? null, start_location: row.startLocation, end_location: row.endLocation,
    way_points: points.map((w) => ({ address: w.address, scheduled_time: w.scheduledTime?.toISOString() ?? null })), flight_number: row.flightNumber,
  };
  const moved = input.start_at ? shiftTrip(before, input.start_at) : before;
  const after = {
    ...moved,
    end_at: input.end_at === undefined ? moved.end_at : input.end_at,
    start_location: input.start_location ?? row.startLocation,
    end_location: input.end_location ?? row.endLocation,
    way_points: input.way_points ?? moved.way_points,
    flight_number: input.flight_number === undefined ? row.flightNumber : input.flight_number,
  };
  const changes = tripChanges(before, after);
  const waitingOf = (p: typeof before) => freeWaitingMinutes(opts.waiting, isAirportPickup(p));
  const waiting = waitingOf(before) === waitingOf(after) ? null : { free_before: waitingOf(before), free_after: waitingOf(after) };
  if (!changes.length) return { row, points, before, after, changes, price: null, waiting, quote: null };

  const timesChanged = after.start_at !== before.start_at || after.end_at !== before.end_at;
  if (timesChanged || input.way_points !== undefined) {
    const problems = tripProblems({ start: after.start_at, end: after.end_at, waypoints: after.way_points }, now, 'way_points');
    if (problems.length) throw unprocessable(problems[0].message, Object.fromEntries(problems.map((p) => [p.field, [p.message]])));
  }
  if (timesChanged) {
    if (tripDays(after.start_at, after.end_at).join() !== tripDays(row.startAt, row.endAt).join()) {
      throw unprocessable('날짜가 바뀌는 변경은 할 수 없습니다. 같은 날 안에서 시각을 옮기거나, 예약을 취소 후 다시 접수해주세요.', { start_at: ['같은 날 안에서만 옮길 수 있습니다.'] });
    }
    if (row.driverId !== null) await requireDriverFree(tx, { id: row.id, startAt: new Date(after.start_at), endAt: after.end_at ? new Date(after.end_at) : null }, row.driverId, opts.bufferMinutes);
  }

  let price: TripPriceChange | null = null;
  let quote: ButlerQuote | null = null;
  const hoursBefore = bookedHours(before.start_at, before.end_at);
  const hoursAfter = bookedHours(after.start_at, after.end_at);
  if (hoursBefore !== hoursAfter) {
    const car = await tripCar(tx, row, todayInKorea(now));
    const coupon = row.userCouponId ? await heldCoupon(tx, row.userCouponId) : null;
    const requote = requoteButler(car, after.start_at, after.end_at, coupon, row.pointUsed);
    ({ quote } = requote);
    const pointsBack = requote.pointsBack;
    price = { hours_before: hoursBefore, hours_after: hoursAfter, before: row.finalPrice, after: quote.final, difference: quote.final - row.finalPrice, points_back: pointsBack };
  }
  return { row, points, before, after, changes, price, waiting, quote };
}

/**
 * Whose money a re-priced trip settles: the customer's card, or for a company trip (issue 52) the
 * company's current card; nothing for one on the monthly invoice (the statement reads the trip's
 * price) or still waiting for the company's approval (nothing was charged).
 */
async function payerOf(db: Db, row: RequestRow, difference: number): Promise<PaidOrder | null> {
  if (!row.companyId) return paidOrder(row);
  if (row.invoiceBilled || row.approvalStatus === 'WAITING') return null;
  const card = await tripCardKey(db, row);
  if (!card && difference > 0) throw unprocessable('회사 결제 카드가 등록되지 않아 차액을 결제할 수 없습니다. 회사에 카드 등록을 요청해주세요.', { company: ['회사 결제 카드가 없습니다.'] });
  return { ...paidOrder(row), billingKey: card ?? row.billingKey };
}

const preview = (p: Planned): TripChangePreview => ({ changes: p.changes, price: p.price, waiting: p.waiting });

/** POST /admin/butler-requests/{id}/trip/preview: what the change would change and cost; nothing is saved or charged. */
export async function previewTripChange(ctx: Pick<PaymentContext, 'db' | 'clock'>, id: number, input: TripChangeInput, opts: TripChangeOptions): Promise<TripChangePreview> {
  return preview(await plan(ctx.db, await requestRow(ctx.db, id), input, ctx.clock.now(), opts));
}

/** PATCH …/pickup: a pickup change alone (its schema is a part of the trip's). */
export const changePickup = (ctx: PaymentContext, actor: StaffActor, id: number, input: PickupChangeInput, opts: Omit<TripChangeOptions, 'action'>) =>
  changeTrip(ctx, actor, id, { ...input, end_at: undefined, way_points: undefined, flight_number: undefined }, { ...opts, action: 'change_pickup' });

/** PATCH …/trip: the change saved, its money settled, the driver and the customer told (see the file's comment). */
export async function changeTrip(ctx: PaymentContext, actor: StaffActor, id: number, input: TripChangeInput, opts: TripChangeOptions): Promise<{ trip: DispatchTrip; changed: boolean } & TripChangePreview> {
  const now = ctx.clock.now();
  const first = await plan(ctx.db, await requestRow(ctx.db, id), input, now, opts);
  if (!first.changes.length) return { trip: await tripOf(ctx.db, id, now), changed: false, ...preview(first) };
  // The money first, as the customer's own edit does: a declined charge leaves the trip as it was.
  if (first.price && first.price.difference !== 0) {
    if (input.confirm_price !== first.price.after) {
      const message = `변경 후 결제 금액은 ${won(first.price.after)}입니다. 금액을 확인한 뒤 다시 저장해주세요.`;
      throw conflict(message, { confirm_price: [message] }, preview(first));
    }
    const payer = await payerOf(ctx.db, first.row, first.price.difference);
    if (payer) {
      if ((await paidForOrder(ctx, payer)) !== first.row.finalPrice) throw conflict('결제가 끝나지 않은 예약은 이용 시간을 바꿀 수 없습니다. 결제를 확인한 뒤 다시 시도해주세요.');
      await settlePriceChange(ctx, payer, first.price.after, `butler:${id}:staff-change:${first.row.modifiedAt.getTime()}`, `staff:${actor.name}`);
    }
  }

  return inTransaction(ctx.db, async (tx) => {
    // The driver's row first, as an assignment locks it, so the two take turns.
    if (first.row.driverId !== null) await driverRow(tx, first.row.driverId, { lock: true });
    const row = await requestRow(tx, id, { lock: true });
    if (row.driverId !== first.row.driverId || row.modifiedAt.getTime() !== first.row.modifiedAt.getTime()) throw conflict('방금 예약이 바뀌었습니다. 새로고침 후 다시 시도해주세요.');
    const p = await plan(tx, row, input, now, opts);
    const { before, after, changes, price, quote: repriced } = p;
    const start = new Date(after.start_at);
    const end = after.end_at ? new Date(after.end_at) : null;

    if (price && price.points_back > 0) await creditPoints(tx, { userId: row.userId, amount: price.points_back, reason: 'BUTLER_EDIT', refType: ORDER_KINDS.BUTLER.refType, refId: null, description: `의전 요청 #${id} 변경 환불` });
    await tx
      .update(butlerRequests)
      .set({
        startAt: start, endAt: end, startLocation: after.start_location, endLocation: after.end_location, flightNumber: after.flight_number,
        ...(repriced ? { pointUsed: repriced.points, baseFee: repriced.baseFee, overtimeFee: repriced.overtimeFee, couponDiscount: repriced.couponDiscount, finalPrice: repriced.final } : {}),
        modifiedAt: rowTime(),
      })
      .where(eq(butlerRequests.id, id));
    if (input.way_points !== undefined) {
      await tx.delete(butlerWaypoints).where(eq(butlerWaypoints.butlerRequestId, id));
      if (after.way_points.length) await tx.insert(butlerWaypoints).values(after.way_points.map((w, i) => ({ butlerRequestId: id, position: i, address: w.address, scheduledTime: w.scheduled_time ? new Date(w.scheduled_time) : null })));
    } else {
      for (const [i, w] of p.points.entries()) {
        const t = after.way_points[i].scheduled_time;
        await tx.update(butlerWaypoints).set({ scheduledTime: t ? new Date(t) : null }).where(eq(butlerWaypoints.id, w.id));
      }
    }
    if (start.getTime() !== row.startAt.getTime()) await scheduleReminder(tx, { clock: ctx.clock }, id, row.userId, start);

    const version = `${row.modifiedAt.getTime()}:${createHash('sha256').update(JSON.stringify(changes)).digest('hex').slice(0, 16)}`;
    if (row.driverId !== null) await tellDriver(tx, now, { kind: 'changed', butlerRequestId: id, driverId: row.driverId, key: `driver.trip_changed:${id}:${version}`, changes });
    await emit(tx, `butler.trip_changed:${id}:${version}`, { type: 'butler.trip_changed', userId: row.userId, butlerRequestId: id, cause: input.cause, changes, price }, now);
    const trip = await tripOf(tx, id, now);
    await recordAudit(tx, actor, { action: opts.action, entity: 'butler_request', entityId: id, before: { ...before, final_price: row.finalPrice, reason: input.reason, cause: input.cause }, after: { ...after, final_price: repriced?.final ?? row.finalPrice, changes, price } });
    return { trip, changed: true, ...preview(p) };
  });
}
