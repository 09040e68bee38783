import { describe, expect, it } from 'vitest';
import {
  DEFAULT_WAITING_POLICY, chargeFormula, isAirportPickup, tripCharge, tripChargeLabel, tripChargeLines, tripChargeRows,
  tripChargeSentence, tripChargeText, waitingCharge, waitingMinutes, waitingRuleLines, waitingSoFar, waitingSoFarText, type TripChargeInput,
} from '../../../src/domain/waiting';
import { paymentLabel, paymentLinesOf } from '../../../src/domain/payments';
import { quoteButler } from '../../../src/domain/butler';

const kst = (date: string, time: string) => `${date}T${time}:00+09:00`;
const policy = DEFAULT_WAITING_POLICY;
const RATE = 150_000;

describe('the waiting rule', () => {
  it('an airport pickup: a flight on the booking, or the pickup place an airport', () => {
    expect(isAirportPickup({ flight_number: 'KE123', start_location: '서울 강남구 도산대로 1' })).toBe(true);
    expect(isAirportPickup({ flight_number: null, start_location: '인천광역시 중구 공항로 272 인천국제공항 제1여객터미널' })).toBe(true);
    expect(isAirportPickup({ flight_number: null, start_location: 'Gimpo International Airport' })).toBe(true);
    expect(isAirportPickup({ flight_number: null, start_location: '서울 중구 세종대로 110' })).toBe(false);
  });

  it('waiting is from 도착 (or the booked time, when the driver came early) to 탑승, in whole minutes', () => {
    const start = kst('2026-05-01', '09:00');
    expect(waitingMinutes(start, kst('2026-05-01', '09:10'), kst('2026-05-01', '10:30'))).toBe(80);
    // Came 20 minutes early: counted from the booked 09:00.
    expect(waitingMinutes(start, kst('2026-05-01', '08:40'), kst('2026-05-01', '09:12'))).toBe(12);
    expect(waitingMinutes(start, null, kst('2026-05-01', '09:12'))).toBe(0);
    expect(waitingMinutes(start, kst('2026-05-01', '09:00'), kst('2026-05-01', '08:59'))).toBe(0);
  });

  it.each([
    ['airport, within the free hour', true, 60, 0, 0],
    ['airport, one minute over: one step', true, 61, 1, 75_000],
    ['airport, 80 min: one step', true, 80, 1, 75_000],
    ['airport, 91 min: two steps', true, 91, 2, 150_000],
    ['elsewhere, within 15 min', false, 15, 0, 0],
    ['elsewhere, 16 min: one step', false, 16, 1, 75_000],
    ['elsewhere, 80 min: many steps', false, 80, 3, 225_000],
    ['elsewhere, 3 hours', false, 180, 6, 450_000],
  ])('%s', (_n, airport, minutes, steps, amount) => {
    const w = waitingCharge(policy, airport, minutes, RATE);
    expect(w.steps).toBe(steps);
    expect(w.amount).toBe(amount);
    expect(w.freeMinutes).toBe(airport ? 60 : 15);
  });

  it('the operator settings move the numbers', () => {
    const w = waitingCharge({ airportFreeMinutes: 90, freeMinutes: 0, stepMinutes: 15 }, false, 31, 100_000);
    expect(w).toMatchObject({ freeMinutes: 0, steps: 3, stepPrice: 25_000, amount: 75_000 });
  });

  it('the rule lines state the same numbers, and the step price of a car', () => {
    const lines = waitingRuleLines(policy, RATE);
    expect(lines[0]).toContain('60분');
    expect(lines[0]).toContain('15분');
    expect(lines.join(' ')).toContain('시작된 30분마다');
    expect(lines.join(' ')).toContain('75,000원');
    expect(lines.join(' ')).toContain('초과 이용 요금과 함께');
    expect(waitingRuleLines({ airportFreeMinutes: 45, freeMinutes: 10, stepMinutes: 20 })[0]).toContain('45분');
    expect(waitingRuleLines(policy).join(' ')).not.toContain('이 차량은');
  });
});

