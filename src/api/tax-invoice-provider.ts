import type { TaxDocument } from '../domain/invoices';

/**
 * What issuing a 전자세금계산서 came to. FAILED is a definite refusal (nothing was issued under the
 * key; staff fix and reissue). UNKNOWN is a timeout or an unreadable answer: the provider may have
 * issued, so the job asks again under the same supplier key, which never makes a second document.
 */
type TaxIssueResult =
  | { status: 'ISSUED'; providerId: string; approvalNumber: string; documentUrl: string | null; issuedAt: Date }
  | { status: 'FAILED'; code: string; reason: string }
  | { status: 'UNKNOWN'; detail: string };

type TaxSendResult = { status: 'SENT' } | { status: 'FAILED'; reason: string };

/** The one door tax documents go through: PortOne B2B (invoices/portone-tax-invoices.ts) or the sandbox. */
export interface TaxInvoiceProvider {
  readonly name: 'portone' | 'sandbox' | 'unavailable';
  /** Issues (정발행, sent to the 국세청 and the recipient's email) once per `doc.supplier_key`. */
  issue(doc: TaxDocument): Promise<TaxIssueResult>;
  /** Sends an issued document to `email` again. */
  resend(providerId: string, email: string): Promise<TaxSendResult>;
}
