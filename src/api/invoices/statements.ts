import { and, asc, desc, eq, gt, isNotNull, isNull, lt, ne, or, sql } from 'drizzle-orm';
import { HOUR_MS, koreaDate, koreaDayStart, todayInKorea } from '../../domain/dates';
import { invoiceDueDate, isMonth, monthLastDay, monthOfDay, nextMonth, overdueBookingMessage } from '../../domain/invoices';
import { splitVat, sumVat } from '../../domain/vat';
import { asTripCharge, tripChargeName } from '../../domain/waiting';
import { inTransaction, type Db } from '../db/client';
import { butlerRequests, companyInvoiceLines, companyInvoices, companyMembers, companySubscriptionCharges, companySubscriptionMonths, subscriptions, taxInvoices } from '../db/schema';
import { enqueue, type Job, type JobOutcome } from '../jobs/queue';
import { emit } from '../notifications/events';
import { amendForRefund, queueTaxInvoice, type TaxRow } from './tax-invoices';
import { resumInvoice } from './invoice-sums';

/**
 * The monthly statement (청구서) of every company that pays by invoice (후불): on the 1st of each
 * month its lines are the invoice-billed trips and the charges after them not yet on a statement,
 * with their cost centres; the totals are the sums of the lines. One statement per company and
 * month (unique index), one line per billed thing ever (unique source key), so a retried job or a
 * second replica makes nothing twice. docs/decisions/business-invoices.md.
 */

export const STATEMENT_JOB = 'company.statements';
const statementJobKey = (month: string) => `${STATEMENT_JOB}:${month}`;

/** The run of a month's statements: the 1st of the next month at 06:00 KST (every supply of the month is in). */
const statementRunAt = (month: string) => new Date(koreaDayStart(`${nextMonth(month)}-01`).getTime() + 6 * HOUR_MS);

/** Queues the statements of the Korean month of `now` (idempotent: one job per month); each run queues the next month's. */
export async function scheduleStatements(db: Db, now: Date): Promise<void> {
  const month = monthOfDay(todayInKorea(now));
  await enqueue(db, { kind: STATEMENT_JOB, key: statementJobKey(month), payload: { month }, runAt: statementRunAt(month), maxAttempts: 10 });
}

type TripRow = typeof butlerRequests.$inferSelect;

interface DraftLine {
  sourceKey: string;
  butlerRequestId: number | null;
  subscriptionId?: number;
  kind: 'TRIP' | 'AFTER_TRIP' | 'SUBSCRIPTION' | 'CREDIT';
  label: string;
  costCentre: string | null;
  serviceDate: string;
  total: number;
  /** A CREDIT of a supply billed before (the source key of its line): documented by a 수정세금계산서 of that line's statement. */
  credits?: string;
}

const tripKey = (id: number) => `trip:${id}`;
const afterKey = (id: number) => `trip:${id}:after`;

/** A trip's billable lines by `end` (exclusive): its price once its day has come, the charge after it once recorded. */
function linesOf(t: TripRow, end: Date): DraftLine[] {
  const lines: DraftLine[] = [];
  const place = `${t.startLocation} → ${t.endLocation}`;
  const who = t.guestName ? ` · ${t.guestName}` : '';
  if (t.startAt < end && t.finalPrice > 0) {
    lines.push({ sourceKey: tripKey(t.id), butlerRequestId: t.id, kind: 'TRIP', label: `의전 #${t.id} 이용료 (${place}${who})`, costCentre: t.costCentre, serviceDate: koreaDate(t.startAt), total: t.finalPrice });
  }
  const after = asTripCharge(t.tripCharge);
  if (after && after.amount > 0 && t.actualEndAt && t.actualEndAt < end) {
    lines.push({ sourceKey: afterKey(t.id), butlerRequestId: t.id, kind: 'AFTER_TRIP', label: `의전 #${t.id} ${tripChargeName(after)}`, costCentre: t.costCentre, serviceDate: koreaDate(t.actualEndAt), total: after.amount });
  }
  return lines;
}

/** Invoice-billed, live trips of companies (one company, or all) with something billable before `end`. */
async function billableTrips(db: Db, end: Date, companyId?: number): Promise<TripRow[]> {
  return db
    .select()
    .from(butlerRequests)
    .where(
      and(
        eq(butlerRequests.invoiceBilled, true),
        isNotNull(butlerRequests.companyId),
        companyId === undefined ? undefined : eq(butlerRequests.companyId, companyId),
        ne(butlerRequests.status, 'CANCELLED'),
        or(lt(butlerRequests.startAt, end), lt(butlerRequests.actualEndAt, end)),
        // Not yet billed whole: its price, or a charge after it, is not on any statement.
        or(
          sql`not exists (select 1 from ${companyInvoiceLines} l where l.source_key = 'trip:' || ${butlerRequests.id})`,
          and(sql`coalesce((${butlerRequests.tripCharge}->>'amount')::int, 0) > 0`, sql`not exists (select 1 from ${companyInvoiceLines} l where l.source_key = 'trip:' || ${butlerRequests.id} || ':after')`),
        ),
      ),
    )
    .orderBy(asc(butlerRequests.startAt), asc(butlerRequests.id));
}

