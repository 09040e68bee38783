import type { SubscriptionRequest } from './subscriptions';
import { won } from './money';

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
export type BusinessStatus = 'ACTIVE' | 'SUSPENDED' | 'CLOSED';

export const BUSINESS_STATUS_LABELS: Record<BusinessStatus, string> = {
  ACTIVE: '계속사업자',
  SUSPENDED: '휴업자',
  CLOSED: '폐업자',
};

/**
 * Whether the company's creator is shown to act for it: CEO (their 본인인증 name is the 대표자 the
 * 국세청 진위확인 matched with the number and 개업일자), PENDING (not the 대표자: staff must check a
 * 위임장, or 재직증명서 and 법인인감증명서, first: company-proof.ts), CONFIRMED (staff did). Staff
 * may refuse the proof (still PENDING, the admin uploads again) or reject the company (closed).
 */
export type CompanyAuthority = 'CEO' | 'PENDING' | 'CONFIRMED';

export const COMPANY_AUTHORITY_LABELS: Record<CompanyAuthority, string> = {
  CEO: '대표자 본인 확인',
  PENDING: '재직·위임 확인 대기',
  CONFIRMED: '재직·위임 확인 완료',
};

/** Why the company cannot book or be billed yet (null: it may). */
export function companyAuthorityRefusal(authority: CompanyAuthority): string | null {
  return authority === 'PENDING' ? '회사 계정 확인 중입니다. 대표자가 아닌 분이 만든 회사는 재직증명서 또는 위임장을 확인한 뒤 예약과 결제를 할 수 있습니다.' : null;
}

/** The same person, as 국세청 and 본인인증 spell names: spaces and case do not count. */
export function samePersonName(a: string, b: string): boolean {
  const norm = (s: string) => s.normalize('NFC').replace(/\s+/g, '').toLowerCase();
  return norm(a).length > 0 && norm(a) === norm(b);
}

/** How a company pays: its registered card, or one monthly invoice (후불) staff enabled for it. */
type CompanyBilling = 'CARD' | 'INVOICE';

/**
 * Where a company subscription's money goes besides its months (issue 52), as the company page and
 * the driver's my page say it: on 후불 the 반납 정산, an overage and the deposit returned are lines
 * of the monthly statement (src/api/billing/settlement.ts, mileage.ts); on a card, the company card.
 */
export const companySubscriptionBillingNote = (billing: CompanyBilling): string =>
  billing === 'INVOICE'
    ? '월 요금과 반납 정산·초과 주행 요금은 회사 월 청구서로 청구되며, 돌려받을 보증금은 청구서에서 차감됩니다.'
    : '월 요금과 반납 정산·초과 주행 요금은 회사 법인카드로 결제되며, 돌려받을 보증금은 법인카드로 환불됩니다.';

/**
 * What the admin's cancel of a pending company order gives back (DELETE
 * /companies/{id}/subscriptions/{requestId}): the company card's first charge in full, or nothing on
 * 후불 (nothing was charged). The confirmation on /my/company states it before the cancel is sent.
 */
function companySubscriptionRefund(r: Pick<SubscriptionRequest, 'payment'>): number {
  return r.payment?.status === 'PAID' ? r.payment.amount : 0;
}

/** The line the cancel's confirmation shows: the refund to the company card in won, or that nothing was paid. */
export function companySubscriptionCancelLine(r: Pick<SubscriptionRequest, 'payment'>): string {
  const refund = companySubscriptionRefund(r);
  return refund > 0
    ? `회사 법인카드로 결제한 첫 결제 금액 ${won(refund)}을 전액 환불합니다. 취소 후에는 되돌릴 수 없습니다.`
    : '결제된 금액이 없어 환불할 금액이 없습니다. 취소 후에는 되돌릴 수 없습니다.';
}

/** Days an invite link stays usable (single use). */
export const COMPANY_INVITE_TTL_DAYS = 7;

/** Whether the role runs the company: members, invites, card, approvals. */
export const managesCompany = (role: CompanyRole) => role === 'ADMIN';

/** Whether the role books butler trips for the company and sees its trips (DRIVER only drives). */
export const booksForCompany = (role: CompanyRole) => role === 'ADMIN' || role === 'BOOKER';

/** A trip's approval by the company admin: WAITING until decided; null when none was needed. */
export type ApprovalStatus = 'WAITING' | 'APPROVED' | 'DECLINED';

