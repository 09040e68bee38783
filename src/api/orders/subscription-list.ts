import { asc, desc, eq, inArray } from 'drizzle-orm';
import { cardViewOf } from '../../domain/card-label';
import { subscriptionActive, type Subscription } from '../../domain/subscriptions';
import { monthlyChargeDate, retryDate, type SubscriptionBillingView } from '../../domain/payments';
import type { Db } from '../db/client';
import { subscriptionExtensions, subscriptionRequests, subscriptions } from '../db/schema';
import { toPaymentView } from '../billing/ledger';
import { carsByIds } from '../catalogue/catalogue';
import { failedMonthAttempts, monthFees, owedMonth } from '../billing/subscription-billing';
import { swapViewsOf } from './swap-views';
import { companiesOfOrders } from './subscription-requests';

/**
 * GET /subscriptions: the user's subscriptions, newest first. is_active = not switched off by staff and
 * not past its end date (staff answers report the stored flag); is_current = active and today within the dates;
 * billing = the monthly charges: status, the next charge, a failed one to pay.
 */
export async function listSubscriptions(db: Db, userId: number, today: string): Promise<Subscription[]> {
  const rows = await db
    .select()
    .from(subscriptions)
    .innerJoin(subscriptionRequests, eq(subscriptionRequests.id, subscriptions.requestId))
    .where(eq(subscriptions.userId, userId))
    .orderBy(desc(subscriptions.createdAt), desc(subscriptions.id));
  // Everything the rows show is read for all of them at once: a fixed number of queries, not some a row.
  const listed = rows.map(({ subscriptions: sub, subscription_requests: request }) => ({ sub, request, termMonths: request.month + sub.extendedMonths }));
  const cars = await carsByIds(db, rows.map((row) => row.subscription_requests.carId));
  const extensionsOf = await extensionsBySubscription(db, rows.flatMap(({ subscriptions: s }) => (s.extendedMonths ? [s.id] : [])));
  const companyOf = await companiesOfOrders(db, rows.map((row) => row.subscription_requests));
  const swapsOf = await swapViewsOf(db, listed, today);
  const billingOf = await billingViews(db, listed);
  return listed.map(({ sub: s, request: r }) => {
    const extensions = s.extendedMonths ? (extensionsOf.get(s.id) ?? []) : [];
    return {
      // Past its end date a subscription is no longer active, whatever its stored flag says.
      id: s.id, start_date: s.startDate, end_date: s.endDate, is_active: subscriptionActive(s, today),
      is_current: s.isActive && s.startDate <= today && today <= s.endDate, created_at: s.createdAt.toISOString(),
      request: { id: r.id, car: cars.get(r.carId)!, month: r.month, start_date: r.startDate, end_date: r.endDate },
      extended_months: s.extendedMonths,
      extensions: extensions.map((e) => ({ id: e.id, months: e.months, monthly_fee: e.monthlyFee, first_month: e.firstMonth, last_month: e.lastMonth, from_date: e.fromDate, to_date: e.toDate, created_at: e.createdAt.toISOString() })),
      swaps: swapsOf.get(s.id) ?? [],
      billing: billingOf.get(s.id)!,
      company: companyOf(r),
    };
  });
}

/** The extensions of the listed subscriptions in one query (not one a row), each subscription's by first month. */
async function extensionsBySubscription(db: Db, ids: number[]): Promise<Map<number, (typeof subscriptionExtensions.$inferSelect)[]>> {
  const out = new Map<number, (typeof subscriptionExtensions.$inferSelect)[]>();
  if (!ids.length) return out;
  const rows = await db.select().from(subscriptionExtensions).where(inArray(subscriptionExtensions.subscriptionId, ids)).orderBy(asc(subscriptionExtensions.firstMonth), asc(subscriptionExtensions.id));
  for (const e of rows) out.set(e.subscriptionId, [...(out.get(e.subscriptionId) ?? []), e]);
  return out;
}

type Listed = { sub: typeof subscriptions.$inferSelect; request: typeof subscriptionRequests.$inferSelect; termMonths: number };

/**
 * The subscriptions' billing for my page (SubscriptionBillingView), by subscription id: the owed
 * months' failed attempts and fees read for all of them at once (three queries at most).
 */
async function billingViews(db: Db, listed: readonly Listed[]): Promise<Map<number, SubscriptionBillingView>> {
  const owed = listed.flatMap(({ sub, request, termMonths }) => {
    const month = owedMonth(sub, termMonths);
    return month === null ? [] : [{ sub, fee: request.fee, month }];
  });
  // The owed month's failed attempts, read once: the last is the one to pay, their count sets the retry day.
  const failedOf = await failedMonthAttempts(db, owed.filter(({ sub }) => sub.billingStatus !== 'ACTIVE'));
  const feeOf = await monthFees(db, owed.filter(({ sub }) => charging(sub)));
  const monthOf = new Map(owed.map((o) => [o.sub.id, o.month]));
  return new Map(
    listed.map(({ sub: s, request: r, termMonths: term }) => {
      const month = monthOf.get(s.id) ?? null;
      const billing = charging(s) && month !== null;
      const failedAttempts = failedOf.get(s.id) ?? [];
      const failed = failedAttempts.at(-1);
      const failures = failedAttempts.length;
      const due = month !== null ? monthlyChargeDate(s.startDate, month) : null;
      const view: SubscriptionBillingView = {
        status: s.billingStatus,
        paid_months: s.paidMonths,
        term_months: term,
        next_charge_date: billing ? (s.billingStatus === 'PAST_DUE' && due ? retryDate(due, failures) : due) : null,
        next_charge_amount: billing ? feeOf.get(s.id)! : null,
        failed_payment: failed ? toPaymentView(failed) : null,
        retry_date: s.billingStatus === 'PAST_DUE' && due ? retryDate(due, failures) : null,
        card: cardViewOf(s.billingKey && s.billingKey !== r.billingKey ? s : r),
      };
      return [s.id, view];
    }),
  );
}

/** Whether monthly charges still run: switched on by staff and not cancelled. */
const charging = (s: Listed['sub']) => s.isActive && s.billingStatus !== 'CANCELLED';
