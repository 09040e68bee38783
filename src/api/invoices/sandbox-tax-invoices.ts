import { createHmac, randomBytes, randomInt } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import type { Config } from '../env';
import { sandboxTaxInvoices } from '../db/schema';
import type { Clock } from '../jobs/clock';
import type { TaxInvoiceProvider } from '../tax-invoice-provider';

/** A recipient whose 사업자등록번호 ends so is refused, as the 국세청 refuses a closed business (tests and demos of the failure path). */
const SANDBOX_REFUSED_SUFFIX = '9999';

/** The sandbox's issuing-system code in its approval numbers (a real one is the ASP's 8 digits). */
const SANDBOX_SYSTEM_CODE = '41000000';

/**
 * The tax-invoice sandbox (while TAX_INVOICE_PROVIDER=sandbox, never in production): keeps its own
 * books like PortOne, one document per supplier key (the same key twice answers the first
 * document), gives it a 승인번호 in the 국세청 shape and a printable page at
 * /api/sandbox/tax-invoices/{id} (keyed link, this machine and staff).
 */
export function sandboxTaxInvoiceProvider(db: Db, config: Config, clock: Clock): TaxInvoiceProvider {
  return {
    name: 'sandbox',
    async issue(doc) {
      if (doc.recipient.business_number.endsWith(SANDBOX_REFUSED_SUFFIX)) {
        return { status: 'FAILED', code: 'RECIPIENT_CLOSED', reason: '국세청 전송이 거절되었습니다: 공급받는자의 사업자 상태를 확인해주세요. (샌드박스)' };
      }
      const id = `sbx-ti-${randomBytes(8).toString('hex')}`;
      const approval = `${doc.write_date.replaceAll('-', '')}-${SANDBOX_SYSTEM_CODE}-${String(randomInt(0, 100_000_000)).padStart(8, '0')}`;
      await db
        .insert(sandboxTaxInvoices)
        .values({ id, supplierKey: doc.supplier_key, approvalNumber: approval, document: doc, sentTo: [{ email: doc.recipient.email, at: clock.now().toISOString() }], issuedAt: clock.now() })
        .onConflictDoNothing({ target: sandboxTaxInvoices.supplierKey });
      const [row] = await db.select().from(sandboxTaxInvoices).where(eq(sandboxTaxInvoices.supplierKey, doc.supplier_key));
      return { status: 'ISSUED', providerId: row.id, approvalNumber: row.approvalNumber, documentUrl: sandboxTaxInvoiceUrl(config, row.id), issuedAt: row.issuedAt };
    },
    async resend(providerId, email) {
      const sent = await db
        .update(sandboxTaxInvoices)
        .set({ sentTo: sql`${sandboxTaxInvoices.sentTo} || ${JSON.stringify([{ email, at: clock.now().toISOString() }])}::jsonb` })
        .where(eq(sandboxTaxInvoices.id, providerId))
        .returning({ id: sandboxTaxInvoices.id });
      return sent.length ? { status: 'SENT' } : { status: 'FAILED', reason: '샌드박스에 없는 세금계산서입니다.' };
    },
  };
}

/** The document's printable page; the key lets its recipient open it from the email, like a PortOne link. */
const sandboxTaxInvoiceUrl = (config: Config, id: string) => `/api/sandbox/tax-invoices/${encodeURIComponent(id)}?key=${sandboxTaxInvoiceKey(config, id)}`;

export function sandboxTaxInvoiceKey(config: Config, id: string): string {
  return createHmac('sha256', `sandbox-tax-invoice:${config.jwtSecret}`).update(id).digest('base64url').slice(0, 32);
}
