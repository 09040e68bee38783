import type { CardView } from './card-label';
import { addDays, addMonths, HOUR_MS, koreaDayStart } from './dates';
import { withParticle } from './korean';
import { formatNumber, won, type PaymentLine } from './money';
import { tripChargeLabel, tripChargeLines, type TripCharge } from './trip-charge';

/** A charge in the ledger: PENDING until the provider's answer is known. */
export const PAYMENT_STATUSES = ['PENDING', 'PAID', 'FAILED', 'CANCELLED', 'PARTIAL_CANCELLED'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** What a customer reads for each status (my page, details, console). */
export const PAYMENT_STATUS_LABEL: Record<PaymentStatus, string> = {
  PENDING: '결제 확인 중',
  PAID: '결제 완료',
  FAILED: '결제 실패',
  CANCELLED: '환불 완료',
  PARTIAL_CANCELLED: '부분 환불',
};

/** Why money moved. */
export const PAYMENT_PURPOSES = ['SUBSCRIPTION_FIRST', 'SUBSCRIPTION_ADJUSTMENT', 'SUBSCRIPTION_MONTH', 'SUBSCRIPTION_EARLY_EXIT', 'SUBSCRIPTION_MILEAGE', 'SUBSCRIPTION_SETTLEMENT', 'SUBSCRIPTION_SWAP', 'SUBSCRIPTION_SWAP_CANCEL', 'BUTLER', 'BUTLER_OVERTIME', 'BUTLER_ADJUSTMENT'] as const;
export type PaymentPurpose = (typeof PAYMENT_PURPOSES)[number];

const PAYMENT_PURPOSE_LABEL: Record<PaymentPurpose, string> = {
  SUBSCRIPTION_FIRST: '구독 첫 달 요금',
  SUBSCRIPTION_ADJUSTMENT: '구독 신청 변경 차액',
  SUBSCRIPTION_MONTH: '구독 월 요금',
  SUBSCRIPTION_EARLY_EXIT: '구독 중도 해지 수수료',
  SUBSCRIPTION_MILEAGE: '구독 초과 주행 요금',
  SUBSCRIPTION_SETTLEMENT: '구독 반납 정산',
  SUBSCRIPTION_SWAP: '구독 차량 교체 차액',
  SUBSCRIPTION_SWAP_CANCEL: '구독 차량 교체 취소 (환불 차액 재결제)',
  BUTLER: '의전 예약 요금',
  BUTLER_OVERTIME: '의전 초과 이용 요금',
  BUTLER_ADJUSTMENT: '의전 예약 변경 차액',
};

/**
 * The one home of what a charge is called (email, /my/payments, the receipt, the console): the
 * purpose's name and, where it has one, what its month means. A monthly charge names its billing
 * month ("구독 월 요금 (3개월 차)"); the 중도 해지 fee's month is the number of months left, so it
 * says so ("(잔여 10개월)"); the first payment holds more than the first month when 탁송비, 보증금 or
 * 선납금 came with it and is named "구독 첫 결제" (its parts: firstPaymentLines).
 */
export function paymentLabel(p: { purpose: PaymentPurpose; month: number | null }, parts?: Pick<FirstPaymentParts, 'delivery_fee' | 'deposit' | 'prepayment'> | TripCharge | null): string {
  const name = PAYMENT_PURPOSE_LABEL[p.purpose];
  // The charge after a butler trip says what it holds: 초과 이용, 대기 or both, and how much of each.
  if (p.purpose === 'BUTLER_OVERTIME') return parts && 'booked_hours' in parts ? tripChargeLabel(parts) : name;
  if (p.purpose === 'SUBSCRIPTION_FIRST') {
    if (!parts || 'booked_hours' in parts) return '구독 첫 결제';
    const more = [parts.delivery_fee > 0 && '탁송비', parts.deposit > 0 && '보증금', parts.prepayment > 0 && '선납금'].filter((x): x is string => !!x);
    return more.length ? `구독 첫 결제 (첫 달 구독료·${more.join('·')})` : `${name} (1개월 차)`;
  }
  if (!p.month) return name;
  if (p.purpose === 'SUBSCRIPTION_MONTH') return `${name} (${p.month}개월 차)`;
  if (p.purpose === 'SUBSCRIPTION_EARLY_EXIT') return `${name} (잔여 ${p.month}개월)`;
  return name;
}

/** The parts of the first payment as the order's quote holds them (won). */
export interface FirstPaymentParts {
  /** The first month's fee with the options, before coupon and points. */
  monthly: number;
  coupon_discount: number;
  points: number;
  delivery_fee: number;
  deposit: number;
  prepayment: number;
  /** What was charged: monthly − coupon − points (never below 0) + 탁송비 + 보증금 + 선납금. */
  paid_today: number;
}

export type { PaymentLine } from './money';

/**
 * What the first payment is made of, line by line, ending in 합계 (= paid_today): 첫 달 구독료,
 * 쿠폰 할인 and 포인트 사용 (negative; only when used), 탁송비, 보증금, 선납금 (only when charged).
 */
export function firstPaymentLines(q: FirstPaymentParts): PaymentLine[] {
  const lines: PaymentLine[] = [{ label: '첫 달 구독료', amount: q.monthly }];
  if (q.coupon_discount > 0) lines.push({ label: '쿠폰 할인', amount: -q.coupon_discount });
  if (q.points > 0) lines.push({ label: '포인트 사용', amount: -q.points });
  if (q.delivery_fee > 0) lines.push({ label: '탁송비', amount: q.delivery_fee });
  if (q.deposit > 0) lines.push({ label: '보증금 (반납 후 환급)', amount: q.deposit });
  if (q.prepayment > 0) lines.push({ label: '선납금', amount: q.prepayment });
  lines.push({ label: '합계', amount: q.paid_today });
  return lines;
}

/** The lines a page shows for a charge: the first payment's, when it holds more than the first month (첫 달 구독료 = 합계 says nothing), or the charge after a butler trip's parts; else null. */
export function paymentLinesOf(p: { purpose: PaymentPurpose }, parts: FirstPaymentParts | TripCharge | null | undefined): PaymentLine[] | null {
  // The charge after a butler trip: 초과 이용 N시간 × 요금, 쿠폰 할인, 대기 … , 합계 (src/domain/waiting.ts).
  if (p.purpose === 'BUTLER_OVERTIME') return parts && 'booked_hours' in parts ? tripChargeLines(parts) : null;
  if (p.purpose !== 'SUBSCRIPTION_FIRST' || !parts || 'booked_hours' in parts) return null;
  const lines = firstPaymentLines(parts);
  return lines.length > 2 ? lines : null;
}

/** The lines in one Korean text: "첫 달 구독료 1,000,000원 · 쿠폰 할인 -50,000원 · … · 합계 …". */
export const paymentLinesText = (lines: readonly PaymentLine[]) => lines.map((l) => `${l.label} ${won(l.amount)}`).join(' · ');

/**
 * A subscription's billing: ACTIVE while paid up, PAST_DUE between a failed charge and its last
 * retry, OVERDUE after the last retry failed, CANCELLED once 해지 stopped its charges.
 */
export type BillingStatus = 'ACTIVE' | 'PAST_DUE' | 'OVERDUE' | 'CANCELLED';

export const BILLING_STATUS_LABEL: Record<BillingStatus, string> = {
  ACTIVE: '정상',
  PAST_DUE: '결제 실패 (재시도 예정)',
  OVERDUE: '연체',
  CANCELLED: '해지',
};

/** Our payment ids: deterministic per purpose, so a retry after a crash sends the same id and the provider charges it once. */
export const paymentIds = {
  subscriptionFirst: (requestId: number) => `subreq-${requestId}`,
  subscriptionAdjustment: (requestId: number, n: number) => `subreq-${requestId}-adj-${n}`,
  subscriptionMonth: (subscriptionId: number, month: number) => `sub-${subscriptionId}-m${month}`,
  subscriptionEarlyExit: (subscriptionId: number) => `sub-${subscriptionId}-exit`,
  /** The overage settled at the return (one settlement per subscription: n = 1; docs/decisions/mileage.md). */
  subscriptionMileage: (subscriptionId: number, n = 1) => `sub-${subscriptionId}-mileage-${n}`,
  /** 반납 정산: what the deposit did not cover (docs/decisions/settlement.md); -r1… after a known decline. */
  subscriptionSettlement: (subscriptionId: number) => `sub-${subscriptionId}-settle`,
  /** 차량 교체: the prorated month's difference (docs/decisions/swap.md); one swap row per try, so one id per swap. */
  subscriptionSwap: (subscriptionId: number, swapId: number) => `sub-${subscriptionId}-swap-${swapId}`,
  /** 교체 취소: a refunded difference charged again (-r1… after a known decline). */
  subscriptionSwapCancel: (subscriptionId: number, swapId: number) => `sub-${subscriptionId}-swap-${swapId}-cancel`,
  butler: (requestId: number) => `butler-${requestId}`,
  butlerOvertime: (requestId: number) => `butler-${requestId}-overtime`,
  butlerAdjustment: (requestId: number, n: number) => `butler-${requestId}-adj-${n}`,
  /** A new attempt after a known failure of `base` (attempt 2 → `-r1`). */
  retry: (base: string, attempt: number) => (attempt <= 1 ? base : `${base}-r${attempt - 1}`),
};

/** What a payment row belongs to (payments.ref_type). */
export const PAYMENT_REF_TYPES = ['subscription_request', 'subscription', 'butler_request'] as const;
export type PaymentRefType = (typeof PAYMENT_REF_TYPES)[number];

/** Who took a payment (payments.provider, the orders' billing_provider). */
export const PAYMENT_PROVIDERS = ['portone', 'sandbox'] as const;
export type PaymentProviderName = (typeof PAYMENT_PROVIDERS)[number];

/** The two services a customer orders. */
export type OrderService = 'SUBSCRIBE' | 'BUTLER';

/**
 * The one table of order kinds: for each service, the row its money refers to, the purposes of the
 * charge made at placement and of an edit's difference, their payment ids, and its Korean name.
 * Checkout, the ledger, order charges and both billing files read it.
 */
export const ORDER_KINDS = {
  SUBSCRIBE: { label: '구독', orderLabel: '구독 신청', refType: 'subscription_request', placed: 'SUBSCRIPTION_FIRST', adjustment: 'SUBSCRIPTION_ADJUSTMENT', placedId: paymentIds.subscriptionFirst, adjustmentId: paymentIds.subscriptionAdjustment },
  BUTLER: { label: '의전', orderLabel: '의전 예약', refType: 'butler_request', placed: 'BUTLER', adjustment: 'BUTLER_ADJUSTMENT', placedId: paymentIds.butler, adjustmentId: paymentIds.butlerAdjustment },
} as const satisfies Record<OrderService, { label: string; orderLabel: string; refType: PaymentRefType; placed: PaymentPurpose; adjustment: PaymentPurpose; placedId: (id: number) => string; adjustmentId: (id: number, n: number) => string }>;

/**
 * The money a payment holds: what was paid less what was refunded; nothing for a failed or fully
 * refunded one. `pending: true` counts a charge still in flight as paid (an edit must not charge it again).
 */
export function paidAmount(p: { status: PaymentStatus; amount: number; cancelledAmount: number }, opts: { pending?: boolean } = {}): number {
  const holds = p.status === 'PAID' || p.status === 'PARTIAL_CANCELLED' || (opts.pending === true && p.status === 'PENDING');
  return holds ? p.amount - p.cancelledAmount : 0;
}

/** Days after the due date on which a failed monthly charge is tried again; after the last, the subscription is overdue. */
export const RETRY_DAYS = [1, 3, 7] as const;

/**
 * The Korean day month `k` (1 = the first month) of a subscription starting on `start` is
 * charged: the start's day of the month, or the month's last day when it is shorter (a start on
 * the 31st is charged on 2월 28일 or 29일, 4월 30일 …).
 */
export function monthlyChargeDate(start: string, k: number): string {
  return addMonths(start, k - 1);
}

/** The day of the next try after `failures` failed attempts at a charge due on `due`; null when none is left (overdue). */
export function retryDate(due: string, failures: number): string | null {
  const offset = RETRY_DAYS[failures - 1];
  return offset === undefined ? null : addDays(due, offset);
}

/** Korean hour at which a day's charges are due (bank messages arrive in the morning, not at midnight). */
const CHARGE_HOUR_KST = 9;

/** The instant a charge due on a Korean day runs. */
export const chargeInstant = (day: string) => new Date(koreaDayStart(day).getTime() + CHARGE_HOUR_KST * HOUR_MS);

/** How much of a butler booking is refunded when the customer cancels (configurable; shown in the terms, FAQ and the cancel dialog). */
export interface ButlerRefundPolicy {
  /** Cancelled at least this many hours before the start: everything back. */
  fullRefundHours: number;
  /** Cancelled later, but before the start: this percent back. After the start: nothing. */
  latePercent: number;
}

export const DEFAULT_BUTLER_REFUND_POLICY: ButlerRefundPolicy = { fullRefundHours: 24, latePercent: 50 };

/** The refund (won) and its percent for a customer cancelling a paid butler booking at `now`. */
export function butlerRefund(paid: number, startAt: Date, now: Date, policy: ButlerRefundPolicy): { amount: number; percent: number } {
  const hoursLeft = (startAt.getTime() - now.getTime()) / HOUR_MS;
  const percent = hoursLeft >= policy.fullRefundHours ? 100 : hoursLeft > 0 ? policy.latePercent : 0;
  return { amount: Math.floor((paid * percent) / 100), percent };
}

/** The policy in Korean sentences (terms, FAQ, cancel dialog). */
export function butlerRefundPolicyLines(policy: ButlerRefundPolicy): string[] {
  return [
    `이용 시작 ${policy.fullRefundHours}시간 전까지 취소하면 결제 금액 전액을 환불합니다.`,
    `이용 시작 ${policy.fullRefundHours}시간 전부터 시작 전까지 취소하면 결제 금액의 ${policy.latePercent}%를 환불합니다.`,
    '이용 시작 이후에는 취소해도 환불되지 않습니다.',
    '기사 배정으로 확정된 예약도 기사님이 출발하기 전까지 마이페이지에서 같은 규정으로 취소할 수 있습니다.',
    '운영팀이 취소하는 경우에도 같은 규정을 적용하며, 차량·기사 사정 등 운영팀의 사유로 취소하면 전액 환불하고 그 사유를 안내합니다.',
    '사용한 쿠폰과 포인트는 취소 시 돌려드립니다.',
  ];
}

/**
 * The refund sentence of a butler cancellation: the card's share, and the coupon and points only
 * when the booking used them (a customer who used none is not told they were returned).
 */
export function butlerCancelRefundSentence(percent: number, used: { coupon: boolean; points: number }): string {
  const returned = [used.coupon ? '쿠폰' : null, used.points > 0 ? `포인트 ${formatNumber(used.points)}P` : null].filter((x): x is string => x !== null);
  const things = returned.length === 2 ? `${withParticle(returned[0], '과/와')} ${returned[1]}` : returned[0];
  const back = things ? `사용하신 ${withParticle(things, '은/는')} 돌려드렸습니다.` : '';
  if (percent === 0) return ['취소 규정에 따라 환불 금액은 없습니다.', back].filter(Boolean).join(' ');
  return [`결제 금액의 ${percent}%를 결제하신 카드로 돌려드립니다.`, back].filter(Boolean).join(' ');
}

/** The subscription rules in Korean sentences (terms, FAQ, my page). */
export const SUBSCRIPTION_BILLING_LINES = [
  '첫 달 요금(옵션 반영, 쿠폰·포인트 적용 후)은 탁송비·보증금·선납금이 있으면 함께 구독 신청 시 등록한 카드로 결제됩니다.',
  '2개월 차부터는 구독 시작일과 같은 날짜(그 달에 없는 날짜면 말일)에 옵션을 반영한 월 구독료가 자동 결제됩니다.',
  `결제에 실패하면 ${RETRY_DAYS.map((d) => `${d}일`).join(', ')} 뒤에 다시 결제를 시도하며, 마이페이지에서 카드를 바꿔 바로 결제할 수 있습니다.`,
  '확정 전 신청을 취소하면 첫 결제 금액(탁송비·보증금·선납금 포함)을 전액 환불하고 사용한 쿠폰과 포인트를 돌려드립니다.',
  '구독을 해지하면 이후 결제는 모두 중단되며, 이미 결제한 달은 환불되지 않고 그 달이 끝날 때까지 차량을 이용할 수 있습니다.',
];

/** A charge as the API answers it (customer and staff). */
export interface PaymentView {
  id: string;
  status: PaymentStatus;
  purpose: PaymentPurpose;
  /** subscription_request | subscription | butler_request, and its id. */
  ref_type: string;
  ref_id: number;
  /** The subscription month it pays for, when it is a subscription charge (중도 해지: the months left). */
  month: number | null;
  /** What it is, as every page names it (paymentLabel). */
  label: string;
  /** The first payment's parts ending in 합계 (firstPaymentLines); null for other charges. */
  lines: PaymentLine[] | null;
  order_name: string;
  /** Won. */
  amount: number;
  refunded_amount: number;
  receipt_url: string | null;
  failure_reason: string | null;
  requested_at: string;
  paid_at: string | null;
  failed_at: string | null;
  cancelled_at: string | null;
}

/**
 * A butler booking's 운행 기록 as the console's order desk reads it (GET /admin/butler-requests):
 * the actual times staff recorded (null until recorded) and the latest attempt of its overtime
 * charge (null when none was charged: not recorded yet, or the trip stayed within what was paid).
 */
export interface ButlerTripRecordView {
  actual_start_at: string | null;
  actual_end_at: string | null;
  overtime_payment: PaymentView | null;
}

/** A refund: REQUESTED until the provider's answer is known (an ambiguous one stays REQUESTED and is reconciled). */
export type RefundStatus = 'REQUESTED' | 'SUCCEEDED' | 'FAILED';

/** A refund as the API answers it. */
export interface RefundView {
  id: number;
  payment_id: string;
  amount: number;
  reason: string;
  status: RefundStatus;
  created_at: string;
  completed_at: string | null;
}

/** A subscription's billing as my page shows it. */
export interface SubscriptionBillingView {
  status: BillingStatus;
  paid_months: number;
  term_months: number;
  /** The next charge's Korean day and amount (won); null once the term is paid or billing stopped. */
  next_charge_date: string | null;
  next_charge_amount: number | null;
  /** The latest failed charge of the owed month, while billing is PAST_DUE or OVERDUE. */
  failed_payment: PaymentView | null;
  /** The day of the next automatic try, while PAST_DUE. */
  retry_date: string | null;
  /** The card charged (issuer, last four digits; null when unknown): what 결제 카드 변경 replaces. Never the billing key. */
  card: CardView | null;
}

/** A charge just made or retried: POST /subscriptions/{id}/pay, the console's 재시도. */
export interface PaymentAnswer {
  payment: PaymentView;
}

/** GET /payments: the customer's charges (newest first) and refunds. */
export interface PaymentListAnswer {
  payments: PaymentView[];
  refunds: RefundView[];
}

/** GET /payments/{id}: one charge with its refunds. */
export interface PaymentDetailAnswer {
  payment: PaymentView;
  refunds: RefundView[];
}
