import { and, eq, inArray, sql } from 'drizzle-orm';
import type { OverdueSubscription } from '../../domain/console';
import { addDays } from '../../domain/dates';
import { chargeInstant, monthlyChargeDate, paymentIds, retryDate, RETRY_DAYS, ORDER_KINDS } from '../../domain/payments';
import { inTransaction, type Db } from '../db/client';
import { billingKeyUses, companySubscriptionCharges, companySubscriptionMonths, subscriptionRequests, subscriptions, users } from '../db/schema';
import { feeChanges, feeChangesOf } from '../db/fee-changes';
import { feeOfMonth } from '../../domain/extension';
import { conflict, forbidden, notFound } from '../errors';
import { cancelQueued, enqueue, type Job, type JobSpec } from '../jobs/queue';
import { emit, emitOrderReceived, notification, notifyJobKey } from '../notifications/events';
import { executeCharge } from './charges';
import type { ChargeOutcome, PaymentContext } from '../payment-context';
import { attemptsOf, attemptsOfEach, maskBillingKey, recordCharge } from './ledger';
import { customerActor, recordAudit } from '../audit/audit';
import { releaseCoupon } from '../wallet/coupons';
import { creditPoints } from '../wallet/points';
import { type PaymentRow } from '../payment-context';
import { rowTime } from '../jobs/clock';

/** The job that charges one month of a subscription (and, under its retry keys, tries again). */
export const CHARGE_MONTH_JOB = 'charge-month';

const REQUEST_REF = ORDER_KINDS.SUBSCRIBE.refType;
const chargeKey = (subscriptionId: number, month: number, attempt = 1) => `charge:sub:${subscriptionId}:m${month}${attempt > 1 ? `:try${attempt}` : ''}`;
/** Every key a month's charge and its retries can have (cancelling future charges). */
const monthKeys = (subscriptionId: number, month: number) => Array.from({ length: RETRY_DAYS.length + 1 }, (_, i) => chargeKey(subscriptionId, month, i + 1));

type SubscriptionRow = typeof subscriptions.$inferSelect;

/** A subscription's term in billing months: the order's months + those its extensions added (select it joined to its request). */
export const termMonthsSql = sql<number>`(${subscriptionRequests.month} + ${subscriptions.extendedMonths})`.mapWith(Number);

/**
 * 403 for a subscription held by a company (법인 장기 구독): its driver drives it but does not change
 * its contract or money (extension, swap, 청약철회 — a consumer's right the company does not have —,
 * early exit); the company's admin asks staff.
 */
export function requirePrivate(sub: { companyId: number | null }): void {
  if (sub.companyId) throw forbidden('회사 명의 구독은 운전자가 변경할 수 없습니다. 회사 관리자에게 문의해주세요.');
}

/** A subscription's fee changes (extensions, confirmed swaps): src/api/db/fee-changes.ts, below every area that reads them. */
export { feeChanges };

/** The fee of billing month `month` of a subscription: feeOfMonth over its extensions and confirmed swaps, else the order's monthly fee. */
export async function monthFee(db: Db, found: { sub: { id: number }; fee: number }, month: number): Promise<number> {
  return feeOfMonth(month, found.fee, await feeChanges(db, found.sub.id));
}

/** monthFee of a list's subscriptions in two queries whatever their number: each one's fee of its `month`, by subscription id. */
export async function monthFees(db: Db, wanted: readonly { sub: { id: number }; fee: number; month: number }[]): Promise<Map<number, number>> {
  const changes = await feeChangesOf(db, wanted.map((w) => w.sub.id));
  return new Map(wanted.map((w) => [w.sub.id, feeOfMonth(w.month, w.fee, changes.get(w.sub.id) ?? [])]));
}

