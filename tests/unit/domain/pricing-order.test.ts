import { describe, expect, it } from 'vitest';
import { applicablePoints, couponRefusal, couponSelectable, maxUsablePoints, quoteSubscription, roundPoints, type CouponHolding } from '../../../src/domain/pricing';

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

describe('roundPoints (the one point rule)', () => {
  it('whole 10,000-won steps under the cap, never below 0', () => {
    expect(roundPoints(25_000)).toBe(20_000);
    expect(roundPoints(20_000)).toBe(20_000);
    expect(roundPoints(9_999)).toBe(0);
    expect(roundPoints(-10_000)).toBe(0);
    expect(roundPoints(50_000, 35_000)).toBe(30_000);
    expect(roundPoints(50_000, -1)).toBe(0);
  });
  it('is what the typed box applies', () => {
    expect(applicablePoints('15,000원', 100_000)).toBe(10_000);
    expect(applicablePoints('', 100_000)).toBe(0);
    expect(applicablePoints(70_000, 65_000)).toBe(60_000);
  });
});

describe('couponRefusal (the one coupon rule)', () => {
  const c = (over: Partial<CouponHolding['coupon']> = {}) => holding({ valid_from: '2026-06-01', valid_to: '2026-06-30', ...over }).coupon;
  it('holds from the first day through the whole last day (Korean calendar days)', () => {
    expect(couponRefusal(c(), '2026-06-01')).toBeNull();
    expect(couponRefusal(c(), '2026-06-30')).toBeNull();
    expect(couponRefusal(c(), '2026-05-31')).toBe('NOT_YET');
    expect(couponRefusal(c(), '2026-07-01')).toBe('EXPIRED');
    expect(couponRefusal(c({ valid_from: null, valid_to: null }), '2099-01-01')).toBeNull();
    expect(couponRefusal(c({ valid_to: '2026-06-30T00:00:00+09:00' }), '2026-06-30')).toBeNull();
    expect(couponRefusal({ valid_from: '2026-06-01', valid_to: '2026-06-30' }, '2026-07-01')).toBe('EXPIRED');
  });
  it('checks min/max only when a price is given, after the period', () => {
    expect(couponRefusal(c({ min_price: 1_000_000 }), '2026-06-15')).toBeNull();
    expect(couponRefusal(c({ min_price: 1_000_000 }), '2026-06-15', 999_999)).toBe('PRICE');
    expect(couponRefusal(c({ max_price: 1_000_000 }), '2026-06-15', 1_000_001)).toBe('PRICE');
    expect(couponRefusal(c({ min_price: 1_000_000, max_price: 1_000_000 }), '2026-06-15', 1_000_000)).toBeNull();
    expect(couponRefusal(c({ min_price: 1_000_000 }), '2026-07-01', 5)).toBe('EXPIRED');
  });
});
