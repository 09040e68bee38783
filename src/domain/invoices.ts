import { addDays, addMonths, daysInMonth, weekday } from './dates';
import { won } from './money';
import type { VatSplit } from './vat';

/**
 * The monthly statement (청구서) of a company that pays by invoice (후불) and its
 * 전자세금계산서: months, due days, what is overdue, and the Korean texts. docs/decisions/business-invoices.md.
 */

/** ISSUED until staff record the transfer (PAID). */
export type InvoiceStatus = 'ISSUED' | 'PAID';

/**
 * What documents a company's card payment (CARD_TAX_DOCUMENT): the card slip, which takes the place of the 세금계산서
 * (부가가치세법 제33조제2항), or a 전자세금계산서 per payment instead (src/api/invoices/card-tax-invoices.ts). Never both.
 */
export const CARD_TAX_DOCUMENTS = ['card_slip', 'tax_invoice'] as const;
export type CardTaxDocument = (typeof CARD_TAX_DOCUMENTS)[number];

/**
 * What the receipt of a company's card payment says about its tax document, so the same supply is
 * never documented twice: the slip itself (제33조제2항), or the 전자세금계산서 issued instead.
 */
export function cardTaxNote(setting: CardTaxDocument, approvalNumber: string | null): string {
  if (setting === 'card_slip') return '신용카드매출전표: 이 카드 결제에는 부가가치세법 제33조제2항에 따라 세금계산서를 따로 발급하지 않습니다. 매입세액공제는 이 전표로 받으세요.';
  return approvalNumber
    ? `전자세금계산서 발급분 (승인번호 ${approvalNumber}): 이 결제의 세금 증빙은 세금계산서입니다. 이 영수증을 매입세액공제 증빙으로 함께 쓰지 마세요.`
    : '전자세금계산서 발급 예정: 이 결제의 세금 증빙은 세금계산서입니다 (세금계산서 수신 이메일로 발행). 이 영수증을 매입세액공제 증빙으로 함께 쓰지 마세요.';
}

/** TRIP: a trip's price; AFTER_TRIP: the charge after it (초과 이용·대기); CREDIT: a refund of a billed line (negative); SUBSCRIPTION: a company subscription's month. */
export type InvoiceLineKind = 'TRIP' | 'AFTER_TRIP' | 'CREDIT' | 'SUBSCRIPTION';

export const TAX_INVOICE_STATUSES = ['PENDING', 'ISSUED', 'FAILED'] as const;
export type TaxInvoiceStatus = (typeof TAX_INVOICE_STATUSES)[number];

export const TAX_INVOICE_STATUS_LABEL: Record<TaxInvoiceStatus, string> = { PENDING: '발행 중', ISSUED: '발행 완료', FAILED: '발행 실패' };

/** 수정세금계산서 사유 (부가가치세법 시행령 제70조), as PortOne's B2B API names them. */
export type ModificationType = 'CORRECTION_OF_ENTRY_ERRORS' | 'CHANGE_IN_SUPPLY_COST' | 'RETURN' | 'CANCELLATION_OF_CONTRACT' | 'DUPLICATE_ISSUANCE_DUE_TO_ERROR';

export const MODIFICATION_LABEL: Record<ModificationType, string> = {
  CORRECTION_OF_ENTRY_ERRORS: '기재사항 착오·정정',
  CHANGE_IN_SUPPLY_COST: '공급가액 변동',
  RETURN: '환입',
  CANCELLATION_OF_CONTRACT: '계약의 해제',
  DUPLICATE_ISSUANCE_DUE_TO_ERROR: '착오에 의한 이중발급',
};

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;
export const isMonth = (text: string) => MONTH.test(text);

/** The Korean month (YYYY-MM) of a Korean day (YYYY-MM-DD). */
export const monthOfDay = (day: string) => day.slice(0, 7);

/** The first Korean day of a month, and of the month after it. */
const monthStart = (month: string) => `${month}-01`;
export const nextMonth = (month: string) => monthOfDay(addMonths(monthStart(month), 1));
export const previousMonth = (month: string) => monthOfDay(addMonths(monthStart(month), -1));

/** The day of the month after the statement's month it is due on (INVOICE_DUE_DAY, at most the month's last day). */
export function invoiceDueDate(month: string, dueDay: number): string {
  const next = nextMonth(month);
  const [y, m] = next.split('-').map(Number);
  return `${next}-${String(Math.min(dueDay, daysInMonth(y, m))).padStart(2, '0')}`;
}

/**
 * The last day a 전자세금계산서 for a month's supplies may be issued: the 10th of the next month,
 * or the next weekday when it is a Saturday or Sunday (부가가치세법 제34조③, the 월합계
 * 세금계산서 written on the month's last day). Public holidays also move it; no holiday calendar
 * is kept, so this errs early (docs/decisions/business-invoices.md).
 */
export function taxInvoiceDeadline(month: string): string {
  let day = `${nextMonth(month)}-10`;
  while (weekday(day) === 0 || weekday(day) === 6) day = addDays(day, 1);
  return day;
}