/** The failed attempts at month `month` of a list's subscriptions, oldest first, by subscription id: one query whatever their number. */
export async function failedMonthAttempts(db: Db, wanted: readonly { sub: { id: number }; month: number }[]): Promise<Map<number, PaymentRow[]>> {
  const attempts = await attemptsOfEach(db, 'subscription', wanted.map((w) => w.sub.id), 'SUBSCRIPTION_MONTH');
  return new Map(wanted.map((w) => [w.sub.id, (attempts.get(w.sub.id) ?? []).filter((p) => p.month === w.month && p.status === 'FAILED')]));
}

async function subscriptionWithTerm(db: Db, id: number, { lock = false }: { lock?: boolean } = {}) {
  const q = db
    .select({
      sub: subscriptions, term: termMonthsSql, fee: subscriptionRequests.fee, carId: subscriptionRequests.carId, requestKey: subscriptionRequests.billingKey,
      invoiceBilled: subscriptionRequests.invoiceBilled, orderedBy: subscriptionRequests.orderedByUserId,
    })
    .from(subscriptions)
    .innerJoin(subscriptionRequests, eq(subscriptionRequests.id, subscriptions.requestId))
    .where(eq(subscriptions.id, id));
  const [row] = lock ? await q.for('update', { of: subscriptions }) : await q;
  return row;
}

/**
 * Schedules month `month` of a subscription inside the caller's transaction: its charge on the
 * due day (09:00 Korean time) and, three days before, the reminder to the customer. Nothing
 * beyond the term.
 */
export async function scheduleMonth(tx: Db, sub: ScheduledSub, term: number, month: number, fee: number, now: Date): Promise<void> {
  await enqueue(tx, monthJobs(sub, term, month, fee, now));
}

type ScheduledSub = Pick<SubscriptionRow, 'id' | 'userId' | 'startDate'> & Partial<Pick<SubscriptionRow, 'companyId'>>;

/**
 * The jobs scheduleMonth() enqueues (the paid follow-up adds its message and writes them at once).
 * A company subscription's driver gets no charge reminder: the company pays (its card, or its statement).
 */
function monthJobs(sub: ScheduledSub, term: number, month: number, fee: number, now: Date): JobSpec[] {
  if (month > term) return [];
  const due = monthlyChargeDate(sub.startDate, month);
  const out: JobSpec[] = [{ kind: CHARGE_MONTH_JOB, key: chargeKey(sub.id, month), payload: { subscriptionId: sub.id, month }, runAt: chargeInstant(due), maxAttempts: 10 }];
  const remindAt = chargeInstant(addDays(due, -3));
  if (remindAt > now && !sub.companyId) {
    out.push(notification(`subscription.charge_upcoming:${sub.id}:${month}`, { type: 'subscription.charge_upcoming', userId: sub.userId, subscriptionId: sub.id, month, chargeDate: due, amount: fee }, remindAt));
  }
  return out;
}

/** Stops every future charge of a subscription (해지): queued month charges and retries are dropped. */
export async function cancelFutureCharges(tx: Db, subscriptionId: number, paidMonths: number, term: number): Promise<void> {
  const keys = [];
  for (let m = paidMonths + 1; m <= term; m++) keys.push(...monthKeys(subscriptionId, m));
  await cancelQueued(tx, keys);
}

/** The month a subscription owes: the first unpaid one (null when the term is paid). */
export const owedMonth = (sub: Pick<SubscriptionRow, 'paidMonths'>, term: number) => (sub.paidMonths < term ? sub.paidMonths + 1 : null);

/**
 * Charges a month of a subscription now, once: a paid month is not charged again; a PENDING
 * attempt (a crash mid-charge) is sent again under its own id; after a known failure a new
 * attempt id is made. Concurrent callers (the job, a retry, the customer paying) meet on the same
 * attempt id, which the provider charges once.
 */
