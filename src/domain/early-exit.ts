import { addDays } from './dates';
import { won } from './money';
import { feeOfMonth, type ExtensionFee } from './extension';
import { monthlyChargeDate, type BillingStatus } from './payments';

/**
 * 중도 해지 (early exit): the one rule the quote, the charge, the terms, the FAQ and my page use.
 *
 * 중도 해지 수수료 = 남은 개월 수 × 월 구독료 × 20%, rounded down to 10 won (after an extension
 * whose fee differs: the sum of the remaining months' fees × 20%). The remaining months
 * are the billing months of the term after the one the exit date (the return day) falls in; billing
 * months run from the subscription's start date (month k begins on its charge day). The exit date
 * is at least 3 days ahead, inside the months already paid, and before the term's end.
 */
export const EARLY_EXIT_FEE_PERCENT = 20;
/** The return day is at least this many days after today. */
const EARLY_EXIT_NOTICE_DAYS = 3;

export interface EarlyExitSubscription {
  startDate: string;
  endDate: string;
  termMonths: number;
  /** Won, the month's fee before coupons (what the monthly charge takes). */
  monthlyFee: number;
  /** Extensions (src/domain/extension.ts): the billing months they add and their fee; termMonths includes them. */
  extensions?: readonly ExtensionFee[];
  paidMonths: number;
  isActive: boolean;
  billingStatus: BillingStatus;
}

export interface EarlyExitQuote {
  exit_date: string;
  /** The billing month (1 = the first) the exit date falls in. */
  exit_month: number;
  term_months: number;
  remaining_months: number;
  monthly_fee: number;
  percent: number;
  /** Won. */
  fee: number;
  /** Only when the remaining months' fees differ (after an extension): each fee and its months, in order. */
  fee_parts?: { months: number; monthly_fee: number }[];
}

export type EarlyExitAnswer = { ok: true; quote: EarlyExitQuote } | { ok: false; status: 409 | 422; reason: string };

/** The first and last return day a customer can choose today (earliest > latest: none now). */
export function earlyExitWindow(s: Pick<EarlyExitSubscription, 'startDate' | 'endDate' | 'paidMonths'>, today: string): { earliest: string; latest: string } {
  const notice = addDays(today, EARLY_EXIT_NOTICE_DAYS);
  const earliest = notice < s.startDate ? s.startDate : notice;
  const paidThrough = addDays(monthlyChargeDate(s.startDate, s.paidMonths + 1), -1);
  const beforeEnd = addDays(s.endDate, -1);
  return { earliest, latest: paidThrough < beforeEnd ? paidThrough : beforeEnd };
}

/** The billing month (1-based) a day falls in: the last k whose charge day is on or before it. */
export function billingMonthOf(startDate: string, day: string, termMonths: number): number {
  let k = 1;
  while (k < termMonths && monthlyChargeDate(startDate, k + 1) <= day) k++;
  return k;
}

/** The fee (won, rounded down to 10) for leaving with `remaining` billing months left. */
export const earlyExitFee = (remaining: number, monthlyFee: number) => Math.floor((remaining * monthlyFee * EARLY_EXIT_FEE_PERCENT) / 100 / 10) * 10;

/**
 * The fee's numbers for the last `remaining` months of a term of `termMonths`: the fee shown
 * (the first remaining month's, or the term's last when none remain), the parts when fees differ,
 * and the fee: 20% of the remaining months' fees summed, rounded down to 10 won (= earlyExitFee
 * when every fee is equal).
 */
export function remainingFees(termMonths: number, remaining: number, monthlyFee: number, extensions: readonly ExtensionFee[] = []) {
  const fees = Array.from({ length: remaining }, (_, i) => feeOfMonth(termMonths - remaining + 1 + i, monthlyFee, extensions));
  const parts: { months: number; monthly_fee: number }[] = [];
  for (const f of fees) {
    const last = parts.at(-1);
    if (last && last.monthly_fee === f) last.months++;
    else parts.push({ months: 1, monthly_fee: f });
  }
  const sum = fees.reduce((a, b) => a + b, 0);
  const shown = fees[0] ?? feeOfMonth(termMonths, monthlyFee, extensions);
  return { monthly_fee: shown, fee: Math.floor((sum * EARLY_EXIT_FEE_PERCENT) / 100 / 10) * 10, ...(parts.length > 1 ? { fee_parts: parts } : {}) };
}

