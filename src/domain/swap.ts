import { addDays, daysBetween } from './dates';
import { billingMonthOf } from './early-exit';
import { extrasTotal, feeOfMonth, type ExtensionFee, type OptionExtras } from './extension';
import { withParticle } from './korean';
import { won } from './money';
import { monthlyChargeDate, type BillingStatus } from './payments';

/**
 * 차량 교체 (swap): the one rule the quote, the confirmation, the annex, the terms, the FAQ and my
 * page use (docs/decisions/swap.md).
 *
 * - Who: an active subscription (switched on, started, not past its end), billing ACTIVE, no 중도
 *   해지 asked for, no other swap open (PENDING, or CONFIRMED with its day still ahead), and at most
 *   SWAPS_PER_BILLING_MONTH swaps whose day falls in one billing month.
 * - The day D: from today + SWAP_NOTICE_DAYS up to the day before the next monthly charge (inside
 *   the months already paid, as 중도 해지), and D ≤ end − SWAP_CLOSES_DAYS.
 * - The new fee: the new car's fee for the order's term + the order's monthly option extras, less
 *   the 선납금 credit while the months are the order's (the credit belongs to the subscription, not
 *   the car: src/domain/prepayment.ts), never below 0, from billing month k+1 (k: the month D falls
 *   in); months after the order's term (extensions) carry no credit. Month k is prorated by day:
 *   (new − old) × days from D to month k+1's charge day / month k's days, rounded down to 10 won
 *   in absolute value (the customer's favour both ways), sign kept.
 */
const SWAP_NOTICE_DAYS = 3;
const SWAP_CLOSES_DAYS = 30;
const SWAPS_PER_BILLING_MONTH = 1;

/** A swap of the subscription as the rule reads it (CANCELLED ones are left out by the caller). */
interface SwapOfSubscription {
  swapDate: string;
  status: 'PENDING' | 'CONFIRMED';
  billingMonth: number;
}

export interface SwapSubscription {
  startDate: string;
  endDate: string;
  /** Billing months in all (the order's + extensions'). */
  termMonths: number;
  paidMonths: number;
  isActive: boolean;
  billingStatus: BillingStatus;
  exitDate: string | null;
  /** The order's monthly fee and the changes over it (extensions, confirmed swaps): feeOfMonth. */
  baseFee: number;
  feeChanges: readonly ExtensionFee[];
  /** The subscription's live swaps (PENDING, CONFIRMED). */
  swaps: readonly SwapOfSubscription[];
  /** The order's 선납금 credit: won a month over billing months 1…lastMonth (absent or 0: none). */
  prepaymentCredit?: PrepaymentCredit;
}

/** The 선납금 spread over the order's months: `monthly` won off each of months 1…`lastMonth`. */
export interface PrepaymentCredit {
  monthly: number;
  lastMonth: number;
}

export const NO_PREPAYMENT_CREDIT: PrepaymentCredit = { monthly: 0, lastMonth: 0 };

/** The credit on billing month `month`: the monthly credit inside the order's months, else 0. */
export const creditOfMonth = (c: PrepaymentCredit | undefined, month: number) => (c && month <= c.lastMonth ? Math.max(0, c.monthly) : 0);

/**
 * A CONFIRMED swap as fee changes (feeOfMonth): `newFee` (with `credit` off) from first_new_month
 * through the order's last month, and the fee without the credit (baseFee + optionExtras, never
 * below 0) after it. A swap with no credit is one change to the end.
 */
export function swapFeeChanges(
  w: { firstNewMonth: number; newFee: number; baseFee: number; optionExtras: number; prepaymentCredit: number; madeAt?: string },
  creditLastMonth: number,
): ExtensionFee[] {
  if (!(w.prepaymentCredit > 0)) return [{ firstMonth: w.firstNewMonth, lastMonth: Infinity, monthlyFee: w.newFee, madeAt: w.madeAt }];
  const out: ExtensionFee[] = [];
  if (w.firstNewMonth <= creditLastMonth) out.push({ firstMonth: w.firstNewMonth, lastMonth: creditLastMonth, monthlyFee: w.newFee, madeAt: w.madeAt });
  out.push({ firstMonth: Math.max(w.firstNewMonth, creditLastMonth + 1), lastMonth: Infinity, monthlyFee: Math.max(0, w.baseFee + w.optionExtras), madeAt: w.madeAt });
  return out;
}

