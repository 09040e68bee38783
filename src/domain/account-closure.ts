import { subscriptionActive } from './subscriptions';

/**
 * 회원 탈퇴 (closing an account, DELETE /accounts): what it erases, what the law keeps and for how
 * long, and what must end first. Not 청약철회 (withdrawal.ts, a subscription's cooling-off).
 * docs/decisions/accounts.md.
 */

/** A record kept after withdrawal by law: what, how long, under which law. */
export interface RetainedRecord {
  record: string;
  period: string;
  law: string;
}

/**
 * 보유 및 이용 기간: the one list of records kept after withdrawal. The privacy policy's section 3
 * (src/api/seed/content-data.ts privacySeed) and the withdrawal dialog on /my both print it.
 */
export const RETAINED_RECORDS: readonly RetainedRecord[] = [
  { record: '계약 또는 청약철회 등에 관한 기록', period: '5년', law: '전자상거래법' },
  { record: '대금결제 및 재화 등의 공급에 관한 기록', period: '5년', law: '전자상거래법' },
  { record: '소비자의 불만 또는 분쟁처리에 관한 기록', period: '3년', law: '전자상거래법' },
  { record: '표시·광고에 관한 기록', period: '6개월', law: '전자상거래법' },
  { record: '전자금융거래에 관한 기록', period: '5년', law: '전자금융거래법' },
  { record: '웹사이트 접속기록', period: '3개월', law: '통신비밀보호법' },
  { record: '위치정보 이용·제공사실 확인자료', period: '6개월', law: '위치정보법' },
  { record: '운전면허 정보와 운전자격 확인 기록', period: '구독 계약 종료 후 5년', law: '계약에 관한 기록과 함께' },
];

/** One retained record as the policy writes it: "대금결제 및 재화 등의 공급에 관한 기록: 5년 (전자상거래법)". */
export const retainedRecordLine = (r: RetainedRecord) => `${r.record}: ${r.period} (${r.law})`;

/** The policy's sentence before the list. */
export const RETENTION_INTRO = '회원 탈퇴 시 개인정보는 지체 없이 파기합니다. 다만 관계 법령에 따라 다음 기록은 정한 기간 동안 보관한 뒤 파기합니다.';

/** What withdrawal erases at once (src/api/accounts/accounts.ts withdraw). */
export const ERASED_ON_WITHDRAWAL: readonly string[] = [
  '이름, 이메일, 휴대폰 번호, 연계정보(CI), 비밀번호, 프로필 사진, 카카오 등 소셜 로그인 연결',
  '마케팅·야간 광고 수신 동의',
  '포인트와 쿠폰 (탈퇴 후 되살릴 수 없습니다)',
  '로그인된 모든 기기의 로그인 상태',
];

/** The facts of an account that decide whether it may be closed now (read by the API, judged here). */
export interface ClosureFacts {
  role: string;
  /** Subscription requests still PENDING (not confirmed, not cancelled). */
  pendingRequests: number;
  subscriptions: {
    isActive: boolean;
    endDate: string;
    billingStatus: string;
    /** DONE deliveries and returns (a swap's pair counts one of each). */
    deliveriesDone: number;
    returnsDone: number;
    /** A live RETURN not yet recorded. */
    returnScheduled: boolean;
    settlement: 'PENDING' | 'DONE' | null;
  }[];
  /** Butler trips not cancelled whose end (recorded, booked, or start + 8 h) is still ahead and not recorded as ended. */
  butlerTripsAhead: number;
  /** Charges whose answer is not known yet. */
  pendingPayments: number;
}

/** What must end before withdrawal, and where the customer ends it. */
export interface ClosureBlocker {
  kind: 'STAFF_ACCOUNT' | 'SUBSCRIPTION_REQUEST' | 'SUBSCRIPTION' | 'UNPAID' | 'BUTLER_TRIP' | 'PAYMENT_PENDING';
  message: string;
  href: string | null;
}

const UNPAID_BILLING = new Set(['PAST_DUE', 'OVERDUE']);

/** A subscription still running: active by its dates, a car out or its return booked, or its settlement's money still moving. */
export function subscriptionOpen(s: ClosureFacts['subscriptions'][number], today: string): boolean {
  return subscriptionActive(s, today) || s.deliveriesDone > s.returnsDone || s.returnScheduled || s.settlement === 'PENDING';
}

/** Everything that must end before the account can be closed (empty: it may be). */
export function closureBlockers(f: ClosureFacts, today: string): ClosureBlocker[] {
  const out: ClosureBlocker[] = [];
  if (f.role !== 'user') out.push({ kind: 'STAFF_ACCOUNT', message: '직원·기사 계정은 마이페이지에서 탈퇴할 수 없습니다. 운영팀에 요청해주세요.', href: null });
  if (f.pendingRequests > 0) out.push({ kind: 'SUBSCRIPTION_REQUEST', message: `접수 중인 구독 신청 ${f.pendingRequests}건: 구독 신청 내역에서 취소하거나 확정된 뒤 구독을 마쳐주세요.`, href: '/my/requests' });
  const open = f.subscriptions.filter((s) => subscriptionOpen(s, today)).length;
  if (open > 0) out.push({ kind: 'SUBSCRIPTION', message: `이용 중이거나 시작 예정인 구독 ${open}건: 구독을 해지하고 차량 반납과 정산을 마쳐주세요.`, href: '/my/subscriptions' });
  const unpaid = f.subscriptions.filter((s) => UNPAID_BILLING.has(s.billingStatus)).length;
  if (unpaid > 0) out.push({ kind: 'UNPAID', message: `미납 요금이 있는 구독 ${unpaid}건: 내 구독에서 카드를 바꿔 결제해주세요.`, href: '/my/subscriptions' });
  if (f.butlerTripsAhead > 0) out.push({ kind: 'BUTLER_TRIP', message: `예정되었거나 진행 중인 의전 ${f.butlerTripsAhead}건: 운행이 끝나거나 예약을 취소한 뒤 탈퇴할 수 있습니다.`, href: '/my/butler-requests' });
  if (f.pendingPayments > 0) out.push({ kind: 'PAYMENT_PENDING', message: `결과를 확인 중인 결제 ${f.pendingPayments}건: 결제 결과가 확인된 뒤 다시 시도해주세요.`, href: '/my/payments' });
  return out;
}

/** The 409's message: what must end first, in one Korean text. */
export const closureRefusal = (blockers: readonly ClosureBlocker[]) => `지금은 탈퇴할 수 없습니다. 먼저 다음을 마쳐주세요. ${blockers.map((b) => b.message).join(' ')}`;

/** GET /accounts/withdrawal: whether the account may be closed now, and why not. */
export interface ClosurePreview {
  can_withdraw: boolean;
  blockers: ClosureBlocker[];
  /** Whether DELETE /accounts needs current_password (the account has one). */
  needs_password: boolean;
}
