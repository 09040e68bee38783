import { describe, expect, it } from 'vitest';
import { withdrawalDeadline, withdrawalLines, withdrawalQuote, type WithdrawalInput } from '../../../src/domain/withdrawal';

// Start 2026-03-10: the first billing month runs to 2026-04-10, 31 days.
const input = (over: Partial<WithdrawalInput> = {}): WithdrawalInput => ({
  startDate: '2026-03-10', handoverDay: null, today: '2026-03-05', withdrawalDays: 7,
  monthlyFee: 1_550_000, firstMonthPaid: 1_400_000, couponDiscount: 100_000, points: 50_000,
  deliveryFee: 150_000, deposit: 3_000_000, prepayment: 2_000_000, cardPaid: 6_550_000, ...over,
});

describe('청약철회 quote', () => {
  it('before the handover: everything back, coupon and points restored', () => {
    const a = withdrawalQuote(input());
    expect(a).toEqual({
      ok: true,
      quote: {
        kind: 'BEFORE_HANDOVER', handover_day: null, deadline: null, days_used: 0, days_in_month: 31, monthly_fee: 1_550_000, usage_charge: 0,
        first_month_refund: 1_400_000, delivery_fee_refund: 150_000, delivery_fee_kept: 0, deposit_refund: 3_000_000, prepayment_refund: 2_000_000,
        refund: 6_550_000, points_restored: 50_000, coupon_restored: true,
      },
    });
  });

  it('within 7 days of the handover: less the days used (pro rata, to the won) and the 탁송비', () => {
    const a = withdrawalQuote(input({ handoverDay: '2026-03-10', today: '2026-03-12' }));
    if (!a.ok) throw new Error(a.reason);
    // 3 days used (3/10, 3/11, 3/12): 1,550,000 × 3 ÷ 31 = 150,000; the coupon's 100,000 then 50,000 of the points take it.
    expect(a.quote).toMatchObject({ kind: 'AFTER_HANDOVER', deadline: '2026-03-17', days_used: 3, usage_charge: 150_000, first_month_refund: 1_400_000, delivery_fee_refund: 0, delivery_fee_kept: 150_000, points_restored: 0, coupon_restored: false });
    expect(a.quote.refund).toBe(1_400_000 + 3_000_000 + 2_000_000);
  });

  it('a usage beyond coupon and points is taken from the card, rounded down to the won', () => {
    const a = withdrawalQuote(input({ handoverDay: '2026-03-10', today: '2026-03-16', couponDiscount: 0, points: 0, firstMonthPaid: 1_550_000, cardPaid: 6_700_000 }));
    if (!a.ok) throw new Error(a.reason);
    // 7 days: 1,550,000 × 7 ÷ 31 = 350,000.
    expect(a.quote.usage_charge).toBe(350_000);
    expect(a.quote.first_month_refund).toBe(1_200_000);
    expect(a.quote.refund).toBe(1_200_000 + 3_000_000 + 2_000_000);
    const odd = withdrawalQuote(input({ handoverDay: '2026-03-10', today: '2026-03-10', monthlyFee: 1_000_000, firstMonthPaid: 1_000_000, couponDiscount: 0, points: 0, deliveryFee: 0, deposit: 0, prepayment: 0, cardPaid: 1_000_000 }));
    if (!odd.ok) throw new Error(odd.reason);
    // 1 day: 1,000,000 ÷ 31 = 32,258.06 → 32,258.
    expect(odd.quote).toMatchObject({ days_used: 1, usage_charge: 32_258, first_month_refund: 967_742, refund: 967_742 });
  });

  it('unused points come back; a capital-area delivery (0 won) keeps nothing', () => {
    const a = withdrawalQuote(input({ handoverDay: '2026-03-10', today: '2026-03-10', deliveryFee: 0, cardPaid: 6_400_000 }));
    if (!a.ok) throw new Error(a.reason);
    // 1 day: 50,000 (1,550,000 ÷ 31), all of it within the coupon: the points come back whole.
    expect(a.quote).toMatchObject({ usage_charge: 50_000, points_restored: 50_000, delivery_fee_kept: 0, refund: 6_400_000 });
  });

  it('the deadline day is the last: the day after is refused with the date named', () => {
    expect(withdrawalDeadline('2026-03-10', 7)).toBe('2026-03-17');
    expect(withdrawalQuote(input({ handoverDay: '2026-03-10', today: '2026-03-17' })).ok).toBe(true);
    expect(withdrawalQuote(input({ handoverDay: '2026-03-10', today: '2026-03-18' }))).toEqual({
      ok: false, deadline: '2026-03-17', reason: '청약철회 기간(인도일로부터 7일, 2026-03-17까지)이 지났습니다. 중도 해지를 이용해주세요.',
    });
    expect(withdrawalQuote(input({ handoverDay: '2026-03-10', today: '2026-03-13', withdrawalDays: 3 })).ok).toBe(true);
    expect(withdrawalQuote(input({ handoverDay: '2026-03-10', today: '2026-03-14', withdrawalDays: 3 })).ok).toBe(false);
  });

  it("an edit's difference paid on the card comes back with the first month", () => {
    const a = withdrawalQuote(input({ cardPaid: 6_650_000 }));
    if (!a.ok) throw new Error(a.reason);
    expect(a.quote).toMatchObject({ first_month_refund: 1_500_000, refund: 6_650_000 });
  });

  it('names each part in Korean', () => {
    const a = withdrawalQuote(input({ handoverDay: '2026-03-10', today: '2026-03-12' }));
    if (!a.ok) throw new Error(a.reason);
    expect(withdrawalLines(a.quote)).toEqual([
      { label: '이용료 차감 (3일 × 월 1,550,000원 ÷ 31일)', amount: '−150,000원' },
      { label: '첫 달 구독료 환불', amount: '1,400,000원' },
      { label: '탁송비 (환불 제외)', amount: '−150,000원' },
      { label: '보증금 환불', amount: '3,000,000원' },
      { label: '선납금 환불', amount: '2,000,000원' },
      { label: '카드 환불 합계', amount: '6,400,000원' },
    ]);
  });
});