export interface SwapQuote {
  swap_date: string;
  /** The billing month D falls in (prorated) and its charge days. */
  billing_month: number;
  month_start: string;
  next_charge_date: string;
  old_fee: number;
  /** The new car's fee for the term, the order's option extras, the 선납금 credit kept, and base + extras − credit (never below 0). */
  base_fee: number;
  option_extras: number;
  /** Won a month off new_fee: the order's 선납금 credit, kept through the swap (0 when none, or past the order's months). */
  prepayment_credit: number;
  /** The last billing month the credit is taken off (the order's term; 0 when none). */
  credit_last_month: number;
  new_fee: number;
  prorate_days: number;
  month_days: number;
  /** Won, signed: > 0 charged once, < 0 refunded once, 0 nothing moves. */
  adjustment: number;
  arithmetic: string;
  /** The first billing month charged new_fee, and its charge day (null: D is in the term's last month). */
  first_new_month: number;
  new_fee_from: string | null;
}

export type SwapRefusal = { ok: false; status: 409 | 422; reason: string };

/** The days one may choose today (first > last: none now; `reopens`: the day the window opens again, null if never). */
export function swapWindow(s: Pick<SwapSubscription, 'startDate' | 'endDate' | 'paidMonths'>, today: string): { first: string; last: string; reopens: string | null } {
  const notice = addDays(today, SWAP_NOTICE_DAYS);
  const first = notice < s.startDate ? s.startDate : notice;
  const nextCharge = monthlyChargeDate(s.startDate, s.paidMonths + 1);
  const paidThrough = addDays(nextCharge, -1);
  const closes = addDays(s.endDate, -SWAP_CLOSES_DAYS);
  const last = paidThrough < closes ? paidThrough : closes;
  // Empty because the paid months end too soon: it opens again once the next month is charged (if that day is not past the close).
  const reopens = first > last && paidThrough < closes && nextCharge <= closes ? nextCharge : null;
  return { first, last, reopens };
}

/** Why the subscription cannot swap today at all (409), or null. */
export function swapRefusal(s: SwapSubscription, today: string): SwapRefusal | null {
  if (s.billingStatus === 'PAST_DUE' || s.billingStatus === 'OVERDUE') return { ok: false, status: 409, reason: '연체된 요금을 먼저 결제해주세요.' };
  if (s.exitDate) return { ok: false, status: 409, reason: '중도 해지를 신청한 구독은 차량을 교체할 수 없습니다.' };
  if (!s.isActive || s.billingStatus === 'CANCELLED' || today < s.startDate || today > s.endDate) return { ok: false, status: 409, reason: '이용 중인 구독만 차량을 교체할 수 있습니다.' };
  const open = s.swaps.find((w) => w.status === 'PENDING' || w.swapDate >= today);
  if (open) return { ok: false, status: 409, reason: `${open.swapDate}에 차량 교체가 이미 예정되어 있습니다. 교체가 끝난 뒤 다시 신청해주세요.` };
  const w = swapWindow(s, today);
  if (w.first > w.last) {
    if (w.reopens) return { ok: false, status: 409, reason: `다음 결제일이 가까워 지금은 교체일을 고를 수 없습니다. ${w.reopens}부터 다시 신청할 수 있습니다.` };
    return { ok: false, status: 409, reason: `계약 종료일 ${SWAP_CLOSES_DAYS}일 전부터는 차량을 교체할 수 없습니다.` };
  }
  return null;
}

/**
 * 중도 해지 with a swap: not while its difference is being charged (PENDING), and the return day
 * after a confirmed swap's day (the new car is the one returned; an exit before the swap would
 * leave a swap that never happens, its difference already moved).
 */
