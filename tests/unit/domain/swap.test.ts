import { describe, expect, it } from 'vitest';
import { feeOfMonth, NO_EXTRAS } from '../../../src/domain/extension';
import { remainingFees } from '../../../src/domain/early-exit';
import {
  earlyExitSwapRefusal, SWAP_RULE_LINES, swapAdjustment, swapArithmetic, swapConfirmQuestion, swapCreditLine, swapFeeChanges, swapQuote, swapRefusal, swapWindow, type SwapSubscription,
  swapCancelLine,
  swapCancelMoney,
  swapCancelRefusal,
  swapCancelUntil,
} from '../../../src/domain/swap';

// 12 months from 2027-01-10 (ends 2028-01-09), months 1–3 paid (through 2027-04-09), at 1,200,000 a month.
const sub = (over: Partial<SwapSubscription> = {}): SwapSubscription => ({
  startDate: '2027-01-10', endDate: '2028-01-09', termMonths: 12, paidMonths: 3, isActive: true, billingStatus: 'ACTIVE', exitDate: null,
  baseFee: 1_200_000, feeChanges: [], swaps: [], ...over,
});
const quote = (s: SwapSubscription, day: string, fee: number, today: string) => {
  const a = swapQuote(s, day, fee, NO_EXTRAS, today);
  if (!a.ok) throw new Error(a.reason);
  return a.quote;
};

describe('swap rule: who and when', () => {
  it('the window runs from today + 3 days to the day before the next charge', () => {
    expect(swapWindow(sub(), '2027-03-20')).toEqual({ first: '2027-03-23', last: '2027-04-09', reopens: null });
    expect(swapQuote(sub(), '2027-03-22', 1_500_000, NO_EXTRAS, '2027-03-20')).toEqual({ ok: false, status: 422, reason: '교체일은 2027-03-23 이후로 선택해주세요.' });
    expect(swapQuote(sub(), '2027-03-23', 1_500_000, NO_EXTRAS, '2027-03-20').ok).toBe(true);
    expect(swapQuote(sub(), '2027-04-09', 1_500_000, NO_EXTRAS, '2027-03-20').ok).toBe(true);
    expect(swapQuote(sub(), '2027-04-10', 1_500_000, NO_EXTRAS, '2027-03-20')).toEqual({ ok: false, status: 422, reason: '교체일은 이미 결제된 이용 기간(2027-04-09까지) 안에서 선택해주세요.' });
  });

  it('near a charge day the window is empty: refused with the day it opens again', () => {
    expect(swapWindow(sub(), '2027-04-08')).toMatchObject({ first: '2027-04-11', last: '2027-04-09', reopens: '2027-04-10' });
    expect(swapRefusal(sub(), '2027-04-08')).toEqual({ ok: false, status: 409, reason: '다음 결제일이 가까워 지금은 교체일을 고를 수 없습니다. 2027-04-10부터 다시 신청할 수 있습니다.' });
  });

  it('closes 30 days before the end date', () => {
    // All 12 months paid: the bound is end − 30 = 2027-12-10.
    const paid = sub({ paidMonths: 12 });
    expect(swapWindow(paid, '2027-12-01').last).toBe('2027-12-10');
    expect(swapQuote(paid, '2027-12-10', 1_500_000, NO_EXTRAS, '2027-12-01').ok).toBe(true);
    expect(swapQuote(paid, '2027-12-11', 1_500_000, NO_EXTRAS, '2027-12-01')).toEqual({ ok: false, status: 422, reason: '교체일은 계약 종료일 30일 전(2027-12-10)까지 선택해주세요.' });
    expect(swapRefusal(paid, '2027-12-08')).toEqual({ ok: false, status: 409, reason: '계약 종료일 30일 전부터는 차량을 교체할 수 없습니다.' });
  });

  it('refuses overdue, exiting, inactive, not started or ended subscriptions', () => {
    expect(swapRefusal(sub({ billingStatus: 'PAST_DUE' }), '2027-03-20')?.reason).toBe('연체된 요금을 먼저 결제해주세요.');
    expect(swapRefusal(sub({ billingStatus: 'OVERDUE' }), '2027-03-20')?.reason).toBe('연체된 요금을 먼저 결제해주세요.');
    expect(swapRefusal(sub({ exitDate: '2027-04-01' }), '2027-03-20')?.reason).toBe('중도 해지를 신청한 구독은 차량을 교체할 수 없습니다.');
    for (const s of [sub({ isActive: false }), sub({ billingStatus: 'CANCELLED' })]) expect(swapRefusal(s, '2027-03-20')?.reason).toBe('이용 중인 구독만 차량을 교체할 수 있습니다.');
    expect(swapRefusal(sub(), '2027-01-09')?.status).toBe(409);
    expect(swapRefusal(sub(), '2028-01-10')?.status).toBe(409);
    expect(swapRefusal(sub(), '2027-03-20')).toBeNull();
  });

  it('one open swap at a time: a PENDING one, or a CONFIRMED one whose day is still ahead (or today)', () => {
    expect(swapRefusal(sub({ swaps: [{ swapDate: '2027-03-25', status: 'PENDING', billingMonth: 3 }] }), '2027-03-20')).toMatchObject({ status: 409, reason: expect.stringContaining('2027-03-25에 차량 교체가 이미 예정') });
    expect(swapRefusal(sub({ swaps: [{ swapDate: '2027-03-25', status: 'CONFIRMED', billingMonth: 3 }] }), '2027-03-25')?.status).toBe(409);
    expect(swapRefusal(sub({ swaps: [{ swapDate: '2027-03-25', status: 'CONFIRMED', billingMonth: 3 }] }), '2027-03-26')).toBeNull();
  });

  it('at most one swap whose day falls in a billing month', () => {
    const s = sub({ swaps: [{ swapDate: '2027-03-12', status: 'CONFIRMED', billingMonth: 3 }] });
    const a = swapQuote(s, '2027-03-28', 1_500_000, NO_EXTRAS, '2027-03-20');
    expect(a).toMatchObject({ ok: false, status: 422, reason: expect.stringContaining('결제 월마다 1번까지') });
    // The next billing month is free again (month 4 paid).
    expect(swapQuote(sub({ ...s, paidMonths: 4 }), '2027-04-20', 1_500_000, NO_EXTRAS, '2027-04-12').ok).toBe(true);
  });
});

