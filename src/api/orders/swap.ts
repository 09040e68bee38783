import { and, eq, isNotNull, lte, or } from 'drizzle-orm';
import { clashes, inclusiveSpan } from '../../domain/availability';
import { carCover, carDisplayName, feeForTerm, isGarageActive, type Car } from '../../domain/car';
import { dotDate, todayInKorea } from '../../domain/dates';
import { ErrorCode } from '../../domain/error-codes';
import { extrasTotal, NO_EXTRAS, type OptionExtras } from '../../domain/extension';
import { monthlyChargeDate, paidAmount, paymentIds, type PaymentView, type RefundView } from '../../domain/payments';
import { won } from '../../domain/money';
import { priceConsentRefusal } from '../../domain/price-consent';
import { creditOfMonth, NO_PREPAYMENT_CREDIT, SWAP_RULE_LINES, swapQuote, swapRefusal, swapWindow, type PrepaymentCredit, type SwapQuote, type SwapSubscription, type SwapView } from '../../domain/swap';
import { billingMonthOf } from '../../domain/early-exit';
import { swapAnnexDocument, swapAnnexFileName, type SwapAnnexInput } from '../../domain/swap-annex';
import { carOnDay } from '../../domain/swap-cars';
import { termEnd } from '../../domain/subscriptions';
import { customerActor, recordAudit } from '../audit/audit';
import { inTransaction, type Db } from '../db/client';
import { paymentRefunds, subscriptionRequests, subscriptionSwapAnnexes, subscriptionSwaps, subscriptions, users } from '../db/schema';
import { ApiError, conflict, notFound, unprocessable } from '../errors';
import { enqueue, type Job, type JobSpec } from '../jobs/queue';
import { emit } from '../notifications/events';
import type { ChargeOutcome, PaymentContext, PaymentRow } from '../payment-context';
import { executeCharge } from '../billing/charges';
import { attemptsOf, paymentById, recordCharge, toPaymentView, toRefundView } from '../billing/ledger';
import { refundPayment } from '../billing/refunds';
import { feeChanges } from '../billing/subscription-billing';
import { allCars, carById } from '../catalogue/catalogue';
import { timelines } from '../catalogue/inventory';
import { lockCar } from './availability';
import { carNames, ownSubscription, swapRefundKey, swapsOf, swapView, type Found, type SwapRow } from './swap-views';
import { issueOnce, type ContractContext } from './contracts';
import { renderContractPdf } from './contract-pdf';
import { rowTime } from '../jobs/clock';

/*
 * 차량 교체 (swap), the customer's side: the window and the cars one may choose, the quote, the
 * confirmation (the prorated month's difference charged or refunded once, then applied), the
 * timelines (src/api/catalogue/inventory.ts) and the 부속 계약서 issued once by a job. The rule is
 * src/domain/swap.ts; docs/decisions/swap.md.
 */

export const SWAP_ANNEX_JOB = 'subscription-swap-annex';
const swapAnnexJob = (swapId: number, now: Date): JobSpec => ({ kind: SWAP_ANNEX_JOB, key: `annex:swap:${swapId}`, payload: { swapId }, runAt: now, maxAttempts: 8 });


/** A car one may swap to on the chosen day: its new monthly fee, and the first day it is taken inside [day, end] (null: free). */
interface SwapCarChoice {
  id: number;
  name: string;
  brand: string;
  image: string;
  base_fee: number;
  new_fee: number;
  taken_from: string | null;
}

/** GET /subscriptions/{id}/swap: the window, the rule, the cars for the day and, with a car, the quote. */
export interface SwapQuoteAnswer {
  first: string;
  last: string;
  /** The day the cars are listed for (the asked one, else the first). */
  date: string;
  rule: string[];
  cars: SwapCarChoice[];
  quote: (SwapQuote & { car_id: number; car_name: string; taken_from: string | null }) | null;
}

/** POST /subscriptions/{id}/swap: the swap as confirmed (a repeat answers the same). */
export interface SwapConfirmAnswer {
  swap: SwapView;
  /** The difference's charge (> 0), or null. */
  payment: PaymentView | null;
  /** The difference's refund (< 0), or null (0, or nothing left to refund). */
  refund: RefundView | null;
}