async function chargeMonth(ctx: PaymentContext, subscriptionId: number, month: number): Promise<PaymentRow | null> {
  const found = await subscriptionWithTerm(ctx.db, subscriptionId);
  if (!found) return null;
  const { sub, term } = found;
  if (!sub.isActive || sub.billingStatus === 'CANCELLED' || month > term || month <= 1) return null;
  const fee = await monthFee(ctx.db, found, month);
  if (sub.companyId && found.invoiceBilled) {
    await billMonthToCompany(ctx, subscriptionId, month, fee);
    return null;
  }
  const attempts = await attemptsOf(ctx.db, 'subscription', subscriptionId, 'SUBSCRIPTION_MONTH', month);
  if (attempts.some((a) => a.status !== 'PENDING' && a.status !== 'FAILED')) return null;
  const pending = attempts.find((a) => a.status === 'PENDING');
  const attempt = pending?.attempt ?? attempts.length + 1;
  const id = pending?.id ?? paymentIds.retry(paymentIds.subscriptionMonth(subscriptionId, month), attempt);
  let recorded: PaymentRow | undefined;
  if (!pending) {
    recorded = await inTransaction(ctx.db, (tx) =>
      recordCharge(tx, ctx.payments.name, {
        // A company subscription's charge is the ordering admin's to see (the driver does not pay it).
        id, userId: found.orderedBy ?? sub.userId, purpose: 'SUBSCRIPTION_MONTH', refType: 'subscription', refId: subscriptionId, month, attempt,
        orderName: `LUXE 구독 #${subscriptionId} ${month}개월 차 요금`, amount: fee, billingKey: sub.billingKey ?? found.requestKey,
      }, ctx.clock.now()),
    );
  }
  return executeCharge(ctx, id, recorded);
}

/**
 * A month of a company subscription on 후불 falls due: it is billed, once, to the company's next
 * statement (company_subscription_months, unique per subscription and month) and counts as paid
 * (it is owed by invoice, whose due day blocks new orders when missed); the next month is scheduled
 * in the same transaction. A retried job or a second replica finds the month billed and does nothing.
 */
async function billMonthToCompany(ctx: PaymentContext, subscriptionId: number, month: number, fee: number): Promise<void> {
  await inTransaction(ctx.db, async (tx) => {
    const found = await subscriptionWithTerm(tx, subscriptionId, { lock: true });
    if (!found?.sub.companyId || !found.sub.isActive || found.sub.billingStatus === 'CANCELLED' || found.sub.paidMonths >= month) return;
    const billed = await tx
      .insert(companySubscriptionMonths)
      .values({ subscriptionId, companyId: found.sub.companyId, month, amount: fee, serviceDate: monthlyChargeDate(found.sub.startDate, month) })
      .onConflictDoNothing()
      .returning({ id: companySubscriptionMonths.id });
    if (!billed.length) return;
    const [row] = await tx.update(subscriptions).set({ paidMonths: month, billingStatus: 'ACTIVE', updatedAt: rowTime() }).where(eq(subscriptions.id, subscriptionId)).returning();
    await scheduleMonth(tx, row, found.term, month + 1, await monthFee(tx, found, month + 1), ctx.clock.now());
  });
}

/** A charge of a company subscription on 후불 other than a month (src/api/db/schema.ts companySubscriptionCharges). */
export type CompanyStatementCharge = Omit<typeof companySubscriptionCharges.$inferInsert, 'id' | 'createdAt'>;

/**
 * Bills an amount of a company subscription on 후불 (반납 정산, its deposit back, an overage) to the
 * company's next statement instead of a card, once: the source key is unique, so a retry or a
 * second replica writes nothing more. Inside the caller's transaction; true when written now.
 */
export async function billToCompanyStatement(tx: Db, charge: CompanyStatementCharge): Promise<boolean> {
  if (charge.amount === 0) return false;
  const rows = await tx.insert(companySubscriptionCharges).values(charge).onConflictDoNothing().returning({ id: companySubscriptionCharges.id });
  return rows.length > 0;
}

/** The amounts of a subscription billed to its company's statement so far, of one kind (won). */
export async function billedToCompany(db: Db, subscriptionId: number, kind: CompanyStatementCharge['kind']): Promise<number> {
  const rows = await db.select({ amount: companySubscriptionCharges.amount }).from(companySubscriptionCharges).where(and(eq(companySubscriptionCharges.subscriptionId, subscriptionId), eq(companySubscriptionCharges.kind, kind)));
  return rows.reduce((sum, r) => sum + r.amount, 0);
}

