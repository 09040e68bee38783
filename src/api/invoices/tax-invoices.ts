import { and, desc, eq, sql } from 'drizzle-orm';
import { todayInKorea } from '../../domain/dates';
import { MODIFICATION_LABEL, monthLabel, type ModificationType, type TaxDocument, type TaxDocumentParty } from '../../domain/invoices';
import { splitVat } from '../../domain/vat';
import { won } from '../../domain/money';
import { inTransaction, type Db } from '../db/client';
import type { Config } from '../env';
import { companies, companyInvoiceLines, companyInvoices, payments, taxInvoices } from '../db/schema';
import { conflict, notFound, unprocessable } from '../errors';
import { enqueue, type Job, type JobOutcome } from '../jobs/queue';
import type { Clock } from '../jobs/clock';
import { emit } from '../notifications/events';
import { recordAudit } from '../audit/audit';
import { ownSums, resumInvoice } from './invoice-sums';
import type { StaffActor } from '../auth/guards';
import type { TaxInvoiceProvider } from '../tax-invoice-provider';

/**
 * 전자세금계산서 of the company statements: the original of each statement, the 수정세금계산서 of a
 * refunded line (negative, dated the refund's day) and of a reissue (the 기재사항 착오 pair), each
 * issued by a job under its own key, so a retry or a second replica asks the provider for the same
 * document and stores one 승인번호. docs/decisions/business-invoices.md.
 */

export const TAX_INVOICE_JOB = 'company.tax-invoice';
type TaxRow = typeof taxInvoices.$inferSelect;

/** A tax invoice's company: its statement's, or the one it names (a card payment's); select with companyInvoices left-joined. */
const taxCompanyId = sql<number>`coalesce(${taxInvoices.companyId}, ${companyInvoices.companyId})`;

/** Queues the issue of a PENDING row (inside the transaction that wrote it); `run` parts a staff retry from the first job. */
export async function queueTaxInvoice(tx: Db, row: Pick<TaxRow, 'id' | 'issueKey'>, now: Date, run = 'first'): Promise<void> {
  await enqueue(tx, { kind: TAX_INVOICE_JOB, key: `${TAX_INVOICE_JOB}:${row.issueKey}:${run}`, payload: { taxInvoiceId: row.id }, runAt: now, maxAttempts: 10 });
}

export interface TaxJobContext {
  db: Db;
  config: Config;
  clock: Clock;
  taxInvoices: TaxInvoiceProvider;
}

/** The supplier (us) as the document prints it: config.company and the 업태·종목 setting. */
function supplierOf(config: Config): TaxDocumentParty {
  const c = config.company;
  return { business_number: c.businessNumber.replace(/\D/g, ''), name: c.name, ceo: c.ceo, address: c.address, business_type: config.invoices.businessType, business_item: config.invoices.businessItem, email: c.email };
}

/** The company as a document's 공급받는자, as it is now. */
const recipientOf = (company: typeof companies.$inferSelect): TaxDocumentParty => ({
  business_number: company.businessNumber, name: company.name, ceo: company.ceo, address: company.address, business_type: company.businessType, business_item: company.businessItem, email: company.invoiceEmail,
});

/** A 수정세금계산서's link to the document it amends (its 승인번호), or none for an original. */
async function modificationOf(db: Db, row: TaxRow): Promise<TaxDocument['modification']> {
  if (!row.amendsId) return undefined;
  const [original] = await db.select().from(taxInvoices).where(eq(taxInvoices.id, row.amendsId));
  return { type: row.modificationType ?? 'CHANGE_IN_SUPPLY_COST', original_approval_number: original.approvalNumber ?? '', original_provider_id: original.providerId ?? '' };
}

/** The month of the statement whose document a 수정 amends (a later statement may credit an earlier one's supply). */
async function amendedMonth(db: Db, row: TaxRow, fallback: string): Promise<string> {
  if (!row.amendsId) return fallback;
  const [found] = await db.select({ month: companyInvoices.month }).from(taxInvoices).innerJoin(companyInvoices, eq(companyInvoices.id, taxInvoices.companyInvoiceId)).where(eq(taxInvoices.id, row.amendsId));
  return found?.month ?? fallback;
}

