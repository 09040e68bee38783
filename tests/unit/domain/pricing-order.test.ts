import { describe, expect, it } from 'vitest';
import { couponSelectable, maxUsablePoints, quoteSubscription, type CouponHolding } from '../../../src/domain/pricing';

const holding = (over: Partial<CouponHolding['coupon']> = {}, h: Partial<CouponHolding> = {}): CouponHolding => ({
  id: 1, is_valid: true, is_used: false, ...h,
  coupon: { id: 1, name: 'c', code: 'C', description: null, service: 'SUBSCRIBE', discount_type: 'FIXED', discount_rate: null, discount: 100_000, valid_from: null, valid_to: null, min_price: null, max_price: null, ...over },
});

describe('quoteSubscription', () => {
  it('fee − coupon − points, PERCENTAGE floors', () => {
    expect(quoteSubscription(3_333_333, { discount_type: 'PERCENTAGE', discount_rate: 10, discount: null }, 20_000)).toEqual({ fee: 3_333_333, couponDiscount: 333_333, points: 20_000, final: 2_980_000 });
  });
  it('FIXED and FREE never below 0', () => {
    expect(quoteSubscription(100_000, { discount_type: 'FIXED', discount_rate: null, discount: 500_000 }, 0).final).toBe(0);
    expect(quoteSubscription(100_000, { discount_type: 'FREE', discount_rate: null, discount: null }, 0)).toMatchObject({ couponDiscount: 100_000, final: 0 });
    expect(quoteSubscription(100_000, null, 200_000).final).toBe(0);
  });
});

describe('maxUsablePoints', () => {
  it('caps at balance and amount, floored to 10,000', () => {
    expect(maxUsablePoints(3_000_000, 125_000)).toBe(120_000);
    expect(maxUsablePoints(95_000, 1_000_000)).toBe(90_000);
    expect(maxUsablePoints(0, 50_000)).toBe(0);
  });
});

describe('couponSelectable', () => {
  const today = '2026-06-15';
  it('only valid, unused, in-period coupons whose range admits the fee', () => {
    expect(couponSelectable(holding(), 3_000_000, today)).toBe(true);
    expect(couponSelectable(holding({}, { is_used: true }), 3_000_000, today)).toBe(false);
    expect(couponSelectable(holding({}, { is_valid: false }), 3_000_000, today)).toBe(false);
    expect(couponSelectable(holding({ valid_to: '2026-06-14' }), 3_000_000, today)).toBe(false);
    expect(couponSelectable(holding({ min_price: 4_000_000 }), 3_000_000, today)).toBe(false);
    expect(couponSelectable(holding({ max_price: 2_000_000 }), 3_000_000, today)).toBe(false);
    expect(couponSelectable(holding({ min_price: 3_000_000, max_price: 3_000_000 }), 3_000_000, today)).toBe(true);
  });
});