/** The charge-month job. */
export async function chargeMonthJob(ctx: PaymentContext, job: Job): Promise<void> {
  await chargeMonth(ctx, Number(job.payload.subscriptionId), Number(job.payload.month));
}

/**
 * The customer (my page, 카드 변경 후 결제) or staff (지금 재시도) pays the owed month now, with a
 * new card when given (the card changed as by changeCard: verified, used from now on, the old key
 * deleted at the provider, audited, the customer told).
 */
export async function payOwedMonth(ctx: PaymentContext, opts: { subscriptionId: number; userId?: number; billingKey?: string }): Promise<PaymentRow> {
  const found = await subscriptionWithTerm(ctx.db, opts.subscriptionId);
  if (!found || (opts.userId !== undefined && found.sub.userId !== opts.userId)) throw notFound('구독을 찾을 수 없습니다.');
  if (found.sub.companyId && opts.billingKey) throw forbidden('회사 명의 구독은 회사 결제 카드로 결제됩니다. 카드 변경은 회사 관리자가 회사 카드에서 합니다.');
  const month = owedMonth(found.sub, found.term);
  if (!found.sub.isActive || found.sub.billingStatus === 'CANCELLED') throw conflict('해지된 구독입니다.');
  if (month === null || found.sub.billingStatus === 'ACTIVE') throw conflict('결제할 미납 요금이 없습니다.');
  if (opts.billingKey && opts.billingKey !== (found.sub.billingKey ?? found.requestKey)) {
    await changeCard(ctx, { subscriptionId: found.sub.id, userId: found.sub.userId, billingKey: opts.billingKey });
  }
  const payment = await chargeMonth(ctx, found.sub.id, month);
  if (!payment) throw conflict('결제할 미납 요금이 없습니다.');
  return payment;
}

/** What a card change came to: the new card (masked), and whether the old key was deleted at the provider. */
export interface CardChange {
  subscriptionId: number;
  billingKey: string;
  oldKeyDeleted: boolean;
  /** PAST_DUE: the day the owed month is tried again, now with the new card. */
  retryDate: string | null;
}

/**
 * 결제 카드 변경 (issue 38): the customer's new billing key (issued by the same flow as the order's)
 * becomes the subscription's; every charge from now on (the next month, a queued retry of an owed
 * month) uses it. The key is verified with the provider and claimed (a key backs one order); the
 * change, its audit row and the customer's message are one transaction; the old key is then
 * deleted at the provider (PortOne's DELETE /billing-keys; the sandbox records it), its outcome
 * audited too. Another customer's subscription is 404; a 해지된 or fully paid one is 409.
 */