const confirmedOf = (rows: readonly SwapRow[]) => rows.filter((r) => r.status === 'CONFIRMED');

async function ruleInput(db: Db, f: Found, swaps: readonly SwapRow[]): Promise<SwapSubscription> {
  return {
    startDate: f.sub.startDate, endDate: f.sub.endDate, termMonths: f.request.month + f.sub.extendedMonths, paidMonths: f.sub.paidMonths,
    isActive: f.sub.isActive, billingStatus: f.sub.billingStatus, exitDate: f.sub.exitDate, baseFee: f.request.fee, feeChanges: await feeChanges(db, f.sub.id),
    swaps: swaps.flatMap((r) => (r.status === 'CANCELLED' ? [] : [{ swapDate: r.swapDate, status: r.status, billingMonth: r.billingMonth }])),
    prepaymentCredit: prepaymentCreditOf(f),
  };
}

/** The order's 선납금 credit (the quote's monthly share over the order's months): it stays with the subscription through a swap. */
function prepaymentCreditOf(f: Found): PrepaymentCredit {
  const q = f.request.options?.quote;
  return q && q.prepayment_credit > 0 ? { monthly: q.prepayment_credit, lastMonth: f.request.month } : NO_PREPAYMENT_CREDIT;
}

/** The order's monthly option extras as stored with it (as the extension takes them). */
function optionExtras(f: Found): OptionExtras {
  const q = f.request.options?.quote;
  return q ? { mileage_monthly: q.mileage_monthly, young_driver_monthly: q.young_driver_monthly, extra_drivers_monthly: q.extra_drivers_monthly } : NO_EXTRAS;
}

const refuse = (a: { status: 409 | 422; reason: string }, field = 'date'): ApiError => (a.status === 409 ? conflict(a.reason) : unprocessable(a.reason, { [field]: [a.reason] }));

/** The first day in [day, end] the car is taken by another subscription, hold or swap (null: free). */
export async function takenFrom(db: Db, f: Found, carId: number, day: string, now: Date): Promise<string | null> {
  const line = (await timelines(db, [carId], now, f.request.id)).get(carId) ?? [];
  const hit = clashes(line, inclusiveSpan(day, f.sub.endDate))[0];
  if (!hit) return null;
  return hit.start > day ? hit.start : day;
}

/** Can the subscription's term be had on this car today: live in the garage and a fee for the order's months. */
const offers = (car: Car, months: number, today: string) => isGarageActive(car, today) && feeForTerm(car, months) !== null;

/** The cars one may swap to on `day` (what the garage would show, less the car held that day), by new fee. */
async function carChoices(db: Db, f: Found, swaps: readonly SwapRow[], day: string, now: Date): Promise<SwapCarChoice[]> {
  const today = todayInKorea(now);
  const current = carOnDay(f.request.carId, confirmedOf(swaps), day);
  const cars = (await allCars(db)).filter((c) => c.id !== current && offers(c, f.request.month, today));
  const lines = await timelines(db, cars.map((c) => c.id), now, f.request.id);
  const span = inclusiveSpan(day, f.sub.endDate);
  // The order's 선납금 credit stays with the subscription: each car's new fee has it off, as the quote does.
  const extras = extrasTotal(optionExtras(f)) - creditOfMonth(prepaymentCreditOf(f), billingMonthOf(f.sub.startDate, day, f.request.month + f.sub.extendedMonths));
  return cars
    .map((c) => {
      const base = feeForTerm(c, f.request.month)!;
      const hit = clashes(lines.get(c.id) ?? [], span)[0];
      return { id: c.id, name: carDisplayName(c), brand: c.model.brand.name, image: carCover(c).src, base_fee: base, new_fee: Math.max(0, base + extras), taken_from: hit ? (hit.start > day ? hit.start : day) : null };
    })
    .sort((a, b) => a.new_fee - b.new_fee || a.id - b.id);
}