/** The quote for returning the car on `exitDate`, or why it is refused (409: the subscription's state; 422: the date). */
export function earlyExitQuote(s: EarlyExitSubscription, exitDate: string, today: string): EarlyExitAnswer {
  if (s.billingStatus === 'PAST_DUE' || s.billingStatus === 'OVERDUE') return { ok: false, status: 409, reason: '연체된 요금을 먼저 결제해주세요.' };
  if (!s.isActive || s.billingStatus === 'CANCELLED' || today > s.endDate) return { ok: false, status: 409, reason: '이용 중인 구독만 중도 해지할 수 있습니다.' };
  const { earliest, latest } = earlyExitWindow(s, today);
  if (exitDate < earliest) return { ok: false, status: 422, reason: `반납일은 ${earliest} 이후로 선택해주세요.` };
  if (exitDate >= s.endDate) return { ok: false, status: 422, reason: `반납일은 계약 종료일(${s.endDate}) 전이어야 합니다.` };
  if (exitDate > latest) return { ok: false, status: 422, reason: `반납일은 이미 결제된 이용 기간(${latest}까지) 안에서 선택해주세요.` };
  const exitMonth = billingMonthOf(s.startDate, exitDate, s.termMonths);
  const remaining = s.termMonths - exitMonth;
  const { monthly_fee, fee, ...parts } = remainingFees(s.termMonths, remaining, s.monthlyFee, s.extensions);
  return {
    ok: true,
    quote: { exit_date: exitDate, exit_month: exitMonth, term_months: s.termMonths, remaining_months: remaining, monthly_fee, percent: EARLY_EXIT_FEE_PERCENT, fee, ...parts },
  };
}

/**
 * The arithmetic in one Korean line (quote, message): "남은 3개월 × 월 555,000원 × 20% = 333,000원";
 * when fees differ (after an extension): "남은 3개월 (월 555,000원 × 1개월 + 월 600,000원 × 2개월) × 20% = 351,000원".
 */
export const earlyExitArithmetic = (q: Pick<EarlyExitQuote, 'remaining_months' | 'monthly_fee' | 'percent' | 'fee' | 'fee_parts'>) =>
  q.fee_parts && q.fee_parts.length > 1
    ? `남은 ${q.remaining_months}개월 (${q.fee_parts.map((p) => `월 ${won(p.monthly_fee)} × ${p.months}개월`).join(' + ')}) × ${q.percent}% = ${won(q.fee)}`
    : `남은 ${q.remaining_months}개월 × 월 ${won(q.monthly_fee)} × ${q.percent}% = ${won(q.fee)}`;

/** The question asked once more before a 중도 해지 is confirmed: the return day and the fee to the won (as the butler cancel asks). */
export function earlyExitConfirmQuestion(q: Pick<EarlyExitQuote, 'exit_date' | 'remaining_months' | 'monthly_fee' | 'percent' | 'fee' | 'fee_parts'>): string {
  const money = q.fee > 0 ? `중도 해지 수수료 ${won(q.fee)}을 등록하신 카드로 지금 결제합니다. (${earlyExitArithmetic(q)})` : '남은 개월이 없어 수수료는 없습니다.';
  return [`${q.exit_date}에 반납하는 것으로 중도 해지를 확정하시겠습니까? 확정 후에는 되돌릴 수 없습니다.`, money].join('\n');
}

/** The rule in Korean sentences (terms, FAQ, my page). */
export const EARLY_EXIT_RULE_LINES = [
  `중도 해지 수수료는 남은 개월 수 × 월 구독료 × ${EARLY_EXIT_FEE_PERCENT}%이며, 10원 미만은 버립니다. 연장으로 남은 달의 월 구독료가 다르면 남은 달 월 구독료의 합계 × ${EARLY_EXIT_FEE_PERCENT}%입니다.`,
  '남은 개월 수는 반납일이 속한 결제 월(구독 시작일 기준)의 다음 달부터 계약 종료까지의 개월 수입니다.',
  `반납일은 오늘로부터 ${EARLY_EXIT_NOTICE_DAYS}일 이후, 이미 결제된 이용 기간 안, 계약 종료일 전의 날짜로 선택합니다.`,
  '수수료는 마이페이지에서 해지를 확정할 때 등록한 카드로 한 번 결제되며, 결제가 끝나면 반납일이 구독 종료일이 되고 이후 월 구독료 결제는 모두 취소됩니다.',
  '연체된 요금이 있으면 먼저 결제해야 중도 해지할 수 있습니다.',
];