export async function changeCard(ctx: PaymentContext, opts: { subscriptionId: number; userId: number; billingKey: string }): Promise<CardChange> {
  const found = await subscriptionWithTerm(ctx.db, opts.subscriptionId);
  if (!found || found.sub.userId !== opts.userId) throw notFound('구독을 찾을 수 없습니다.');
  if (found.sub.companyId) throw forbidden('회사 명의 구독은 회사 결제 카드로 결제됩니다. 카드 변경은 회사 관리자가 회사 카드에서 합니다.');
  if (!found.sub.isActive || found.sub.billingStatus === 'CANCELLED') throw conflict('해지된 구독은 결제 카드를 변경할 수 없습니다.');
  if (owedMonth(found.sub, found.term) === null) throw conflict('남은 결제가 없는 구독입니다. 결제 카드를 변경할 필요가 없습니다.');
  if (opts.billingKey === (found.sub.billingKey ?? found.requestKey)) throw conflict('이미 등록된 카드입니다.', { billing_key: ['이미 이 구독에 등록된 카드입니다.'] });
  const card = await ctx.payments.verifyBillingKey(opts.billingKey);
  const now = ctx.clock.now();
  const actor = await customerActor(ctx.db, opts.userId);
  const old = await inTransaction(ctx.db, async (tx) => {
    const locked = await subscriptionWithTerm(tx, opts.subscriptionId, { lock: true });
    if (!locked || !locked.sub.isActive || locked.sub.billingStatus === 'CANCELLED') throw conflict('해지된 구독은 결제 카드를 변경할 수 없습니다.');
    const previous = locked.sub.billingKey ?? locked.requestKey;
    const claimed = await tx.insert(billingKeyUses).values({ billingKey: opts.billingKey, service: 'SUBSCRIBE', userId: opts.userId, orderId: locked.sub.requestId }).onConflictDoNothing().returning();
    if (!claimed.length) throw conflict('이미 사용된 빌링키입니다. 카드를 다시 등록해주세요.', { billing_key: ['이미 사용된 빌링키입니다.'] });
    await tx.update(subscriptions).set({ billingKey: opts.billingKey, cardIssuer: card?.issuer ?? null, cardLast4: card?.last4 ?? null, updatedAt: rowTime() }).where(eq(subscriptions.id, locked.sub.id));
    await recordAudit(tx, actor, { action: 'update', entity: 'subscription_card', entityId: locked.sub.id, before: { billing_key: maskBillingKey(previous) }, after: { billing_key: maskBillingKey(opts.billingKey), billing_status: locked.sub.billingStatus } });
    await emit(tx, `subscription.card_changed:${locked.sub.id}:${now.getTime()}`, { type: 'subscription.card_changed', userId: opts.userId, subscriptionId: locked.sub.id }, now);
    return previous;
  });
  const deleted = await ctx.payments.deleteBillingKey(old, `LUXE 구독 #${opts.subscriptionId} 결제 카드 변경`);
  if (deleted.status === 'FAILED') ctx.log('error', `[billing] subscription ${opts.subscriptionId}: the old billing key was not deleted at the provider: ${deleted.reason}`);
  await recordAudit(ctx.db, actor, { action: 'delete', entity: 'billing_key', entityId: opts.subscriptionId, before: { billing_key: maskBillingKey(old) }, after: deleted.status === 'DELETED' ? { deleted: true } : { deleted: false, reason: deleted.reason } });
  const after = (await subscriptionWithTerm(ctx.db, opts.subscriptionId));
  const month = owedMonth(after.sub, after.term);
  const failures = month && after.sub.billingStatus === 'PAST_DUE' ? (await attemptsOf(ctx.db, 'subscription', after.sub.id, 'SUBSCRIPTION_MONTH', month)).filter((a) => a.status === 'FAILED').length : 0;
  return {
    subscriptionId: opts.subscriptionId, billingKey: opts.billingKey, oldKeyDeleted: deleted.status === 'DELETED',
    retryDate: failures && month ? retryDate(monthlyChargeDate(after.sub.startDate, month), failures) : null,
  };
}

/** Undoes a request whose first charge was declined: cancelled, coupon back, points back, its card free for another try. */
async function undoRequest(tx: Db, requestId: number, now: Date): Promise<void> {
  const [row] = await tx
    .update(subscriptionRequests)
    .set({ status: 'CANCELLED', cancelledAt: now, updatedAt: now })
    .where(and(eq(subscriptionRequests.id, requestId), eq(subscriptionRequests.status, 'PENDING')))
    .returning();
  if (!row) return;
  if (row.userCouponId) await releaseCoupon(tx, row.userCouponId);
  if (row.pointUsed > 0) await creditPoints(tx, { userId: row.userId, amount: row.pointUsed, reason: 'SUBSCRIPTION_REFUND', refType: REQUEST_REF, refId: row.id, description: `구독 신청 #${row.id} 결제 실패 환불` });
  await tx.delete(billingKeyUses).where(eq(billingKeyUses.billingKey, row.billingKey));
}