/** The 작성일자 of a month's 월합계 세금계산서: the month's last day. */
export function monthLastDay(month: string): string {
  const [y, m] = month.split('-').map(Number);
  return `${month}-${String(daysInMonth(y, m)).padStart(2, '0')}`;
}

/** 2026년 11월 */
export function monthLabel(month: string): string {
  const [y, m] = month.split('-').map(Number);
  return `${y}년 ${m}월`;
}

/** Overdue: not paid, something owed, and the due day is behind the Korean today. */
export const isOverdue = (inv: { status: InvoiceStatus; total: number; due_date: string }, today: string) => inv.status === 'ISSUED' && inv.total > 0 && inv.due_date < today;

/** What a company's booker reads when an overdue statement stops new bookings. */
export function overdueBookingMessage(month: string, dueDate: string, total: number): string {
  return `${monthLabel(month)} 청구서(${won(total)})가 납부 기한(${dueDate})을 지나 미납 상태입니다. 납부가 확인될 때까지 회사 명의의 새 예약을 할 수 없습니다. 회사 관리자에게 문의하거나 고객센터로 연락해주세요.`;
}

/**
 * 국세청 승인번호 as 전자세금계산서 print it: 작성일자 (8), the issuing system's code (8), a serial (8),
 * e.g. 20261130-41000000-00000001.
 */
export const APPROVAL_NUMBER = /^\d{8}-\d{8}-\d{8}$/;

export interface InvoiceLineView extends VatSplit {
  id: number;
  kind: InvoiceLineKind;
  label: string;
  cost_centre: string | null;
  service_date: string;
  butler_request_id: number | null;
}

export interface TaxInvoiceView extends VatSplit {
  id: number;
  kind: 'ORIGINAL' | 'AMENDED';
  /** 수정 사유 of an amended one, with its Korean name. */
  modification_type: ModificationType | null;
  modification_label: string | null;
  amends_id: number | null;
  reason: string | null;
  write_date: string;
  status: TaxInvoiceStatus;
  status_label: string;
  approval_number: string | null;
  document_url: string | null;
  failure_reason: string | null;
  sent_count: number;
  issued_at: string | null;
}

/** A company's monthly statement as company admins and staff read it. */
export interface StatementView extends VatSplit {
  id: number;
  company: { id: number; name: string; business_number: string };
  month: string;
  month_label: string;
  status: InvoiceStatus;
  status_label: string;
  overdue: boolean;
  due_date: string;
  /** 전자세금계산서 must be issued by this day (the 10th of the next month). */
  tax_invoice_deadline: string;
  issued_at: string;
  paid_at: string | null;
  lines: InvoiceLineView[];
  tax_invoices: TaxInvoiceView[];
}

const INVOICE_STATUS_LABEL: Record<InvoiceStatus, string> = { ISSUED: '납부 대기', PAID: '납부 완료' };
/** A statement whose credits exceed its charges (its total below zero): owed back to the company, PAID once staff record the transfer. */
const CREDIT_STATUS_LABEL: Record<InvoiceStatus, string> = { ISSUED: '환급 예정', PAID: '환급 완료' };

/** What a statement with this total says of it: what the company pays, or what is owed back to it. */
export const statementStatusLabel = (status: InvoiceStatus, total: number) => (total < 0 ? CREDIT_STATUS_LABEL : INVOICE_STATUS_LABEL)[status];

/** The line of a statement whose credits exceed its charges: nothing to pay, what comes back and what it is made of. */
export function creditStatementNote(s: VatSplit): string {
  return `이번 달은 환불·반환 금액이 이용 금액보다 많아 납부하실 금액이 없습니다. ${won(-s.total)}(공급가액 ${won(-s.supply)} + 부가세 ${won(-s.vat)})을 회사 계좌로 돌려드립니다. 환불·반환분은 처음 발행한 세금계산서의 수정세금계산서로 발행됩니다.`;
}
export const OVERDUE_LABEL = '미납 (기한 경과)';

/** A party of a 전자세금계산서 (공급자 or 공급받는자), as the document prints it. */
export interface TaxDocumentParty {
  /** 사업자등록번호, 10 digits. */
  business_number: string;
  name: string;
  ceo: string;
  address: string;
  business_type: string;
  business_item: string;
  /** Where the document is sent (the recipient's 세금계산서 수신 이메일). */
  email: string;
}

/** One 품목 line (at most 99 on a document). */
interface TaxDocumentItem {
  /** The supply's day, YYYY-MM-DD. */
  date: string;
  name: string;
  supply: number;
  vat: number;
  remark?: string;
}

/** What a tax-invoice provider is asked to issue: our own shape, reshaped for PortOne in one file. */
export interface TaxDocument {
  /** 공급자 문서번호: ours, the provider's idempotency key. */
  supplier_key: string;
  /** 작성일자. */
  write_date: string;
  /** 청구 (owed, paid later) or 영수 (already paid). */
  purpose: 'INVOICE' | 'RECEIPT';
  supply: number;
  vat: number;
  total: number;
  supplier: TaxDocumentParty;
  recipient: TaxDocumentParty;
  items: TaxDocumentItem[];
  remarks: string[];
  /** A 수정세금계산서: its reason and the original it amends. */
  modification?: { type: ModificationType; original_approval_number: string; original_provider_id: string };
}