/** The document a row asks for: its amounts, the statement's lines (an original) or one line (a 수정), the company as it is now. */
async function documentOf(db: Db, config: Config, row: TaxRow): Promise<TaxDocument> {
  if (row.companyInvoiceId === null) return paymentDocumentOf(db, config, row);
  const [{ invoice, company }] = await db
    .select({ invoice: companyInvoices, company: companies })
    .from(companyInvoices)
    .innerJoin(companies, eq(companies.id, companyInvoices.companyId))
    .where(eq(companyInvoices.id, row.companyInvoiceId));
  const lines = await db.select().from(companyInvoiceLines).where(eq(companyInvoiceLines.invoiceId, invoice.id)).orderBy(companyInvoiceLines.serviceDate, companyInvoiceLines.id);
  const items =
    row.kind === 'ORIGINAL'
      ? lines.map((l) => ({ date: l.serviceDate, name: l.label, supply: l.supplyAmount, vat: l.vatAmount, remark: l.costCentre ?? undefined }))
      : [{ date: row.writeDate, name: `${monthLabel(await amendedMonth(db, row, invoice.month))} 청구서 수정 (${MODIFICATION_LABEL[row.modificationType ?? 'CHANGE_IN_SUPPLY_COST']})`, supply: row.supplyAmount, vat: row.vatAmount, remark: row.reason ?? undefined }];
  // At most 99 items on a document: the rest are summed into the last (their total stays).
  const fitted = items.length > 99 ? [...items.slice(0, 98), { date: items[98].date, name: `외 ${items.length - 98}건`, supply: items.slice(98).reduce((a, i) => a + i.supply, 0), vat: items.slice(98).reduce((a, i) => a + i.vat, 0) }] : items;
  const modification = await modificationOf(db, row);
  return {
    supplier_key: row.issueKey.replace(/[^A-Za-z0-9_-]/g, '-'),
    write_date: row.writeDate,
    purpose: invoice.status === 'PAID' ? 'RECEIPT' : 'INVOICE',
    supply: row.supplyAmount,
    vat: row.vatAmount,
    total: row.totalAmount,
    supplier: supplierOf(config),
    recipient: recipientOf(company),
    items: fitted,
    remarks: [`${monthLabel(invoice.month)} 이용 청구서 #${invoice.id}`],
    modification,
  };
}

/**
 * The document of a company card payment (CARD_TAX_DOCUMENT=tax_invoice, invoices/card-tax-invoices.ts):
 * 영수 (it is paid), one item named as the charge, dated the day it was paid; a correction (reissue) as a statement's.
 */
async function paymentDocumentOf(db: Db, config: Config, row: TaxRow): Promise<TaxDocument> {
  const [found] = await db.select({ payment: payments, company: companies }).from(payments).innerJoin(companies, eq(companies.id, row.companyId!)).where(eq(payments.id, row.paymentId!));
  const modification = await modificationOf(db, row);
  return {
    supplier_key: row.issueKey.replace(/[^A-Za-z0-9_-]/g, '-'),
    write_date: row.writeDate,
    purpose: 'RECEIPT',
    supply: row.supplyAmount,
    vat: row.vatAmount,
    total: row.totalAmount,
    supplier: supplierOf(config),
    recipient: recipientOf(found.company),
    items: [{ date: row.writeDate, name: row.kind === 'ORIGINAL' ? found.payment.orderName : `${found.payment.orderName} 수정 (${MODIFICATION_LABEL[row.modificationType ?? 'CHANGE_IN_SUPPLY_COST']})`, supply: row.supplyAmount, vat: row.vatAmount, remark: row.reason ?? undefined }],
    remarks: [`법인카드 결제 ${found.payment.id} (신용카드매출전표 대신 발행)`],
    modification,
  };
}