const firstMonth: ChargeOutcome = {
  async paid(tx, payment, ctx) {
    const now = ctx.clock.now();
    await emit(tx, `payment.succeeded:${payment.id}`, { type: 'payment.succeeded', userId: payment.userId, paymentId: payment.id }, now);
    await emitOrderReceived(tx, { service: 'SUBSCRIBE', userId: payment.userId, orderId: payment.refId }, now);
  },
  async failed(tx, payment, ctx) {
    await undoRequest(tx, payment.refId, ctx.clock.now());
    await emit(tx, `payment.failed:${payment.id}`, { type: 'payment.failed', userId: payment.userId, paymentId: payment.id, reason: payment.failureReason ?? '', retryDate: null }, ctx.clock.now());
  },
};

const monthly: ChargeOutcome = {
  async paid(tx, payment, ctx) {
    const month = payment.month!;
    const found = await subscriptionWithTerm(tx, payment.refId, { lock: true });
    if (!found) return;
    const paidMonths = Math.max(found.sub.paidMonths, month);
    await tx
      .update(subscriptions)
      .set({ paidMonths, billingStatus: found.sub.billingStatus === 'CANCELLED' ? 'CANCELLED' : 'ACTIVE', updatedAt: rowTime() })
      .where(eq(subscriptions.id, found.sub.id));
    // Retries exist only after a failed attempt: a first attempt paid has none to drop.
    if (payment.attempt > 1) await cancelQueued(tx, monthKeys(found.sub.id, month));
    const now = ctx.clock.now();
    const paid = notification(`payment.succeeded:${payment.id}`, { type: 'payment.succeeded', userId: payment.userId, paymentId: payment.id }, now);
    const next = found.sub.billingStatus === 'CANCELLED' ? [] : monthJobs(found.sub, found.term, paidMonths + 1, await monthFee(tx, found, paidMonths + 1), now);
    await enqueue(tx, [paid, ...next]);
  },
  async failed(tx, payment, ctx) {
    const month = payment.month!;
    const found = await subscriptionWithTerm(tx, payment.refId, { lock: true });
    if (!found || found.sub.billingStatus === 'CANCELLED') return;
    const failures = (await attemptsOf(tx, 'subscription', found.sub.id, 'SUBSCRIPTION_MONTH', month)).filter((a) => a.status === 'FAILED').length;
    const next = retryDate(monthlyChargeDate(found.sub.startDate, month), failures);
    const now = ctx.clock.now();
    await tx.update(subscriptions).set({ billingStatus: next ? 'PAST_DUE' : 'OVERDUE', updatedAt: rowTime() }).where(eq(subscriptions.id, found.sub.id));
    await emit(tx, `payment.failed:${payment.id}`, { type: 'payment.failed', userId: payment.userId, paymentId: payment.id, reason: payment.failureReason ?? '', retryDate: next }, now);
    if (next) {
      // A retry due in the past (a late run) goes at once.
      const at = chargeInstant(next);
      await enqueue(tx, { kind: CHARGE_MONTH_JOB, key: chargeKey(found.sub.id, month, failures + 1), payload: { subscriptionId: found.sub.id, month }, runAt: at < now ? now : at, maxAttempts: 10 });
    } else {
      await emit(tx, `staff.subscription_overdue:${found.sub.id}:${month}`, { type: 'staff.subscription_overdue', subscriptionId: found.sub.id, paymentId: payment.id }, now);
    }
  },
};

/** An edit's price difference: the customer is told either way (a decline was already answered in the edit). */
const adjustment: ChargeOutcome = {
  async paid(tx, payment, ctx) {
    await emit(tx, `payment.succeeded:${payment.id}`, { type: 'payment.succeeded', userId: payment.userId, paymentId: payment.id }, ctx.clock.now());
  },
  async failed(tx, payment, ctx) {
    await emit(tx, `payment.failed:${payment.id}`, { type: 'payment.failed', userId: payment.userId, paymentId: payment.id, reason: payment.failureReason ?? '', retryDate: null }, ctx.clock.now());
  },
};

