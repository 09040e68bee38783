import { addDays } from './dates';
import { won } from './money';
import type { BillingStatus } from './payments';
import { termEnd } from './term';

/**
 * 구독 연장 (extension): the one rule the quote, the confirmation, the annex, the terms, the FAQ
 * and my page use (docs/decisions/extension.md).
 *
 * - When: an active subscription (not overdue, not cancelled, no 중도 해지 asked for) from
 *   EXTENSION_OPENS_DAYS (60) days before its end date up to EXTENSION_CLOSES_DAYS (7) days before it.
 * - How long: one of the car's terms that has a fee today.
 * - The new end date: the original term's arithmetic over the longer term, from the start date
 *   (termEnd(start, months so far + added)); so billing month k keeps its charge day.
 * - The monthly fee of the added months: the car's fee today for the chosen term + the order's
 *   monthly option extras as stored with it (주행거리 플랜, 만 21~25세, 추가 운전자). No coupon;
 *   the 선납금 credit belonged to the original term and does not carry over.
 * - From which billing month: the month after the last one of the current term.
 */
const EXTENSION_OPENS_DAYS = 60;
const EXTENSION_CLOSES_DAYS = 7;

export interface ExtensionSubscription {
  startDate: string;
  endDate: string;
  /** Billing months so far: the order's months + earlier extensions. */
  termMonths: number;
  isActive: boolean;
  billingStatus: BillingStatus;
  /** 중도 해지 asked for (or done). */
  exitDate: string | null;
}

/** A term the car offers today and its monthly fee (won, before options). */
export interface TermFee {
  months: number;
  fee: number;
}

/** The order's monthly option extras (won a month; may be negative, e.g. a smaller mileage plan). */
export interface OptionExtras {
  mileage_monthly: number;
  young_driver_monthly: number;
  extra_drivers_monthly: number;
}

export const NO_EXTRAS: OptionExtras = { mileage_monthly: 0, young_driver_monthly: 0, extra_drivers_monthly: 0 };

export interface ExtensionQuote {
  months: number;
  /** The end date now, and the day the extension starts (the day after). */
  current_end_date: string;
  from_date: string;
  new_end_date: string;
  /** The car's fee today for a term of `months`. */
  base_fee: number;
  /** The order's monthly option extras (sum). */
  option_extras: number;
  /** Each added month's fee: base_fee + option_extras (never below 0). */
  monthly_fee: number;
  /** Billing months the fee applies to (1 = the subscription's first). */
  first_month: number;
  last_month: number;
  /** Billing months in all after the extension. */
  term_months: number;
}

export type ExtensionRefusal = { ok: false; status: 409 | 422; reason: string };

/** The days one may ask for an extension of a subscription ending on `endDate`. */
export function extensionWindow(endDate: string): { opens: string; closes: string } {
  return { opens: addDays(endDate, -EXTENSION_OPENS_DAYS), closes: addDays(endDate, -EXTENSION_CLOSES_DAYS) };
}

export const extrasTotal = (x: OptionExtras) => x.mileage_monthly + x.young_driver_monthly + x.extra_drivers_monthly;

/** Why the subscription cannot be extended today at all (409), or null. */
function extensionRefusal(s: ExtensionSubscription, terms: readonly TermFee[], today: string): ExtensionRefusal | null {
  if (s.billingStatus === 'PAST_DUE' || s.billingStatus === 'OVERDUE') return { ok: false, status: 409, reason: '연체된 요금을 먼저 결제해주세요.' };
  if (s.exitDate) return { ok: false, status: 409, reason: '중도 해지를 신청한 구독은 연장할 수 없습니다.' };
  if (!s.isActive || s.billingStatus === 'CANCELLED' || today > s.endDate) return { ok: false, status: 409, reason: '이용 중인 구독만 연장할 수 있습니다.' };
  const { opens, closes } = extensionWindow(s.endDate);
  if (today < opens) return { ok: false, status: 409, reason: `연장은 계약 종료일 ${EXTENSION_OPENS_DAYS}일 전인 ${opens}부터 신청할 수 있습니다.` };
  if (today > closes) return { ok: false, status: 409, reason: `연장 신청은 계약 종료일 ${EXTENSION_CLOSES_DAYS}일 전인 ${closes}까지 가능합니다. 고객센터로 문의해주세요.` };
  if (!terms.length) return { ok: false, status: 409, reason: '이 차량은 지금 연장할 수 있는 기간이 없습니다. 고객센터로 문의해주세요.' };
  return null;
}

