import { B2bClient } from '@portone/server-sdk';
import type { TaxDocument, TaxDocumentParty } from '../../domain/invoices';
import type { Config } from '../env';
import type { TaxInvoiceProvider } from '../tax-invoice-provider';

/**
 * PortOne B2B (`@portone/server-sdk` b2b.taxInvoice): 즉시 정발행 under our supplier document key,
 * reshaped from and to the product's own types here only. A refusal PortOne names is FAILED; any
 * other error (5xx, network) is UNKNOWN and the job asks again under the same key.
 */
const DEFINITE = new Set(['INVALID_REQUEST', 'B2B_SUPPLIER_NOT_FOUND', 'B2B_RECIPIENT_NOT_FOUND', 'B2B_ID_ALREADY_EXISTS', 'B2B_TAX_INVOICE_SUPPLIER_DOCUMENT_KEY_ALREADY_USED', 'B2B_ORIGINAL_TAX_INVOICE_NOT_FOUND']);

const party = (p: TaxDocumentParty) => ({
  brn: p.business_number, name: p.name, representativeName: p.ceo, address: p.address, businessType: p.business_type, businessClass: p.business_item, contact: { email: p.email },
});

export function portoneTaxInvoiceProvider(config: Config): TaxInvoiceProvider {
  const client = B2bClient({ secret: config.portone.apiSecret ?? '', baseUrl: config.portone.apiBaseUrl, storeId: config.portone.storeId });
  const body = (doc: TaxDocument) => ({
    taxInvoice: {
      taxationType: 'TAXABLE', issuanceType: 'NORMAL', writeDate: doc.write_date, purposeType: doc.purpose,
      totalSupplyAmount: doc.supply, totalTaxAmount: doc.vat, totalAmount: doc.total, creditAmount: doc.purpose === 'INVOICE' ? doc.total : undefined,
      supplierDocumentKey: doc.supplier_key, supplier: party(doc.supplier), recipient: party(doc.recipient), remarks: doc.remarks.slice(0, 3),
      items: doc.items.slice(0, 99).map((i) => ({ purchaseDate: i.date, name: i.name.slice(0, 100), supplyCostAmount: i.supply, taxAmount: i.vat, remark: i.remark })),
    },
    modification: doc.modification ? { type: doc.modification.type, taxInvoiceKey: doc.modification.original_provider_id, taxInvoiceKeyType: 'TAX_INVOICE_ID' as const } : undefined,
  });
  return {
    name: 'portone',
    async issue(doc) {
      try {
        const { taxInvoice: t } = await client.taxInvoice.issueB2bTaxInvoiceImmediately(body(doc));
        if (!t.ntsApprovalNumber) return { status: 'UNKNOWN', detail: `issued without an approval number yet (${t.status})` };
        const print = await client.taxInvoice.getB2bTaxInvoicePrintUrl({ taxInvoiceKey: t.id }).catch(() => null);
        return { status: 'ISSUED', providerId: t.id, approvalNumber: t.ntsApprovalNumber, documentUrl: print?.url ?? null, issuedAt: new Date(t.issuedAt ?? t.writeDate) };
      } catch (err) {
        const data = (err as { data?: { type?: string; message?: string } }).data;
        if (data?.type && DEFINITE.has(data.type)) return { status: 'FAILED', code: data.type, reason: data.message ?? '세금계산서 발행이 거절되었습니다.' };
        return { status: 'UNKNOWN', detail: err instanceof Error ? err.message : String(err) };
      }
    },
    // PortOne mails the recipient contact on issue; a resend is a new print link we mail ourselves.
    async resend(providerId) {
      try {
        await client.taxInvoice.getB2bTaxInvoice({ taxInvoiceKey: providerId });
        return { status: 'SENT' };
      } catch (err) {
        return { status: 'FAILED', reason: err instanceof Error ? err.message : String(err) };
      }
    },
  };
}
