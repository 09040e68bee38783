import { formatNumber, won } from './money';
import { couponDiscount, finalPrice, type CouponTerms } from './pricing';

/**
 * A subscription order's options and its whole price (issue 38): the one rule the car page, the
 * order page, the order API and the contract use. Money in whole won. The rules are written out in
 * docs/decisions/pricing.md.
 */

/** A mileage plan: km a month included, and what it adds to the monthly fee (negative lowers it). */
export interface MileagePlan {
  km: number;
  monthly: number;
}

/** A car's option prices as staff set them in the console (cars.option_prices); null fields read as the derived defaults. */
export interface CarOptionPrices {
  /** 1–5 plans, km ascending and distinct. */
  mileage_plans: MileagePlan[];
  /** Won per km driven over the plan's monthly km (settled at return). */
  overage_per_km: number;
  /** Added to the monthly fee when the youngest driver is 만 21–25세. */
  young_driver_monthly: number;
  /** Added to the monthly fee per additional driver. */
  extra_driver_monthly: number;
  /** Most additional drivers (0 = none allowed). */
  extra_driver_max: number;
  /** Refundable 보증금 paid with the first month; null = this car takes none. */
  deposit: number | null;
  /** Largest 선납금; null = this car offers none. */
  prepayment_max: number | null;
  /** Insurance 자기부담금 per accident. */
  deductible: number;
}

/** The plan km the FAQ names as the default. */
export const DEFAULT_MILEAGE_KM = 2_500;
/** 탁송 outside 서울·경기: delivery at the start and collection at the end, charged once with the first payment. */
export const REGIONAL_DELIVERY_FEE = 150_000;
/** 선납금 is chosen in steps of this many won. */
export const PREPAYMENT_STEP = 1_000_000;
/** The monthly credit of a 선납금 may take at most this share of the monthly fee before it. */
export const PREPAYMENT_MAX_SHARE = 0.5;
/** Youngest driver bands. */
export const DRIVER_AGES = ['AGE_26', 'AGE_21'] as const;
export type DriverAge = (typeof DRIVER_AGES)[number];
export const DRIVER_AGE_LABEL: Record<DriverAge, string> = { AGE_26: '만 26세 이상', AGE_21: '만 21~25세' };
/** How the car is handed over: at the lounge, or 탁송 to an address. */
export const HANDOVERS = ['PICKUP', 'DELIVERY'] as const;
export type Handover = (typeof HANDOVERS)[number];
/** 탁송 time windows on the start day. */
export const DELIVERY_WINDOWS = ['MORNING', 'AFTERNOON', 'EVENING'] as const;
export type DeliveryWindow = (typeof DELIVERY_WINDOWS)[number];
export const DELIVERY_WINDOW_LABEL: Record<DeliveryWindow, string> = { MORNING: '오전 09:00~12:00', AFTERNOON: '오후 13:00~16:00', EVENING: '오후 16:00~19:00' };
/** Where a 탁송 goes, for its fee: 서울·경기 (free) or elsewhere. */
export type DeliveryZone = 'CAPITAL' | 'OTHER';
/** Longest delivery address. */
export const MAX_DELIVERY_ADDRESS = 200;

/** What the customer chose. The delivery day is the term's first day (the requested start). */
export interface SubscriptionOptions {
  mileage_km: number;
  driver_age: DriverAge;
  extra_drivers: number;
  handover: Handover;
  /** With DELIVERY: the address from the postcode search (or typed). */
  delivery_address: string | null;
  delivery_window: DeliveryWindow | null;
  /** 선납금 in won (0 = none). */
  prepayment: number;
}

/** Rounded to a whole number of `step` won (nearest). */
const roundTo = (n: number, step: number) => Math.round(n / step) * step;

/** The fee defaults are derived from: the car's lowest monthly fee, or 1,000,000 won when it has none. */
function baseOf(car: { subscription_fee_minimum?: number | null }): number {
  const fee = car.subscription_fee_minimum;
  return typeof fee === 'number' && fee > 0 ? fee : 1_000_000;
}