describe('early exit with a swap', () => {
  it('waits for a PENDING swap and returns after a confirmed swap day', () => {
    expect(earlyExitSwapRefusal([{ swapDate: '2027-03-28', status: 'PENDING' }], '2027-04-05')?.status).toBe(409);
    expect(earlyExitSwapRefusal([{ swapDate: '2027-03-28', status: 'CONFIRMED' }], '2027-03-28')).toEqual({ ok: false, status: 422, reason: '반납일은 차량 교체일(2027-03-28) 다음 날부터 선택해주세요.' });
    expect(earlyExitSwapRefusal([{ swapDate: '2027-03-28', status: 'CONFIRMED' }], '2027-03-29')).toBeNull();
    expect(earlyExitSwapRefusal([], '2027-03-01')).toBeNull();
  });
});

describe('swap proration', () => {
  it('a dearer car: charged (new − old) × days from D to the next charge / the month days, rounded down to 10 won', () => {
    // Month 3 runs 2027-03-10 … 2027-04-09 (31 days); from 03-28 to 04-10 is 13 days: 300,000 × 13/31 = 125,806.45 → 125,800.
    const q = quote(sub(), '2027-03-28', 1_500_000, '2027-03-20');
    expect(q).toEqual({
      swap_date: '2027-03-28', billing_month: 3, month_start: '2027-03-10', next_charge_date: '2027-04-10', old_fee: 1_200_000, base_fee: 1_500_000, option_extras: 0, prepayment_credit: 0, credit_last_month: 0, new_fee: 1_500_000,
      prorate_days: 13, month_days: 31, adjustment: 125_800, first_new_month: 4, new_fee_from: '2027-04-10',
      arithmetic: '(월 1,500,000원 − 월 1,200,000원) × 13/31일 = 125,800원 추가 결제',
    });
  });

  it('a cheaper car: a negative adjustment, rounded toward 0 (the customer keeps the favour)', () => {
    const q = quote(sub(), '2027-03-28', 900_000, '2027-03-20');
    // −300,000 × 13/31 = −125,806.45 → −125,800 (refunded), not −125,810.
    expect([q.adjustment, q.arithmetic]).toEqual([-125_800, '(월 900,000원 − 월 1,200,000원) × 13/31일 = 125,800원 환불']);
  });

  it('the example of the rule text: 12 of 30 days', () => {
    // Month 4 runs 04-10 … 05-09 (30 days); D = 04-28 leaves 12 days.
    const q = quote(sub({ paidMonths: 4 }), '2027-04-28', 1_500_000, '2027-04-20');
    expect([q.prorate_days, q.month_days, q.adjustment, q.arithmetic]).toEqual([12, 30, 120_000, '(월 1,500,000원 − 월 1,200,000원) × 12/30일 = 120,000원 추가 결제']);
  });

  it('D on the first day of month k: the whole month at the new fee', () => {
    const q = quote(sub({ paidMonths: 4 }), '2027-04-10', 1_500_000, '2027-04-01');
    expect([q.billing_month, q.prorate_days, q.month_days, q.adjustment]).toEqual([4, 30, 30, 300_000]);
  });

  it('a start on the 31st follows short months', () => {
    // From 2027-01-31: month 2 runs 02-28 … 03-30 (charge days 02-28, 03-31): 31 days; D = 03-05 leaves 26.
    const s = sub({ startDate: '2027-01-31', endDate: '2028-01-30', paidMonths: 2 });
    const q = quote(s, '2027-03-05', 1_500_000, '2027-03-01');
    expect([q.billing_month, q.month_start, q.next_charge_date, q.prorate_days, q.month_days, q.adjustment]).toEqual([2, '2027-02-28', '2027-03-31', 26, 31, 251_610]);
  });

  it('equal fees move nothing; option extras add to the new fee, never below 0', () => {
    const same = quote(sub(), '2027-03-28', 1_200_000, '2027-03-20');
    expect([same.adjustment, same.arithmetic]).toEqual([0, '(월 1,200,000원 − 월 1,200,000원) × 13/31일 = 0원 (추가 결제·환불 없음)']);
    const a = swapQuote(sub(), '2027-03-28', 1_000_000, { mileage_monthly: 150_000, young_driver_monthly: 50_000, extra_drivers_monthly: 0 }, '2027-03-20');
    expect(a.ok && [a.quote.option_extras, a.quote.new_fee, a.quote.adjustment]).toEqual([200_000, 1_200_000, 0]);
    const low = swapQuote(sub(), '2027-03-28', 100_000, { mileage_monthly: -150_000, young_driver_monthly: 0, extra_drivers_monthly: 0 }, '2027-03-20');
    expect(low.ok && low.quote.new_fee).toBe(0);
    expect(swapAdjustment(1_000, 1_000, 3, 30)).toBe(0);
    expect(Object.is(swapAdjustment(1_000, 999, 1, 30), 0)).toBe(true);
  });

  it('the old fee is the month k fee after earlier changes', () => {
    const s = sub({ feeChanges: [{ firstMonth: 2, lastMonth: Infinity, monthlyFee: 1_000_000, madeAt: '2027-01-20T00:00:00Z' }], swaps: [{ swapDate: '2027-02-01', status: 'CONFIRMED', billingMonth: 1 }] });
    expect(quote(s, '2027-03-28', 1_500_000, '2027-03-20')).toMatchObject({ old_fee: 1_000_000, adjustment: Math.floor((500_000 * 13) / 31 / 10) * 10 });
    expect(swapArithmetic({ new_fee: 2, old_fee: 1, prorate_days: 1, month_days: 30, adjustment: 0 })).toContain('× 1/30일');
  });
});

