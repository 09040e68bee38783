import { addDays, daysBetween } from './dates';
import { formatNumber, won } from './money';
import { monthlyChargeDate } from './payments';

/**
 * 청약철회 (전자상거래 등에서의 소비자보호에 관한 법률 제17조) of a subscription: the one rule the
 * quote, the refund, my page and the terms use (docs/decisions/legal.md §4).
 *
 * - Before the car is handed over: everything paid with the order comes back (the first month,
 *   탁송비, 보증금, 선납금 on the card), the coupon is returned and the points are credited again.
 * - Within WITHDRAWAL_DAYS (default 7) of the handover day (the handover day is day 0, the last
 *   day to withdraw is handover + WITHDRAWAL_DAYS): the same, less the days used and the 탁송비.
 *   Days used = the handover day through today, both counted. The usage charge = the monthly fee
 *   (before coupon and points) × days used ÷ the days of the first billing month, rounded down to
 *   the won. It is taken from the coupon's value first, then from the points, then from the
 *   card's first-month payment; whatever of the points the usage did not take is credited again.
 *   The 보증금 and 선납금 come back in full. The coupon is not returned once the car was used.
 * - Later: no 청약철회 (중도 해지 applies, src/domain/early-exit.ts).
 */

export interface WithdrawalInput {
  /** The subscription's first day (its first billing month runs from here). */
  startDate: string;
  /** The Korean day the car was handed over; null = not yet. */
  handoverDay: string | null;
  today: string;
  withdrawalDays: number;
  /** Won: the monthly fee with the options, before coupon and points. */
  monthlyFee: number;
  /** Won: the first month as charged to the card (after coupon and points). */
  firstMonthPaid: number;
  couponDiscount: number;
  points: number;
  deliveryFee: number;
  deposit: number;
  prepayment: number;
  /** Won the card paid for the order in all (the first payment and any edit's difference). */
  cardPaid: number;
}

/** Each part of the refund, in won; the card refund is their sum. */
export interface WithdrawalQuote {
  kind: 'BEFORE_HANDOVER' | 'AFTER_HANDOVER';
  handover_day: string | null;
  /** The last day a withdrawal is accepted (null before the handover: until it). */
  deadline: string | null;
  days_used: number;
  days_in_month: number;
  monthly_fee: number;
  /** monthly_fee × days_used ÷ days_in_month, rounded down. */
  usage_charge: number;
  /** The first month's card payment coming back. */
  first_month_refund: number;
  /** 탁송비 coming back (0 after the handover: it was spent). */
  delivery_fee_refund: number;
  /** 탁송비 kept after the handover. */
  delivery_fee_kept: number;
  deposit_refund: number;
  prepayment_refund: number;
  /** Won on the card in all. */
  refund: number;
  points_restored: number;
  coupon_restored: boolean;
}

export type WithdrawalAnswer = { ok: true; quote: WithdrawalQuote } | { ok: false; reason: string; deadline: string | null };

/** The last day one may withdraw after a handover on `handoverDay`. */
export const withdrawalDeadline = (handoverDay: string, days: number) => addDays(handoverDay, days);

