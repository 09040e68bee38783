import { billingMonthOf } from './early-exit';
import { won } from './money';

/**
 * 미사용 선납금 (the unused prepayment, issue 39; docs/decisions/settlement.md): the 선납금 paid with
 * the first payment is spread over the order's months (a credit on each month's fee, every month
 * from the first). When the subscription ends before the last of those months (중도 해지 moves the
 * end date), the later months' share was never used and is refunded with the return settlement:
 *
 *   미사용 선납금 = 선납금 × 미사용 개월 / 선납 개월, rounded down to 10 won
 *
 * - 선납 개월 = the order's term (extension months never carry the credit; src/domain/extension.ts).
 * - 사용 개월 = the billing month (from the start date, month k begins on its charge day) the
 *   subscription's end date falls in, at most 선납 개월. An end date in an extension's months (or the
 *   term's last month) uses every month: 0.
 * - 미사용 개월 = 선납 개월 − 사용 개월.
 * - No stored options or no 선납금: 0.
 */
export interface PrepaymentTerm {
  /** The 선납금 paid with the first payment (won; 0 = none). */
  prepayment: number;
  /** The order's months (the 선납금's months; without extensions). */
  termMonths: number;
  startDate: string;
  /** The day the subscription ended or ends (moved to the return day by 중도 해지). */
  endDate: string;
}

export interface UnusedPrepayment {
  prepayment: number;
  term_months: number;
  used_months: number;
  unused_months: number;
  /** Won, rounded down to 10. */
  amount: number;
}

export const NO_UNUSED_PREPAYMENT: UnusedPrepayment = { prepayment: 0, term_months: 0, used_months: 0, unused_months: 0, amount: 0 };

export function unusedPrepayment(t: PrepaymentTerm | null): UnusedPrepayment {
  if (!t || !(t.prepayment > 0) || !(t.termMonths > 0)) return NO_UNUSED_PREPAYMENT;
  const used = Math.min(t.termMonths, billingMonthOf(t.startDate, t.endDate, t.termMonths));
  const unused = t.termMonths - used;
  const amount = Math.floor((t.prepayment * unused) / t.termMonths / 10) * 10;
  return { prepayment: t.prepayment, term_months: t.termMonths, used_months: used, unused_months: unused, amount };
}

/** "선납금 3,000,000원 × 미사용 5개월 / 12개월" (+ the cap when the first payment holds less). */
export function unusedPrepaymentDetail(u: UnusedPrepayment, refunded: number): string {
  const base = `선납금 ${won(u.prepayment)} × 미사용 ${u.unused_months}개월 / ${u.term_months}개월 = ${won(u.amount)}`;
  return refunded < u.amount ? `${base} → 첫 결제 잔액 한도 ${won(refunded)}` : base;
}

/** The rule in Korean (terms 제5조 4, the FAQ, settlement.ts SETTLEMENT_RULE_LINES). */
export const PREPAYMENT_REFUND_LINE =
  '선납금 중 사용하지 않은 개월분(선납금 × 미사용 개월 수 / 계약 개월 수, 10원 미만 버림)은 반납 정산에서 환급합니다. 미사용 개월 수는 구독이 끝난 날(중도 해지 시 반납일)이 속한 결제 월 다음 달부터 처음 계약한 기간의 마지막 달까지이며, 연장한 개월에는 선납금이 적용되지 않습니다.';
