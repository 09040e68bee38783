import { describe, expect, it } from 'vitest';
import {
  allowanceArithmetic, mileageArithmetic, mileageLegs, mileageSettlement, mileageTerms, monthsUsed, readingRefusal, selfReportWindow, MAX_ODOMETER_KM,
  type CarReading, type OdometerReading,
} from '../../../src/domain/mileage';
import { CONTRACT_DEFAULTS } from '../../../src/domain/contract';
import { defaultOptionPrices, defaultOptions } from '../../../src/domain/subscription-price';

// 12 months from 2026-01-31: billing months begin 1/31, 2/28, 3/31, 4/30 …; the term ends 2027-01-30.
const START = '2026-01-31';
const terms = { monthlyKm: 2_500, overagePerKm: 200 };

describe('mileage settlement', () => {
  it('allowance = monthly km × billing months begun; driven = latest − handover; overage × rate', () => {
    // 4/10 falls in month 3 (3/31–4/29): 3 × 2,500 = 7,500km allowed; 8,200km driven → 700km × 200 = 140,000원.
    const s = mileageSettlement({ startDate: START, termMonths: 12, terms, handover: { km: 1_000 }, latest: { km: 9_200, readOn: '2026-04-10' } });
    expect(s).toEqual({ months: 3, monthly_km: 2_500, allowance_km: 7_500, handover_km: 1_000, latest_km: 9_200, driven_km: 8_200, overage_km: 700, per_km: 200, amount: 140_000 });
    expect(mileageArithmetic(s)).toBe('주행 8,200km − 약정 7,500km = 초과 700km × 1km당 200원 = 140,000원');
    expect(allowanceArithmetic(s)).toBe('월 2,500km × 3개월 = 7,500km');
  });

  it('a month begun counts whole; the first day of a month already counts it; never beyond the term', () => {
    expect(monthsUsed(START, 12, '2026-01-31')).toBe(1);
    expect(monthsUsed(START, 12, '2026-02-27')).toBe(1);
    expect(monthsUsed(START, 12, '2026-02-28')).toBe(2);
    expect(monthsUsed(START, 12, '2027-01-30')).toBe(12);
    // A late return: still the term's 12 months.
    expect(monthsUsed(START, 12, '2027-03-15')).toBe(12);
    expect(monthsUsed('2026-05-10', 1, '2026-06-09')).toBe(1);
  });

  it('nothing is owed at or under the allowance', () => {
    const exact = mileageSettlement({ startDate: START, termMonths: 12, terms, handover: { km: 0 }, latest: { km: 5_000, readOn: '2026-03-01' } });
    expect(exact).toMatchObject({ months: 2, allowance_km: 5_000, overage_km: 0, amount: 0 });
    expect(mileageArithmetic(exact)).toBe('주행 5,000km − 약정 5,000km → 초과 주행 없음 (0원)');
    const under = mileageSettlement({ startDate: START, termMonths: 12, terms, handover: { km: 500 }, latest: { km: 600, readOn: '2026-12-01' } });
    expect(under).toMatchObject({ driven_km: 100, overage_km: 0, amount: 0 });
  });

  it('terms: the order plan and the car rate then; an order before options takes the contract’s 2,500km and the car’s rate', () => {
    const prices = { ...defaultOptionPrices({ subscription_fee_minimum: 2_000_000 }), overage_per_km: 450 };
    expect(mileageTerms({ options: { ...defaultOptions(prices), mileage_km: 4_000 }, prices }, { overage_per_km: 999 })).toEqual({ monthlyKm: 4_000, overagePerKm: 450, basis: 'ORDER' });
    expect(mileageTerms(null, { overage_per_km: 400 })).toEqual({ monthlyKm: CONTRACT_DEFAULTS.mileage.monthlyKm, overagePerKm: 400, basis: 'CONTRACT' });
    expect(CONTRACT_DEFAULTS.mileage.monthlyKm).toBe(2_500);
  });
});