export function withdrawalQuote(i: WithdrawalInput): WithdrawalAnswer {
  const daysInMonth = daysBetween(i.startDate, monthlyChargeDate(i.startDate, 2));
  // What the card paid beyond the named parts (an edit's difference) goes back with the first month.
  const extra = Math.max(0, i.cardPaid - (i.firstMonthPaid + i.deliveryFee + i.deposit + i.prepayment));
  if (i.handoverDay === null || i.today < i.handoverDay) {
    const quote: WithdrawalQuote = {
      kind: 'BEFORE_HANDOVER', handover_day: null, deadline: null, days_used: 0, days_in_month: daysInMonth, monthly_fee: i.monthlyFee, usage_charge: 0,
      first_month_refund: i.firstMonthPaid + extra, delivery_fee_refund: i.deliveryFee, delivery_fee_kept: 0, deposit_refund: i.deposit, prepayment_refund: i.prepayment,
      refund: 0, points_restored: i.points, coupon_restored: i.couponDiscount > 0,
    };
    return { ok: true, quote: { ...quote, refund: sumRefund(quote) } };
  }
  const deadline = withdrawalDeadline(i.handoverDay, i.withdrawalDays);
  if (i.today > deadline) {
    return { ok: false, deadline, reason: `청약철회 기간(인도일로부터 ${i.withdrawalDays}일, ${deadline}까지)이 지났습니다. 중도 해지를 이용해주세요.` };
  }
  const daysUsed = daysBetween(i.handoverDay, i.today) + 1;
  const usage = Math.min(i.monthlyFee, Math.floor((i.monthlyFee * daysUsed) / daysInMonth));
  // The usage is taken from the coupon's value, then the points, then the card's first month.
  const afterCoupon = Math.max(0, usage - i.couponDiscount);
  const fromPoints = Math.min(i.points, afterCoupon);
  const fromCard = Math.min(i.firstMonthPaid + extra, afterCoupon - fromPoints);
  const quote: WithdrawalQuote = {
    kind: 'AFTER_HANDOVER', handover_day: i.handoverDay, deadline, days_used: daysUsed, days_in_month: daysInMonth, monthly_fee: i.monthlyFee, usage_charge: usage,
    first_month_refund: i.firstMonthPaid + extra - fromCard, delivery_fee_refund: 0, delivery_fee_kept: i.deliveryFee, deposit_refund: i.deposit, prepayment_refund: i.prepayment,
    refund: 0, points_restored: i.points - fromPoints, coupon_restored: false,
  };
  return { ok: true, quote: { ...quote, refund: sumRefund(quote) } };
}

const sumRefund = (q: WithdrawalQuote) => q.first_month_refund + q.delivery_fee_refund + q.deposit_refund + q.prepayment_refund;

/** The quote's named lines in Korean (my page, the message): label and amount. */
export function withdrawalLines(q: WithdrawalQuote): { label: string; amount: string }[] {
  const lines: { label: string; amount: string }[] = [];
  if (q.kind === 'AFTER_HANDOVER') lines.push({ label: `이용료 차감 (${q.days_used}일 × 월 ${won(q.monthly_fee)} ÷ ${q.days_in_month}일)`, amount: `−${won(q.usage_charge)}` });
  lines.push({ label: '첫 달 구독료 환불', amount: won(q.first_month_refund) });
  if (q.delivery_fee_refund > 0) lines.push({ label: '탁송비 환불', amount: won(q.delivery_fee_refund) });
  if (q.delivery_fee_kept > 0) lines.push({ label: '탁송비 (환불 제외)', amount: `−${won(q.delivery_fee_kept)}` });
  if (q.deposit_refund > 0) lines.push({ label: '보증금 환불', amount: won(q.deposit_refund) });
  if (q.prepayment_refund > 0) lines.push({ label: '선납금 환불', amount: won(q.prepayment_refund) });
  if (q.points_restored > 0) lines.push({ label: '포인트 복원', amount: `${formatNumber(q.points_restored)}P` });
  if (q.coupon_restored) lines.push({ label: '쿠폰', amount: '복원' });
  lines.push({ label: '카드 환불 합계', amount: won(q.refund) });
  return lines;
}

/** The rule in Korean sentences (my page, terms). */
export const withdrawalRuleLines = (days: number) => [
  '차량 인도 전에 청약을 철회하면 첫 결제 금액(첫 달 구독료·탁송비·보증금·선납금)을 전액 환불하고, 사용한 쿠폰과 포인트를 되돌려 드립니다.',
  `차량 인도일로부터 ${days}일 이내에는 이용한 일수만큼의 구독료(월 구독료를 첫 결제 월의 일수로 나눈 일할 금액)와 탁송비를 뺀 금액을 환불하며, 보증금과 선납금은 전액 환불합니다.`,
  `인도일로부터 ${days}일이 지나면 청약철회 대신 중도 해지를 이용할 수 있습니다.`,
];