export async function quoteSwap(ctx: { db: Db; clock: { now(): Date } }, subscriptionId: number, userId: number, date: string | undefined, carId: number | undefined): Promise<SwapQuoteAnswer> {
  const now = ctx.clock.now();
  const today = todayInKorea(now);
  const f = await ownSubscription(ctx.db, subscriptionId, userId);
  const swaps = await swapsOf(ctx.db, subscriptionId);
  const rule = await ruleInput(ctx.db, f, swaps);
  const refusal = swapRefusal(rule, today);
  if (refusal) throw conflict(refusal.reason);
  const { first, last } = swapWindow(rule, today);
  const day = date ?? first;
  if (date !== undefined) {
    const check = swapQuote(rule, day, 0, NO_EXTRAS, today);
    if (!check.ok) throw refuse(check);
  }
  const cars = await carChoices(ctx.db, f, swaps, day, now);
  let quote: SwapQuoteAnswer['quote'] = null;
  if (carId !== undefined) {
    if (date === undefined) throw unprocessable('교체일을 선택해주세요.', { date: ['교체일을 선택해주세요.'] });
    const car = cars.find((c) => c.id === carId);
    if (!car) throw unprocessable('교체할 수 없는 차량입니다. 목록에서 차량을 선택해주세요.', { car_id: ['교체할 수 없는 차량입니다.'] });
    const a = swapQuote(rule, day, car.base_fee, optionExtras(f), today);
    if (!a.ok) throw refuse(a);
    quote = { ...a.quote, car_id: car.id, car_name: car.name, taken_from: car.taken_from };
  }
  return { first, last, date: day, rule: SWAP_RULE_LINES, cars, quote };
}

// ── 확정 ─────────────────────────────────────────────────────────────────────

type Step = { swapId: number } & ({ done: true } | { charge: string; recorded?: PaymentRow } | { refund: { paymentId: string; amount: number } });

/**
 * The payment that holds billing month `month` (its paid attempt; month 1: the order's first
 * payment) and what may be refunded from it: what it still holds, less the 보증금 and 선납금 the
 * first payment also holds (they are settled at the return).
 */
async function monthPayment(db: Db, f: Found, month: number): Promise<{ payment: PaymentRow; refundable: number } | null> {
  const rows = month === 1
    ? await attemptsOf(db, 'subscription_request', f.request.id, 'SUBSCRIPTION_FIRST')
    : await attemptsOf(db, 'subscription', f.sub.id, 'SUBSCRIPTION_MONTH', month);
  const payment = rows.find((p) => paidAmount(p) > 0);
  if (!payment) return null;
  const kept = month === 1 ? Math.max(0, f.request.options?.quote.deposit ?? 0) + Math.max(0, f.request.options?.quote.prepayment ?? 0) : 0;
  return { payment, refundable: Math.max(0, paidAmount(payment) - kept) };
}

/** The money step of a PENDING swap (new, or met again by a repeat): charge, refund, or apply at once. */
async function moneyStep(tx: Db, ctx: PaymentContext, f: Found, row: SwapRow, now: Date): Promise<Step> {
  if (row.status === 'CONFIRMED') return { swapId: row.id, done: true };
  if (row.adjustment > 0) {
    const id = paymentIds.subscriptionSwap(f.sub.id, row.id);
    const existing = await paymentById(tx, id);
    if (existing) return existing.status === 'PENDING' ? { swapId: row.id, charge: id } : { swapId: row.id, done: true };
    const recorded = await recordCharge(tx, ctx.payments.name, {
      id, userId: f.sub.userId, purpose: 'SUBSCRIPTION_SWAP', refType: 'subscription', refId: f.sub.id, attempt: 1,
      orderName: `LUXE 구독 #${f.sub.id} 차량 교체 차액`, amount: row.adjustment, billingKey: f.sub.billingKey ?? f.request.billingKey,
    }, now);
    await tx.update(subscriptionSwaps).set({ paymentId: id, updatedAt: now }).where(eq(subscriptionSwaps.id, row.id));
    return { swapId: row.id, charge: id, recorded };
  }
  if (row.adjustment < 0) {
    const held = row.paymentId ? await monthPaymentById(tx, f, row) : await monthPayment(tx, f, row.billingMonth);
    const amount = held ? Math.min(-row.adjustment, held.refundable) : 0;
    if (held && row.paymentId === null) await tx.update(subscriptionSwaps).set({ paymentId: held.payment.id, updatedAt: now }).where(eq(subscriptionSwaps.id, row.id));
    const [prior] = await tx.select().from(paymentRefunds).where(eq(paymentRefunds.key, swapRefundKey(row.id)));
    if (prior?.status === 'SUCCEEDED') {
      await applySwap(tx, row.id, now);
      return { swapId: row.id, done: true };
    }
    if (held && (amount > 0 || prior)) return { swapId: row.id, refund: { paymentId: held.payment.id, amount: prior?.amount ?? amount } };
  }
  // Nothing moves (equal fees, or nothing left to refund): applied at once.
  await applySwap(tx, row.id, now);
  return { swapId: row.id, done: true };
}