const monthKey = (subscriptionId: number, month: number) => `sub:${subscriptionId}:m${month}`;

/**
 * The months of company subscriptions on 후불 billed before `end` and on no statement yet (one
 * company, or all): a line each, dated the day the month fell due (src/api/billing/subscription-billing.ts).
 */
async function subscriptionLines(db: Db, end: Date, companyId?: number): Promise<(DraftLine & { companyId: number })[]> {
  const rows = await db
    .select({ m: companySubscriptionMonths, requestId: subscriptions.requestId })
    .from(companySubscriptionMonths)
    .innerJoin(subscriptions, eq(subscriptions.id, companySubscriptionMonths.subscriptionId))
    .where(
      and(
        companyId === undefined ? undefined : eq(companySubscriptionMonths.companyId, companyId),
        lt(companySubscriptionMonths.serviceDate, koreaDate(end)),
        sql`not exists (select 1 from ${companyInvoiceLines} l where l.source_key = 'sub:' || ${companySubscriptionMonths.subscriptionId} || ':m' || ${companySubscriptionMonths.month})`,
      ),
    )
    .orderBy(asc(companySubscriptionMonths.serviceDate), asc(companySubscriptionMonths.id));
  const months = rows
    .filter(({ m }) => m.amount > 0)
    .map(({ m, requestId }) => ({
      companyId: m.companyId, sourceKey: monthKey(m.subscriptionId, m.month), butlerRequestId: null, subscriptionId: m.subscriptionId, kind: 'SUBSCRIPTION' as const,
      label: m.month === 1 ? `구독 #${m.subscriptionId} 첫 결제 (신청 #${requestId}: 첫 달 요금·탁송비·보증금·선납금)` : `구독 #${m.subscriptionId} ${m.month}개월 차 요금`,
      costCentre: null, serviceDate: m.serviceDate, total: m.amount,
    }));
  // The subscription's other amounts on 후불 (반납 정산, its deposit back as a CREDIT line, an overage): a line each, under its own key.
  const charges = await db
    .select()
    .from(companySubscriptionCharges)
    .where(
      and(
        companyId === undefined ? undefined : eq(companySubscriptionCharges.companyId, companyId),
        lt(companySubscriptionCharges.serviceDate, koreaDate(end)),
        sql`not exists (select 1 from ${companyInvoiceLines} l where l.source_key = ${companySubscriptionCharges.sourceKey})`,
      ),
    )
    .orderBy(asc(companySubscriptionCharges.serviceDate), asc(companySubscriptionCharges.id));
  return [
    ...months,
    ...charges.map((c) => ({
      companyId: c.companyId, sourceKey: c.sourceKey, butlerRequestId: null, subscriptionId: c.subscriptionId, kind: c.amount < 0 ? ('CREDIT' as const) : ('SUBSCRIPTION' as const),
      label: c.label, costCentre: null, serviceDate: c.serviceDate, total: c.amount,
      // The deposit (and unused 선납금) came in with the first payment, month 1's line.
      ...(c.amount < 0 ? { credits: monthKey(c.subscriptionId, 1) } : {}),
    })),
  ];
}

type LineRow = typeof companyInvoiceLines.$inferSelect;

/**
 * The line a credit credits, when an earlier statement billed it, with that statement's document (its
 * latest original: a reissued one's correction does not move the original); null when it is on this
 * statement (the credit is netted into this month's original) or on none.
 */
async function earlierDocument(tx: Db, creditedKey: string, invoiceId: number): Promise<{ credited: LineRow; original: TaxRow } | null> {
  const [credited] = await tx.select().from(companyInvoiceLines).where(eq(companyInvoiceLines.sourceKey, creditedKey));
  if (!credited || credited.invoiceId === invoiceId) return null;
  const [original] = await tx
    .select()
    .from(taxInvoices)
    .where(and(eq(taxInvoices.companyInvoiceId, credited.invoiceId), eq(taxInvoices.kind, 'ORIGINAL')))
    .orderBy(desc(taxInvoices.id))
    .limit(1);
  return original ? { credited, original } : null;
}

export interface StatementSettings {
  dueDay: number;
}

/**
 * Makes the statements of `month` (YYYY-MM) for every company with something billed, or one company:
 * each in its own transaction, with its 전자세금계산서 queued. A company that already has the
 * month's statement is left alone. Returns the ids of the statements made now.
 */
