import { and, eq } from 'drizzle-orm';
import type { ButlerCar } from '../../domain/butler';
import { DEFAULT_WAITING_POLICY, tripCharge, tripChargeName, type TripCharge, type WaitingPolicy } from '../../domain/waiting';
import { butlerRefund, paymentIds, type ButlerRefundPolicy, type PaymentPurpose, ORDER_KINDS } from '../../domain/payments';
import { inTransaction, type Db } from '../db/client';
import { billingKeyUses, butlerRequests, butlerReservedDates, companies, coupons, userCoupons } from '../db/schema';
import { conflict, notFound, unprocessable } from '../errors';
import { emit, emitOrderReceived } from '../notifications/events';
import { executeCharge } from './charges';
import type { ChargeOutcome, PaymentContext } from '../payment-context';
import { attemptsOf, paymentById, recordCharge } from './ledger';
import { releaseCoupon } from '../wallet/coupons';
import { creditPoints } from '../wallet/points';
import { type PaymentRow } from '../payment-context';
import { rowTime } from '../jobs/clock';
import { butlerCarList } from '../catalogue/catalogue';
import { customerCarAsButlerCar, DEFAULT_OWN_CAR_HOURLY_RATE } from '../../domain/butler-own-car';

type RequestRow = typeof butlerRequests.$inferSelect;
const REF = ORDER_KINDS.BUTLER.refType;

/**
 * The card a trip's later charges go to: the booking's own card; for a company trip the company's
 * card as registered now (the booking's key is only its idempotency key), or none when the trip is
 * on the company's monthly invoice (its trip_charge is what the statement bills).
 */
export async function tripCardKey(db: Db, row: Pick<RequestRow, 'billingKey' | 'companyId' | 'invoiceBilled'>): Promise<string | null> {
  if (!row.companyId) return row.billingKey;
  if (row.invoiceBilled) return null;
  const [company] = await db.select({ billingKey: companies.billingKey }).from(companies).where(eq(companies.id, row.companyId));
  return company?.billingKey ?? null;
}

/** Cancels inside the caller's transaction (row locked): frees the days, returns the coupon, refunds the points once. */
export async function cancelBooking(tx: Db, row: RequestRow) {
  await tx.update(butlerRequests).set({ status: 'CANCELLED', modifiedAt: rowTime() }).where(eq(butlerRequests.id, row.id));
  await tx.delete(butlerReservedDates).where(eq(butlerReservedDates.butlerRequestId, row.id));
  if (row.userCouponId) await releaseCoupon(tx, row.userCouponId);
  const refunded =
    row.pointUsed > 0 &&
    (await creditPoints(tx, { userId: row.userId, amount: row.pointUsed, reason: 'BUTLER_REFUND', refType: REF, refId: row.id, description: `의전 요청 #${row.id} 취소 환불` }));
  return { id: row.id, refunded_points: refunded ? row.pointUsed : 0, coupon_returned: Boolean(row.userCouponId) };
}

/** The refund percent for the customer cancelling now (src/domain/payments.ts butlerRefund). */
export function customerRefundPercent(row: Pick<RequestRow, 'startAt'>, now: Date, policy: ButlerRefundPolicy): number {
  return butlerRefund(100, row.startAt, now, policy).percent;
}

const bookingCharge: ChargeOutcome = {
  async paid(tx, payment, ctx) {
    const now = ctx.clock.now();
    await emit(tx, `payment.succeeded:${payment.id}`, { type: 'payment.succeeded', userId: payment.userId, paymentId: payment.id }, now);
    if (payment.purpose !== 'BUTLER') return;
    await emitOrderReceived(tx, { service: 'BUTLER', userId: payment.userId, orderId: payment.refId }, now);
  },
  async failed(tx, payment, ctx) {
    const now = ctx.clock.now();
    if (payment.purpose === 'BUTLER') {
      // The booking's fee was declined: the booking is undone as if never made, its card free again.
      const [row] = await tx.select().from(butlerRequests).where(and(eq(butlerRequests.id, payment.refId), eq(butlerRequests.status, 'PENDING'))).for('update');
      if (row) {
        await cancelBooking(tx, row);
        await tx.delete(billingKeyUses).where(eq(billingKeyUses.billingKey, row.billingKey));
      }
    }
    await emit(tx, `payment.failed:${payment.id}`, { type: 'payment.failed', userId: payment.userId, paymentId: payment.id, reason: payment.failureReason ?? '', retryDate: null }, now);
  },
};