/** The month payment a refunding swap named (a repeat refunds from the same one). */
async function monthPaymentById(db: Db, f: Found, row: SwapRow) {
  const payment = await paymentById(db, row.paymentId!);
  if (!payment) return null;
  const kept = row.billingMonth === 1 ? Math.max(0, f.request.options?.quote.deposit ?? 0) + Math.max(0, f.request.options?.quote.prepayment ?? 0) : 0;
  return { payment, refundable: Math.max(0, paidAmount(payment) - kept) };
}

const declined = (p: PaymentRow) => new ApiError(422, ErrorCode.PAYMENT_DECLINED, p.failureReason ?? '카드 결제에 실패했습니다.', { payment: [p.failureReason ?? '카드 결제에 실패했습니다.'] });

/**
 * 차량 교체 확정: on the subscription's row lock the quote is made again from today's prices; a
 * difference or fee other than the one quoted is 409 with the new quote (nothing changed). Both
 * cars' rows are locked in id order (as orders lock a car) and the new car must be free from the
 * day to the end. Then the swap row (PENDING, it holds the new car) and its money: a positive
 * difference charged once (sub-{id}-swap-{swapId}; its PAID outcome applies the swap, a decline
 * cancels it: 422), a negative one refunded once from the prorated month's payment (key
 * swap:refund:{swapId}, then applied), none: applied at once. A repeat (the same day and car)
 * answers the same swap; two clicks meet on the row lock, then on the same payment id or refund key.
 */