export async function issueMonthStatements(db: Db, settings: StatementSettings, month: string, now: Date, companyId?: number): Promise<number[]> {
  const end = koreaDayStart(`${nextMonth(month)}-01`);
  const byCompany = new Map<number, TripRow[]>();
  for (const t of await billableTrips(db, end, companyId)) byCompany.set(t.companyId!, [...(byCompany.get(t.companyId!) ?? []), t]);
  for (const l of await subscriptionLines(db, end, companyId)) if (!byCompany.has(l.companyId)) byCompany.set(l.companyId, []);
  const made: number[] = [];
  for (const company of byCompany.keys()) {
    const id = await inTransaction(db, async (tx) => {
      const [invoice] = await tx
        .insert(companyInvoices)
        .values({ companyId: company, month, supplyAmount: 0, vatAmount: 0, totalAmount: 0, dueDate: invoiceDueDate(month, settings.dueDay), issuedAt: now })
        .onConflictDoNothing()
        .returning();
      // Another run (a retry, the other replica) made it: nothing more here.
      if (!invoice) return null;
      // Read again inside the transaction: lines another month's run took meanwhile are not taken twice.
      const drafts: DraftLine[] = [...(await billableTrips(tx, end, company)).flatMap((t) => linesOf(t, end)), ...(await subscriptionLines(tx, end, company))];
      const inserted: { line: LineRow; draft: DraftLine }[] = [];
      for (const d of drafts) {
        const s = splitVat(d.total);
        const [line] = await tx
          .insert(companyInvoiceLines)
          .values({ invoiceId: invoice.id, sourceKey: d.sourceKey, butlerRequestId: d.butlerRequestId, subscriptionId: d.subscriptionId ?? null, kind: d.kind, label: d.label, costCentre: d.costCentre, serviceDate: d.serviceDate, supplyAmount: s.supply, vatAmount: s.vat, totalAmount: s.total })
          .onConflictDoNothing({ target: companyInvoiceLines.sourceKey })
          .returning();
        if (line) inserted.push({ line, draft: d });
      }
      if (!inserted.length) {
        await tx.delete(companyInvoices).where(eq(companyInvoices.id, invoice.id));
        return null;
      }
      // The statement (what is owed, or owed back) is the sum of all its lines, whatever their sign.
      const sums = await resumInvoice(tx, invoice.id);
      // A credit of a supply an earlier statement billed is a 수정세금계산서 of that statement's document, never netted into this month's.
      const amending: { line: LineRow; credited: LineRow; original: TaxRow }[] = [];
      for (const { line, draft } of inserted) {
        const earlier = draft.credits ? await earlierDocument(tx, draft.credits, invoice.id) : null;
        if (earlier) amending.push({ line, ...earlier });
      }
      const own = sumVat(inserted.filter(({ line }) => !amending.some((a) => a.line.id === line.id)).map(({ line }) => ({ supply: line.supplyAmount, vat: line.vatAmount, total: line.totalAmount })));
      // This month's own supplies (their credits netted): the original, unless nothing of this month is left to document.
      if (own.total > 0) {
        const [tax] = await tx
          .insert(taxInvoices)
          .values({ companyInvoiceId: invoice.id, issueKey: `invoice:${invoice.id}`, kind: 'ORIGINAL', writeDate: monthLastDay(month), supplyAmount: own.supply, vatAmount: own.vat, totalAmount: own.total, provider: 'pending' })
          .returning();
        await queueTaxInvoice(tx, tax, now);
      }
      for (const a of amending) {
        await amendForRefund(tx, a.original, { issueKey: `amend:${a.line.sourceKey}`, amount: -a.line.totalAmount, whole: -a.line.totalAmount === a.credited.totalAmount, reason: a.line.label, statementId: invoice.id, writeDate: a.line.serviceDate }, now);
      }
      // The company's admins are told once: the amount, what it is made of, and the due day (or what is owed back).
      const admins = await tx.select({ userId: companyMembers.userId }).from(companyMembers).where(and(eq(companyMembers.companyId, company), eq(companyMembers.role, 'ADMIN'), isNull(companyMembers.removedAt)));
      const type = sums.totalAmount < 0 ? 'company.statement_credit' : 'company.statement_issued';
      for (const a of admins) await emit(tx, `${type}:${invoice.id}:${a.userId}`, { type, userId: a.userId, invoiceId: invoice.id }, now);
      return invoice.id;
    });
    if (id) made.push(id);
  }
  return made;
}

/** The monthly job: the month's statements, then the next month's run queued (the chain never breaks on a retry). */
export async function statementsJob(db: Db, settings: StatementSettings, job: Job, now: Date): Promise<JobOutcome> {
  const month = (job.payload as { month?: unknown }).month;
  if (typeof month !== 'string' || !isMonth(month)) return;
  await issueMonthStatements(db, settings, month, now);
  await enqueue(db, { kind: STATEMENT_JOB, key: statementJobKey(nextMonth(month)), payload: { month: nextMonth(month) }, runAt: statementRunAt(nextMonth(month)), maxAttempts: 10 });
}

/**
 * Whether a company may book now: a Korean message when a statement of it is past its due day
 * unpaid (the booking is refused with it), else null. Called where a booking names its company.
 */
export async function companyBookingBlock(db: Db, companyId: number, now: Date): Promise<string | null> {
  const [overdue] = await db
    .select()
    .from(companyInvoices)
    .where(and(eq(companyInvoices.companyId, companyId), eq(companyInvoices.status, 'ISSUED'), gt(companyInvoices.totalAmount, 0), lt(companyInvoices.dueDate, todayInKorea(now))))
    .orderBy(asc(companyInvoices.month))
    .limit(1);
  return overdue ? overdueBookingMessage(overdue.month, overdue.dueDate, overdue.totalAmount) : null;
}