describe("the wait so far, on the driver's phone", () => {
  const elsewhere: { start_at: string; flight_number: string | null; start_location: string } = { start_at: kst('2026-12-08', '10:00'), flight_number: null, start_location: '서울 중구 세종대로 110' };
  const airport = { ...elsewhere, flight_number: 'KE123' };
  const text = (b: typeof elsewhere, arrived: string, now: string) => waitingSoFarText(waitingSoFar(policy, b, kst('2026-12-08', arrived), kst('2026-12-08', now)));

  it('counts by the charge’s rule up to the server’s now: from 도착, or from the booked time when the driver came early', () => {
    expect(text(elsewhere, '10:02', '10:14')).toBe('대기 12분 · 무료 대기 3분 남음');
    // Early: nothing counts before the booked 10:00.
    expect(text(elsewhere, '09:40', '09:55')).toBe('대기 0분 · 무료 대기 15분 남음');
    expect(text(elsewhere, '09:40', '10:15')).toBe('대기 15분 · 무료 대기 시간이 끝났습니다');
    expect(text(elsewhere, '10:00', '10:20')).toBe('대기 20분 · 무료 대기 15분을 5분 넘었습니다 (30분 단위 1회 청구)');
    expect(text(airport, '10:00', '11:20')).toBe('대기 80분 · 무료 대기 60분을 20분 넘었습니다 (30분 단위 1회 청구)');
    expect(text(airport, '10:00', '11:31')).toBe('대기 91분 · 무료 대기 60분을 31분 넘었습니다 (30분 단위 2회 청구)');
  });

  it('is the minutes and steps the charge takes at 탑승 then', () => {
    const so = waitingSoFar(policy, airport, kst('2026-12-08', '09:55'), kst('2026-12-08', '11:15'));
    const charged = waitingCharge(policy, true, waitingMinutes(airport.start_at, kst('2026-12-08', '09:55'), kst('2026-12-08', '11:15')), RATE);
    expect([so.minutes, so.freeMinutes, so.chargedMinutes, so.steps]).toEqual([charged.minutes, charged.freeMinutes, charged.chargedMinutes, charged.steps]);
    expect(so.amount).toBe(0);
  });
});