export async function confirmSwap(
  ctx: PaymentContext,
  subscriptionId: number,
  userId: number,
  input: { date: string; car_id: number; quoted_adjustment: number; quoted_fee: number; price_consent?: number },
): Promise<SwapConfirmAnswer> {
  const now = ctx.clock.now();
  const today = todayInKorea(now);
  const step = await inTransaction(ctx.db, async (tx): Promise<Step> => {
    const f = await ownSubscription(tx, subscriptionId, userId, true);
    const swaps = await swapsOf(tx, subscriptionId);
    const same = swaps.find((r) => r.status !== 'CANCELLED' && r.swapDate === input.date && r.toCarId === input.car_id);
    if (same) return moneyStep(tx, ctx, f, same, now);
    const rule = await ruleInput(tx, f, swaps);
    const refusal = swapRefusal(rule, today);
    if (refusal) throw conflict(refusal.reason);
    const check = swapQuote(rule, input.date, 0, NO_EXTRAS, today);
    if (!check.ok) throw refuse(check);
    const current = carOnDay(f.request.carId, confirmedOf(swaps), input.date);
    if (input.car_id === current) throw unprocessable('지금 이용 중인 차량과 다른 차량을 선택해주세요.', { car_id: ['지금 이용 중인 차량입니다.'] });
    // One plate, one customer: both cars' rows, in id order (orders and other swaps wait on them).
    for (const id of [current, input.car_id].sort((a, b) => a - b)) await lockCar(tx, id);
    const car = await carById(tx, input.car_id).catch(() => null);
    if (!car || !offers(car, f.request.month, today)) throw unprocessable('교체할 수 없는 차량입니다. 목록에서 차량을 선택해주세요.', { car_id: ['교체할 수 없는 차량입니다.'] });
    const a = swapQuote(rule, input.date, feeForTerm(car, f.request.month)!, optionExtras(f), today);
    if (!a.ok) throw refuse(a);
    const q = a.quote;
    if (q.adjustment !== input.quoted_adjustment || q.new_fee !== input.quoted_fee) {
      throw conflict(
        `견적이 바뀌었습니다. 새 월 구독료 월 ${won(q.new_fee)}, 교체 월 ${q.arithmetic}. 바뀐 견적을 확인한 뒤 다시 확정해주세요.`,
        { quoted_adjustment: ['견적과 현재 금액이 다릅니다.'] },
        { quote: { ...q, car_id: car.id, car_name: carDisplayName(car) } },
      );
    }
    // 가격 변경 동의: a new car at another monthly fee needs the customer's explicit consent to it.
    const consent = priceConsentRefusal(q.old_fee, q.new_fee, input.price_consent);
    if (consent) throw unprocessable(consent, { price_consent: [consent] });
    const taken = await takenFrom(tx, f, car.id, input.date, now);
    if (taken) throw conflict(`이 차량은 ${dotDate(taken)}부터 다른 일정이 있어 교체할 수 없습니다. 다른 차량을 선택해주세요.`, { car_id: ['이 기간에 차량의 다른 일정이 있습니다.'] }, { taken_from: taken });
    const [row] = await tx
      .insert(subscriptionSwaps)
      .values({
        subscriptionId, userId, fromCarId: current, toCarId: car.id, swapDate: q.swap_date, billingMonth: q.billing_month, firstNewMonth: q.first_new_month,
        oldFee: q.old_fee, newFee: q.new_fee, baseFee: q.base_fee, optionExtras: q.option_extras, prepaymentCredit: q.prepayment_credit, prorateDays: q.prorate_days, monthDays: q.month_days, adjustment: q.adjustment,
        createdAt: now, updatedAt: now,
      })
      .returning();
    return moneyStep(tx, ctx, f, row, now);
  });
  if ('charge' in step) {
    const payment = await executeCharge(ctx, step.charge, step.recorded);
    if (payment.status === 'FAILED') throw declined(payment);
    if (payment.status === 'PENDING') throw conflict('차량 교체 차액 결제를 확인하고 있습니다. 잠시 후 다시 확인해주세요.');
  } else if ('refund' in step) {
    let refund;
    try {
      refund = await refundPayment(ctx, { paymentId: step.refund.paymentId, amount: step.refund.amount, reason: '차량 교체 일할 차액 환불', actor: 'customer', key: swapRefundKey(step.swapId) });
    } catch (err) {
      // A refusal by the provider (not an unknown answer): the swap is withdrawn, nothing else changed.
      if (err instanceof ApiError && err.status === 409) await ctx.db.update(subscriptionSwaps).set({ status: 'CANCELLED', updatedAt: rowTime() }).where(and(eq(subscriptionSwaps.id, step.swapId), eq(subscriptionSwaps.status, 'PENDING')));
      throw err;
    }
    if (!refund || refund.status === 'SUCCEEDED') await inTransaction(ctx.db, (tx) => applySwap(tx, step.swapId, ctx.clock.now()));
  }
  const [row] = await ctx.db.select().from(subscriptionSwaps).where(eq(subscriptionSwaps.id, step.swapId));
  if (row.status !== 'CONFIRMED') throw conflict('차량 교체 처리를 확인하고 있습니다. 잠시 후 다시 확인해주세요.');
  return confirmAnswer(ctx.db, row);
}

async function confirmAnswer(db: Db, row: SwapRow): Promise<SwapConfirmAnswer> {
  const [found] = await db.select({ sub: subscriptions, request: subscriptionRequests }).from(subscriptions).innerJoin(subscriptionRequests, eq(subscriptionRequests.id, subscriptions.requestId)).where(eq(subscriptions.id, row.subscriptionId));
  const names = await carNames(db, [row.fromCarId, row.toCarId]);
  const payment = row.adjustment > 0 && row.paymentId ? await paymentById(db, row.paymentId) : undefined;
  const [refund] = row.adjustment < 0 ? await db.select().from(paymentRefunds).where(eq(paymentRefunds.key, swapRefundKey(row.id))) : [];
  return {
    swap: swapView(row, names, found.request.month + found.sub.extendedMonths, found.sub.startDate),
    payment: payment ? toPaymentView(payment) : null,
    refund: refund ? toRefundView(refund) : null,
  };
}

