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

/** Whether a price in won lies within a coupon's optional min/max range. */
export function couponAdmitsPrice(coupon: Pick<CouponTerms, 'min_price' | 'max_price'>, price: number): boolean {
  if (coupon.min_price !== null && coupon.min_price !== undefined && price < coupon.min_price) return false;
  if (coupon.max_price !== null && coupon.max_price !== undefined && price > coupon.max_price) return false;
  return true;
}

/** Whether a coupon's validity window contains a date (YYYY-MM-DD or ISO). */
export function couponInPeriod(coupon: Pick<CouponTerms, 'valid_from' | 'valid_to'>, today: string): boolean {
  const day = today.slice(0, 10);
  if (coupon.valid_from && coupon.valid_from.slice(0, 10) > day) return false;
  if (coupon.valid_to && coupon.valid_to.slice(0, 10) < day) return false;
  return true;
}

/** Points actually applied for what the user typed: digits only, floored to 10,000, capped at the balance. */
export function applicablePoints(typed: string | number, balance: number): number {
  const digits = String(typed).replace(/\D/g, '');
  const wanted = digits ? Number(digits) : 0;
  const capped = Math.min(wanted, Math.max(0, balance));
  return Math.floor(capped / POINT_STEP) * POINT_STEP;
}

/** Final price in won: amount minus coupon discount minus points, never below 0. */
export function finalPrice(amount: number, couponOff: number, points: number): number {
  return Math.max(0, amount - couponOff - points);
}

/** Largest points in won usable on an amount: the balance and the amount, floored to 10,000. */
export function maxUsablePoints(amount: number, balance: number): number {
  return applicablePoints(Math.max(0, Math.min(amount, balance)), balance);
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
  return h.is_valid && !h.is_used && couponInPeriod(h.coupon, today) && couponAdmitsPrice(h.coupon, fee);
}