/** Charge follow-ups of the butler service. */
export const butlerOutcomes = { BUTLER: bookingCharge, BUTLER_OVERTIME: bookingCharge, BUTLER_ADJUSTMENT: bookingCharge };

/** Coupon terms of a held coupon (already taken by the request). */
export async function heldCoupon(db: Db, holdingId: number) {
  const [row] = await db.select().from(coupons).innerJoin(userCoupons, eq(userCoupons.couponId, coupons.id)).where(eq(userCoupons.id, holdingId));
  if (!row) return null;
  return { discount_type: row.coupons.discountType, discount_rate: row.coupons.discountRate, discount: row.coupons.discount };
}

/**
 * What a trip of these actual times owes beyond what was charged (src/domain/waiting.ts
 * tripCharge): the overtime by the quote's rule (coupon on the total, the points as booked) and
 * the waiting from 도착 to 탑승 beyond the free minutes, part by part.
 */
async function tripChargeOf(tx: Db, car: ButlerCar, row: RequestRow, actual: { start: Date; end: Date; arrived?: Date | null }, policy: WaitingPolicy): Promise<TripCharge> {
  const coupon = row.userCouponId ? await heldCoupon(tx, row.userCouponId) : null;
  return tripCharge({
    car,
    booking: { start_at: row.startAt, end_at: row.endAt, flight_number: row.flightNumber, start_location: row.startLocation, final_price: row.finalPrice, point_used: row.pointUsed, coupon },
    actual: { arrived: actual.arrived === undefined ? row.arrivedAt : actual.arrived, boarded: actual.start, ended: actual.end },
    policy,
  });
}

/**
 * Inside the caller's transaction (the request's row locked, its end just recorded): stores what
 * the charge after the trip is made of (`trip_charge`) and records the one charge
 * `butler-{id}-overtime` (PENDING) of the overtime and the waiting when the trip owes any, and
 * answers the amount. The caller sends it with executeCharge after the commit. One id per
 * booking: a second recording cannot make a second charge (the caller checks paymentById first).
 */
export async function recordOvertime(
  tx: Db,
  providerName: PaymentContext['payments']['name'],
  car: ButlerCar,
  row: RequestRow,
  actual: { start: Date; end: Date; arrived?: Date | null },
  now: Date,
  policy: WaitingPolicy,
): Promise<number> {
  const charge = await tripChargeOf(tx, car, row, actual, policy);
  await tx.update(butlerRequests).set({ tripCharge: charge }).where(eq(butlerRequests.id, row.id));
  const key = await tripCardKey(tx, row);
  if (charge.amount > 0 && key) {
    await recordCharge(tx, providerName, {
      id: paymentIds.butlerOvertime(row.id), userId: row.userId, purpose: 'BUTLER_OVERTIME', refType: REF, refId: row.id, orderName: `LUXE 의전 #${row.id} ${tripChargeName(charge)}`, amount: charge.amount, billingKey: key,
    }, now);
  }
  return charge.amount;
}

/**
 * Staff record the trip's actual start, and its end once it is over: a trip is recorded only once
 * it has started (start <= the business clock's now) and finished only once its end has passed, so
 * nothing is charged for a trip that has not happened. With the end, overtime is priced by the same
 * rule as the quote (quoteButler, coupon on the total, the points as booked) and the difference
 * over what was charged is charged once, as the booking's overtime payment. `preview` answers that
 * amount without saving or charging (the console shows it before staff confirm). Returns the
 * overtime (0 for a start alone) and its charge, or null when there is none.
 */