/**
 * Applies a PENDING swap (once: the row's lock and status): CONFIRMED, so billing takes the new fee
 * from first_new_month and the old car is free from the day after the swap; audited (actor: the
 * customer); the customer told the arithmetic (email + 알림톡), staff told to schedule the return
 * and delivery pair; the annex job queued.
 */
async function applySwap(tx: Db, swapId: number, now: Date): Promise<void> {
  const [row] = await tx.select().from(subscriptionSwaps).where(eq(subscriptionSwaps.id, swapId)).for('update');
  if (!row || row.status !== 'PENDING') return;
  const [after] = await tx.update(subscriptionSwaps).set({ status: 'CONFIRMED', updatedAt: now }).where(eq(subscriptionSwaps.id, swapId)).returning();
  const [found] = await tx.select({ sub: subscriptions, request: subscriptionRequests }).from(subscriptions).innerJoin(subscriptionRequests, eq(subscriptionRequests.id, subscriptions.requestId)).where(eq(subscriptions.id, row.subscriptionId));
  const names = await carNames(tx, [row.fromCarId, row.toCarId]);
  const view = swapView(after, names, found.request.month + found.sub.extendedMonths, found.sub.startDate);
  await recordAudit(tx, await customerActor(tx, row.userId), {
    action: 'update', entity: 'subscription', entityId: row.subscriptionId, before: null, after: { swap: { ...view, payment_id: row.paymentId } },
  });
  const facts = { subscriptionId: row.subscriptionId, swapId, swapDate: row.swapDate, fromCar: view.from_car.name, toCar: view.to_car.name, newFee: row.newFee };
  await emit(tx, `subscription.swapped:${swapId}`, { type: 'subscription.swapped', userId: row.userId, ...facts, arithmetic: view.arithmetic, adjustment: row.adjustment, firstNewMonth: row.firstNewMonth, newFeeFrom: view.new_fee_from }, now);
  await emit(tx, `staff.subscription_swapped:${swapId}`, { type: 'staff.subscription_swapped', ...facts }, now);
  await enqueue(tx, swapAnnexJob(swapId, now));
}

/** The swap difference's charge: paid applies the swap; declined withdraws it (CANCELLED: the new car is free again). */
export const swapOutcome: ChargeOutcome = {
  async paid(tx, payment, ctx) {
    const [row] = await tx.select({ id: subscriptionSwaps.id }).from(subscriptionSwaps).where(eq(subscriptionSwaps.paymentId, payment.id));
    if (row) await applySwap(tx, row.id, ctx.clock.now());
  },
  async failed(tx, payment, ctx) {
    await tx.update(subscriptionSwaps).set({ status: 'CANCELLED', updatedAt: rowTime() }).where(and(eq(subscriptionSwaps.paymentId, payment.id), eq(subscriptionSwaps.status, 'PENDING')));
    await emit(tx, `payment.failed:${payment.id}`, { type: 'payment.failed', userId: payment.userId, paymentId: payment.id, reason: payment.failureReason ?? '', retryDate: null }, ctx.clock.now());
  },
};

// ── 부속 계약서 ───────────────────────────────────────────────────────────────

export type SwapAnnexRow = typeof subscriptionSwapAnnexes.$inferSelect;