/** The quote for adding `months`, or why not (409: the subscription or the day; 422: the months). */
export function extensionQuote(s: ExtensionSubscription, terms: readonly TermFee[], extras: OptionExtras, months: number, today: string): { ok: true; quote: ExtensionQuote } | ExtensionRefusal {
  const refusal = extensionRefusal(s, terms, today);
  if (refusal) return refusal;
  const term = terms.find((t) => t.months === months);
  if (!term) return { ok: false, status: 422, reason: `연장 기간은 ${terms.map((t) => `${t.months}개월`).join(', ')} 중에서 선택해주세요.` };
  const total = s.termMonths + months;
  const newEnd = termEnd(s.startDate, total);
  if (newEnd <= s.endDate) return { ok: false, status: 409, reason: '계약 종료일이 조정된 구독입니다. 고객센터로 연장을 문의해주세요.' };
  const add = extrasTotal(extras);
  return {
    ok: true,
    quote: {
      months, current_end_date: s.endDate, from_date: addDays(s.endDate, 1), new_end_date: newEnd,
      base_fee: term.fee, option_extras: add, monthly_fee: Math.max(0, term.fee + add),
      first_month: s.termMonths + 1, last_month: total, term_months: total,
    },
  };
}

/** The quotes of every term the car offers, or why none. */
export function extensionChoices(s: ExtensionSubscription, terms: readonly TermFee[], extras: OptionExtras, today: string): { ok: true; choices: ExtensionQuote[] } | ExtensionRefusal {
  const refusal = extensionRefusal(s, terms, today);
  if (refusal) return refusal;
  const choices = terms.map((t) => extensionQuote(s, terms, extras, t.months, today)).flatMap((a) => (a.ok ? [a.quote] : []));
  return choices.length ? { ok: true, choices } : { ok: false, status: 409, reason: '계약 종료일이 조정된 구독입니다. 고객센터로 연장을 문의해주세요.' };
}

/**
 * A fee change as billing reads it: the billing months it covers and their fee. An extension covers
 * its added months; a CONFIRMED 차량 교체 (src/domain/swap.ts) covers every month from its
 * first_new_month on (lastMonth: Infinity). `madeAt` (ISO instant) orders them: where two cover a
 * month, the most recently made wins.
 */
export interface ExtensionFee {
  firstMonth: number;
  lastMonth: number;
  monthlyFee: number;
  /** When it was made (ISO); absent sorts first. */
  madeAt?: string;
}

/**
 * The fee of billing month `month`: of the changes covering it (extensions, confirmed swaps), the
 * most recently made; else the order's monthly fee. The one function every charge, reminder, early
 * exit quote and my page reads (docs/decisions/swap.md).
 */
export function feeOfMonth(month: number, baseFee: number, changes: readonly ExtensionFee[]): number {
  let best: ExtensionFee | undefined;
  for (const c of changes) {
    if (c.firstMonth > month || month > c.lastMonth) continue;
    if (!best || (c.madeAt ?? '') >= (best.madeAt ?? '')) best = c;
  }
  return best?.monthlyFee ?? baseFee;
}

/** The fee line in Korean: "2027-03-10부터 (13개월 차부터) 월 1,230,000원". */
export const extensionFeeLine = (q: Pick<ExtensionQuote, 'first_month' | 'from_date' | 'monthly_fee'>) => `${q.from_date}부터 (${q.first_month}개월 차부터) 월 ${won(q.monthly_fee)}`;

/** The rule in Korean sentences (terms, FAQ, my page). */
export const EXTENSION_RULE_LINES = [
  `구독 연장은 계약 종료일 ${EXTENSION_OPENS_DAYS}일 전부터 ${EXTENSION_CLOSES_DAYS}일 전까지 마이페이지에서 신청할 수 있습니다. 연체된 요금이 있거나 중도 해지를 신청한 구독은 연장할 수 없습니다.`,
  '연장 기간은 신청 시점에 차량이 제공하는 구독 기간 중에서 선택하며, 그 기간 동안 차량에 다른 예약이 없어야 합니다.',
  '연장 기간의 월 구독료는 신청 시점의 해당 기간 월 구독료에 처음 계약한 옵션(주행거리 플랜, 운전자 연령, 추가 운전자)의 월 요금을 더한 금액입니다. 쿠폰과 선납금 차감은 적용되지 않습니다.',
  '새 종료일은 구독 시작일부터 전체 개월 수로 계산하며, 연장 월 구독료는 기존 계약 기간 다음 결제 월부터 같은 결제일에 등록한 카드로 결제됩니다.',
  '연장이 확정되면 부속 계약서가 발행되며, 부속 계약서에 정하지 않은 사항은 원 계약의 조건을 따릅니다.',
];