export function earlyExitSwapRefusal(swaps: readonly { swapDate: string; status: string }[], exitDate: string): SwapRefusal | null {
  if (swaps.some((w) => w.status === 'PENDING')) return { ok: false, status: 409, reason: '차량 교체 처리를 확인하고 있습니다. 잠시 후 다시 시도해주세요.' };
  const last = swaps.filter((w) => w.status === 'CONFIRMED').map((w) => w.swapDate).sort().at(-1);
  if (last && exitDate <= last) return { ok: false, status: 422, reason: `반납일은 차량 교체일(${last}) 다음 날부터 선택해주세요.` };
  return null;
}

/** Rounds toward 0 to 10 won (the customer's favour both ways), sign kept. */
const roundTowardZero10 = (amount: number) => Math.sign(amount) * Math.floor(Math.abs(amount) / 10) * 10;

/** The prorated adjustment of a month of `monthDays` days with `prorateDays` on the new fee. */
export function swapAdjustment(oldFee: number, newFee: number, prorateDays: number, monthDays: number): number {
  const exact = ((newFee - oldFee) * prorateDays) / monthDays;
  return roundTowardZero10(exact) || 0;
}

/** "(월 1,500,000원 − 월 1,200,000원) × 12/30일 = 120,000원 추가 결제" (or 환불, or 정산 없음). */
export function swapArithmetic(q: Pick<SwapQuote, 'new_fee' | 'old_fee' | 'prorate_days' | 'month_days' | 'adjustment'>): string {
  const head = `(월 ${won(q.new_fee)} − 월 ${won(q.old_fee)}) × ${q.prorate_days}/${q.month_days}일`;
  if (q.adjustment > 0) return `${head} = ${won(q.adjustment)} 추가 결제`;
  if (q.adjustment < 0) return `${head} = ${won(-q.adjustment)} 환불`;
  return `${head} = 0원 (추가 결제·환불 없음)`;
}

/** The quote for swapping on `day` to a car whose fee for the term is `baseFee`, or why not (409: the subscription; 422: the day). */
export function swapQuote(s: SwapSubscription, day: string, baseFee: number, extras: OptionExtras, today: string): { ok: true; quote: SwapQuote } | SwapRefusal {
  const refusal = swapRefusal(s, today);
  if (refusal) return refusal;
  const w = swapWindow(s, today);
  if (day < w.first) return { ok: false, status: 422, reason: `교체일은 ${w.first} 이후로 선택해주세요.` };
  if (day > w.last) {
    const closes = addDays(s.endDate, -SWAP_CLOSES_DAYS);
    return {
      ok: false, status: 422,
      reason: day > closes ? `교체일은 계약 종료일 ${SWAP_CLOSES_DAYS}일 전(${closes})까지 선택해주세요.` : `교체일은 이미 결제된 이용 기간(${w.last}까지) 안에서 선택해주세요.`,
    };
  }
  const k = billingMonthOf(s.startDate, day, s.termMonths);
  const inMonth = s.swaps.filter((x) => x.billingMonth === k).length;
  if (inMonth >= SWAPS_PER_BILLING_MONTH) return { ok: false, status: 422, reason: `차량 교체는 결제 월마다 ${SWAPS_PER_BILLING_MONTH}번까지 가능합니다. ${k}개월 차에는 이미 교체했습니다.` };
  const monthStart = monthlyChargeDate(s.startDate, k);
  const next = monthlyChargeDate(s.startDate, k + 1);
  const monthDays = daysBetween(monthStart, next);
  const prorateDays = daysBetween(day, next);
  const oldFee = feeOfMonth(k, s.baseFee, s.feeChanges);
  const add = extrasTotal(extras);
  // The credit of the swap month (the prorated month and the months after it up to the order's last).
  const credit = creditOfMonth(s.prepaymentCredit, k);
  const newFee = Math.max(0, baseFee + add - credit);
  const adjustment = swapAdjustment(oldFee, newFee, prorateDays, monthDays);
  const q = {
    swap_date: day, billing_month: k, month_start: monthStart, next_charge_date: next, old_fee: oldFee, base_fee: baseFee, option_extras: add,
    prepayment_credit: credit, credit_last_month: credit ? s.prepaymentCredit!.lastMonth : 0, new_fee: newFee,
    prorate_days: prorateDays, month_days: monthDays, adjustment, first_new_month: k + 1, new_fee_from: k + 1 <= s.termMonths ? next : null,
  };
  return { ok: true, quote: { ...q, arithmetic: swapArithmetic(q) } };
}