/** The annex's input: the swap, its subscription and order, both cars, the customer and the company. */
async function swapAnnexInput(db: Db, company: ContractContext['config']['company'], swapId: number): Promise<SwapAnnexInput> {
  const [s] = await db.select().from(subscriptionSwaps).where(eq(subscriptionSwaps.id, swapId));
  if (!s) throw notFound('차량 교체 내역을 찾을 수 없습니다.');
  const [{ sub, request: r }] = await db
    .select({ sub: subscriptions, request: subscriptionRequests })
    .from(subscriptions)
    .innerJoin(subscriptionRequests, eq(subscriptionRequests.id, subscriptions.requestId))
    .where(eq(subscriptions.id, s.subscriptionId));
  const earlier = await db
    .select({ id: subscriptionSwaps.id })
    .from(subscriptionSwaps)
    // Swaps ever confirmed (one cancelled later keeps its number: its annex was issued under it).
    .where(and(eq(subscriptionSwaps.subscriptionId, s.subscriptionId), or(eq(subscriptionSwaps.status, 'CONFIRMED'), isNotNull(subscriptionSwaps.cancelledAt)), lte(subscriptionSwaps.id, s.id)));
  const carOf = async (id: number) => {
    const c = await carById(db, id);
    return { brand: c.model.brand.name, model: c.model.name, subModel: c.sub_model, trim: c.trim, plate: c.license_plate, colour: c.color };
  };
  const [u] = await db.select({ name: users.name, mobile: users.mobile, email: users.email, username: users.username }).from(users).where(eq(users.id, sub.userId));
  const term = r.month + sub.extendedMonths;
  return {
    swapId: s.id, ordinal: Math.max(1, earlier.length), requestId: r.id, subscriptionId: sub.id, confirmedAt: s.updatedAt, company,
    customer: { name: u?.name?.trim() || u?.username || '고객', phone: u?.mobile ?? null, email: u?.email ?? null },
    fromCar: await carOf(s.fromCarId), toCar: await carOf(s.toCarId),
    // The term as it stood at the swap (an early exit later shortens the end; the annex keeps the swap's facts).
    term: { months: term, startDate: sub.startDate, endDate: termEnd(sub.startDate, term) },
    swap: {
      swapDate: s.swapDate, billingMonth: s.billingMonth, firstNewMonth: s.firstNewMonth, newFeeFrom: s.firstNewMonth <= term ? monthlyChargeDate(sub.startDate, s.firstNewMonth) : null,
      oldFee: s.oldFee, newFee: s.newFee, baseFee: s.baseFee, optionExtras: s.optionExtras, prorateDays: s.prorateDays, monthDays: s.monthDays, adjustment: s.adjustment,
      prepaymentCredit: s.prepaymentCredit, creditLastMonth: r.month,
    },
  };
}

async function storedSwapAnnex(db: Db, swapId: number): Promise<SwapAnnexRow | undefined> {
  const [row] = await db.select().from(subscriptionSwapAnnexes).where(eq(subscriptionSwapAnnexes.swapId, swapId));
  return row;
}

/** Issues a CONFIRMED swap's annex once (a concurrent issue keeps the first row); the row never changes. */
async function issueSwapAnnex(ctx: ContractContext, swapId: number): Promise<SwapAnnexRow | null> {
  let s: SwapRow | undefined;
  return issueOnce(ctx, `[annex] swap ${swapId}`, {
    stored: () => storedSwapAnnex(ctx.db, swapId),
    input: async () => {
      [s] = await ctx.db.select().from(subscriptionSwaps).where(eq(subscriptionSwaps.id, swapId));
      return s?.status === 'CONFIRMED' ? swapAnnexInput(ctx.db, ctx.config.company, swapId) : null;
    },
    render: (input) => renderContractPdf(swapAnnexDocument(input), { at: input.confirmedAt, id: `subscription-swap:${swapId}` }),
    insert: (file) => ctx.db.insert(subscriptionSwapAnnexes).values({ swapId, userId: s!.userId, ...file, createdAt: s!.updatedAt }).onConflictDoNothing({ target: subscriptionSwapAnnexes.swapId }),
  });
}

export async function swapAnnexJobHandler(ctx: ContractContext, job: Job): Promise<void> {
  await issueSwapAnnex(ctx, Number(job.payload.swapId));
}

/** The owner's annex of a confirmed swap (another's, or a swap of another subscription, is 404); issued now when its job has not run yet. */
export async function swapAnnexForDownload(ctx: ContractContext, subscriptionId: number, swapId: number, userId: number): Promise<{ row: SwapAnnexRow; fileName: string }> {
  const [s] = await ctx.db.select().from(subscriptionSwaps).where(eq(subscriptionSwaps.id, swapId));
  if (!s || s.subscriptionId !== subscriptionId || s.userId !== userId) throw notFound('부속 계약서를 찾을 수 없습니다.');
  const row = await issueSwapAnnex(ctx, swapId);
  if (!row) throw notFound('부속 계약서를 찾을 수 없습니다.');
  const input = await swapAnnexInput(ctx.db, ctx.config.company, swapId);
  return { row, fileName: swapAnnexFileName(input.requestId, input.ordinal) };
}
