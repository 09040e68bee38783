import { z } from 'zod';
import { TAX_INVOICE_STATUSES } from '../invoices';
import { IdSchema, intField, pageField } from './common';

const month = (label: string) => z.string({ error: `${label}을 YYYY-MM 형식으로 입력해주세요.` }).regex(/^\d{4}-(0[1-9]|1[0-2])$/, { error: `${label}을 YYYY-MM 형식으로 입력해주세요.` });
const reason = (label: string) => z.string({ error: `${label}를 입력해주세요.` }).trim().min(1, { error: `${label}를 입력해주세요.` }).max(200, { error: `${label}는 200자 이하로 입력해주세요.` });

/** /companies/{companyId}/statements/{id} */
export const CompanyStatementParamSchema = z.object({ companyId: IdSchema, id: IdSchema });

/** GET /admin/company-invoices: by month and company, newest first. */
export const AdminInvoicesQuerySchema = z.object({ month: month('청구 월').optional(), company_id: IdSchema.optional(), page: pageField });

/**
 * GET /admin/tax-invoices: by status (the failed ones staff must act on) and by what they document:
 * `statement` (a monthly statement's) or `payment` (a company card payment's, CARD_TAX_DOCUMENT=tax_invoice).
 */
export const AdminTaxInvoicesQuerySchema = z.object({
  status: z.enum(TAX_INVOICE_STATUSES, { error: '상태는 PENDING, ISSUED, FAILED 중 하나여야 합니다.' }).optional(),
  source: z.enum(['statement', 'payment'], { error: '구분은 statement 또는 payment여야 합니다.' }).optional(),
  page: pageField,
});

/** POST /admin/company-invoices/run: make a month's statements now (idempotent; the monthly job does the same). */
export const StatementRunSchema = z.object({ month: month('청구 월') });

/** POST /admin/company-invoice-lines/{id}/credit: refund a billed line, whole or part; the reason goes on the 수정세금계산서. */
export const CreditLineSchema = z.object({ amount: intField('환불 금액').min(1, { error: '환불 금액은 1원 이상이어야 합니다.' }), reason: reason('환불 사유') });

/** POST /admin/tax-invoices/{id}/reissue */
export const ReissueSchema = z.object({ reason: reason('재발행 사유') });

/** POST /admin/test-company-statement (test fixture): the company's admin; `credit`: a month whose credits exceed its charges. */
export const TestStatementSchema = z.object({ user_id: IdSchema, credit: z.boolean().optional() });