export async function settleTrip(
  ctx: PaymentContext,
  car: ButlerCar,
  requestId: number,
  actual: { start: Date; end?: Date },
  opts: { preview?: boolean; waiting?: WaitingPolicy } = {},
): Promise<{ amount: number; payment: PaymentRow | null }> {
  const now = ctx.clock.now();
  if (actual.start > now) throw unprocessable('아직 시작되지 않은 운행은 기록할 수 없습니다. 출발한 뒤에 기록해주세요.', { actual_start_at: ['실제 출발 시간이 아직 오지 않았습니다.'] });
  if (actual.end && actual.end > now) throw unprocessable('아직 끝나지 않은 운행은 종료를 기록할 수 없습니다. 출발만 기록하거나 운행이 끝난 뒤에 기록해주세요.', { actual_end_at: ['실제 종료 시간이 아직 오지 않았습니다.'] });
  if (actual.end && actual.end <= actual.start) throw unprocessable('종료 시각은 시작 시각 이후여야 합니다.', { actual_end_at: ['종료 시각은 시작 시각 이후여야 합니다.'] });
  const id = paymentIds.butlerOvertime(requestId);
  const amount = await inTransaction(ctx.db, async (tx) => {
    const [row] = await tx.select().from(butlerRequests).where(eq(butlerRequests.id, requestId)).for('update');
    if (!row) throw notFound('요청을 찾을 수 없습니다.');
    if (row.status !== 'CONFIRMED') throw conflict('확정된 예약만 운행 기록을 남길 수 있습니다.');
    if (await paymentById(tx, id)) throw conflict('이미 초과 요금을 정산한 예약입니다.');
    if (!actual.end) {
      if (row.actualEndAt) throw conflict('이미 종료까지 기록된 운행입니다.');
      if (!opts.preview) await tx.update(butlerRequests).set({ actualStartAt: actual.start, modifiedAt: now }).where(eq(butlerRequests.id, requestId));
      return 0;
    }
    const policy = opts.waiting ?? DEFAULT_WAITING_POLICY;
    if (opts.preview) return (await tripChargeOf(tx, car, row, { start: actual.start, end: actual.end }, policy)).amount;
    await tx.update(butlerRequests).set({ actualStartAt: actual.start, actualEndAt: actual.end, modifiedAt: now }).where(eq(butlerRequests.id, requestId));
    return recordOvertime(tx, ctx.payments.name, car, row, { start: actual.start, end: actual.end }, now, policy);
  });
  // A trip on the company's invoice records its trip_charge and no charge.
  const recorded = amount > 0 && actual.end && !opts.preview ? await paymentById(ctx.db, id) : null;
  return { amount, payment: recorded ? await executeCharge(ctx, id) : null };
}

/**
 * The next attempt at a booking's declined charge, on `billingKey` or else the card its last
 * attempt used: a PENDING attempt (a crash, or a concurrent caller) is sent again under its own
 * id, after a known failure a new attempt id is made, so concurrent callers meet on one id that
 * the provider charges once. 409 with `nothingOwed` when none is owed (paid, or never charged).
 */
async function chargeAgain(ctx: PaymentContext, refId: number, purpose: PaymentPurpose, nothingOwed: string, billingKey?: string): Promise<PaymentRow> {
  const tries = await attemptsOf(ctx.db, REF, refId, purpose);
  if (!tries.length || tries.some((t) => t.status !== 'FAILED' && t.status !== 'PENDING')) throw conflict(nothingOwed);
  const pending = tries.find((t) => t.status === 'PENDING');
  if (pending) return executeCharge(ctx, pending.id, pending);
  const last = tries[tries.length - 1];
  const attempt = tries.length + 1;
  const id = paymentIds.retry(tries[0].id, attempt);
  const recorded = await inTransaction(ctx.db, (tx) =>
    recordCharge(tx, ctx.payments.name, { id, userId: last.userId, purpose, refType: REF, refId, attempt, orderName: last.orderName, amount: last.amount, billingKey: billingKey ?? last.billingKey }, ctx.clock.now()),
  );
  return executeCharge(ctx, id, recorded);
}

