import { describe, expect, it } from 'vitest';
import {
  availabilityText, clashes, firstFreeDay, holdExpiry, holdLive, inclusiveSpan, nextFreeStart, overlapMessage, overlaps, termSpan,
} from '../../../src/domain/availability';

describe('day spans', () => {
  it('a term covers [start, start + months): its last day is the day before', () => {
    expect(termSpan('2026-12-01', 6)).toEqual({ start: '2026-12-01', end: '2027-06-01' });
    expect(termSpan('2027-01-31', 1)).toEqual({ start: '2027-01-31', end: '2027-02-28' });
    expect(inclusiveSpan('2026-12-01', '2027-05-31')).toEqual(termSpan('2026-12-01', 6));
  });

  it('overlap needs a shared day; touching ends do not overlap', () => {
    const a = termSpan('2026-12-01', 6);
    expect(overlaps(a, termSpan('2027-06-01', 1))).toBe(false);
    expect(overlaps(a, termSpan('2027-05-31', 1))).toBe(true);
    expect(overlaps(a, termSpan('2026-11-01', 1))).toBe(false);
    expect(overlaps(a, termSpan('2026-11-02', 1))).toBe(true);
    expect(overlaps(a, termSpan('2027-01-10', 1))).toBe(true); // inside
    expect(overlaps(termSpan('2026-01-01', 24), a)).toBe(true); // around
    expect(clashes([a, termSpan('2028-01-01', 1)], termSpan('2027-12-15', 1))).toEqual([termSpan('2028-01-01', 1)]);
  });
});

describe('next free start', () => {
  const line = [termSpan('2026-12-01', 6), termSpan('2027-07-01', 3)];
  it('is the asked start when nothing is in the way', () => {
    expect(nextFreeStart(line, 1, '2026-11-01')).toBe('2026-11-01');
    expect(nextFreeStart([], 12, '2026-12-05')).toBe('2026-12-05');
  });
  it('skips a gap too short for the term and lands after the spans', () => {
    // 2027-06-01 … 2027-07-01 is one month free: enough for 1, not for 3.
    expect(nextFreeStart(line, 1, '2026-12-10')).toBe('2027-06-01');
    expect(nextFreeStart(line, 3, '2026-12-10')).toBe('2027-10-01');
    // A 1-month term from 2026-11-15 would run into December.
    expect(nextFreeStart(line, 1, '2026-11-15')).toBe('2027-06-01');
  });
  it('the first free day steps over adjoining spans', () => {
    expect(firstFreeDay(line, '2026-11-20')).toBe('2026-11-20');
    expect(firstFreeDay(line, '2026-12-01')).toBe('2027-06-01');
    expect(firstFreeDay([termSpan('2026-12-01', 1), termSpan('2027-01-01', 1)], '2026-12-05')).toBe('2027-02-01');
  });
});

describe('holds', () => {
  it('last SUBSCRIPTION_HOLD_DAYS and are ignored once lapsed', () => {
    const placed = new Date('2026-11-27T00:00:00Z');
    const until = holdExpiry(placed, 7);
    expect(until.toISOString()).toBe('2026-12-04T00:00:00.000Z');
    expect(holdLive(until, new Date('2026-12-03T23:59:59Z'))).toBe(true);
    expect(holdLive(until, until)).toBe(false);
    expect(holdLive(null, placed)).toBe(false);
  });
});

describe('words', () => {
  it('say when the car is free and why an order is refused', () => {
    expect(availabilityText('2026-11-28', '2026-11-28')).toBe('구독 가능');
    expect(availabilityText('2027-06-01', '2026-11-28')).toBe('2027.06.01부터 구독 가능');
    expect(overlapMessage(termSpan('2026-12-01', 6), '2027-06-01', ['BMW M5'])).toBe(
      '선택하신 기간(2026.12.01~2027.05.31)에는 이 차량의 다른 구독 일정이 있습니다. 2027.06.01부터 구독을 시작할 수 있습니다. 비슷한 차량: BMW M5',
    );
  });
});
