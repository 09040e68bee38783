import { and, asc, eq } from 'drizzle-orm';
import { todayInKorea } from '../../domain/dates';
import {
  mileageArithmetic, mileageLegs, mileageSettlement, mileageTerms, monthsUsed, readingRefusal, selfReportWindow, SINGLE_SOURCES, SWAP_SOURCES,
  ODOMETER_SOURCE_LABEL, type MileageSettlement, type MileageSwap, type MileageTerms, type OdometerSource, type SelfReportWindow,
} from '../../domain/mileage';
import { carOnDay } from '../../domain/swap-cars';
import { formatNumber } from '../../domain/money';
import { paymentIds, type PaymentView } from '../../domain/payments';
import { carOptionPrices } from '../../domain/subscription-price';
import { recordAudit } from '../audit/audit';
import { billedToCompany, billToCompanyStatement, termMonthsSql } from './subscription-billing';
import { requireOwner } from './own-subscription';
import { inTransaction, type Db } from '../db/client';
import { cars, odometerReadings, subscriptionRequests, subscriptionSettlements, subscriptionSwaps, subscriptions } from '../db/schema';
import { ApiError, badRequest, conflict, notFound } from '../errors';
import { emit } from '../notifications/events';
import type { ChargeOutcome, PaymentContext } from '../payment-context';
import { executeCharge } from './charges';
import { declinedOrFine } from './errors';
import { attemptsOf, recordCharge, toPaymentView } from './ledger';

/**
 * 주행거리 (docs/decisions/mileage.md): odometer readings and the overage settled once at the
 * return. The rule is src/domain/mileage.ts; this file stores readings under the subscription's row
 * lock and charges the overage through the ledger like a monthly charge (recordCharge →
 * executeCharge → settleCharge, payment id sub-{id}-mileage-1, -r1… after a known decline).
 */

export type OdometerRow = typeof odometerReadings.$inferSelect;

/** A reading as the API answers it. */
export interface OdometerReadingView {
  id: number;
  km: number;
  source: OdometerSource;
  read_on: string;
  billing_month: number;
  /** The car read (after a swap the subscription has readings of two cars); its swap for SWAP_OUT/SWAP_IN. */
  car_id: number | null;
  swap_id: number | null;
  created_at: string;
}

/** GET /subscriptions/{id}/odometer and the console's: readings, the plan, where the km stand, the settlement once returned. */
export interface OdometerAnswer {
  subscription_id: number;
  terms: { monthly_km: number; overage_per_km: number; basis: MileageTerms['basis'] };
  /** Oldest first. */
  readings: OdometerReadingView[];
  /** Latest reading against the allowance so far (null until there is a handover and a later reading). */
  estimate: (MileageSettlement & { arithmetic: string }) | null;
  /** The customer's monthly report today. */
  self_report: SelfReportWindow;
  /** Once the RETURN reading exists: the settlement and its charge's latest attempt (null: nothing owed, or not charged yet). */
  settlement: { result: MileageSettlement & { arithmetic: string }; payment: PaymentView | null } | null;
}

const toView = (r: OdometerRow): OdometerReadingView => ({
  id: r.id, km: r.km, source: r.source, read_on: r.readOn, billing_month: r.billingMonth, car_id: r.carId, swap_id: r.swapId, created_at: r.createdAt.toISOString(),
});

export async function subscriptionFor(db: Db, id: number, lock = false) {
  const q = db
    .select({
      sub: subscriptions, term: termMonthsSql, options: subscriptionRequests.options, requestKey: subscriptionRequests.billingKey, orderCarId: subscriptionRequests.carId,
      invoiceBilled: subscriptionRequests.invoiceBilled, orderedBy: subscriptionRequests.orderedByUserId,
      car: { optionPrices: cars.optionPrices, feeMin: cars.subscriptionFeeMinimum },
    })
    .from(subscriptions)
    .innerJoin(subscriptionRequests, eq(subscriptionRequests.id, subscriptions.requestId))
    .innerJoin(cars, eq(cars.id, subscriptionRequests.carId))
    .where(eq(subscriptions.id, id));
  const [row] = lock ? await q.for('update', { of: subscriptions }) : await q;
  return row;
}
export type Found = NonNullable<Awaited<ReturnType<typeof subscriptionFor>>>;