describe('readings never go down', () => {
  const r = (km: number, readOn: string, source: OdometerReading['source'] = 'SELF') => ({ km, readOn, source });
  const existing = [r(1_000, '2026-02-01', 'HANDOVER'), r(3_000, '2026-03-05')];

  it('accepts equal or higher readings on later days', () => {
    expect(readingRefusal(existing, r(3_000, '2026-03-06'))).toBeNull();
    expect(readingRefusal(existing, r(4_000, '2026-04-01', 'STAFF'))).toBeNull();
    // Between two readings, within their km.
    expect(readingRefusal(existing, r(2_000, '2026-02-20', 'STAFF'))).toBeNull();
  });

  it('refuses lower than an earlier reading, higher than a later one, before the handover (400), anything after the return (409)', () => {
    expect(readingRefusal(existing, r(2_999, '2026-03-10'))).toEqual({ status: 400, reason: '주행거리는 줄어들 수 없습니다. 이전 기록(3,000km)보다 크거나 같게 입력해주세요.' });
    expect(readingRefusal(existing, r(3_500, '2026-02-20', 'STAFF'))).toEqual({ status: 400, reason: '이후 날짜의 기록(3,000km)보다 클 수 없습니다.' });
    expect(readingRefusal(existing, r(500, '2026-01-20', 'STAFF'))?.status).toBe(400);
    expect(readingRefusal([...existing, r(5_000, '2026-05-01', 'RETURN')], r(6_000, '2026-05-02', 'STAFF'))?.status).toBe(409);
    expect(readingRefusal(existing, r(MAX_ODOMETER_KM + 1, '2026-04-01'))?.status).toBe(400);
    expect(readingRefusal(existing, r(1.5, '2026-04-01'))?.status).toBe(400);
  });
});

describe('swaps: each car its own odometer (docs/decisions/mileage.md, Swaps)', () => {
  const OLD = 5;
  const NEW = 8;
  const swap = { id: 41, fromCarId: OLD, toCarId: NEW, swapDate: '2026-03-15' };
  const r = (km: number, readOn: string, source: CarReading['source'], carId: number, swapId: number | null = null): CarReading => ({ km, readOn, source, carId, swapId });
  const readings = [r(1_000, '2026-01-31', 'HANDOVER', OLD), r(2_500, '2026-02-28', 'SELF', OLD), r(4_100, '2026-03-15', 'SWAP_OUT', OLD, 41), r(500, '2026-03-15', 'SWAP_IN', NEW, 41)];

  it('never down is checked per car: the new car may read less than the old one, not less than itself', () => {
    expect(readingRefusal(readings, { km: 800, readOn: '2026-04-01', source: 'STAFF', carId: NEW })).toBeNull();
    expect(readingRefusal(readings, { km: 499, readOn: '2026-04-01', source: 'STAFF', carId: NEW })).toEqual({ status: 400, reason: '주행거리는 줄어들 수 없습니다. 이전 기록(500km)보다 크거나 같게 입력해주세요.' });
    // The old car's own readings still bind it; the return still closes the subscription for both.
    expect(readingRefusal(readings, { km: 4_000, readOn: '2026-03-20', source: 'STAFF', carId: OLD })?.status).toBe(400);
    expect(readingRefusal([...readings, r(5_600, '2026-04-20', 'RETURN', NEW)], { km: 9_000, readOn: '2026-04-21', source: 'STAFF', carId: OLD })?.status).toBe(409);
  });

  it('driven km are summed over the cars, and the line shows the parts', () => {
    const final = mileageLegs(OLD, [swap], [...readings, r(5_600, '2026-04-20', 'RETURN', NEW)], true);
    expect(final).toEqual({ legs: [{ car_id: OLD, from_km: 1_000, to_km: 4_100, driven_km: 3_100 }, { car_id: NEW, from_km: 500, to_km: 5_600, driven_km: 5_100 }] });
    if (!('legs' in final)) throw new Error('no legs');
    const s = mileageSettlement({ startDate: START, termMonths: 12, terms, handover: { km: 1_000 }, latest: { km: 5_600, readOn: '2026-04-20' }, legs: final.legs });
    expect(s).toMatchObject({ months: 3, allowance_km: 7_500, driven_km: 8_200, legs_km: [3_100, 5_100], overage_km: 700, amount: 140_000 });
    expect(mileageArithmetic(s)).toBe('주행 (3,100km + 5,100km) 8,200km − 약정 7,500km = 초과 700km × 1km당 200원 = 140,000원');
    // Without a swap the line is as before (one car).
    const one = mileageSettlement({ startDate: START, termMonths: 12, terms, handover: { km: 1_000 }, latest: { km: 9_200, readOn: '2026-04-10' }, legs: [{ car_id: OLD, from_km: 1_000, to_km: 9_200, driven_km: 8_200 }] });
    expect(one.legs_km).toBeUndefined();
    expect(mileageArithmetic(one)).toBe('주행 8,200km − 약정 7,500km = 초과 700km × 1km당 200원 = 140,000원');
  });

  it('a final settlement needs each swap reading; an estimate counts what is there', () => {
    const noIn = readings.filter((x) => x.source !== 'SWAP_IN');
    expect(mileageLegs(OLD, [swap], [...noIn, r(5_600, '2026-04-20', 'RETURN', NEW)], true)).toEqual({ missing: '2026-03-15 교체 인도 시 주행거리' });
    expect(mileageLegs(OLD, [swap], readings.filter((x) => x.source !== 'SWAP_OUT'), true)).toEqual({ missing: '2026-03-15 교체 반납 시 주행거리' });
    expect(mileageLegs(OLD, [swap], readings, true)).toEqual({ missing: '반납 시 주행거리' });
    expect(mileageLegs(OLD, [swap], [...readings, r(1_300, '2026-04-10', 'SELF', NEW)], false)).toEqual({ legs: [expect.objectContaining({ driven_km: 3_100 }), expect.objectContaining({ car_id: NEW, driven_km: 800 })] });
    expect(mileageLegs(OLD, [swap], noIn, false)).toEqual({ legs: [expect.objectContaining({ driven_km: 3_100 })] });
    expect(mileageLegs(OLD, [], readings.slice(0, 2), false)).toEqual({ legs: [{ car_id: OLD, from_km: 1_000, to_km: 2_500, driven_km: 1_500 }] });
  });
});