/** Charge follow-ups of the subscription service (outcomes.ts joins them with the butler's). */
export const subscriptionOutcomes = { SUBSCRIPTION_FIRST: firstMonth, SUBSCRIPTION_ADJUSTMENT: adjustment, SUBSCRIPTION_MONTH: monthly };

/** The console's overdue list: subscriptions whose owed month failed (retrying, or out of retries), oldest first. */
export async function overdueSubscriptions(db: Db): Promise<OverdueSubscription[]> {
  const rows = await db
    .select({ sub: subscriptions, term: termMonthsSql, fee: subscriptionRequests.fee, user: { id: users.id, name: users.name, email: users.email, mobile: users.mobile } })
    .from(subscriptions)
    .innerJoin(subscriptionRequests, eq(subscriptionRequests.id, subscriptions.requestId))
    .innerJoin(users, eq(users.id, subscriptions.userId))
    .where(inArray(subscriptions.billingStatus, ['PAST_DUE', 'OVERDUE']))
    .orderBy(subscriptions.updatedAt);
  // The owed months' fees and failed attempts read for all the rows at once, not a query a row.
  const owed = rows.flatMap(({ sub, term, fee }) => {
    const month = owedMonth(sub, term);
    return month ? [{ sub, fee, month }] : [];
  });
  const fees = await monthFees(db, owed);
  const failed = await failedMonthAttempts(db, owed);
  return rows.map(({ sub, term, fee: baseFee, user }) => {
    const month = owedMonth(sub, term);
    const fee = month ? fees.get(sub.id)! : baseFee;
    const failures = month ? failed.get(sub.id)! : [];
    const due = month ? monthlyChargeDate(sub.startDate, month) : null;
    return {
      id: sub.id, user, billing_status: sub.billingStatus, month, amount: fee, due_date: due,
      failures: failures.length, last_failure: failures.at(-1)?.failureReason ?? null,
      retry_date: sub.billingStatus === 'PAST_DUE' && due ? retryDate(due, failures.length) : null,
    };
  });
}

/**
 * Moves a subscription's first day (the delivery was recorded on another day; the rule and its
 * conditions are in src/domain/handover.ts shiftedTerm and docs/decisions/handover.md), inside the
 * caller's transaction with the subscription's row locked. Only while month 2 is neither paid nor
 * tried: its queued charge and reminder are dropped and scheduled again from the new start, so
 * every charge from month 2 on follows the new day. The request's dates move with it (the car's
 * availability reads them). False when billing has moved on since the caller looked (nothing changed).
 */
export async function moveSubscriptionStart(tx: Db, subscriptionId: number, start: string, end: string, now: Date): Promise<boolean> {
  const found = await subscriptionWithTerm(tx, subscriptionId, { lock: true });
  if (!found || !found.sub.isActive || found.sub.paidMonths > 1 || found.sub.exitDate) return false;
  if ((await attemptsOf(tx, 'subscription', subscriptionId, 'SUBSCRIPTION_MONTH', 2)).length) return false;
  await cancelQueued(tx, [...monthKeys(subscriptionId, 2), notifyJobKey(`subscription.charge_upcoming:${subscriptionId}:2`)]);
  const [row] = await tx.update(subscriptions).set({ startDate: start, endDate: end, updatedAt: rowTime() }).where(eq(subscriptions.id, subscriptionId)).returning();
  await tx.update(subscriptionRequests).set({ startDate: start, endDate: end, updatedAt: now }).where(eq(subscriptionRequests.id, row.requestId));
  await scheduleMonth(tx, row, found.term, 2, found.fee, now);
  return true;
}

/** Whether month 2 of a subscription has been charged or tried (the first day may no longer move). */
export async function secondMonthTried(db: Db, subscriptionId: number): Promise<boolean> {
  return (await attemptsOf(db, 'subscription', subscriptionId, 'SUBSCRIPTION_MONTH', 2)).length > 0;
}
