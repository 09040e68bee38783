import { asc, desc, eq, inArray } from 'drizzle-orm';
import type { Car } from '../../domain/car';
import { cardViewOf, type CardView } from '../../domain/card-label';
import { subscriptionActive, type Subscription } from '../../domain/subscriptions';
import { monthlyChargeDate, retryDate, type SubscriptionBillingView } from '../../domain/payments';
import type { Db } from '../db/client';
import { subscriptionExtensions, subscriptionRequests, subscriptions } from '../db/schema';
import { attemptsOf, toPaymentView } from '../billing/ledger';
import { carById } from '../catalogue/catalogue';
import { monthFee } from '../billing/subscription-billing';
import { swapViews } from './swap-views';
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
  const cache = new Map<number, Car>();
  const extensionsOf = await extensionsBySubscription(db, rows.flatMap(({ subscriptions: s }) => (s.extendedMonths ? [s.id] : [])));
  const companyOf = await companiesOfOrders(db, rows.map((row) => row.subscription_requests));
  const out = [];
  for (const { subscriptions: s, subscription_requests: r } of rows) {
    if (!cache.has(r.carId)) cache.set(r.carId, await carById(db, r.carId));
    const extensions = s.extendedMonths ? (extensionsOf.get(s.id) ?? []) : [];
    out.push({
      // Past its end date a subscription is no longer active, whatever its stored flag says.
      id: s.id, start_date: s.startDate, end_date: s.endDate, is_active: subscriptionActive(s, today),
      is_current: s.isActive && s.startDate <= today && today <= s.endDate, created_at: s.createdAt.toISOString(),
      request: { id: r.id, car: cache.get(r.carId)!, month: r.month, start_date: r.startDate, end_date: r.endDate },
      extended_months: s.extendedMonths,
      extensions: extensions.map((e) => ({ id: e.id, months: e.months, monthly_fee: e.monthlyFee, first_month: e.firstMonth, last_month: e.lastMonth, from_date: e.fromDate, to_date: e.toDate, created_at: e.createdAt.toISOString() })),
      swaps: await swapViews(db, s, r.month + s.extendedMonths, today),
      billing: await billingView(db, s, r.month + s.extendedMonths, r.fee, cardViewOf(s.billingKey && s.billingKey !== r.billingKey ? s : r)),
      company: companyOf(r),
    });
  }
  return out;
}

/** The extensions of the listed subscriptions in one query (not one a row), each subscription's by first month. */
async function extensionsBySubscription(db: Db, ids: number[]): Promise<Map<number, (typeof subscriptionExtensions.$inferSelect)[]>> {
  const out = new Map<number, (typeof subscriptionExtensions.$inferSelect)[]>();
  if (!ids.length) return out;
  const rows = await db.select().from(subscriptionExtensions).where(inArray(subscriptionExtensions.subscriptionId, ids)).orderBy(asc(subscriptionExtensions.firstMonth), asc(subscriptionExtensions.id));
  for (const e of rows) out.set(e.subscriptionId, [...(out.get(e.subscriptionId) ?? []), e]);
  return out;
}

/** A subscription's billing for my page (SubscriptionBillingView). */
async function billingView(db: Db, s: typeof subscriptions.$inferSelect, term: number, fee: number, card: CardView | null): Promise<SubscriptionBillingView> {
  const owed = s.paidMonths < term ? s.paidMonths + 1 : null;
  const billing = s.isActive && s.billingStatus !== 'CANCELLED' && owed !== null;
  // The owed month's failed attempts, read once: the last is the one to pay, their count sets the retry day.
  const failedAttempts = owed !== null && s.billingStatus !== 'ACTIVE' ? (await attemptsOf(db, 'subscription', s.id, 'SUBSCRIPTION_MONTH', owed)).filter((p) => p.status === 'FAILED') : [];
  const failed = failedAttempts.at(-1);
  const failures = failedAttempts.length;
  const due = owed !== null ? monthlyChargeDate(s.startDate, owed) : null;
  return {
    status: s.billingStatus,
    paid_months: s.paidMonths,
    term_months: term,
    next_charge_date: billing ? (s.billingStatus === 'PAST_DUE' && due ? retryDate(due, failures) : due) : null,
    next_charge_amount: billing ? await monthFee(db, { sub: s, fee }, owed) : null,
    failed_payment: failed ? toPaymentView(failed) : null,
    retry_date: s.billingStatus === 'PAST_DUE' && due ? retryDate(due, failures) : null,
    card,
  };
}