describe('fee layering: extensions and swaps', () => {
  it('the most recently made change covering a month wins', () => {
    const extension = { firstMonth: 13, lastMonth: 15, monthlyFee: 900_000, madeAt: '2027-11-01T00:00:00Z' };
    const earlySwap = { firstMonth: 5, lastMonth: Infinity, monthlyFee: 1_500_000, madeAt: '2027-04-20T00:00:00Z' };
    // The swap made before the extension: months 5–12 at the swap's fee, the extension's months at its own.
    expect([4, 5, 12, 13, 15].map((m) => feeOfMonth(m, 1_200_000, [extension, earlySwap]))).toEqual([1_200_000, 1_500_000, 1_500_000, 900_000, 900_000]);
    // A swap made after the extension covers the extension's months too.
    const lateSwap = { firstMonth: 14, lastMonth: Infinity, monthlyFee: 700_000, madeAt: '2028-01-20T00:00:00Z' };
    expect([12, 13, 14, 15].map((m) => feeOfMonth(m, 1_200_000, [extension, earlySwap, lateSwap]))).toEqual([1_500_000, 900_000, 700_000, 700_000]);
    // Without madeAt (extensions as before) the order is kept.
    expect(feeOfMonth(2, 1, [{ firstMonth: 1, lastMonth: 3, monthlyFee: 5 }])).toBe(5);
  });

  it('early exit sums the remaining months at the layered fees', () => {
    const swap = { firstMonth: 11, lastMonth: Infinity, monthlyFee: 1_500_000, madeAt: '2027-10-20T00:00:00Z' };
    expect(remainingFees(12, 3, 1_000_000, [swap])).toEqual({ monthly_fee: 1_000_000, fee: Math.floor(((1_000_000 + 3_000_000) * 20) / 100 / 10) * 10, fee_parts: [{ months: 1, monthly_fee: 1_000_000 }, { months: 2, monthly_fee: 1_500_000 }] });
  });

  it('the rule lines name the notice, the close, the month limit and the proration', () => {
    const text = SWAP_RULE_LINES.join(' ');
    for (const part of ['3일 이후', '30일 전까지', '결제 월마다 1번까지', '일할 계산', '10원 미만은 버리며', '부속 계약서']) expect(text).toContain(part);
  });
});

