import { describe, expect, it } from 'vitest';
import {
  EXTENSION_RULE_LINES, extensionChoices, extensionQuote, extensionWindow, feeOfMonth, NO_EXTRAS, type ExtensionSubscription,
} from '../../../src/domain/extension';
import { earlyExitArithmetic, earlyExitFee, earlyExitQuote, remainingFees } from '../../../src/domain/early-exit';
import { annexDocument, annexNumber, ANNEX_CONTINUES, type AnnexInput } from '../../../src/domain/extension-annex';

// 12 months from 2026-01-31: the term ends 2027-01-30 (the day before 2027-01-31).
const sub = (over: Partial<ExtensionSubscription> = {}): ExtensionSubscription => ({
  startDate: '2026-01-31', endDate: '2027-01-30', termMonths: 12, isActive: true, billingStatus: 'ACTIVE', exitDate: null, ...over,
});
const terms = [{ months: 1, fee: 900_000 }, { months: 3, fee: 800_000 }, { months: 12, fee: 555_000 }];
const extras = { mileage_monthly: 80_000, young_driver_monthly: 0, extra_drivers_monthly: 50_000 };

describe('extension rule', () => {
  it('opens 60 days before the end date and closes 7 days before it', () => {
    expect(extensionWindow('2027-01-30')).toEqual({ opens: '2026-12-01', closes: '2027-01-23' });
    expect(extensionQuote(sub(), terms, NO_EXTRAS, 3, '2026-11-30')).toEqual({ ok: false, status: 409, reason: '연장은 계약 종료일 60일 전인 2026-12-01부터 신청할 수 있습니다.' });
    expect(extensionQuote(sub(), terms, NO_EXTRAS, 3, '2026-12-01').ok).toBe(true);
    expect(extensionQuote(sub(), terms, NO_EXTRAS, 3, '2027-01-23').ok).toBe(true);
    const late = extensionQuote(sub(), terms, NO_EXTRAS, 3, '2027-01-24');
    expect(late).toMatchObject({ ok: false, status: 409 });
    expect(!late.ok && late.reason).toContain('2027-01-23까지');
  });

  it('new end date by the original arithmetic from the start; fee = car fee for the term + option extras; from the next billing month', () => {
    const a = extensionQuote(sub(), terms, extras, 3, '2027-01-10');
    // 15 months from 1/31: termEnd = addMonths(2026-01-31, 15) − 1 day = 2027-04-30 − 1 = 2027-04-29.
    expect(a).toEqual({
      ok: true,
      quote: {
        months: 3, current_end_date: '2027-01-30', from_date: '2027-01-31', new_end_date: '2027-04-29',
        base_fee: 800_000, option_extras: 130_000, monthly_fee: 930_000, first_month: 13, last_month: 15, term_months: 15,
      },
    });
    // A mileage plan below the default lowers the fee, never below 0.
    const cheap = extensionQuote(sub(), [{ months: 1, fee: 100_000 }], { mileage_monthly: -150_000, young_driver_monthly: 0, extra_drivers_monthly: 0 }, 1, '2027-01-10');
    expect(cheap.ok && cheap.quote.monthly_fee).toBe(0);
    // A second extension continues from the months so far.
    const again = extensionQuote(sub({ termMonths: 15, endDate: '2027-04-29' }), terms, NO_EXTRAS, 1, '2027-04-01');
    expect(again.ok && again.quote).toMatchObject({ from_date: '2027-04-30', new_end_date: '2027-05-30', first_month: 16, last_month: 16, monthly_fee: 900_000 });
  });

  it('refuses overdue, exiting, cancelled or ended subscriptions, terms the car does not offer, and a car with no term', () => {
    for (const billingStatus of ['PAST_DUE', 'OVERDUE'] as const) {
      expect(extensionQuote(sub({ billingStatus }), terms, NO_EXTRAS, 3, '2027-01-10')).toEqual({ ok: false, status: 409, reason: '연체된 요금을 먼저 결제해주세요.' });
    }
    expect(extensionQuote(sub({ exitDate: '2027-01-15' }), terms, NO_EXTRAS, 3, '2027-01-10')).toEqual({ ok: false, status: 409, reason: '중도 해지를 신청한 구독은 연장할 수 없습니다.' });
    expect(extensionQuote(sub({ billingStatus: 'CANCELLED' }), terms, NO_EXTRAS, 3, '2027-01-10')).toMatchObject({ ok: false, status: 409, reason: '이용 중인 구독만 연장할 수 있습니다.' });
    expect(extensionQuote(sub({ isActive: false }), terms, NO_EXTRAS, 3, '2027-01-10')).toMatchObject({ ok: false, status: 409 });
    expect(extensionQuote(sub(), terms, NO_EXTRAS, 6, '2027-01-10')).toEqual({ ok: false, status: 422, reason: '연장 기간은 1개월, 3개월, 12개월 중에서 선택해주세요.' });
    expect(extensionQuote(sub(), [], NO_EXTRAS, 3, '2027-01-10')).toMatchObject({ ok: false, status: 409 });
  });

  it('offers every term the car prices today', () => {
    const all = extensionChoices(sub(), terms, NO_EXTRAS, '2027-01-10');
    expect(all.ok && all.choices.map((c) => [c.months, c.monthly_fee, c.new_end_date])).toEqual([[1, 900_000, '2027-02-27'], [3, 800_000, '2027-04-29'], [12, 555_000, '2028-01-30']]);
  });

  it('each billing month takes the fee of the extension covering it', () => {
    const ext = [{ firstMonth: 13, lastMonth: 15, monthlyFee: 930_000 }, { firstMonth: 16, lastMonth: 16, monthlyFee: 900_000 }];
    expect([12, 13, 15, 16, 17].map((m) => feeOfMonth(m, 555_000, ext))).toEqual([555_000, 930_000, 930_000, 900_000, 555_000]);
  });

  it('the rule lines name the window', () => {
    expect(EXTENSION_RULE_LINES[0]).toContain('60일 전부터 7일 전까지');
  });
});

