import { and, asc, desc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { todayInKorea } from '../../domain/dates';
import {
  isOverdue, MODIFICATION_LABEL, monthLabel, OVERDUE_LABEL, statementStatusLabel, TAX_INVOICE_STATUS_LABEL, taxInvoiceDeadline,
  type InvoiceLineView, type StatementView, type TaxInvoiceStatus, type TaxInvoiceView,
} from '../../domain/invoices';
import type { PaginationInfo } from '../../domain/schemas/common';
import type { Db } from '../db/client';
import { companies, companyInvoiceLines, companyInvoices, companyMembers, payments, taxInvoices } from '../db/schema';
import { forbidden, notFound } from '../errors';
import { onPage, paginationInfo, totalRows } from '../pagination';

type InvoiceRow = typeof companyInvoices.$inferSelect;
type CompanyRow = typeof companies.$inferSelect;

/** A statement without its lines: the lists. */
export type StatementSummary = Omit<StatementView, 'lines' | 'tax_invoices'> & { tax_invoice_status: TaxInvoiceStatus | null };

function summaryOf(i: InvoiceRow, c: Pick<CompanyRow, 'id' | 'name' | 'businessNumber'>, today: string): Omit<StatementSummary, 'tax_invoice_status'> {
  const overdue = isOverdue({ status: i.status, total: i.totalAmount, due_date: i.dueDate }, today);
  return {
    id: i.id, company: { id: c.id, name: c.name, business_number: c.businessNumber }, month: i.month, month_label: monthLabel(i.month),
    status: i.status, status_label: overdue ? OVERDUE_LABEL : statementStatusLabel(i.status, i.totalAmount), overdue, due_date: i.dueDate, tax_invoice_deadline: taxInvoiceDeadline(i.month),
    issued_at: i.issuedAt.toISOString(), paid_at: i.paidAt?.toISOString() ?? null, supply: i.supplyAmount, vat: i.vatAmount, total: i.totalAmount,
  };
}

export function taxInvoiceView(t: typeof taxInvoices.$inferSelect): TaxInvoiceView {
  return {
    id: t.id, kind: t.kind, modification_type: t.modificationType, modification_label: t.modificationType ? MODIFICATION_LABEL[t.modificationType] : null, amends_id: t.amendsId, reason: t.reason,
    write_date: t.writeDate, status: t.status, status_label: TAX_INVOICE_STATUS_LABEL[t.status], approval_number: t.approvalNumber, document_url: t.documentUrl, failure_reason: t.failureReason,
    sent_count: t.sentCount, issued_at: t.issuedAt?.toISOString() ?? null, supply: t.supplyAmount, vat: t.vatAmount, total: t.totalAmount,
  };
}

/** A statement with its lines (by day) and every tax invoice of it, or 404. */
export async function statementView(db: Db, id: number, now: Date): Promise<StatementView> {
  const [row] = await db.select({ i: companyInvoices, c: companies }).from(companyInvoices).innerJoin(companies, eq(companies.id, companyInvoices.companyId)).where(eq(companyInvoices.id, id));
  if (!row) throw notFound('청구서를 찾을 수 없습니다.');
  const lines = await db.select().from(companyInvoiceLines).where(eq(companyInvoiceLines.invoiceId, id)).orderBy(asc(companyInvoiceLines.serviceDate), asc(companyInvoiceLines.id));
  const taxes = await db.select().from(taxInvoices).where(eq(taxInvoices.companyInvoiceId, id)).orderBy(asc(taxInvoices.id));
  return {
    ...summaryOf(row.i, row.c, todayInKorea(now)),
    lines: lines.map((l): InvoiceLineView => ({ id: l.id, kind: l.kind, label: l.label, cost_centre: l.costCentre, service_date: l.serviceDate, butler_request_id: l.butlerRequestId, supply: l.supplyAmount, vat: l.vatAmount, total: l.totalAmount })),
    tax_invoices: taxes.map(taxInvoiceView),
  };
}

async function withTaxStatus(db: Db, rows: { i: InvoiceRow; c: CompanyRow }[], today: string): Promise<StatementSummary[]> {
  const ids = rows.map((r) => r.i.id);
  // The original's status; a statement with none (its credits exceed its charges) shows its 수정세금계산서' (the latest).
  const docs = ids.length ? await db.select().from(taxInvoices).where(inArray(taxInvoices.companyInvoiceId, ids)).orderBy(asc(taxInvoices.id)) : [];
  const status = new Map<number | null, TaxInvoiceStatus>();
  for (const t of docs) if (t.kind === 'AMENDED' && !docs.some((o) => o.kind === 'ORIGINAL' && o.companyInvoiceId === t.companyInvoiceId)) status.set(t.companyInvoiceId, t.status);
  for (const t of docs) if (t.kind === 'ORIGINAL') status.set(t.companyInvoiceId, t.status);
  return rows.map((r) => ({ ...summaryOf(r.i, r.c, today), tax_invoice_status: status.get(r.i.id) ?? null }));
}

/** The companies the user is an admin of, each with its statements (newest first): GET /companies/statements. */
export async function adminStatements(db: Db, userId: number, now: Date) {
  const mine = await db
    .select({ c: companies })
    .from(companyMembers)
    .innerJoin(companies, eq(companies.id, companyMembers.companyId))
    .where(and(eq(companyMembers.userId, userId), eq(companyMembers.role, 'ADMIN'), isNull(companyMembers.removedAt), isNull(companies.closedAt)))
    .orderBy(asc(companies.id));
  const today = todayInKorea(now);
  return Promise.all(
    mine.map(async ({ c }) => {
      const rows = await db.select({ i: companyInvoices, c: companies }).from(companyInvoices).innerJoin(companies, eq(companies.id, companyInvoices.companyId)).where(eq(companyInvoices.companyId, c.id)).orderBy(desc(companyInvoices.month));
      return { id: c.id, name: c.name, business_number: c.businessNumber, invoice_email: c.invoiceEmail, statements: await withTaxStatus(db, rows, today) };
    }),
  );
}

/**
 * A company admin's own statement: 404 for a company the user does not belong to or a statement of
 * another company (a stranger learns nothing of which exist), 403 for a member who is not its admin.
 */
export async function companyStatement(db: Db, userId: number, companyId: number, id: number, now: Date): Promise<StatementView> {
  const [member] = await db.select().from(companyMembers).where(and(eq(companyMembers.companyId, companyId), eq(companyMembers.userId, userId), isNull(companyMembers.removedAt)));
  if (!member) throw notFound('청구서를 찾을 수 없습니다.');
  if (member.role !== 'ADMIN') throw forbidden('청구서는 회사 관리자만 볼 수 있습니다.');
  const [row] = await db.select({ id: companyInvoices.id }).from(companyInvoices).where(and(eq(companyInvoices.id, id), eq(companyInvoices.companyId, companyId)));
  if (!row) throw notFound('청구서를 찾을 수 없습니다.');
  return statementView(db, id, now);
}

/** The console's statements: by month and company, newest first. */
export async function staffStatements(db: Db, q: { month?: string; company_id?: number; page: number }, size: number, now: Date): Promise<{ statements: StatementSummary[]; pagination_info: PaginationInfo }> {
  const query = db
    .select({ i: companyInvoices, c: companies, total: totalRows() })
    .from(companyInvoices)
    .innerJoin(companies, eq(companies.id, companyInvoices.companyId))
    .where(and(q.month ? eq(companyInvoices.month, q.month) : undefined, q.company_id ? eq(companyInvoices.companyId, q.company_id) : undefined))
    .orderBy(desc(companyInvoices.month), desc(companyInvoices.id));
  const rows = await onPage(query.$dynamic(), q.page, size);
  return { statements: await withTaxStatus(db, rows, todayInKorea(now)), pagination_info: paginationInfo(q.page, rows[0]?.total ?? 0, size) };
}

/**
 * The console's tax invoices, newest first: a statement's (its month) and a company card payment's
 * (CARD_TAX_DOCUMENT=tax_invoice: the payment it documents), each with its company.
 */
export async function staffTaxInvoices(db: Db, q: { status?: TaxInvoiceStatus; source?: 'statement' | 'payment'; page: number }, size: number) {
  const amended = alias(taxInvoices, 'amended_original');
  const query = db
    .select({
      t: taxInvoices, month: companyInvoices.month, company: { id: companies.id, name: companies.name, business_number: companies.businessNumber, invoice_email: companies.invoiceEmail },
      payment: { id: payments.id, order_name: payments.orderName, amount: payments.amount, cancelled_amount: payments.cancelledAmount, status: payments.status, paid_at: payments.paidAt },
      amends_approval_number: amended.approvalNumber, total: totalRows(),
    })
    .from(taxInvoices)
    .leftJoin(companyInvoices, eq(companyInvoices.id, taxInvoices.companyInvoiceId))
    .innerJoin(companies, eq(companies.id, sql`coalesce(${taxInvoices.companyId}, ${companyInvoices.companyId})`))
    .leftJoin(payments, eq(payments.id, taxInvoices.paymentId))
    .leftJoin(amended, eq(amended.id, taxInvoices.amendsId))
    .where(
      and(
        q.status ? eq(taxInvoices.status, q.status) : undefined,
        q.source === 'payment' ? isNotNull(taxInvoices.paymentId) : q.source === 'statement' ? isNotNull(taxInvoices.companyInvoiceId) : undefined,
      ),
    )
    .orderBy(desc(taxInvoices.id));
  const rows = await onPage(query.$dynamic(), q.page, size);
  return {
    tax_invoices: rows.map((r) => ({
      ...taxInvoiceView(r.t), statement_id: r.t.companyInvoiceId, month: r.month, company: r.company, amends_approval_number: r.amends_approval_number,
      payment: r.payment
        ? { id: r.payment.id, order_name: r.payment.order_name, amount: r.payment.amount, refunded_amount: r.payment.cancelled_amount, status: r.payment.status, paid_at: r.payment.paid_at?.toISOString() ?? null }
        : null,
    })),
    pagination_info: paginationInfo(q.page, rows[0]?.total ?? 0, size),
  };
}
