import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import { cardViewOf } from '../../domain/card-label';
import type { SubscriptionCompanyView, SubscriptionRequest } from '../../domain/subscriptions';
import { ORDER_KINDS } from '../../domain/payments';
import type { Db } from '../db/client';
import { companies, coupons, payments, subscriptionRequests, userCoupons } from '../db/schema';
import { conflict, forbidden, notFound } from '../errors';
import { maskBillingKey, toPaymentView } from '../billing/ledger';
import type { PaymentRow } from '../payment-context';
import type { PaidOrder } from '../billing/order-charges';
import { carsByIds } from '../catalogue/catalogue';

/** A customer's subscription requests: the row as the API answers it, the lookups the changes share, the list and the one. */

export type RequestRow = typeof subscriptionRequests.$inferSelect;
export const REF = ORDER_KINDS.SUBSCRIBE.refType;

/** A request row in API shape (the billing key masked; pages show `card`). */
export async function toRequest(db: Db, r: RequestRow): Promise<SubscriptionRequest> {
  return (await toRequests(db, [r]))[0];
}

/** Request rows in API shape: their cars, coupons and first charges read once for all the rows (not a query a row). */
async function toRequests(db: Db, rows: RequestRow[]): Promise<SubscriptionRequest[]> {
  if (!rows.length) return [];
  const cars = await carsByIds(db, rows.map((r) => r.carId));
  const couponIds = rows.flatMap((r) => (r.userCouponId ? [r.userCouponId] : []));
  // The coupon as the request declares it (its name and code: what my page shows), not the whole coupon.
  const held = couponIds.length
    ? await db.select({ id: userCoupons.id, name: coupons.name, code: coupons.code }).from(userCoupons).innerJoin(coupons, eq(coupons.id, userCoupons.couponId)).where(inArray(userCoupons.id, couponIds))
    : [];
  const couponOf = new Map(held.map((c) => [c.id, { id: c.id, coupon: { name: c.name, code: c.code } }]));
  // Each request's first-month charge: its last attempt (a declined one tried again is its last try).
  const charges = await db
    .select()
    .from(payments)
    .where(and(eq(payments.refType, REF), inArray(payments.refId, rows.map((r) => r.id)), eq(payments.purpose, 'SUBSCRIPTION_FIRST')))
    .orderBy(asc(payments.attempt));
  const lastCharge = new Map<number, PaymentRow>();
  for (const p of charges) lastCharge.set(p.refId, p);
  const companyOf = await companiesOfOrders(db, rows);
  return rows.map((r) => {
    const p = lastCharge.get(r.id);
    return {
      id: r.id, car: cars.get(r.carId)!, month: r.month, status: r.status,
      start_date: r.startDate, end_date: r.endDate, created_at: r.createdAt.toISOString(),
      requested_start: r.requestedStart, hold_until: r.holdUntil?.toISOString() ?? null,
      coupon: (r.userCouponId && couponOf.get(r.userCouponId)) || null, point_used: r.pointUsed, fee: r.fee, coupon_discount: r.couponDiscount, final_fee: r.finalFee, options: r.options ?? null,
      billing_key: maskBillingKey(r.billingKey),
      card: cardViewOf(r),
      payment: p ? toPaymentView(p, r.options?.quote) : null,
      company: companyOf(r),
    };
  });
}

/** The company each request was ordered for (법인), or null for a private one: one query for all the rows. */
export async function companiesOfOrders(db: Db, rows: Pick<RequestRow, 'companyId' | 'invoiceBilled'>[]): Promise<(r: Pick<RequestRow, 'companyId' | 'invoiceBilled'>) => SubscriptionCompanyView | null> {
  const ids = [...new Set(rows.flatMap((r) => (r.companyId ? [r.companyId] : [])))];
  const found = ids.length ? await db.select({ id: companies.id, name: companies.name }).from(companies).where(inArray(companies.id, ids)) : [];
  const byId = new Map(found.map((c) => [c.id, c]));
  return (r) => {
    const c = r.companyId ? byId.get(r.companyId) : undefined;
    return c ? { id: c.id, name: c.name, billing: r.invoiceBilled ? 'INVOICE' : 'CARD' } : null;
  };
}

/** 403 for a company order (법인): its driver cannot change or cancel it; the company's admin asks staff. */
export function requireNotCompany(row: Pick<RequestRow, 'companyId'>, action: string) {
  if (row.companyId) throw forbidden(`회사 명의 구독 신청은 운전자가 ${action}할 수 없습니다. 회사 관리자에게 문의해주세요.`);
}

/** The user's requests, newest first: a cancelled one (by the customer, or a declined first charge) stays, read-only, with its state. */
export async function listRequests(db: Db, userId: number) {
  const rows = await db
    .select()
    .from(subscriptionRequests)
    .where(eq(subscriptionRequests.userId, userId))
    .orderBy(desc(subscriptionRequests.createdAt), desc(subscriptionRequests.id));
  return toRequests(db, rows);
}

/** The user's request; a cancelled one only to read (`cancelled: true`): nothing changes it any more. */
export async function ownRequest(db: Db, userId: number, id: number, { lock = false, cancelled = false }: { lock?: boolean; cancelled?: boolean } = {}) {
  const q = db.select().from(subscriptionRequests).where(eq(subscriptionRequests.id, id));
  const [row] = lock ? await q.for('update') : await q;
  if (!row || row.userId !== userId || (row.status === 'CANCELLED' && !cancelled)) throw notFound('구독 신청을 찾을 수 없습니다.');
  return row;
}

export function requirePending(row: RequestRow, action: string) {
  if (row.status !== 'PENDING') throw conflict(`확정된 구독 신청은 ${action}할 수 없습니다. 고객센터로 문의해주세요.`);
}

/** GET /subscriptions/requests/{id}. */
export async function getRequest(db: Db, userId: number, id: number) {
  return toRequest(db, await ownRequest(db, userId, id, { cancelled: true }));
}

export const paidOrder = (row: RequestRow, billingKey = row.billingKey): PaidOrder => ({ kind: 'SUBSCRIBE', id: row.id, userId: row.userId, billingKey });