describe('self-report window', () => {
  const s = { startDate: START, endDate: '2027-01-30', termMonths: 12, active: true };
  it('once per billing month: a second report is refused until the next month begins', () => {
    expect(selfReportWindow(s, [], '2026-03-05')).toEqual({ billing_month: 2, reported: false, next_open: '2026-03-31', refusal: null });
    const done = selfReportWindow(s, [{ source: 'SELF', billingMonth: 2 }], '2026-03-05');
    expect(done).toMatchObject({ reported: true, refusal: '이번 달 주행거리는 이미 입력하셨습니다. 2026-03-31부터 다시 입력할 수 있습니다.' });
    expect(selfReportWindow(s, [{ source: 'SELF', billingMonth: 2 }], '2026-03-31').refusal).toBeNull();
    // Staff and handover readings do not use the customer's month.
    expect(selfReportWindow(s, [{ source: 'STAFF', billingMonth: 2 }], '2026-03-05').refusal).toBeNull();
  });
  it('not before the start, after the end, after the return, or on a switched-off subscription', () => {
    expect(selfReportWindow(s, [], '2026-01-30').refusal).toBe('구독 시작일(2026-01-31)부터 입력할 수 있습니다.');
    expect(selfReportWindow(s, [], '2027-01-31').refusal).toBe('이용 기간이 끝난 구독입니다.');
    expect(selfReportWindow(s, [{ source: 'RETURN', billingMonth: 5 }], '2026-06-01').refusal).toBe('반납이 끝난 구독입니다.');
    expect(selfReportWindow({ ...s, active: false }, [], '2026-06-01').refusal).toBe('이용 중인 구독만 주행거리를 입력할 수 있습니다.');
    expect(selfReportWindow(s, [{ source: 'SELF', billingMonth: 12 }], '2027-01-10')).toMatchObject({ billing_month: 12, next_open: null, refusal: '이번 달 주행거리는 이미 입력하셨습니다.' });
  });
});
