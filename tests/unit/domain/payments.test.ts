import { describe, expect, it } from 'vitest';
import { butlerCancelRefundSentence, butlerRefund, firstPaymentLines, paymentLabel, paymentLinesText, butlerRefundPolicyLines, chargeInstant, DEFAULT_BUTLER_REFUND_POLICY, monthlyChargeDate, paymentIds, retryDate } from '../../../src/domain/payments';

describe('monthly charge days', () => {
  it('keep the start day of the month, or the month’s last day when it is shorter', () => {
    const start = '2027-01-31';
    expect([1, 2, 3, 4, 5, 12, 13].map((k) => monthlyChargeDate(start, k))).toEqual(['2027-01-31', '2027-02-28', '2027-03-31', '2027-04-30', '2027-05-31', '2027-12-31', '2028-01-31']);
    expect(monthlyChargeDate('2028-01-31', 2)).toBe('2028-02-29');
    expect(monthlyChargeDate('2028-02-29', 13)).toBe('2029-02-28');
    expect(monthlyChargeDate('2027-11-15', 3)).toBe('2028-01-15');
  });

  it('charge at 09:00 Korean time of the day', () => {
    expect(chargeInstant('2027-02-28').toISOString()).toBe('2027-02-28T00:00:00.000Z');
  });
});

describe('retries of a failed monthly charge', () => {
  it('come 1, 3 and 7 days after the due day, then none (overdue)', () => {
    expect([1, 2, 3, 4].map((n) => retryDate('2027-02-28', n))).toEqual(['2027-03-01', '2027-03-03', '2027-03-07', null]);
  });
});

describe('payment ids', () => {
  it('are deterministic per purpose and attempt', () => {
    expect(paymentIds.subscriptionFirst(12)).toBe('subreq-12');
    expect(paymentIds.subscriptionMonth(3, 4)).toBe('sub-3-m4');
    expect(paymentIds.retry(paymentIds.subscriptionMonth(3, 4), 1)).toBe('sub-3-m4');
    expect(paymentIds.retry(paymentIds.subscriptionMonth(3, 4), 3)).toBe('sub-3-m4-r2');
    expect(paymentIds.butlerOvertime(7)).toBe('butler-7-overtime');
  });
});

describe('butler refunds', () => {
  const start = new Date('2027-05-10T09:00:00+09:00');
  const at = (iso: string) => new Date(iso);
  it('are whole until 24 h before the start, half after, nothing once it started', () => {
    const p = DEFAULT_BUTLER_REFUND_POLICY;
    expect(butlerRefund(555_000, start, at('2027-05-09T09:00:00+09:00'), p)).toEqual({ amount: 555_000, percent: 100 });
    expect(butlerRefund(555_000, start, at('2027-05-09T09:00:01+09:00'), p)).toEqual({ amount: 277_500, percent: 50 });
    expect(butlerRefund(555_001, start, at('2027-05-10T08:59:00+09:00'), p)).toEqual({ amount: 277_500, percent: 50 });
    expect(butlerRefund(555_000, start, start, p)).toEqual({ amount: 0, percent: 0 });
  });
  it('follow the configured policy, and say it in Korean', () => {
    const p = { fullRefundHours: 48, latePercent: 30 };
    expect(butlerRefund(100_000, start, at('2027-05-09T09:00:00+09:00'), p)).toEqual({ amount: 30_000, percent: 30 });
    expect(butlerRefundPolicyLines(p).join(' ')).toMatch(/48시간 전까지 .*전액.*30%/);
    // Confirmed bookings and staff cancels follow the same rule; the operator's own reasons refund in full.
    expect(butlerRefundPolicyLines(p).join(' ')).toMatch(/확정된 예약도 .*같은 규정.*운영팀의 사유로 취소하면 전액 환불/);
  });
});

describe('payment labels (one home: paymentLabel, firstPaymentLines)', () => {
  const parts = { monthly: 1_000_000, coupon_discount: 50_000, points: 10_000, delivery_fee: 0, deposit: 3_000_000, prepayment: 6_000_000, paid_today: 9_940_000 };
  it('names a first payment by its parts, never "1개월 차" when it holds 보증금 or 선납금', () => {
    expect(paymentLabel({ purpose: 'SUBSCRIPTION_FIRST', month: 1 }, parts)).toBe('구독 첫 결제 (첫 달 구독료·보증금·선납금)');
    expect(paymentLabel({ purpose: 'SUBSCRIPTION_FIRST', month: 1 }, { ...parts, deposit: 0, prepayment: 0 })).toBe('구독 첫 달 요금 (1개월 차)');
    expect(paymentLabel({ purpose: 'SUBSCRIPTION_FIRST', month: 1 })).toBe('구독 첫 결제');
  });
  it('lists each part and the 합계, discounts negative', () => {
    expect(firstPaymentLines(parts)).toEqual([
      { label: '첫 달 구독료', amount: 1_000_000 }, { label: '쿠폰 할인', amount: -50_000 }, { label: '포인트 사용', amount: -10_000 },
      { label: '보증금 (반납 후 환급)', amount: 3_000_000 }, { label: '선납금', amount: 6_000_000 }, { label: '합계', amount: 9_940_000 },
    ]);
    expect(paymentLinesText(firstPaymentLines({ ...parts, coupon_discount: 0, points: 0, deposit: 0, prepayment: 0, paid_today: 1_000_000 }))).toBe('첫 달 구독료 1,000,000원 · 합계 1,000,000원');
  });
  it('says the early-exit fee counts the months left, and a month charge its billing month', () => {
    expect(paymentLabel({ purpose: 'SUBSCRIPTION_EARLY_EXIT', month: 10 })).toBe('구독 중도 해지 수수료 (잔여 10개월)');
    expect(paymentLabel({ purpose: 'SUBSCRIPTION_MONTH', month: 3 })).toBe('구독 월 요금 (3개월 차)');
    expect(paymentLabel({ purpose: 'SUBSCRIPTION_SWAP', month: 2 })).toBe('구독 차량 교체 차액');
  });
});

describe('butlerCancelRefundSentence', () => {
  it('names the coupon and points only when the booking used them', () => {
    expect(butlerCancelRefundSentence(100, { coupon: false, points: 0 })).toBe('결제 금액의 100%를 결제하신 카드로 돌려드립니다.');
    expect(butlerCancelRefundSentence(50, { coupon: true, points: 5_000 })).toBe('결제 금액의 50%를 결제하신 카드로 돌려드립니다. 사용하신 쿠폰과 포인트 5,000P는 돌려드렸습니다.');
    expect(butlerCancelRefundSentence(0, { coupon: true, points: 0 })).toBe('취소 규정에 따라 환불 금액은 없습니다. 사용하신 쿠폰은 돌려드렸습니다.');
    expect(butlerCancelRefundSentence(0, { coupon: false, points: 0 })).toBe('취소 규정에 따라 환불 금액은 없습니다.');
  });
});
