import { describe, expect, it } from 'vitest';
import { couponConditionText, couponHeld, couponState } from '../../../src/domain/coupons';

const holding = (over: { is_used?: boolean; is_valid?: boolean; valid_from?: string | null; valid_to?: string | null } = {}) => ({
  is_used: over.is_used ?? false,
  is_valid: over.is_valid ?? true,
  coupon: { valid_from: 'valid_from' in over ? (over.valid_from ?? null) : '2026-01-01', valid_to: 'valid_to' in over ? (over.valid_to ?? null) : '2026-12-31' },
});

describe('couponState', () => {
  it('is 사용 가능 inside its period, on both edge days too', () => {
    expect(couponState(holding(), '2026-06-01')).toBe('사용 가능');
    expect(couponState(holding(), '2026-01-01')).toBe('사용 가능');
    expect(couponState(holding(), '2026-12-31')).toBe('사용 가능');
    expect(couponState(holding({ valid_from: null, valid_to: null }), '2030-01-01')).toBe('사용 가능');
  });

  it('is 사용 예정 before its first day, even though the server calls it not valid yet', () => {
    expect(couponState(holding({ is_valid: false }), '2025-12-31')).toBe('사용 예정');
    expect(couponState(holding({ is_valid: false, valid_from: '2026-02-01T00:00:00+09:00' }), '2026-01-31')).toBe('사용 예정');
  });

  it('is 기간 만료 after its last day or when the server no longer honours it', () => {
    expect(couponState(holding({ is_valid: false }), '2027-01-01')).toBe('기간 만료');
    expect(couponState(holding({ is_valid: false }), '2026-06-01')).toBe('기간 만료');
  });

  it('is 사용 완료 once used, whatever the date', () => {
    expect(couponState(holding({ is_used: true }), '2026-06-01')).toBe('사용 완료');
    expect(couponState(holding({ is_used: true, is_valid: false }), '2027-06-01')).toBe('사용 완료');
    expect(couponState(holding({ is_used: true, is_valid: false }), '2025-06-01')).toBe('사용 완료');
  });

  it('keeps usable and upcoming coupons in the first list', () => {
    expect(['사용 가능', '사용 예정', '사용 완료', '기간 만료'].map((s) => couponHeld(s as never))).toEqual([true, true, false, false]);
  });
});

describe("couponConditionText: the price condition in its service's words", () => {
  it('a butler coupon is checked against the base fee, a subscription one against the monthly fee', () => {
    expect(couponConditionText({ service: 'BUTLER', min_price: 1_000_000, max_price: 2_000_000 })).toBe('의전 기본 요금(8시간) 1,000,000원 이상 2,000,000원 이하');
    expect(couponConditionText({ service: 'SUBSCRIBE', min_price: 3_000_000, max_price: null })).toBe('월 구독료 3,000,000원 이상');
    expect(couponConditionText({ service: 'SUBSCRIBE', min_price: null, max_price: null })).toBeNull();
  });
});
