import { eq, sql } from 'drizzle-orm';
import { koreaDate } from '../../domain/dates';
import type { CardTaxDocument } from '../../domain/invoices';
import { splitVat } from '../../domain/vat';
import type { Db } from '../db/client';
import { butlerRequests, subscriptionRequests, subscriptions, taxInvoices } from '../db/schema';
import type { PaymentRow } from '../payment-context';
import { amendForRefund, queueTaxInvoice } from './tax-invoices';

/**
 * CARD_TAX_DOCUMENT (docs/decisions/business-invoices.md): what a company's card payment is
 * documented by. `card_slip` (the default): the card company's 신용카드매출전표, which for a card
 * payment takes the place of the 세금계산서 (부가가치세법 제33조제2항) — no 세금계산서 is issued.
 * `tax_invoice`: a 전자세금계산서 (영수) per company card payment, issued by the same job and adapter
 * as a statement's, under the key `payment:{id}` (a retried outcome or a second replica asks for
 * one document); the receipt then says the supply was documented by it, so the slip is not the
 * evidence as well. Which of the two is lawful for the operator is counsel's call.
 */

/** The company a card payment was made for (a company trip, subscription order or subscription), or null for a private one. */
export async function companyOfPayment(db: Db, payment: Pick<PaymentRow, 'refType' | 'refId'>): Promise<number | null> {
  if (payment.refType === 'butler_request') {
    const [r] = await db.select({ companyId: butlerRequests.companyId }).from(butlerRequests).where(eq(butlerRequests.id, payment.refId));
    return r?.companyId ?? null;
  }
  if (payment.refType === 'subscription_request') {
    const [r] = await db.select({ companyId: subscriptionRequests.companyId }).from(subscriptionRequests).where(eq(subscriptionRequests.id, payment.refId));
    return r?.companyId ?? null;
  }
  if (payment.refType === 'subscription') {
    const [r] = await db.select({ companyId: subscriptions.companyId }).from(subscriptions).where(eq(subscriptions.id, payment.refId));
    return r?.companyId ?? null;
  }
  return null;
}

/**
 * Inside the transaction that settles a payment PAID: with `tax_invoice`, a company card payment
 * gets its 전자세금계산서, dated the day it was paid, queued once (the issue key is unique).
 */
export async function recordCardTaxInvoice(tx: Db, setting: CardTaxDocument, payment: PaymentRow, now: Date): Promise<void> {
  if (setting !== 'tax_invoice' || payment.amount <= 0) return;
  const companyId = await companyOfPayment(tx, payment);
  if (!companyId) return;
  const s = splitVat(payment.amount);
  const [row] = await tx
    .insert(taxInvoices)
    .values({
      paymentId: payment.id, companyId, issueKey: `payment:${payment.id}`, kind: 'ORIGINAL', writeDate: koreaDate(payment.paidAt ?? now),
      supplyAmount: s.supply, vatAmount: s.vat, totalAmount: s.total, provider: 'pending',
    })
    .onConflictDoNothing({ target: taxInvoices.issueKey })
    .returning();
  if (row) await queueTaxInvoice(tx, row, now);
}

/** The 전자세금계산서 issued for a payment instead of its card slip, if any (the receipt names it). */
export async function cardTaxInvoiceOf(db: Db, paymentId: string) {
  const [row] = await db.select().from(taxInvoices).where(eq(taxInvoices.issueKey, `payment:${paymentId}`));
  return row ?? null;
}

/**
 * Inside the transaction that records a refund of a payment (billing/refunds.ts, once per refund
 * row): if the payment has its 전자세금계산서, the refund's 수정세금계산서 — negative, dated today,
 * linked to the original's 승인번호, under the key `refund:{refund id}` (one per refund under
 * retries and replicas). An original not issued yet waits for it (the job); one that failed is
 * not amended but carries what stays paid when staff issue it again (as a statement's does).
 */
export async function amendCardTaxInvoice(tx: Db, paid: Pick<PaymentRow, 'id' | 'amount' | 'cancelledAmount'>, refund: { id: number; amount: number; reason: string }, now: Date): Promise<void> {
  const [original] = await tx.select().from(taxInvoices).where(eq(taxInvoices.issueKey, `payment:${paid.id}`)).for('update');
  if (!original) return;
  if (original.status === 'FAILED') {
    const s = splitVat(paid.amount - paid.cancelledAmount);
    await tx
      .update(taxInvoices)
      .set({ supplyAmount: s.supply, vatAmount: s.vat, totalAmount: s.total, ...(s.total === 0 ? { failureReason: '전액 환불되어 발행하지 않습니다.' } : {}), updatedAt: sql`now()` })
      .where(eq(taxInvoices.id, original.id));
    return;
  }
  await amendForRefund(tx, original, { issueKey: `refund:${refund.id}`, amount: refund.amount, whole: refund.amount === paid.amount, reason: refund.reason }, now);
}
