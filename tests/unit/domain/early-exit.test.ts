import { describe, expect, it } from 'vitest';
import { billingMonthOf, earlyExitArithmetic, earlyExitConfirmQuestion, earlyExitQuote, earlyExitWindow, EARLY_EXIT_FEE_PERCENT, type EarlyExitSubscription } from '../../../src/domain/early-exit';

// 12 months from 2026-01-31: charge days 1/31, 2/28, 3/31 … ; term ends 2027-01-30.
const sub = (over: Partial<EarlyExitSubscription> = {}): EarlyExitSubscription => ({
  startDate: '2026-01-31', endDate: '2027-01-30', termMonths: 12, monthlyFee: 555_555, paidMonths: 3, isActive: true, billingStatus: 'ACTIVE', ...over,
});

describe('early exit quote', () => {
  it('counts the months after the one the exit date falls in, 20% of each, rounded down to 10 won', () => {
    const a = earlyExitQuote(sub(), '2026-04-15', '2026-04-01');
    // 3/31 ≤ 4/15 < 4/30: month 3, nine months remain; 9 × 555,555 × 20% = 999,999 → 999,990.
    expect(a).toEqual({ ok: true, quote: { exit_date: '2026-04-15', exit_month: 3, term_months: 12, remaining_months: 9, monthly_fee: 555_555, percent: EARLY_EXIT_FEE_PERCENT, fee: 999_990 } });
    if (a.ok) expect(earlyExitArithmetic(a.quote)).toBe('남은 9개월 × 월 555,555원 × 20% = 999,990원');
  });

  it('a month begins on its charge day (the month-end start follows short months)', () => {
    expect(billingMonthOf('2026-01-31', '2026-02-27', 12)).toBe(1);
    expect(billingMonthOf('2026-01-31', '2026-02-28', 12)).toBe(2);
    expect(billingMonthOf('2026-01-31', '2026-03-30', 12)).toBe(2);
    expect(billingMonthOf('2026-01-31', '2026-03-31', 12)).toBe(3);
  });

  it('needs three days notice: today+3 is the first day allowed, today+2 is refused', () => {
    expect(earlyExitQuote(sub(), '2026-04-04', '2026-04-01').ok).toBe(true);
    expect(earlyExitQuote(sub(), '2026-04-03', '2026-04-01')).toEqual({ ok: false, status: 422, reason: '반납일은 2026-04-04 이후로 선택해주세요.' });
  });

  it('stays inside the paid months: the day before the next charge is the last day', () => {
    expect(earlyExitWindow(sub(), '2026-04-01')).toEqual({ earliest: '2026-04-04', latest: '2026-04-29' });
    expect(earlyExitQuote(sub(), '2026-04-29', '2026-04-01').ok).toBe(true);
    expect(earlyExitQuote(sub(), '2026-04-30', '2026-04-01')).toMatchObject({ ok: false, status: 422 });
  });

  it('is before the term end; in the last month nothing remains and the fee is 0', () => {
    const last = sub({ paidMonths: 12 });
    expect(earlyExitQuote(last, '2027-01-30', '2027-01-10')).toEqual({ ok: false, status: 422, reason: '반납일은 계약 종료일(2027-01-30) 전이어야 합니다.' });
    const q = earlyExitQuote(last, '2027-01-29', '2027-01-10');
    expect(q).toMatchObject({ ok: true, quote: { exit_month: 12, remaining_months: 0, fee: 0 } });
  });

  it('refuses an overdue, retrying, cancelled, switched-off or finished subscription with 409', () => {
    for (const billingStatus of ['PAST_DUE', 'OVERDUE'] as const) {
      expect(earlyExitQuote(sub({ billingStatus }), '2026-04-15', '2026-04-01')).toEqual({ ok: false, status: 409, reason: '연체된 요금을 먼저 결제해주세요.' });
    }
    expect(earlyExitQuote(sub({ billingStatus: 'CANCELLED' }), '2026-04-15', '2026-04-01')).toMatchObject({ ok: false, status: 409 });
    expect(earlyExitQuote(sub({ isActive: false }), '2026-04-15', '2026-04-01')).toMatchObject({ ok: false, status: 409 });
    expect(earlyExitQuote(sub(), '2027-02-05', '2027-02-01')).toMatchObject({ ok: false, status: 409 });
  });

  it('a subscription not started yet: the earliest return day is its start', () => {
    const future = sub({ startDate: '2026-05-10', endDate: '2027-05-09', paidMonths: 1 });
    expect(earlyExitWindow(future, '2026-05-01')).toEqual({ earliest: '2026-05-10', latest: '2026-06-09' });
    expect(earlyExitQuote(future, '2026-05-10', '2026-05-01')).toMatchObject({ ok: true, quote: { exit_month: 1, remaining_months: 11 } });
  });
});

describe('earlyExitConfirmQuestion (issue 49: the fee asked once more)', () => {
  it('names the return day and the fee to the won with its arithmetic; no fee, no charge', () => {
    const q = { exit_date: '2027-03-20', remaining_months: 10, monthly_fee: 5_790_000, percent: 20, fee: 11_580_000, fee_parts: [] };
    expect(earlyExitConfirmQuestion(q)).toBe('2027-03-20에 반납하는 것으로 중도 해지를 확정하시겠습니까? 확정 후에는 되돌릴 수 없습니다.\n중도 해지 수수료 11,580,000원을 등록하신 카드로 지금 결제합니다. (남은 10개월 × 월 5,790,000원 × 20% = 11,580,000원)');
    expect(earlyExitConfirmQuestion({ ...q, remaining_months: 0, fee: 0 })).toContain('남은 개월이 없어 수수료는 없습니다.');
  });
});