describe('the charge after a trip, part by part', () => {
  const car = { butler_fee: 1_200_000, butler_overtime_fee: RATE };
  const booked = (over: Partial<TripChargeInput['booking']> = {}): TripChargeInput['booking'] => {
    const start_at = kst('2026-05-01', '09:00');
    const end_at = kst('2026-05-01', '19:00');
    const quote = quoteButler(car, start_at, end_at, null, 0);
    return { start_at, end_at, flight_number: 'KE123', start_location: '인천국제공항 제1여객터미널', final_price: quote.final, point_used: 0, coupon: null, ...over };
  };

  it('booked 10 h, used 12 h, 80 min at an airport: 2 h over and one waiting step', () => {
    // Arrived 09:10 (the flight was late), boarded 10:30, ended 22:30 (12 h from 탑승).
    const c = tripCharge({ car, booking: booked(), actual: { arrived: kst('2026-05-01', '09:10'), boarded: kst('2026-05-01', '10:30'), ended: kst('2026-05-01', '22:30') }, policy });
    expect(c).toMatchObject({ booked_hours: 10, used_hours: 12, overtime_hours: 2, overtime_amount: 300_000, waiting_minutes: 80, free_minutes: 60, waiting_steps: 1, waiting_amount: 75_000, prepaid: 1_500_000, amount: 375_000 });
    expect(chargeFormula(c)).toBe('375,000원 = 초과 2시간 × 150,000원 + 대기 30분 단위 1회 × 75,000원');
    expect(tripChargeText(c)).toBe('예약 10시간 · 실제 이용 12시간 · 대기 80분 (공항 무료 60분 제외 20분) · 선결제 1,500,000원 · 추가 청구 375,000원 = 초과 2시간 × 150,000원 + 대기 30분 단위 1회 × 75,000원');
    expect(tripChargeSentence(c)).toBe('선결제한 10시간을 넘은 2시간과 무료 대기 시간을 넘은 20분이 청구됩니다.');
    expect(tripChargeLines(c)).toEqual([
      { label: '초과 이용 2시간 × 150,000원', amount: 300_000 },
      { label: '대기 20분 (30분 단위 1회 × 75,000원)', amount: 75_000 },
      { label: '합계', amount: 375_000 },
    ]);
    expect(tripChargeLabel(c)).toBe('의전 초과 이용·대기 요금 (초과 2시간 · 대기 20분)');
    // The payment's label and lines come from the same breakdown.
    expect(paymentLabel({ purpose: 'BUTLER_OVERTIME', month: null }, c)).toBe('의전 초과 이용·대기 요금 (초과 2시간 · 대기 20분)');
    expect(paymentLinesOf({ purpose: 'BUTLER_OVERTIME' }, c)).toEqual(tripChargeLines(c));
    expect(paymentLabel({ purpose: 'BUTLER_OVERTIME', month: null }, null)).toBe('의전 초과 이용 요금');
  });

  it('waiting within the free time, trip within the booked hours: nothing to charge', () => {
    const c = tripCharge({ car, booking: booked(), actual: { arrived: kst('2026-05-01', '08:50'), boarded: kst('2026-05-01', '09:40'), ended: kst('2026-05-01', '18:00') }, policy });
    expect(c).toMatchObject({ waiting_minutes: 40, waiting_steps: 0, overtime_hours: 0, amount: 0 });
    expect(chargeFormula(c)).toBe('없음');
    expect(tripChargeSentence(c)).toBe('선결제한 10시간 안에서 이용해 추가 요금이 없습니다.');
  });

  it('prepaid hours larger than used: no refund, no charge, the waiting still counts', () => {
    const c = tripCharge({ car, booking: booked({ flight_number: null, start_location: '서울 중구 세종대로 110' }), actual: { arrived: kst('2026-05-01', '09:00'), boarded: kst('2026-05-01', '09:50'), ended: kst('2026-05-01', '14:50') }, policy });
    expect(c).toMatchObject({ booked_hours: 10, used_hours: 5, overtime_hours: 0, overtime_amount: 0, airport: false, free_minutes: 15, waiting_minutes: 50, waiting_steps: 2, waiting_amount: 150_000, amount: 150_000 });
    expect(tripChargeLabel(c)).toBe('의전 대기 요금 (대기 35분)');
    expect(tripChargeRows(c).find((r) => r.label === '대기')?.value).toBe('50분 (무료 15분 제외 35분)');
    expect(tripChargeSentence(c)).toBe('무료 대기 시간을 넘은 35분이 청구됩니다.');
  });

  it('one step over at the airport, overtime only without waiting', () => {
    const one = tripCharge({ car, booking: booked(), actual: { arrived: kst('2026-05-01', '09:00'), boarded: kst('2026-05-01', '10:01'), ended: kst('2026-05-01', '19:00') }, policy });
    expect(one).toMatchObject({ waiting_minutes: 61, waiting_steps: 1, waiting_amount: 75_000, overtime_hours: 0, amount: 75_000 });
    const over = tripCharge({ car, booking: booked(), actual: { arrived: null, boarded: kst('2026-05-01', '09:00'), ended: kst('2026-05-01', '20:30') }, policy });
    expect(over).toMatchObject({ waiting_minutes: 0, overtime_hours: 2, amount: 300_000 });
    expect(tripChargeLabel(over)).toBe('의전 초과 이용 요금 (초과 2시간)');
    expect(tripChargeSentence(over)).toBe('선결제한 10시간을 넘은 2시간이 청구됩니다.');
  });

  it('a percent coupon on the total shows its share of the overtime', () => {
    const coupon = { discount_type: 'PERCENTAGE' as const, discount_rate: 10, discount: 0 };
    const start_at = kst('2026-05-01', '09:00');
    const final_price = quoteButler(car, start_at, null, coupon, 0).final;
    const c = tripCharge({ car, booking: booked({ end_at: null, coupon, final_price }), actual: { arrived: null, boarded: start_at, ended: kst('2026-05-01', '18:30') }, policy });
    expect(c).toMatchObject({ booked_hours: 8, overtime_hours: 2, overtime_coupon: 30_000, overtime_amount: 270_000 });
    expect(chargeFormula(c)).toBe('270,000원 = 초과 2시간 × 150,000원 − 쿠폰 할인 30,000원');
  });
});