/**
 * Option prices for a car staff have not priced yet, derived from its lowest monthly fee (b):
 * plans 1,500km −5% b, 2,500km ±0, 4,000km +8% b (each to 10,000 won); overage b/5,000 a km (to
 * 10 won, at least 100); 만 21~25세 +10% b (to 10,000 won); an extra driver 50,000 won, at most 2;
 * 자기부담금 300,000 / 500,000 (b ≥ 2,000,000) / 1,000,000 (b ≥ 5,000,000) won. 보증금 and 선납금 are
 * off until staff enable them for the car.
 */
export function defaultOptionPrices(car: { subscription_fee_minimum?: number | null }): CarOptionPrices {
  const b = baseOf(car);
  return {
    mileage_plans: [
      { km: 1_500, monthly: -roundTo(b * 0.05, 10_000) },
      { km: DEFAULT_MILEAGE_KM, monthly: 0 },
      { km: 4_000, monthly: roundTo(b * 0.08, 10_000) },
    ],
    overage_per_km: Math.max(100, roundTo(b / 5_000, 10)),
    young_driver_monthly: roundTo(b * 0.1, 10_000),
    extra_driver_monthly: 50_000,
    extra_driver_max: 2,
    deposit: null,
    prepayment_max: null,
    deductible: b >= 5_000_000 ? 1_000_000 : b >= 2_000_000 ? 500_000 : 300_000,
  };
}

/** A car's option prices: what staff set, else the derived defaults. */
export function carOptionPrices(car: { option_prices?: CarOptionPrices | null; subscription_fee_minimum?: number | null }): CarOptionPrices {
  return car.option_prices ?? defaultOptionPrices(car);
}

/** The plan a page starts on: 2,500km when the car has it, else the one adding nothing, else the first. */
export function defaultPlan(prices: CarOptionPrices): MileagePlan {
  const plans = prices.mileage_plans;
  return plans.find((p) => p.km === DEFAULT_MILEAGE_KM) ?? plans.find((p) => p.monthly === 0) ?? plans[0];
}

/** What a page starts with: the default plan, 만 26세 이상, no extra driver, pickup at the lounge, no 선납금. */
export function defaultOptions(prices: CarOptionPrices): SubscriptionOptions {
  return { mileage_km: defaultPlan(prices).km, driver_age: 'AGE_26', extra_drivers: 0, handover: 'PICKUP', delivery_address: null, delivery_window: null, prepayment: 0 };
}

/** 서울·경기 or elsewhere, read from the address the postcode search gives (it starts with the 시·도). */
export function deliveryZone(address: string): DeliveryZone {
  return /^\s*(서울|경기)/.test(address) ? 'CAPITAL' : 'OTHER';
}

/** The 탁송 fee: 0 for pickup or 서울·경기, REGIONAL_DELIVERY_FEE elsewhere. */
function deliveryFee(handover: Handover, zone: DeliveryZone | null): number {
  return handover === 'DELIVERY' && zone === 'OTHER' ? REGIONAL_DELIVERY_FEE : 0;
}

/** What the price depends on; the car page prices a zone before an address is known. */
export type PricedOptions = Pick<SubscriptionOptions, 'mileage_km' | 'driver_age' | 'extra_drivers' | 'handover' | 'prepayment'> & {
  /** The delivery's zone (from the address when there is one); ignored for pickup. */
  zone: DeliveryZone | null;
};

/** The priced options of a choice: the zone read from its address. */
export function pricedOptions(o: SubscriptionOptions): PricedOptions {
  return { ...o, zone: o.handover === 'DELIVERY' && o.delivery_address ? deliveryZone(o.delivery_address) : null };
}