describe('교체 취소', () => {
  const confirmed = { status: 'CONFIRMED' as const, swapDate: '2027-03-20' };
  const free = { exitDate: null, extendedAfterSwap: false };

  it('until two days before the swap day, a confirmed swap only, not after an exit request or a later extension', () => {
    expect(swapCancelUntil('2027-03-20')).toBe('2027-03-18');
    expect(swapCancelRefusal(confirmed, free, '2027-03-18')).toBeNull();
    expect(swapCancelRefusal(confirmed, free, '2027-03-19')?.reason).toBe('차량 교체는 교체일 2일 전(2027-03-18)까지 취소할 수 있습니다. 고객센터로 문의해주세요.');
    expect(swapCancelRefusal({ ...confirmed, status: 'PENDING' }, free, '2027-03-01')?.reason).toBe('차량 교체 결제를 확인하고 있습니다. 잠시 후 다시 시도해주세요.');
    expect(swapCancelRefusal({ ...confirmed, status: 'CANCELLED' }, free, '2027-03-01')?.reason).toBe('확정된 차량 교체만 취소할 수 있습니다.');
    expect(swapCancelRefusal(confirmed, { ...free, exitDate: '2027-04-01' }, '2027-03-01')?.status).toBe(409);
    expect(swapCancelRefusal(confirmed, { ...free, extendedAfterSwap: true }, '2027-03-01')?.reason).toContain('연장한 구독');
  });

  it('the money goes back: a charged difference refunded, a refunded one charged again, else nothing; one Korean line', () => {
    expect(swapCancelMoney(120_000, { charged: 120_000, refunded: 0 })).toEqual({ kind: 'refund', amount: 120_000 });
    // Part of the charge refunded already (by staff): what it still holds.
    expect(swapCancelMoney(120_000, { charged: 20_000, refunded: 0 })).toEqual({ kind: 'refund', amount: 20_000 });
    // The refund was capped by what the month's payment held: what it gave back.
    expect(swapCancelMoney(-120_000, { charged: 0, refunded: 80_000 })).toEqual({ kind: 'charge', amount: 80_000 });
    expect(swapCancelMoney(0, { charged: 0, refunded: 0 })).toEqual({ kind: 'none', amount: 0 });
    expect(swapCancelMoney(-120_000, { charged: 0, refunded: 0 })).toEqual({ kind: 'none', amount: 0 });
    expect(swapCancelLine({ kind: 'refund', amount: 120_000 })).toBe('결제하신 교체 차액 120,000원을 환불해드립니다.');
    expect(swapCancelLine({ kind: 'charge', amount: 80_000 })).toBe('환불받으신 교체 차액 80,000원을 등록하신 카드로 다시 결제합니다.');
    expect(swapCancelLine({ kind: 'none', amount: 0 })).toBe('오가는 금액은 없습니다.');
  });
});

