import { and, desc, eq, gte, inArray, lt } from 'drizzle-orm';
import { addDays, koreaDayStart } from '../../domain/dates';
import { paymentLabel, paymentLinesOf, type FirstPaymentParts, type PaymentPurpose, type PaymentView, type RefundView } from '../../domain/payments';
import { asTripCharge, type TripCharge } from '../../domain/waiting';
import type { StaffPaymentPage } from '../../domain/console';
import type { Db } from '../db/client';
import { butlerRequests, paymentRefunds, payments, subscriptionRequests, users } from '../db/schema';
import { enqueue } from '../jobs/queue';
import { notFound } from '../errors';
import { onPage, paginationInfo, totalRows } from '../pagination';
import type { PaymentRow } from '../payment-context';
import type { ProviderName } from '../payment-provider';
import { type PaymentRefType } from '../../domain/payments';

export type RefundRow = typeof paymentRefunds.$inferSelect;

/** The job that finishes a payment whose outcome is not known yet (a timeout, a crash mid-charge). */
export const RECONCILE_JOB = 'reconcile-payment';
/** How long after a charge starts its reconcile job looks (a charge normally settles well before). */
export const RECONCILE_AFTER_MS = 60_000;
/** The reconcile job of a charge: queued with the PENDING row, dropped once the charge's outcome is known. */
export const reconcileKey = (paymentId: string) => `reconcile:${paymentId}`;

export interface NewCharge {
  id: string;
  userId: number;
  purpose: PaymentPurpose;
  refType: PaymentRefType;
  refId: number;
  month?: number;
  attempt?: number;
  orderName: string;
  amount: number;
  billingKey: string;
}

/**
 * Writes a PENDING payment and its reconcile job inside the caller's transaction, before the
 * provider is called: a crash after this point leaves a row the reconcile job finishes, never a
 * charge nobody knows of. A row with this id already there is left as it is (and undefined is
 * returned: the caller reads the row that stands).
 */
export async function recordCharge(tx: Db, provider: ProviderName, charge: NewCharge, now: Date): Promise<PaymentRow | undefined> {
  const [row] = await tx
    .insert(payments)
    .values({ ...charge, month: charge.month ?? null, attempt: charge.attempt ?? 1, provider, status: 'PENDING', requestedAt: now })
    .onConflictDoNothing()
    .returning();
  await enqueue(tx, { kind: RECONCILE_JOB, key: reconcileKey(charge.id), payload: { paymentId: charge.id }, runAt: new Date(now.getTime() + RECONCILE_AFTER_MS), maxAttempts: 20 });
  return row;
}

export async function paymentById(db: Db, id: string, { lock = false }: { lock?: boolean } = {}): Promise<PaymentRow | undefined> {
  const q = db.select().from(payments).where(eq(payments.id, id));
  return (lock ? await q.for('update') : await q)[0];
}

/** The attempts at one purpose of one record (e.g. month 3 of subscription 12), oldest first. */
export async function attemptsOf(db: Db, refType: NewCharge['refType'], refId: number, purpose: PaymentPurpose, month?: number): Promise<PaymentRow[]> {
  const rows = await db
    .select()
    .from(payments)
    .where(and(eq(payments.refType, refType), eq(payments.refId, refId), eq(payments.purpose, purpose)))
    .orderBy(payments.attempt);
  return month === undefined ? rows : rows.filter((r) => r.month === month);
}

/** attemptsOf for many records in one query (a list's rows): each record's attempts, oldest first, by its id; one without any is not in the map. */
export async function attemptsOfEach(db: Db, refType: NewCharge['refType'], refIds: readonly number[], purpose: PaymentPurpose): Promise<Map<number, PaymentRow[]>> {
  const out = new Map<number, PaymentRow[]>();
  const ids = [...new Set(refIds)];
  if (!ids.length) return out;
  const rows = await db
    .select()
    .from(payments)
    .where(and(eq(payments.refType, refType), inArray(payments.refId, ids), eq(payments.purpose, purpose)))
    .orderBy(payments.attempt);
  for (const r of rows) {
    const list = out.get(r.refId);
    if (list) list.push(r);
    else out.set(r.refId, [r]);
  }
  return out;
}

/** The latest payment of each purpose for some records (details pages). */
export async function paymentsOf(db: Db, refType: NewCharge['refType'], refIds: number[]): Promise<PaymentRow[]> {
  if (!refIds.length) return [];
  return db.select().from(payments).where(and(eq(payments.refType, refType), inArray(payments.refId, refIds))).orderBy(desc(payments.requestedAt));
}

/** A customer's own payment or 404 (another user's id is indistinguishable from an unknown one). */
export async function ownPayment(db: Db, userId: number, id: string): Promise<PaymentRow> {
  const row = await paymentById(db, id);
  if (!row || row.userId !== userId) throw notFound('결제 내역을 찾을 수 없습니다.');
  return row;
}

export async function refundsOf(db: Db, paymentIds: string[]): Promise<RefundRow[]> {
  if (!paymentIds.length) return [];
  return db.select().from(paymentRefunds).where(inArray(paymentRefunds.paymentId, paymentIds)).orderBy(paymentRefunds.createdAt);
}