export interface SubscriptionOrderQuote {
  month: number;
  /** The car's monthly fee for the term. */
  base_fee: number;
  mileage_monthly: number;
  young_driver_monthly: number;
  extra_drivers_monthly: number;
  /** Monthly credit of the 선납금: prepayment ÷ months, below a won dropped. */
  prepayment_credit: number;
  /** Each month's fee with the options (months 2…n are charged this). */
  monthly: number;
  /** On the first month only. */
  coupon_discount: number;
  points: number;
  /** monthly − coupon − points, never below 0. */
  first_month: number;
  delivery_fee: number;
  /** Refundable; paid today, back after the return. */
  deposit: number;
  prepayment: number;
  /** first month + 탁송비 + 보증금 + 선납금: charged with the order. */
  paid_today: number;
  /** Months after the first (each `monthly`). */
  later_months: number;
  /** What the term costs: everything paid except the refundable 보증금. */
  term_total: number;
  /** paid_today (what the order charges when it is placed). */
  final: number;
}

export interface QuoteInput {
  month: number;
  /** The car's monthly fee for the term. */
  fee: number;
  prices: CarOptionPrices;
  options: PricedOptions;
  coupon?: Pick<CouponTerms, 'discount_type' | 'discount_rate' | 'discount'> | null;
  /** Points in won (already checked and rounded by the caller). */
  points?: number;
}

/** The option lines of the monthly fee, before the 선납금 credit. */
function monthlyBeforeCredit({ fee, prices, options }: Pick<QuoteInput, 'fee' | 'prices' | 'options'>) {
  const plan = prices.mileage_plans.find((p) => p.km === options.mileage_km);
  const mileage = plan?.monthly ?? 0;
  const young = options.driver_age === 'AGE_21' ? prices.young_driver_monthly : 0;
  const drivers = Math.max(0, options.extra_drivers) * prices.extra_driver_monthly;
  return { mileage, young, drivers, total: Math.max(0, fee + mileage + young + drivers) };
}

/**
 * The whole price of a subscription order. Options change every month's fee (plan, age band,
 * drivers, less the 선납금 spread over the term's months); the coupon and points apply to the first
 * month only; 탁송비, 보증금 and 선납금 are paid today with it. Call optionRefusal first.
 */
export function quoteSubscriptionOrder(input: QuoteInput): SubscriptionOrderQuote {
  const { month, fee, options } = input;
  const months = Math.max(1, month);
  const before = monthlyBeforeCredit(input);
  const prepayment = Math.max(0, options.prepayment);
  const credit = Math.floor(prepayment / months);
  const monthly = Math.max(0, before.total - credit);
  const off = input.coupon ? couponDiscount(input.coupon, monthly) : 0;
  const points = Math.max(0, input.points ?? 0);
  const first = finalPrice(monthly, off, points);
  const delivery = deliveryFee(options.handover, options.zone);
  const deposit = input.prices.deposit ?? 0;
  const paidToday = first + delivery + deposit + prepayment;
  return {
    month: months, base_fee: fee, mileage_monthly: before.mileage, young_driver_monthly: before.young, extra_drivers_monthly: before.drivers,
    prepayment_credit: credit, monthly, coupon_discount: off, points, first_month: first, delivery_fee: delivery, deposit, prepayment,
    paid_today: paidToday, later_months: months - 1, term_total: paidToday - deposit + monthly * (months - 1), final: paidToday,
  };
}

/** The 선납금 amounts a page offers for a term: 0, then each step up to the car's maximum whose credit the rule admits. */
export function prepaymentChoices(input: Pick<QuoteInput, 'month' | 'fee' | 'prices' | 'options'>): number[] {
  const max = input.prices.prepayment_max ?? 0;
  const out = [0];
  for (let p = PREPAYMENT_STEP; p <= max; p += PREPAYMENT_STEP) if (prepaymentRefusal({ ...input, options: { ...input.options, prepayment: p } }) === null) out.push(p);
  return out;
}

function prepaymentRefusal({ month, fee, prices, options }: Pick<QuoteInput, 'month' | 'fee' | 'prices' | 'options'>): string | null {
  const p = options.prepayment;
  if (p === 0) return null;
  if (prices.prepayment_max === null || prices.prepayment_max <= 0) return '이 차량은 선납금을 받지 않습니다.';
  if (p < 0 || p % PREPAYMENT_STEP !== 0) return `선납금은 ${won(PREPAYMENT_STEP)} 단위로 선택해주세요.`;
  if (p > prices.prepayment_max) return `이 차량의 선납금은 최대 ${won(prices.prepayment_max)}입니다.`;
  const credit = Math.floor(p / Math.max(1, month));
  if (credit > monthlyBeforeCredit({ fee, prices, options }).total * PREPAYMENT_MAX_SHARE) return '선납금의 월 차감액은 월 구독료의 50%를 넘을 수 없습니다. 선납금을 줄이거나 기간을 늘려주세요.';
  return null;
}