/** The job: issues one row's document unless it is issued; UNKNOWN throws, so the queue asks again under the same key. */
export async function issueTaxInvoiceJob(ctx: TaxJobContext, job: Job): Promise<JobOutcome> {
  const id = Number((job.payload as { taxInvoiceId?: unknown }).taxInvoiceId);
  const [row] = await ctx.db.select().from(taxInvoices).where(eq(taxInvoices.id, id));
  if (!row || row.status !== 'PENDING') return;
  // A 수정세금계산서 names its original's 승인번호: it waits while the original is being issued (a
  // card payment refunded before its document was), and fails, for staff, if the original did.
  if (row.amendsId) {
    const [original] = await ctx.db.select().from(taxInvoices).where(eq(taxInvoices.id, row.amendsId));
    if (original.status === 'PENDING') throw new Error(`tax invoice ${row.issueKey}: its original ${original.issueKey} is not issued yet`);
    if (original.status === 'FAILED') {
      await ctx.db.update(taxInvoices).set({ status: 'FAILED', provider: ctx.taxInvoices.name, failureReason: '원본 세금계산서가 발행되지 않았습니다. 원본을 다시 발행한 뒤 이 수정세금계산서를 다시 발행해주세요.', updatedAt: sql`now()` }).where(and(eq(taxInvoices.id, id), eq(taxInvoices.status, 'PENDING')));
      return;
    }
  }
  const result = await ctx.taxInvoices.issue(await documentOf(ctx.db, ctx.config, row));
  const now = ctx.clock.now();
  if (result.status === 'UNKNOWN') throw new Error(`tax invoice ${row.issueKey}: outcome unknown (${result.detail})`);
  await inTransaction(ctx.db, async (tx) => {
    if (result.status === 'FAILED') {
      await tx.update(taxInvoices).set({ status: 'FAILED', provider: ctx.taxInvoices.name, failureReason: result.reason, updatedAt: sql`now()` }).where(and(eq(taxInvoices.id, id), eq(taxInvoices.status, 'PENDING')));
      return;
    }
    const done = await tx
      .update(taxInvoices)
      .set({ status: 'ISSUED', provider: ctx.taxInvoices.name, providerId: result.providerId, approvalNumber: result.approvalNumber, documentUrl: result.documentUrl, failureReason: null, issuedAt: result.issuedAt, sentCount: 1, lastSentAt: now, updatedAt: sql`now()` })
      .where(and(eq(taxInvoices.id, id), eq(taxInvoices.status, 'PENDING')))
      .returning();
    if (done.length) await emit(tx, `company.tax_invoice_sent:${id}:1`, { type: 'company.tax_invoice_sent', taxInvoiceId: id }, now);
  });
}

/**
 * The 수정세금계산서 of a refund (one home: a statement line's credit and a card payment's refund):
 * the negative amount, dated the refund's day, linked to the original's 승인번호 — 계약의 해제 for
 * the whole supply, 공급가액 변동 for a part (부가가치세법 시행령 제70조) — written once per
 * `issueKey` (a retry or a second replica writes nothing) and queued in the same transaction. Dated the
 * refund's day (`writeDate`: the day the change happened, when it is recorded later, as a statement run).
 */
export async function amendForRefund(
  tx: Db,
  original: TaxRow,
  refund: { issueKey: string; amount: number; whole: boolean; reason: string; statementId?: number; writeDate?: string },
  now: Date,
): Promise<TaxRow | null> {
  const s = splitVat(-refund.amount);
  const type: ModificationType = refund.whole ? 'CANCELLATION_OF_CONTRACT' : 'CHANGE_IN_SUPPLY_COST';
  const [amended] = await tx
    .insert(taxInvoices)
    .values({
      // A later statement's credit of an earlier one's supply: listed with the statement that credits it (`statementId`), amending the earlier original.
      companyInvoiceId: refund.statementId ?? original.companyInvoiceId, paymentId: original.paymentId, companyId: original.companyId, issueKey: refund.issueKey, kind: 'AMENDED', modificationType: type,
      amendsId: original.id, reason: refund.reason, writeDate: refund.writeDate ?? todayInKorea(now), supplyAmount: s.supply, vatAmount: s.vat, totalAmount: s.total, provider: 'pending',
    })
    .onConflictDoNothing({ target: taxInvoices.issueKey })
    .returning();
  if (amended) await queueTaxInvoice(tx, amended, now);
  return amended ?? null;
}

