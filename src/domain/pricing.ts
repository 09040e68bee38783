/** Points are spent in whole steps of this many won. */
export const POINT_STEP = 10_000;

export type DiscountType = 'PERCENTAGE' | 'FIXED' | 'FREE';

export interface CouponTerms {
  discount_type: DiscountType;
  /** Percent, 0–100, for PERCENTAGE. */
  discount_rate: number | null;
  /** Won, for FIXED. */
  discount: number | null;
  min_price: number | null;
  max_price: number | null;
  valid_from: string | null;
  valid_to: string | null;
}

/** Discount in won a coupon gives on an amount: PERCENTAGE floors, FIXED is capped at the amount, FREE is all. */
export function couponDiscount(coupon: Pick<CouponTerms, 'discount_type' | 'discount_rate' | 'discount'>, amount: number): number {
  if (amount <= 0) return 0;
  switch (coupon.discount_type) {
    case 'PERCENTAGE':
      return Math.min(amount, Math.floor((amount * (coupon.discount_rate ?? 0)) / 100));
    case 'FIXED':
      return Math.min(amount, Math.max(0, coupon.discount ?? 0));
    case 'FREE':
      return amount;
  }
}

/** Why a coupon cannot be used: its first day is still ahead, its last day has passed, or the price is outside its min/max. */
export type CouponRefusal = 'NOT_YET' | 'EXPIRED' | 'PRICE';

/** The terms the coupon rule reads; a point coupon has a period but no price range. */
export type CouponWindow = Pick<CouponTerms, 'valid_from' | 'valid_to'> & Partial<Pick<CouponTerms, 'min_price' | 'max_price'>>;

const isSet = (v: number | null | undefined): v is number => v !== null && v !== undefined;

/**
 * The one coupon rule, used by the API and every page: a coupon holds from the start of its
 * valid_from day to the end of its valid_to day, in Korean calendar days (`today` is
 * todayInKorea(); a bound that carries a time counts by its date), and, when a price in won is
 * given, only for prices within its optional min/max. Null when the coupon may be used.
 */
export function couponRefusal(coupon: CouponWindow, today: string, price?: number): CouponRefusal | null {
  const day = today.slice(0, 10);
  if (coupon.valid_to && coupon.valid_to.slice(0, 10) < day) return 'EXPIRED';
  if (coupon.valid_from && coupon.valid_from.slice(0, 10) > day) return 'NOT_YET';
  if (price !== undefined && ((isSet(coupon.min_price) && price < coupon.min_price) || (isSet(coupon.max_price) && price > coupon.max_price))) return 'PRICE';
  return null;
}

/**
 * The one point rule (spec: points are used in 10,000-won units): the most of `wanted` won that
 * fits under `cap`, in whole steps, never below 0.
 */
export function roundPoints(wanted: number, cap = Number.POSITIVE_INFINITY): number {
  const most = Math.min(Math.max(0, wanted), Math.max(0, cap));
  return Math.floor(most / POINT_STEP) * POINT_STEP;
}

/** Points actually applied for what the user typed: digits only, floored to 10,000, capped at the balance. */
export function applicablePoints(typed: string | number, balance: number): number {
  const digits = String(typed).replace(/\D/g, '');
  return roundPoints(digits ? Number(digits) : 0, balance);
}

/** Final price in won: amount minus coupon discount minus points, never below 0. */
export function finalPrice(amount: number, couponOff: number, points: number): number {
  return Math.max(0, amount - couponOff - points);
}

/** Largest points in won usable on an amount: the balance and the amount, floored to 10,000. */
export function maxUsablePoints(amount: number, balance: number): number {
  return roundPoints(amount, balance);
}

export interface SubscriptionQuote {
  /** Monthly fee for the term, won. */
  fee: number;
  couponDiscount: number;
  points: number;
  /** fee − coupon − points, never below 0. */
  final: number;
}

/** The price of a subscription request: the one function the order page and the server both use. */
export function quoteSubscription(fee: number, coupon: Pick<CouponTerms, 'discount_type' | 'discount_rate' | 'discount'> | null, points: number): SubscriptionQuote {
  const off = coupon ? couponDiscount(coupon, fee) : 0;
  const used = Math.max(0, points);
  return { fee, couponDiscount: off, points: used, final: finalPrice(fee, off, used) };
}

/** A held coupon as the API returns it (GET /subscriptions/coupons). */
export interface CouponHolding {
  id: number;
  is_valid: boolean;
  is_used: boolean;
  coupon: CouponTerms & { id: number; name: string; code: string; description: string | null; service: string };
}

/** Whether a held coupon may be chosen for a fee on a day: valid, unused, in period, min/max admit the fee. */
export function couponSelectable(h: CouponHolding, fee: number, today: string): boolean {
  return h.is_valid && !h.is_used && couponRefusal(h.coupon, today, fee) === null;
}

/** A coupon as the API shows it (GET /subscriptions/coupons/{code}, and inside a held coupon). */
type Coupon = CouponHolding['coupon'];

/** GET /subscriptions/coupons and GET /butlers/coupons: the held coupons of a service. */
export interface CouponListAnswer {
  coupons: CouponHolding[];
}

/** POST /subscriptions/coupons/{code}: the coupon just claimed. */
export interface CouponClaimAnswer {
  coupon: CouponHolding;
}

/** GET /subscriptions/coupons/{code}: a coupon looked up by code. */
export interface CouponAnswer {
  coupon: Coupon;
}