/** A billing key for display: its first 6 and last 4 characters. */
export function maskBillingKey(key: string): string {
  return key.length <= 10 ? '*'.repeat(key.length) : `${key.slice(0, 6)}${'*'.repeat(6)}${key.slice(-4)}`;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * A payment row in API shape (the billing key never leaves the server). `parts`: the order's quote
 * of a first payment (its 첫 달 구독료, 보증금, 선납금 … lines), or what the charge after a butler
 * trip is made of (초과 이용, 대기 …); without them the charge is named without its parts.
 */
export function toPaymentView(p: PaymentRow, parts?: FirstPaymentParts | TripCharge | null): PaymentView {
  const own = parts && (p.purpose === 'SUBSCRIPTION_FIRST' ? !('booked_hours' in parts) : p.purpose === 'BUTLER_OVERTIME' && 'booked_hours' in parts) ? parts : null;
  return {
    id: p.id, status: p.status, purpose: p.purpose, ref_type: p.refType, ref_id: p.refId, month: p.month,
    label: paymentLabel(p, own), lines: paymentLinesOf(p, own),
    order_name: p.orderName, amount: p.amount, refunded_amount: p.cancelledAmount, receipt_url: p.receiptUrl,
    failure_reason: p.failureReason, requested_at: p.requestedAt.toISOString(), paid_at: iso(p.paidAt), failed_at: iso(p.failedAt), cancelled_at: iso(p.cancelledAt),
  };
}

export function toRefundView(r: RefundRow): RefundView {
  return { id: r.id, payment_id: r.paymentId, amount: r.amount, reason: r.reason, status: r.status, created_at: r.createdAt.toISOString(), completed_at: iso(r.completedAt) };
}

/**
 * What each of `rows` is made of, where a charge has parts: the order's quote of a first payment,
 * the stored breakdown of the charge after a butler trip (butler_requests.trip_charge).
 */
export async function paymentPartsOf(db: Db, rows: readonly PaymentRow[]): Promise<(p: PaymentRow) => FirstPaymentParts | TripCharge | undefined> {
  const ids = [...new Set(rows.filter((p) => p.purpose === 'SUBSCRIPTION_FIRST').map((p) => p.refId))];
  const trips = [...new Set(rows.filter((p) => p.purpose === 'BUTLER_OVERTIME').map((p) => p.refId))];
  const found = ids.length ? await db.select({ id: subscriptionRequests.id, options: subscriptionRequests.options }).from(subscriptionRequests).where(inArray(subscriptionRequests.id, ids)) : [];
  const charged = trips.length ? await db.select({ id: butlerRequests.id, tripCharge: butlerRequests.tripCharge }).from(butlerRequests).where(inArray(butlerRequests.id, trips)) : [];
  const first = new Map(found.flatMap((r) => (r.options ? [[r.id, r.options.quote] as const] : [])));
  const trip = new Map(charged.flatMap((r) => ((c) => (c ? [[r.id, c] as const] : []))(asTripCharge(r.tripCharge))));
  return (p) => (p.purpose === 'SUBSCRIPTION_FIRST' ? first.get(p.refId) : p.purpose === 'BUTLER_OVERTIME' ? trip.get(p.refId) : undefined);
}

/** GET /payments: the customer's charges (newest first) and refunds. */
export async function customerPayments(db: Db, userId: number): Promise<{ payments: PaymentView[]; refunds: RefundView[] }> {
  const rows = await db.select().from(payments).where(eq(payments.userId, userId)).orderBy(desc(payments.requestedAt), desc(payments.id));
  const refunds = await db.select().from(paymentRefunds).where(eq(paymentRefunds.userId, userId)).orderBy(desc(paymentRefunds.createdAt));
  const parts = await paymentPartsOf(db, rows);
  return { payments: rows.map((p) => toPaymentView(p, parts(p))), refunds: refunds.map(toRefundView) };
}

/** The console's payments tab: by status and Korean days requested, newest first, with the customer. */
export async function staffPayments(db: Db, q: { status?: PaymentRow['status']; from?: string; to?: string; page: number }, pageSize: number): Promise<StaffPaymentPage> {
  const where = and(
    q.status ? eq(payments.status, q.status) : undefined,
    q.from ? gte(payments.requestedAt, koreaDayStart(q.from)) : undefined,
    q.to ? lt(payments.requestedAt, koreaDayStart(addDays(q.to, 1))) : undefined,
  );
  const query = db
    .select({ p: payments, user: { id: users.id, name: users.name, email: users.email }, total: totalRows() })
    .from(payments)
    .innerJoin(users, eq(users.id, payments.userId))
    .where(where)
    .orderBy(desc(payments.requestedAt), desc(payments.id));
  const rows = await onPage(query.$dynamic(), q.page, pageSize);
  return {
    payments: rows.map(({ p, user }) => ({ ...toPaymentView(p), user })),
    pagination_info: paginationInfo(q.page, rows[0]?.total ?? 0, pageSize),
  };
}