/** The statement's original (latest) tax invoice. */
async function originalOf(tx: Db, invoiceId: number, lock = false): Promise<TaxRow | undefined> {
  const q = tx.select().from(taxInvoices).where(and(eq(taxInvoices.companyInvoiceId, invoiceId), eq(taxInvoices.kind, 'ORIGINAL'))).orderBy(desc(taxInvoices.id)).limit(1);
  return (lock ? await q.for('update') : await q)[0];
}

/**
 * Staff refund a billed line, whole or part (a cancelled trip, a goodwill refund): a CREDIT line on
 * the same statement (its totals follow), and — once the original is issued — a 수정세금계산서
 * of the negative amount dated today (계약의 해제 for the whole line, 공급가액 변동 for a part;
 * 부가가치세법 시행령 제70조). One credit per line. Before the original is issued nothing is
 * amended: a failed original is issued with the credit in it.
 */
export async function creditLine(db: Db, actor: StaffActor, lineId: number, input: { amount: number; reason: string }, now: Date) {
  return inTransaction(db, async (tx) => {
    const [line] = await tx.select().from(companyInvoiceLines).where(eq(companyInvoiceLines.id, lineId)).for('update');
    if (!line) throw notFound('청구 항목을 찾을 수 없습니다.');
    if (line.kind === 'CREDIT') throw unprocessable('환불 항목은 다시 환불할 수 없습니다.', { line: ['환불 항목입니다.'] });
    if (input.amount > line.totalAmount) throw unprocessable(`환불 금액은 항목 금액(${won(line.totalAmount)})을 넘을 수 없습니다.`, { amount: ['항목 금액을 넘었습니다.'] });
    const original = await originalOf(tx, line.invoiceId, true);
    if (original?.status === 'PENDING') throw conflict('세금계산서를 발행하는 중입니다. 잠시 후 다시 시도해주세요.');
    const s = splitVat(-input.amount);
    const [credit] = await tx
      .insert(companyInvoiceLines)
      .values({ invoiceId: line.invoiceId, sourceKey: `credit:${line.id}`, butlerRequestId: line.butlerRequestId, kind: 'CREDIT', label: `환불: ${line.label}`, costCentre: line.costCentre, serviceDate: todayInKorea(now), supplyAmount: s.supply, vatAmount: s.vat, totalAmount: s.total })
      .onConflictDoNothing({ target: companyInvoiceLines.sourceKey })
      .returning();
    if (!credit) throw conflict('이미 환불 처리된 항목입니다.');
    const invoice = await resumInvoice(tx, line.invoiceId);
    let amended: TaxRow | null = null;
    if (original?.status === 'ISSUED') {
      amended = await amendForRefund(tx, original, { issueKey: `credit:${line.id}`, amount: input.amount, whole: input.amount === line.totalAmount, reason: input.reason }, now);
    } else if (original) {
      // Not issued yet (failed): the original will carry the statement's own amounts with the credit.
      const own = await ownSums(tx, line.invoiceId);
      await tx.update(taxInvoices).set({ supplyAmount: own.supply, vatAmount: own.vat, totalAmount: own.total, updatedAt: sql`now()` }).where(eq(taxInvoices.id, original.id));
    }
    await recordAudit(tx, actor, { action: 'refund', entity: 'company_invoice_line', entityId: line.id, before: line, after: { credit, amended_tax_invoice: amended } });
    return { credit, invoice, amended };
  });
}

/**
 * Staff reissue a tax invoice: a FAILED one is asked for again (same key: the provider never makes
 * two); an ISSUED one is corrected with the 기재사항 착오·정정 pair — a negative 수정세금계산서
 * cancelling it and a positive one with the company's current details — once per original.
 */