const termsOf = (f: Found) => mileageTerms(f.options, carOptionPrices({ option_prices: f.car.optionPrices, subscription_fee_minimum: f.car.feeMin }));

export const readingsOf = (db: Db, subscriptionId: number) =>
  db.select().from(odometerReadings).where(eq(odometerReadings.subscriptionId, subscriptionId)).orderBy(asc(odometerReadings.readOn), asc(odometerReadings.km), asc(odometerReadings.id));

/**
 * A subscription's CONFIRMED swaps (차량 교체; the customer side writes them, PENDING until its money
 * moved): which car it holds on which day (src/domain/swap-cars.ts) and the mileage's legs.
 */
export async function confirmedSwapsOf(db: Db, subscriptionId: number): Promise<MileageSwap[]> {
  return db
    .select({ id: subscriptionSwaps.id, fromCarId: subscriptionSwaps.fromCarId, toCarId: subscriptionSwaps.toCarId, swapDate: subscriptionSwaps.swapDate })
    .from(subscriptionSwaps)
    .where(and(eq(subscriptionSwaps.subscriptionId, subscriptionId), eq(subscriptionSwaps.status, 'CONFIRMED')))
    .orderBy(asc(subscriptionSwaps.swapDate), asc(subscriptionSwaps.id));
}

/** A reading's car: its own, or (a row from before swaps) the order's. */
const carOf = (f: Pick<Found, 'orderCarId'>, r: Pick<OdometerRow, 'carId'>) => r.carId ?? f.orderCarId;

export interface NewReading {
  subscriptionId: number;
  km: number;
  source: OdometerSource;
  /** The Korean day read; defaults to today on `now`. */
  readOn?: string;
  recordedBy: { userId: number | null; name: string };
  now: Date;
  /** A swap's pair record (SWAP_OUT: the old car; SWAP_IN: the new car): the swap and its car. */
  swap?: { id: number; carId: number };
}

/**
 * Records an odometer reading. Callable with the app's db or inside the caller's transaction (a
 * handover record: it runs as a savepoint there). The subscription's row is locked first, so two
 * replicas recording at once are checked one after the other. HANDOVER and RETURN are idempotent:
 * the same km again answers the stored reading (`created: false`); another km is a 409. A reading
 * lower than an earlier one (or higher than a later one) is a Korean 400.
 */
export async function recordOdometerReading(db: Db, input: NewReading): Promise<{ reading: OdometerRow; created: boolean }> {
  return inTransaction(db, async (tx) => {
    const found = await subscriptionFor(tx, input.subscriptionId, true);
    if (!found) throw notFound('구독을 찾을 수 없습니다.');
    const readOn = input.readOn ?? todayInKorea(input.now);
    const existing = await readingsOf(tx, input.subscriptionId);
    const isSwap = SWAP_SOURCES.includes(input.source);
    if (isSwap !== Boolean(input.swap)) throw badRequest('교체 주행거리는 교체 인수 기록으로만 남길 수 있습니다.', { source: ['교체 인수 기록으로만 남길 수 있습니다.'] });
    if (SINGLE_SOURCES.includes(input.source) || isSwap) {
      const same = existing.find((r) => r.source === input.source && (!isSwap || r.swapId === input.swap?.id));
      if (same && same.km === input.km) return { reading: same, created: false };
      if (same) throw conflict(`${ODOMETER_SOURCE_LABEL[input.source].replace(/ 시$/, '')} 주행거리는 이미 ${formatNumber(same.km)}km로 기록되어 있습니다.`);
    }
    // The car read: a swap's own; the order's at the HANDOVER; the car held at the end at the RETURN; else the car held that day.
    const swaps = await confirmedSwapsOf(tx, input.subscriptionId);
    const carId =
      input.swap?.carId ??
      (input.source === 'HANDOVER' ? found.orderCarId : carOnDay(found.orderCarId, swaps, input.source === 'RETURN' ? (found.sub.endDate > readOn ? found.sub.endDate : readOn) : readOn));
    const refusal = readingRefusal(existing.map((r) => ({ ...r, carId: carOf(found, r) })), { km: input.km, readOn, source: input.source, carId });
    if (refusal) throw refusal.status === 409 ? conflict(refusal.reason) : badRequest(refusal.reason, { km: [refusal.reason] });
    const billingMonth = monthsUsed(found.sub.startDate, found.term, readOn);
    if (input.source === 'SELF' && existing.some((r) => r.source === 'SELF' && r.billingMonth === billingMonth)) {
      throw conflict('이번 달 주행거리는 이미 입력하셨습니다.');
    }
    const [reading] = await tx
      .insert(odometerReadings)
      .values({
        subscriptionId: input.subscriptionId, km: input.km, source: input.source, readOn, billingMonth, carId, swapId: input.swap?.id ?? null,
        recordedByUserId: input.recordedBy.userId, recordedBy: input.recordedBy.name,
      })
      .returning();
    return { reading, created: true };
  });
}