/** A charge of a booking tried again (staff 지금 재시도 of a failed overtime). */
export async function retryBookingCharge(ctx: PaymentContext, failed: PaymentRow): Promise<PaymentRow> {
  if (failed.status !== 'FAILED' || failed.refType !== REF) throw conflict('다시 시도할 수 있는 결제가 아닙니다.');
  return chargeAgain(ctx, failed.refId, failed.purpose, '이미 결제된 요금입니다.');
}

const NOTHING_OWED = '결제할 미납 요금이 없습니다.';

/**
 * The customer pays a declined overtime charge now (booking detail, 카드 변경 후 결제), with a new
 * card when given: verified, claimed for this booking (a key backs one order), kept as the
 * booking's card, and charged under the next attempt id. Another user's booking is 404.
 */
export async function payOwedOvertime(ctx: PaymentContext, opts: { requestId: number; userId: number; billingKey?: string }): Promise<PaymentRow> {
  const [row] = await ctx.db.select().from(butlerRequests).where(eq(butlerRequests.id, opts.requestId));
  // Another user's or a cancelled booking is 404, as GET /butlers/requests/{id} answers.
  if (!row || row.userId !== opts.userId || row.status === 'CANCELLED') throw notFound('요청을 찾을 수 없습니다.');
  // Owed: declined and not paid since (a retry in flight is owed too: a concurrent caller meets on it).
  const tries = await attemptsOf(ctx.db, REF, row.id, 'BUTLER_OVERTIME');
  if (!tries.some((t) => t.status === 'FAILED') || !tries.every((t) => t.status === 'FAILED' || t.status === 'PENDING')) throw conflict(NOTHING_OWED);
  const key = opts.billingKey;
  if (key && key !== row.billingKey) {
    const card = await ctx.payments.verifyBillingKey(key);
    await inTransaction(ctx.db, async (tx) => {
      // Under the booking's lock: a concurrent twin with the same card finds it on file and goes on to the charge.
      const [locked] = await tx.select({ billingKey: butlerRequests.billingKey }).from(butlerRequests).where(eq(butlerRequests.id, row.id)).for('update');
      if (locked.billingKey === key) return;
      const claimed = await tx.insert(billingKeyUses).values({ billingKey: key, service: 'BUTLER', userId: row.userId, orderId: row.id }).onConflictDoNothing().returning();
      if (!claimed.length) throw conflict('이미 사용된 빌링키입니다. 카드를 다시 등록해주세요.', { billing_key: ['이미 사용된 빌링키입니다.'] });
      await tx.update(butlerRequests).set({ billingKey: key, cardIssuer: card?.issuer ?? null, cardLast4: card?.last4 ?? null, modifiedAt: rowTime() }).where(eq(butlerRequests.id, row.id));
    });
  }
  return chargeAgain(ctx, row.id, 'BUTLER_OVERTIME', NOTHING_OWED, key);
}

/**
 * The car a booking's fees and overtime are reckoned on: its fleet car (archived too), or for a
 * driver-only booking the customer's car with the hourly rate it was priced at.
 */
export async function tripCar(db: Db, row: Pick<RequestRow, 'butlerCarId' | 'customerCar' | 'legalBasis'>, today: string): Promise<ButlerCar> {
  if (!row.butlerCarId) return customerCarAsButlerCar(row.customerCar!, ownCarRate(row));
  const [car] = await butlerCarList(db, { id: row.butlerCarId, archived: true, today });
  if (!car) throw notFound('차량 정보를 찾을 수 없습니다.');
  return car;
}

/** The hourly rate a driver-only booking was priced at (kept with it, so a later setting change does not reprice it). */
export const ownCarRate = (row: Pick<RequestRow, 'legalBasis'>) => row.legalBasis?.ownCar?.hourlyRate ?? DEFAULT_OWN_CAR_HOURLY_RATE;
