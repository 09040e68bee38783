/**
 * Business customers (법인): a company account, its members' roles and the business's tax status.
 * docs/decisions/business-accounts.md.
 */

/** What a member may do: ADMIN runs the company (members, card, invoices, approvals); BOOKER books for anyone; DRIVER only drives the company's subscription car. */
export const COMPANY_ROLES = ['ADMIN', 'BOOKER', 'DRIVER'] as const;
export type CompanyRole = (typeof COMPANY_ROLES)[number];

export const COMPANY_ROLE_LABELS: Record<CompanyRole, string> = {
  ADMIN: '관리자',
  BOOKER: '예약 담당자',
  DRIVER: '운전자',
};

/** 국세청 사업자 상태: 계속사업자, 휴업자, 폐업자 (as the status check answers). */
export const BUSINESS_STATUSES = ['ACTIVE', 'SUSPENDED', 'CLOSED'] as const;
export type BusinessStatus = (typeof BUSINESS_STATUSES)[number];

export const BUSINESS_STATUS_LABELS: Record<BusinessStatus, string> = {
  ACTIVE: '계속사업자',
  SUSPENDED: '휴업자',
  CLOSED: '폐업자',
};

/** How a company pays: its registered card, or one monthly invoice (후불) staff enabled for it. */
export const COMPANY_BILLING = ['CARD', 'INVOICE'] as const;
export type CompanyBilling = (typeof COMPANY_BILLING)[number];
