import { couponRefusal, type CouponHolding } from './pricing';
import { won } from './money';

/** What a held coupon's card says about it. */
export type CouponState = '사용 가능' | '사용 예정' | '사용 완료' | '기간 만료';

/**
 * The state of a held coupon on a day (YYYY-MM-DD): used first, then past its end, then not
 * yet started (사용 예정), else usable; a coupon the server no longer honours reads as expired.
 */
export function couponState(h: Pick<CouponHolding, 'is_used' | 'is_valid'> & { coupon: Pick<CouponHolding['coupon'], 'valid_from' | 'valid_to'> }, today: string): CouponState {
  if (h.is_used) return '사용 완료';
  const refusal = couponRefusal(h.coupon, today);
  if (refusal === 'EXPIRED') return '기간 만료';
  if (refusal === 'NOT_YET') return '사용 예정';
  return h.is_valid ? '사용 가능' : '기간 만료';
}

/** Whether a coupon belongs in the wallet's first list (usable now or later) rather than used-or-expired. */
export const couponHeld = (state: CouponState) => state === '사용 가능' || state === '사용 예정';

/**
 * A coupon's price condition as the customer reads it, in its service's words: a subscription
 * coupon is checked against the monthly fee, a butler one against the booking's base fee (8 hours).
 */
export function couponConditionText(c: Pick<CouponHolding['coupon'], 'min_price' | 'max_price' | 'service'>): string | null {
  if (c.min_price === null && c.max_price === null) return null;
  const min = c.min_price !== null ? `${won(c.min_price)} 이상` : '';
  const max = c.max_price !== null ? `${won(c.max_price)} 이하` : '';
  const basis = c.service === 'BUTLER' ? '의전 기본 요금(8시간)' : '월 구독료';
  return `${basis} ${[min, max].filter(Boolean).join(' ')}`;
}