export async function reissueTaxInvoice(db: Db, actor: StaffActor, id: number, reason: string, now: Date) {
  return inTransaction(db, async (tx) => {
    const [row] = await tx.select().from(taxInvoices).where(eq(taxInvoices.id, id)).for('update');
    if (!row) throw notFound('세금계산서를 찾을 수 없습니다.');
    if (row.totalAmount === 0) throw conflict('전액 환불되어 발행하지 않는 세금계산서입니다.');
    if (row.status === 'PENDING') throw conflict('세금계산서를 발행하는 중입니다. 잠시 후 다시 확인해주세요.');
    let made: TaxRow[];
    if (row.status === 'FAILED') {
      const [again] = await tx.update(taxInvoices).set({ status: 'PENDING', failureReason: null, updatedAt: sql`now()` }).where(eq(taxInvoices.id, id)).returning();
      await queueTaxInvoice(tx, again, now, `retry-${now.getTime()}`);
      made = [again];
    } else {
      const base = { companyInvoiceId: row.companyInvoiceId, paymentId: row.paymentId, companyId: row.companyId, kind: 'AMENDED' as const, modificationType: 'CORRECTION_OF_ENTRY_ERRORS' as const, amendsId: row.id, reason, writeDate: row.writeDate, provider: 'pending' };
      made = await tx
        .insert(taxInvoices)
        .values([
          { ...base, issueKey: `reissue:${row.id}:minus`, supplyAmount: -row.supplyAmount, vatAmount: -row.vatAmount, totalAmount: -row.totalAmount },
          { ...base, issueKey: `reissue:${row.id}:plus`, supplyAmount: row.supplyAmount, vatAmount: row.vatAmount, totalAmount: row.totalAmount },
        ])
        .onConflictDoNothing({ target: taxInvoices.issueKey })
        .returning();
      if (!made.length) throw conflict('이미 정정 발행한 세금계산서입니다. 정정 발행된 세금계산서를 다시 발행해주세요.');
      for (const m of made) await queueTaxInvoice(tx, m, now);
    }
    await recordAudit(tx, actor, { action: 'reissue', entity: 'tax_invoice', entityId: row.id, before: row, after: made });
    return made;
  });
}

/** Staff send an issued document to the company's 세금계산서 수신 이메일 again (the provider's send, and our message with the link). */
export async function resendTaxInvoice(db: Db, provider: TaxInvoiceProvider, actor: StaffActor, id: number, now: Date) {
  const [row] = await db
    .select({ tax: taxInvoices, email: companies.invoiceEmail })
    .from(taxInvoices)
    .leftJoin(companyInvoices, eq(companyInvoices.id, taxInvoices.companyInvoiceId))
    .innerJoin(companies, eq(companies.id, taxCompanyId))
    .where(eq(taxInvoices.id, id));
  if (!row) throw notFound('세금계산서를 찾을 수 없습니다.');
  if (row.tax.status !== 'ISSUED' || !row.tax.providerId) throw conflict('발행이 완료된 세금계산서만 다시 보낼 수 있습니다.');
  const sent = await provider.resend(row.tax.providerId, row.email);
  if (sent.status === 'FAILED') throw unprocessable(`세금계산서를 다시 보내지 못했습니다: ${sent.reason}`);
  return inTransaction(db, async (tx) => {
    const [after] = await tx.update(taxInvoices).set({ sentCount: sql`${taxInvoices.sentCount} + 1`, lastSentAt: now, updatedAt: sql`now()` }).where(eq(taxInvoices.id, id)).returning();
    await emit(tx, `company.tax_invoice_sent:${id}:${after.sentCount}`, { type: 'company.tax_invoice_sent', taxInvoiceId: id }, now);
    await recordAudit(tx, actor, { action: 'resend', entity: 'tax_invoice', entityId: id, before: { sent_count: row.tax.sentCount }, after: { sent_count: after.sentCount, to: row.email } });
    return after;
  });
}

export type { TaxRow };
