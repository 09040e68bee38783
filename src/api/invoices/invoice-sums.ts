import { and, eq, sql } from 'drizzle-orm';
import { sumVat } from '../../domain/vat';
import type { Db } from '../db/client';
import { companyInvoiceLines, companyInvoices, taxInvoices } from '../db/schema';

/** The statement's amounts set to the sums of its lines (inside the transaction that changed a line). */
export async function resumInvoice(tx: Db, invoiceId: number) {
  const lines = await tx.select().from(companyInvoiceLines).where(eq(companyInvoiceLines.invoiceId, invoiceId));
  const sum = sumVat(lines.map((l) => ({ supply: l.supplyAmount, vat: l.vatAmount, total: l.totalAmount })));
  const [row] = await tx
    .update(companyInvoices)
    .set({ supplyAmount: sum.supply, vatAmount: sum.vat, totalAmount: sum.total, updatedAt: sql`now()` })
    .where(eq(companyInvoices.id, invoiceId))
    .returning();
  return row;
}


/**
 * What the statement's own original documents: its lines but the credits of earlier statements' supplies, which
 * their 수정세금계산서 (issue key amend:{line}) document instead (statements.ts).
 */
export async function ownSums(tx: Db, invoiceId: number) {
  const lines = await tx
    .select({ supply: companyInvoiceLines.supplyAmount, vat: companyInvoiceLines.vatAmount, total: companyInvoiceLines.totalAmount })
    .from(companyInvoiceLines)
    .where(and(eq(companyInvoiceLines.invoiceId, invoiceId), sql`not exists (select 1 from ${taxInvoices} t where t.issue_key = 'amend:' || ${companyInvoiceLines.sourceKey})`));
  return sumVat(lines);
}