describe('swap keeps the 선납금 credit (it belongs to the subscription, not the car)', () => {
  // 12 months, 선납금 6,000,000원 → 500,000원 off each month: the order's fee 1,200,000 − 500,000 = 700,000.
  const credit = { monthly: 500_000, lastMonth: 12 };
  const prepaid = (over: Partial<SwapSubscription> = {}) => sub({ baseFee: 700_000, prepaymentCredit: credit, ...over });

  it('takes the same monthly credit off the new car’s fee, and prorates between the two credited fees', () => {
    // Month 3 runs 03-10 … 04-09 (31 days); 03-28 → 04-10 is 13 days: (1,000,000 − 700,000) × 13/31 = 125,806 → 125,800.
    const q = quote(prepaid(), '2027-03-28', 1_500_000, '2027-03-20');
    expect(q).toMatchObject({ old_fee: 700_000, base_fee: 1_500_000, prepayment_credit: 500_000, credit_last_month: 12, new_fee: 1_000_000, adjustment: 125_800 });
    expect(swapCreditLine(q)).toBe('선납금 차감 월 500,000원 유지 (12개월 차까지)');
    // Without a credit nothing changes from before.
    expect(quote(sub(), '2027-03-28', 1_500_000, '2027-03-20')).toMatchObject({ prepayment_credit: 0, new_fee: 1_500_000 });
    expect(swapCreditLine(quote(sub(), '2027-03-28', 1_500_000, '2027-03-20'))).toBeNull();
  });

  it('bills the credited fee to the order’s last month and the fee without it in extension months', () => {
    const changes = swapFeeChanges({ firstNewMonth: 4, newFee: 1_000_000, baseFee: 1_500_000, optionExtras: 0, prepaymentCredit: 500_000 }, 12);
    expect([3, 4, 12, 13, 18].map((m) => feeOfMonth(m, 700_000, changes))).toEqual([700_000, 1_000_000, 1_000_000, 1_500_000, 1_500_000]);
    // A swap from before (no credit kept) stays one change to the end.
    expect(swapFeeChanges({ firstNewMonth: 4, newFee: 1_500_000, baseFee: 1_500_000, optionExtras: 0, prepaymentCredit: 0 }, 12)).toEqual([{ firstMonth: 4, lastMonth: Infinity, monthlyFee: 1_500_000, madeAt: undefined }]);
    // The customer who prepaid 6,000,000 and swaps in month 2 keeps every won of the credit: 10 months × 500,000 over the rest.
    const month2 = swapFeeChanges({ firstNewMonth: 3, newFee: 1_000_000, baseFee: 1_500_000, optionExtras: 0, prepaymentCredit: 500_000 }, 12);
    const kept = [3, 4, 5, 6, 7, 8, 9, 10, 11, 12].map((m) => 1_500_000 - feeOfMonth(m, 700_000, month2));
    expect(kept.reduce((a, b) => a + b, 0)).toBe(5_000_000);
  });

  it('asks once more with the amount before a swap moves money', () => {
    const q = { ...quote(prepaid(), '2027-03-28', 1_500_000, '2027-03-20'), car_name: 'Porsche Taycan' };
    expect(swapConfirmQuestion(q)).toBe('Porsche Taycan으로 차량 교체를 확정하시겠습니까?\n교체 차액 125,800원을 등록하신 카드로 지금 결제합니다.\n새 월 구독료: 2027-04-10부터 (4개월 차부터) 월 1,000,000원');
  });
});