/** A swap as my page and the confirmation show it (annex_path: its 부속 계약서 under /api). */
export interface SwapView {
  id: number;
  status: 'PENDING' | 'CONFIRMED' | 'CANCELLED';
  swap_date: string;
  from_car: { id: number; name: string };
  to_car: { id: number; name: string };
  billing_month: number;
  first_new_month: number;
  new_fee_from: string | null;
  old_fee: number;
  new_fee: number;
  prorate_days: number;
  month_days: number;
  adjustment: number;
  arithmetic: string;
  created_at: string;
  annex_path: string;
  /** A confirmed swap that may still be cancelled: until when, and what that moves. */
  cancel: { until: string; money: SwapCancelMoney; line: string } | null;
  /** When a confirmed swap was cancelled (null otherwise). */
  cancelled_at: string | null;
}

/**
 * 교체 취소: a CONFIRMED swap may be called off until SWAP_CANCEL_CLOSES_DAYS before its day (staff
 * call off its return and delivery pair). Its money goes back: a charged difference is refunded,
 * a refunded one is charged again to the card, and the fees and cars are as before the swap.
 */
const SWAP_CANCEL_CLOSES_DAYS = 2;

/** The last day a swap on `swapDate` may be cancelled. */
export const swapCancelUntil = (swapDate: string) => addDays(swapDate, -SWAP_CANCEL_CLOSES_DAYS);

/** What the cancellation moves: the difference's charge refunded, the refunded difference charged again, or nothing. */
export type SwapCancelMoney = { kind: 'refund'; amount: number } | { kind: 'charge'; amount: number } | { kind: 'none'; amount: 0 };

/**
 * The money of a cancellation, from what the swap moved: `charged` what its difference's payment
 * still holds (> 0 swaps), `refunded` what its refund gave back (< 0 swaps).
 */
export function swapCancelMoney(adjustment: number, moved: { charged: number; refunded: number }): SwapCancelMoney {
  if (adjustment > 0 && moved.charged > 0) return { kind: 'refund', amount: moved.charged };
  if (adjustment < 0 && moved.refunded > 0) return { kind: 'charge', amount: moved.refunded };
  return { kind: 'none', amount: 0 };
}

/** The cancellation's money in one Korean sentence (my page's question and the message). */
export function swapCancelLine(m: SwapCancelMoney): string {
  if (m.kind === 'refund') return `결제하신 교체 차액 ${won(m.amount)}을 환불해드립니다.`;
  if (m.kind === 'charge') return `환불받으신 교체 차액 ${won(m.amount)}을 등록하신 카드로 다시 결제합니다.`;
  return '오가는 금액은 없습니다.';
}

/** Why a swap cannot be cancelled now (null: it can). */
export function swapCancelRefusal(
  swap: { status: 'PENDING' | 'CONFIRMED' | 'CANCELLED'; swapDate: string },
  sub: { exitDate: string | null; extendedAfterSwap: boolean },
  today: string,
): SwapRefusal | null {
  const refuse = (reason: string): SwapRefusal => ({ ok: false, status: 409, reason });
  if (swap.status === 'PENDING') return refuse('차량 교체 결제를 확인하고 있습니다. 잠시 후 다시 시도해주세요.');
  if (swap.status !== 'CONFIRMED') return refuse('확정된 차량 교체만 취소할 수 있습니다.');
  const until = swapCancelUntil(swap.swapDate);
  if (today > until) return refuse(`차량 교체는 교체일 ${SWAP_CANCEL_CLOSES_DAYS}일 전(${until})까지 취소할 수 있습니다. 고객센터로 문의해주세요.`);
  if (sub.exitDate) return refuse('중도 해지를 신청한 구독은 차량 교체를 취소할 수 없습니다. 고객센터로 문의해주세요.');
  if (sub.extendedAfterSwap) return refuse('차량 교체 뒤에 연장한 구독은 교체를 취소할 수 없습니다. 고객센터로 문의해주세요.');
  return null;
}