describe('early exit after an extension', () => {
  const ext = [{ firstMonth: 13, lastMonth: 15, monthlyFee: 600_000 }];
  it('sums the remaining months fees × 20% (same as before when all fees are equal)', () => {
    expect(remainingFees(12, 5, 555_000).fee).toBe(earlyExitFee(5, 555_000));
    expect(remainingFees(12, 5, 555_000).fee_parts).toBeUndefined();
    // 15 months, exit in month 11: months 12 (555,000) and 13–15 (600,000) remain: (555,000 + 1,800,000) × 20% = 471,000.
    const r = remainingFees(15, 4, 555_000, ext);
    expect(r).toEqual({ monthly_fee: 555_000, fee: 471_000, fee_parts: [{ months: 1, monthly_fee: 555_000 }, { months: 3, monthly_fee: 600_000 }] });
    const q = earlyExitQuote(
      { startDate: '2026-01-31', endDate: '2027-04-29', termMonths: 15, monthlyFee: 555_000, paidMonths: 11, isActive: true, billingStatus: 'ACTIVE', extensions: ext },
      '2026-12-15', '2026-12-01',
    );
    expect(q.ok && q.quote).toMatchObject({ exit_month: 11, remaining_months: 4, fee: 471_000 });
    expect(q.ok && earlyExitArithmetic(q.quote)).toBe('남은 4개월 (월 555,000원 × 1개월 + 월 600,000원 × 3개월) × 20% = 471,000원');
    // Inside the extension every remaining fee is the extension's: the plain line with that fee.
    const inside = remainingFees(15, 2, 555_000, ext);
    expect(inside).toEqual({ monthly_fee: 600_000, fee: 240_000 });
  });
});

describe('annex document', () => {
  const input: AnnexInput = {
    extensionId: 9, ordinal: 1, requestId: 123, subscriptionId: 45, confirmedAt: new Date('2027-01-10T01:00:00Z'),
    company: { name: '주식회사 럭스모빌리티', ceo: '김대표', address: '서울특별시 강남구 도산대로 442', phone: '02-6952-0808', email: 'concierge@luxe-subscribe.kr', businessNumber: '123-45-67891', mailOrderNumber: '제2026-서울강남-01234호', hostingProvider: '예시 클라우드', privacyOfficer: { name: '이보호', email: 'privacy@luxe-subscribe.kr' } },
    customer: { name: '김고객', phone: '01012345678', email: 'c@example.com' },
    car: { brand: 'BMW', model: '5시리즈', subModel: null, trim: '520i', plate: '12가3456', colour: '흰색' },
    original: { months: 12, startDate: '2026-01-31', endDate: '2027-01-30', monthlyFee: 555_000 },
    previousEndDate: '2027-01-30',
    extension: { months: 3, fromDate: '2027-01-31', newEndDate: '2027-04-29', baseFee: 800_000, optionExtras: 130_000, monthlyFee: 930_000, firstMonth: 13, lastMonth: 15 },
  };
  it('names the parties, car, plate, original term, the extension, the new end date and fee from its month, and that the contract continues', () => {
    const doc = annexDocument(input);
    const text = JSON.stringify(doc);
    expect(annexNumber(123, 1)).toBe('LUXE-S-000123-E01');
    for (const s of ['김고객', 'LUXE', '12가3456', 'BMW 5시리즈 520i', '12개월 (2026.01.31 ~ 2027.01.30)', '3개월 (2027.01.31 ~ 2027.04.29)', '2027.04.29', '월 930,000원', '13개월 차부터', ANNEX_CONTINUES]) {
      expect(text).toContain(s);
    }
  });
});