export function withArithmetic(s: MileageSettlement) {
  return { ...s, arithmetic: mileageArithmetic(s) };
}

/**
 * The settlement on the readings (null without a handover, or without a RETURN when `final`). With
 * CONFIRMED swaps the km driven are summed over the subscription's cars (mileageLegs); a final one
 * missing a swap's reading is a Korean 409 (the settlement cannot count that car).
 */
export function settlementOn(f: Found, readings: OdometerRow[], final: boolean, swaps: readonly MileageSwap[] = []): MileageSettlement | null {
  const handover = readings.find((r) => r.source === 'HANDOVER');
  const latest = final ? readings.find((r) => r.source === 'RETURN') : readings.at(-1);
  if (!handover || !latest) return null;
  const t = termsOf(f);
  const legs = mileageLegs(f.orderCarId, swaps, readings.map((r) => ({ km: r.km, readOn: r.readOn, source: r.source, carId: carOf(f, r), swapId: r.swapId })), final);
  if ('missing' in legs) {
    if (final) throw conflict(`${legs.missing}가 기록되어 있지 않아 정산할 수 없습니다. 교체 인수 기록을 먼저 저장해주세요.`);
    return null;
  }
  return mileageSettlement({ startDate: f.sub.startDate, termMonths: f.term, terms: t, handover, latest, legs: legs.legs });
}

function settledOrNull(f: Found, readings: OdometerRow[], swaps: readonly MileageSwap[]): MileageSettlement | null {
  try {
    return settlementOn(f, readings, true, swaps);
  } catch (e) {
    if (e instanceof ApiError && e.status === 409) return null;
    throw e;
  }
}

async function answer(db: Db, f: Found, today: string): Promise<OdometerAnswer> {
  const readings = await readingsOf(db, f.sub.id);
  const swaps = await confirmedSwapsOf(db, f.sub.id);
  const t = termsOf(f);
  const estimate = readings.length > 1 ? settlementOn(f, readings, false, swaps) : null;
  // A return recorded before a swap's readings: no settlement to show yet (the settle refuses it in Korean).
  const final = settledOrNull(f, readings, swaps);
  const attempts = final ? await attemptsOf(db, 'subscription', f.sub.id, 'SUBSCRIPTION_MILEAGE') : [];
  const latest = attempts.at(-1);
  return {
    subscription_id: f.sub.id,
    terms: { monthly_km: t.monthlyKm, overage_per_km: t.overagePerKm, basis: t.basis },
    readings: readings.map(toView),
    estimate: estimate ? withArithmetic(estimate) : null,
    self_report: selfReportWindow({ startDate: f.sub.startDate, endDate: f.sub.endDate, termMonths: f.term, active: f.sub.isActive }, readings, today),
    settlement: final ? { result: withArithmetic(final), payment: latest ? toPaymentView(latest) : null } : null,
  };
}

/**
 * The customer's own subscription with what its km are read against (another's is 404). Not
 * ownSubscription: a company subscription's driver reads and reports its km too (requirePrivate
 * guards what the company decides), and the plan needs the order's options and the car.
 */
async function drivenSubscription(db: Db, id: number, userId: number): Promise<Found> {
  const found = await subscriptionFor(db, id);
  requireOwner(found, userId);
  return found;
}

/** GET /subscriptions/{id}/odometer: the customer's own subscription only (another's is a 404). */
export async function customerOdometer(ctx: PaymentContext, subscriptionId: number, userId: number): Promise<OdometerAnswer> {
  const found = await drivenSubscription(ctx.db, subscriptionId, userId);
  return answer(ctx.db, found, todayInKorea(ctx.clock.now()));
}

/**
 * POST /subscriptions/{id}/odometer: the customer's monthly report, dated today on the business
 * clock. Once per billing month: a second report in the same month is refused (409), not replaced.
 */