/** The fee line in Korean: "2027-04-10부터 (4개월 차부터) 월 1,500,000원". */
export const swapFeeLine = (q: Pick<SwapQuote, 'new_fee_from' | 'first_new_month' | 'new_fee'>) =>
  q.new_fee_from ? `${q.new_fee_from}부터 (${q.first_new_month}개월 차부터) 월 ${won(q.new_fee)}` : '남은 결제 월이 없습니다';

/** The question asked once more before a swap is confirmed: what moves, to the won. */
export function swapConfirmQuestion(q: Pick<SwapQuote, 'adjustment' | 'new_fee' | 'new_fee_from' | 'first_new_month'> & { car_name: string }): string {
  const money = q.adjustment > 0 ? `교체 차액 ${withParticle(won(q.adjustment), '을/를')} 등록하신 카드로 지금 결제합니다.` : q.adjustment < 0 ? `교체 차액 ${withParticle(won(-q.adjustment), '을/를')} 환불해드립니다.` : '오가는 차액은 없습니다.';
  return [`${withParticle(q.car_name, '으로/로')} 차량 교체를 확정하시겠습니까?`, money, `새 월 구독료: ${swapFeeLine(q)}`].join('\n');
}

/** The kept 선납금 credit in Korean ("선납금 차감 월 500,000원 유지 (12개월 차까지)"), or null when the order has none. */
export const swapCreditLine = (q: Pick<SwapQuote, 'prepayment_credit' | 'credit_last_month'>) =>
  q.prepayment_credit > 0 ? `선납금 차감 월 ${won(q.prepayment_credit)} 유지 (${q.credit_last_month}개월 차까지)` : null;

/** The rule in Korean sentences (terms, FAQ, my page). */
export const SWAP_RULE_LINES = [
  `이용 중인 구독은 마이페이지에서 다른 차량으로 교체를 신청할 수 있습니다. 교체일은 오늘로부터 ${SWAP_NOTICE_DAYS}일 이후, 이미 결제된 이용 기간 안(다음 결제일 전날까지)에서 고르며, 계약 종료일 ${SWAP_CLOSES_DAYS}일 전까지만 가능합니다.`,
  `교체는 결제 월마다 ${SWAPS_PER_BILLING_MONTH}번까지, 한 번에 하나만 신청할 수 있습니다. 연체된 요금이 있거나 중도 해지를 신청한 구독은 교체할 수 없습니다.`,
  '새 차량은 교체일부터 계약 종료일까지 다른 일정이 없어야 하며, 새 월 구독료는 신청 시점의 새 차량 월 구독료(같은 구독 기간)에 처음 계약한 옵션의 월 요금을 더하고, 선납금이 있으면 처음 계약한 기간의 남은 달에 같은 월 차감을 그대로 적용한 금액입니다. 선납금은 차량이 아니라 구독에 속하므로 교체해도 사라지지 않으며, 쿠폰은 적용되지 않습니다.',
  '교체일이 속한 결제 월은 일할 계산합니다: (새 월 구독료 - 현재 월 구독료) × 교체일부터 다음 결제일 전날까지의 일수 / 그 결제 월의 일수. 10원 미만은 버리며, 추가 결제 금액은 확정할 때 등록한 카드로 한 번 결제되고 환불 금액은 그 달 결제에서 한 번 환불됩니다.',
  '다음 결제 월부터 새 월 구독료가 같은 결제일에 결제됩니다. 교체일에 기존 차량 반납과 새 차량 인도가 함께 진행되며, 교체가 확정되면 부속 계약서가 발행됩니다.',
  `확정된 교체는 교체일 ${SWAP_CANCEL_CLOSES_DAYS}일 전까지 마이페이지에서 취소할 수 있습니다. 결제한 차액은 환불되고 환불받은 차액은 다시 결제되며, 차량과 월 구독료는 교체 전으로 돌아갑니다.`,
];