/** A refusal of a choice for this car and term, keyed by the field, in Korean; null when it can be ordered. */
export function optionRefusal(input: Pick<QuoteInput, 'month' | 'fee' | 'prices'> & { options: SubscriptionOptions }): { field: keyof SubscriptionOptions; message: string } | null {
  const { prices, options } = input;
  if (!prices.mileage_plans.some((p) => p.km === options.mileage_km)) {
    return { field: 'mileage_km', message: `이 차량에 없는 주행거리 플랜입니다. (${prices.mileage_plans.map((p) => `월 ${formatNumber(p.km)}km`).join(' / ')})` };
  }
  if (options.extra_drivers < 0 || options.extra_drivers > prices.extra_driver_max) {
    return { field: 'extra_drivers', message: prices.extra_driver_max === 0 ? '이 차량은 추가 운전자를 등록할 수 없습니다.' : `추가 운전자는 최대 ${prices.extra_driver_max}명까지 등록할 수 있습니다.` };
  }
  if (options.handover === 'DELIVERY') {
    if (!options.delivery_address?.trim()) return { field: 'delivery_address', message: '탁송 받을 주소를 입력해주세요.' };
    if (!options.delivery_window) return { field: 'delivery_window', message: '탁송 시간대를 선택해주세요.' };
  }
  const prepay = prepaymentRefusal({ ...input, options: pricedOptions(options) });
  if (prepay) return { field: 'prepayment', message: prepay };
  return null;
}

/** What a subscription request keeps of its options: the choice, the car's prices then, and the quote the first payment was charged by. */
export interface StoredOrderOptions {
  options: SubscriptionOptions;
  prices: CarOptionPrices;
  quote: SubscriptionOrderQuote;
}

/** The options in a page address (car page → /inquire, kept through login): km, age, drivers, handover, zone, prepay. */
export function optionsQuery(o: Pick<SubscriptionOptions, 'mileage_km' | 'driver_age' | 'extra_drivers' | 'handover' | 'prepayment'>, zone: DeliveryZone | null = null): string {
  const q = new URLSearchParams({ km: String(o.mileage_km), age: o.driver_age === 'AGE_21' ? '21' : '26', drivers: String(o.extra_drivers), handover: o.handover.toLowerCase() });
  if (o.handover === 'DELIVERY' && zone) q.set('zone', zone.toLowerCase());
  if (o.prepayment > 0) q.set('prepay', String(o.prepayment));
  return q.toString();
}

/** The options an address carries, over the defaults; anything unreadable keeps the default (the order page checks the rest). */
export function optionsFromQuery(params: URLSearchParams, prices: CarOptionPrices): { options: SubscriptionOptions; zone: DeliveryZone | null } {
  const o = defaultOptions(prices);
  const int = (k: string) => (/^\d{1,10}$/.test(params.get(k) ?? '') ? Number(params.get(k)) : null);
  const km = int('km');
  if (km !== null && prices.mileage_plans.some((p) => p.km === km)) o.mileage_km = km;
  if (params.get('age') === '21') o.driver_age = 'AGE_21';
  const drivers = int('drivers');
  if (drivers !== null && drivers <= prices.extra_driver_max) o.extra_drivers = drivers;
  if (params.get('handover') === 'delivery') o.handover = 'DELIVERY';
  const prepay = int('prepay');
  if (prepay !== null && prices.prepayment_max !== null && prepay <= prices.prepayment_max && prepay % PREPAYMENT_STEP === 0) o.prepayment = prepay;
  const zone = o.handover === 'DELIVERY' ? (params.get('zone') === 'other' ? 'OTHER' : params.get('zone') === 'capital' ? 'CAPITAL' : null) : null;
  return { options: o, zone };
}