export const APPROVAL_LABELS: Record<ApprovalStatus, string> = {
  WAITING: '관리자 승인 대기',
  APPROVED: '관리자 승인 완료',
  DECLINED: '관리자 승인 거절',
};

/**
 * Whether a booker's trip waits for an admin: above the company's threshold (won, the trip's
 * price), booked by a BOOKER. An admin's own booking is approved by booking it.
 */
export function needsApproval(role: CompanyRole, thresholdWon: number | null, priceWon: number): boolean {
  return role === 'BOOKER' && thresholdWon !== null && priceWon > thresholdWon;
}

/** Why a business of this status cannot open a company account (null: 계속사업자, it can). */
export function businessStatusRefusal(status: BusinessStatus): string | null {
  if (status === 'CLOSED') return '폐업한 사업자입니다. 계속사업자만 법인 계정을 만들 수 있습니다.';
  if (status === 'SUSPENDED') return '휴업 중인 사업자입니다. 계속사업자만 법인 계정을 만들 수 있습니다.';
  return null;
}

/** Why a member cannot be removed or demoted: the company keeps at least one admin. */
export function lastAdminProblem(members: readonly { userId: number; role: CompanyRole }[], userId: number, newRole: CompanyRole | null): string | null {
  const admins = members.filter((m) => m.role === 'ADMIN');
  const isAdmin = admins.some((m) => m.userId === userId);
  if (isAdmin && admins.length === 1 && newRole !== 'ADMIN') return '마지막 관리자는 내보내거나 역할을 바꿀 수 없습니다. 다른 관리자를 먼저 지정해주세요.';
  return null;
}

// ── API shapes ──────────────────────────────────────────────────────────────

/** What a butler trip booked for a company adds to it (ButlerRequestView.company_booking). */
export interface CompanyTripView {
  company_id: number;
  company_name: string;
  /** Who booked it (a member's name). */
  booker_name: string;
  guest_name: string | null;
  guest_phone: string | null;
  cost_centre: string | null;
  /** INVOICE: on the monthly statement (후불), nothing charged to a card. */
  billing: CompanyBilling;
  approval_status: ApprovalStatus | null;
  approval_reason: string | null;
}

/** A company as its members see it (the card as its label, never the key). */
export interface CompanyView {
  id: number;
  name: string;
  /** 123-45-67891. */
  business_number: string;
  ceo: string;
  business_type: string;
  business_item: string;
  address: string;
  invoice_email: string;
  business_status: BusinessStatus;
  status_checked_at: string;
  /** 개업일자 (YYYY-MM-DD) the 국세청 matched; null on older companies. */
  opened_on: string | null;
  /** Whether the creator is shown to act for the company; PENDING books and bills nothing. */
  authority: CompanyAuthority;
  billing: CompanyBilling;
  /** Won; trips above it wait for an admin's approval; null: none do. */
  approval_threshold: number | null;
  card: { issuer: string | null; last4: string | null } | null;
  created_at: string;
}

/** A subscription ordered in the company's name (법인 장기 구독), as its admins see it (GET /companies/{id}/subscriptions). */
export interface CompanySubscriptionView {
  request: SubscriptionRequest;
  /** The named driver (a member with the 운전자 role). */
  driver: { user_id: number; name: string };
  /** Once staff confirmed it: its dates, whether it runs, months billed and the billing state; null while pending or cancelled. */
  subscription: { id: number; start_date: string; end_date: string; is_active: boolean; paid_months: number; billing_status: string } | null;
}

export interface CompanySubscriptionsAnswer {
  subscriptions: CompanySubscriptionView[];
}

export interface MembershipView {
  company: CompanyView;
  role: CompanyRole;
}

export interface CompanyMemberView {
  user_id: number;
  name: string;
  email: string | null;
  role: CompanyRole;
  joined_at: string;
}

export interface CompanyInviteView {
  id: number;
  role: CompanyRole;
  channel: 'phone' | 'email';
  address: string;
  expires_at: string;
  used_at: string | null;
}

export type MyCompaniesAnswer = { companies: MembershipView[] };
export type CompanyAnswer = { company: CompanyView; role: CompanyRole };
export type CompanyMembersAnswer = { members: CompanyMemberView[]; invites: CompanyInviteView[] };
export type CompanyInviteAnswer = { invite: CompanyInviteView };
/** What an invite link shows before it is accepted. */
export type CompanyInviteInfoAnswer = { company_name: string; role: CompanyRole; channel: 'phone' | 'email'; expires_at: string };
