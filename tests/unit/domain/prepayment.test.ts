import { describe, expect, it } from 'vitest';
import { unusedPrepayment, unusedPrepaymentDetail } from '../../../src/domain/prepayment';
import { settle } from '../../../src/domain/settlement';
import { termEnd } from '../../../src/domain/subscriptions';

const term = (over: Partial<Parameters<typeof unusedPrepayment>[0] & object> = {}) => ({ prepayment: 3_000_000, termMonths: 12, startDate: '2026-01-31', endDate: termEnd('2026-01-31', 12), ...over });
const none = { damages: [], deductible: 500_000, fuelShortfallPercent: 0, overage: 0, overagePaid: 0 };

describe('unused 선납금', () => {
  it('a full term uses every month: 0', () => {
    expect(unusedPrepayment(term())).toEqual({ prepayment: 3_000_000, term_months: 12, used_months: 12, unused_months: 0, amount: 0 });
  });

  it('an early exit: the months after the billing month of the return day', () => {
    // Billing month 4 runs 2026-04-30 … 2026-05-30 (month 5 begins on the 31st's stand-in, 05-31).
    const u = unusedPrepayment(term({ endDate: '2026-05-30' }));
    expect([u.used_months, u.unused_months, u.amount]).toEqual([4, 8, 2_000_000]);
    expect(unusedPrepayment(term({ endDate: '2026-05-31' })).unused_months).toBe(7);
    expect(unusedPrepaymentDetail(u, u.amount)).toBe('선납금 3,000,000원 × 미사용 8개월 / 12개월 = 2,000,000원');
  });

  it('rounds down to 10 won', () => {
    // 2026-02-27 is still month 1 (month 2 begins 02-28): 1,000,000 × 6 / 7 = 857,142.8… → 857,140
    expect(unusedPrepayment(term({ prepayment: 1_000_000, termMonths: 7, endDate: '2026-02-27' })).amount).toBe(857_140);
  });

  it('an extension: its months never carry the credit; ending in them leaves nothing unused', () => {
    expect(unusedPrepayment(term({ endDate: termEnd('2026-01-31', 18) })).amount).toBe(0);
    expect(unusedPrepayment(term({ endDate: '2027-03-15' })).amount).toBe(0);
    // An extended subscription that still exits in the original term's month 11: month 12's share.
    expect(unusedPrepayment(term({ endDate: '2026-12-30' })).amount).toBe(250_000);
    expect(unusedPrepayment(term({ endDate: '2026-12-31' })).amount).toBe(0);
  });

  it('no options or no 선납금: 0', () => {
    expect(unusedPrepayment(null).amount).toBe(0);
    expect(unusedPrepayment(term({ prepayment: 0, endDate: '2026-02-10' })).amount).toBe(0);
  });
});

describe('the settlement with the unused 선납금', () => {
  const prepayment = unusedPrepayment(term({ endDate: '2026-05-30' })); // 2,000,000

  it('raises the refund after the deposit: one credit line, not in 합계', () => {
    const s = settle({ ...none, deposit: 500_000, fuelShortfallPercent: 10, prepayment, held: 10_000_000 });
    expect(s.lines.at(-1)).toEqual({ kind: 'PREPAYMENT', label: '미사용 선납금 환급', amount: -2_000_000, detail: '선납금 3,000,000원 × 미사용 8개월 / 12개월 = 2,000,000원' });
    expect([s.total, s.from_deposit, s.prepayment_refund, s.to_charge, s.to_refund]).toEqual([30_000, 30_000, 2_000_000, 0, 2_470_000]);
    expect(s.summary).toBe('보증금 500,000원 + 미사용 선납금 2,000,000원 − 정산 합계 30,000원 = 환불 2,470,000원');
  });

  it('lowers the charge when the deposit does not cover it (deposit first)', () => {
    const s = settle({ ...none, deposit: 500_000, damages: [{ description: '앞범퍼', amount: 3_000_000 }], deductible: 3_000_000, prepayment, held: 10_000_000 });
    expect([s.total, s.from_deposit, s.to_charge, s.to_refund]).toEqual([3_000_000, 500_000, 500_000, 0]);
    expect(s.summary).toBe('정산 합계 3,000,000원 − 보증금 500,000원 − 미사용 선납금 2,000,000원 = 카드 결제 500,000원');
  });

  it('never more than the first payment still holds', () => {
    const s = settle({ ...none, deposit: 500_000, prepayment, held: 1_200_000 });
    expect([s.deposit, s.prepayment_refund, s.to_refund]).toEqual([500_000, 700_000, 1_200_000]);
    expect(s.lines.at(-1)!.detail).toBe('선납금 3,000,000원 × 미사용 8개월 / 12개월 = 2,000,000원 → 첫 결제 잔액 한도 700,000원');
  });

  it('no deposit: the credit alone', () => {
    const s = settle({ ...none, deposit: 0, prepayment });
    expect([s.to_charge, s.to_refund]).toEqual([0, 2_000_000]);
    expect(s.summary).toBe('미사용 선납금 2,000,000원 − 정산 합계 0원 = 환불 2,000,000원');
  });

  it('a full term: no line, the settlement as before', () => {
    const s = settle({ ...none, deposit: 500_000, prepayment: unusedPrepayment(term()), held: 10_000_000 });
    expect(s.lines).toEqual([]);
    expect([s.prepayment_refund, s.to_refund, s.summary]).toEqual([0, 500_000, '보증금 500,000원 − 정산 합계 0원 = 보증금 환불 500,000원']);
  });
});
