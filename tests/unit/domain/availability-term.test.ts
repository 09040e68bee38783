import { describe, expect, it } from 'vitest';
import { fromFee } from '../../../src/domain/car';
import { bookingConflicts, conflictWarning, shorterTermNote, termAvailability, termAvailabilityText, termSpan } from '../../../src/domain/availability';

/** Availability for the start and term the customer is looking at (docs/decisions/availability.md). */

const terms = [1, 6, 12, 24];
// Held 12 months from a date a few days away: 2026-12-06 .. 2027-12-05.
const held = [termSpan('2026-12-06', 12)];

describe('termAvailability', () => {
  it('a 12-month term from tomorrow clashes with a hold starting in a few days: from when it fits, and no shorter term fits now', () => {
    const a = termAvailability(held, '2026-12-02', 12, terms);
    expect(a).toEqual({ start: '2026-12-02', month: 12, free: false, next_start: '2027-12-06', longest_month: null });
    expect(termAvailabilityText(a, terms)).toBe('2027.12.06부터 구독 가능');
    expect(shorterTermNote(a)).toBe('');
  });

  it('with no term: the shortest term decides from when (home cards, the unfiltered garage)', () => {
    const a = termAvailability(held, '2026-12-02', null, terms);
    expect(a.free).toBe(false);
    expect(termAvailabilityText(a, terms)).toBe('2027.12.06부터 구독 가능');
  });

  it('says the longest term that fits now when the chosen one does not', () => {
    const later = [termSpan('2027-07-01', 12)];
    const a = termAvailability(later, '2026-12-02', 12, terms);
    expect(a).toMatchObject({ free: false, next_start: '2028-07-01', longest_month: 6 });
    expect(termAvailabilityText(a, terms)).toBe('2028.07.01부터 구독 가능');
    expect(shorterTermNote(a)).toBe('지금 시작하면 최대 6개월 구독 가능');
    // With no term chosen the card says how long it can be had now.
    expect(termAvailabilityText(termAvailability(later, '2026-12-02', null, terms), terms)).toBe('최대 6개월 구독 가능');
    // A 6-month term fits: 구독 가능.
    expect(termAvailabilityText(termAvailability(later, '2026-12-02', 6, terms), terms)).toBe('구독 가능');
  });

  it('judges the chosen start: after the hold it is free', () => {
    const a = termAvailability(held, '2027-12-06', 12, terms);
    expect(a).toMatchObject({ free: true, next_start: '2027-12-06', longest_month: 24 });
    expect(termAvailabilityText(a, terms)).toBe('구독 가능');
  });

  it('a free car: 구독 가능 for any term and with none', () => {
    expect(termAvailabilityText(termAvailability([], '2026-12-02', 24, terms), terms)).toBe('구독 가능');
    expect(termAvailabilityText(termAvailability([], '2026-12-02', null, terms), terms)).toBe('구독 가능');
  });

  it('a car offering no term is judged by its first free day', () => {
    const a = termAvailability([termSpan('2026-12-02', 1)], '2026-12-02', null, []);
    expect(a).toMatchObject({ free: false, next_start: '2027-01-02', longest_month: null });
    expect(termAvailabilityText(a, [])).toBe('2027.01.02부터 구독 가능');
  });
});

describe('fromFee (the garage card under a months filter)', () => {
  const car = { subscription_fee_12: 4_000_000, subscription_fee_36: 3_400_000, subscription_fee_96: 2_500_000 };
  it('is the lowest fee among the filtered terms, not the 96-month minimum', () => {
    expect(fromFee(car, [12])).toBe(4_000_000);
    expect(fromFee(car, [12, 36])).toBe(3_400_000);
    expect(fromFee(car, [6])).toBeNull();
  });
});

describe('bookingConflicts and conflictWarning (issue 49: a lapsed paid hold)', () => {
  const own = { id: 2, status: 'PENDING' as const, span: termSpan('2027-01-10', 1), paid: true };
  it('finds paid or confirmed bookings of the car sharing a day, never itself or an unpaid one', () => {
    const others = [
      own,
      { id: 1, status: 'PENDING' as const, span: termSpan('2027-01-20', 1), paid: true },
      { id: 3, status: 'PENDING' as const, span: termSpan('2027-01-15', 1), paid: false },
      { id: 4, status: 'CONFIRMED' as const, span: termSpan('2027-02-10', 1), paid: true }, // touches the end: no overlap
    ];
    expect(bookingConflicts(own, others)).toEqual([{ request_id: 1, status: 'PENDING', start: '2027-01-20', end: '2027-02-19' }]);
  });
  it('says which are paid and which confirmed, in Korean', () => {
    expect(conflictWarning([])).toBeNull();
    const w = conflictWarning([
      { request_id: 1, status: 'PENDING', start: '2027-01-20', end: '2027-02-19' },
      { request_id: 5, status: 'CONFIRMED', start: '2027-01-01', end: '2027-01-31' },
    ])!;
    expect(w).toContain('확정된 구독 신청: #5 (2027.01.01~2027.01.31). 이 신청은 진행할 수 없으니 환불 후 취소해주세요.');
    expect(w).toContain('결제 완료된 신청: #1 (2027.01.20~2027.02.19). 한 건만 확정할 수 있으며');
  });
});