export async function selfReport(ctx: PaymentContext, subscriptionId: number, userId: number, km: number): Promise<OdometerAnswer> {
  const now = ctx.clock.now();
  const today = todayInKorea(now);
  await inTransaction(ctx.db, async (tx) => {
    const found = await drivenSubscription(tx, subscriptionId, userId);
    const window = selfReportWindow({ startDate: found.sub.startDate, endDate: found.sub.endDate, termMonths: found.term, active: found.sub.isActive }, await readingsOf(tx, subscriptionId), today);
    if (window.refusal) throw conflict(window.refusal);
    await recordOdometerReading(tx, { subscriptionId, km, source: 'SELF', readOn: today, recordedBy: { userId, name: `customer:${userId}` }, now });
  });
  return answer(ctx.db, await drivenSubscription(ctx.db, subscriptionId, userId), today);
}

/** The console's view of a subscription's mileage. */
export async function staffOdometer(ctx: PaymentContext, subscriptionId: number): Promise<OdometerAnswer> {
  const found = await subscriptionFor(ctx.db, subscriptionId);
  if (!found) throw notFound('구독을 찾을 수 없습니다.');
  return answer(ctx.db, found, todayInKorea(ctx.clock.now()));
}

/** What a settle answers: the settlement and its charge (null when nothing was owed). */
export interface MileageSettleAnswer {
  result: MileageSettlement & { arithmetic: string };
  payment: PaymentView | null;
}

/**
 * Settles the overage once the RETURN reading exists: charges it once (payment id
 * sub-{id}-mileage-1; a new attempt id only after a known decline), or, with nothing over the
 * allowance, only tells the customer. Retries and two replicas meet on the subscription's row lock
 * and then on the same payment id, which the provider charges once.
 *
 * Since 반납 정산 it is no longer called by a RETURN reading: the settlement takes the overage from
 * the deposit first. It charges the overage on its own only when staff ask for it before the
 * settlement (POST …/mileage/settle); the settlement then counts it as paid, and once a settlement
 * exists this refuses (409).
 */
export async function settleMileage(ctx: PaymentContext, subscriptionId: number): Promise<MileageSettleAnswer> {
  const now = ctx.clock.now();
  const step = await inTransaction(ctx.db, async (tx) => {
    const found = await subscriptionFor(tx, subscriptionId, true);
    if (!found) throw notFound('구독을 찾을 수 없습니다.');
    const readings = await readingsOf(tx, subscriptionId);
    if (!readings.some((r) => r.source === 'RETURN')) throw conflict('반납 주행거리가 기록되어야 정산할 수 있습니다.');
    const result = settlementOn(found, readings, true, await confirmedSwapsOf(tx, subscriptionId));
    if (!result) throw conflict('인도 시 주행거리가 기록되어 있지 않아 정산할 수 없습니다. 인도 주행거리를 먼저 기록해주세요.');
    const attempts = await attemptsOf(tx, 'subscription', subscriptionId, 'SUBSCRIPTION_MILEAGE');
    const paid = attempts.find((a) => a.status === 'PAID' || a.status === 'PARTIAL_CANCELLED' || a.status === 'CANCELLED');
    if (paid) return { result, payment: paid };
    const company = statementCompany(found);
    // On 후불 (a company subscription) the overage went to the company's statement: answered again, billed once.
    if (company && (await billedToCompany(tx, subscriptionId, 'MILEAGE'))) return { result, payment: undefined };
    // The 반납 정산 took the overage (from the deposit first): it is not charged on its own as well.
    const [settled] = await tx.select({ id: subscriptionSettlements.id }).from(subscriptionSettlements).where(eq(subscriptionSettlements.subscriptionId, subscriptionId));
    if (settled) throw conflict('초과 주행 요금은 반납 정산에 포함되어 정산되었습니다.');
    // A charge in flight (the other replica, a crash): send the same id again.
    const pending = attempts.find((a) => a.status === 'PENDING');
    if (pending) return { result, charge: pending.id };
    if (result.amount === 0) {
      // Nothing over the allowance: no charge; the customer is told the arithmetic once (the key).
      await emit(tx, `subscription.mileage:${subscriptionId}`, settledEvent(found.sub.userId, subscriptionId, result, null), now);
      return { result, payment: undefined };
    }
    if (company) {
      await billToCompanyStatement(tx, {
        subscriptionId, companyId: company, sourceKey: `sub:${subscriptionId}:mileage`, kind: 'MILEAGE', label: `구독 #${subscriptionId} 초과 주행 요금 (${formatNumber(result.overage_km)}km)`,
        amount: result.amount, serviceDate: todayInKorea(now),
      });
      await emit(tx, `subscription.mileage:${subscriptionId}`, settledEvent(found.sub.userId, subscriptionId, result, null), now);
      return { result, payment: undefined };
    }
    const attempt = attempts.length + 1;
    const id = paymentIds.retry(paymentIds.subscriptionMileage(subscriptionId), attempt);
    const recorded = await recordCharge(tx, ctx.payments.name, {
      // month holds the billing months the allowance counted (the console and the message read them back with the readings).
      // A company card's charge is the ordering admin's to see (the company pays, not the driver).
      id, userId: found.orderedBy ?? found.sub.userId, purpose: 'SUBSCRIPTION_MILEAGE', refType: 'subscription', refId: subscriptionId, month: result.months, attempt,
      orderName: `LUXE 구독 #${subscriptionId} 초과 주행 요금`, amount: result.amount, billingKey: found.sub.billingKey ?? found.requestKey,
    }, now);
    return { result, charge: id, recorded };
  });
  if (!('charge' in step) || !step.charge) return { result: withArithmetic(step.result), payment: step.payment ? toPaymentView(step.payment) : null };
  const payment = declinedOrFine(await executeCharge(ctx, step.charge, step.recorded));
  return { result: withArithmetic(step.result), payment: toPaymentView(payment) };
}

/** The company whose statement a subscription's charges go to (a company subscription on 후불), else null (a card is charged). */
export const statementCompany = (f: Pick<Found, 'sub' | 'invoiceBilled'>): number | null => (f.sub.companyId && f.invoiceBilled ? f.sub.companyId : null);

function settledEvent(userId: number, subscriptionId: number, s: MileageSettlement, paymentId: string | null) {
  return {
    type: 'subscription.mileage_settled' as const, userId, subscriptionId, paymentId,
    drivenKm: s.driven_km, allowanceKm: s.allowance_km, monthlyKm: s.monthly_km, months: s.months, overageKm: s.overage_km, perKm: s.per_km, amount: s.amount,
  };
}

/**
 * Staff record a reading in the console (audited). A RETURN reading only records the km: the
 * overage is settled by 반납 정산 (src/api/billing/settlement.ts), from the deposit first
 * (docs/decisions/settlement.md); settleMileage stays for charging the overage on its own.
 */
export async function staffRecordReading(ctx: PaymentContext, actor: { userId: number | null; name: string }, subscriptionId: number, input: { km: number; source: 'HANDOVER' | 'STAFF' | 'RETURN'; read_on?: string }) {
  const now = ctx.clock.now();
  const today = todayInKorea(now);
  if (input.read_on && input.read_on > today) throw badRequest('기록일은 오늘 이후일 수 없습니다.', { read_on: ['기록일은 오늘 이후일 수 없습니다.'] });
  const { reading, created } = await inTransaction(ctx.db, async (tx) => {
    const done = await recordOdometerReading(tx, { subscriptionId, km: input.km, source: input.source, readOn: input.read_on, recordedBy: actor, now });
    if (done.created) await recordAudit(tx, actor, { action: 'odometer', entity: 'subscription', entityId: subscriptionId, before: null, after: toView(done.reading) });
    return done;
  });
  return { reading: toView(reading), created };
}

/** The overage's charge: paid tells the customer the arithmetic (once per subscription); declined, the reason. */
export const mileageOutcome: ChargeOutcome = {
  async paid(tx, payment, ctx) {
    const found = await subscriptionFor(tx, payment.refId);
    if (!found) return;
    const result = settledOrNull(found, await readingsOf(tx, payment.refId), await confirmedSwapsOf(tx, payment.refId));
    if (!result) return;
    await emit(tx, `subscription.mileage:${payment.refId}`, settledEvent(payment.userId, payment.refId, { ...result, amount: payment.amount }, payment.id), ctx.clock.now());
  },
  async failed(tx, payment, ctx) {
    await emit(tx, `payment.failed:${payment.id}`, { type: 'payment.failed', userId: payment.userId, paymentId: payment.id, reason: payment.failureReason ?? '', retryDate: null }, ctx.clock.now());
  },
};
