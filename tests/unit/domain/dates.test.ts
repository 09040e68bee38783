import { describe, expect, it } from 'vitest';
import { addMonths, dayOf, daysBetween, isClockTime, isRealDay, koreaDayStart, weekday } from '../../../src/domain/dates';
import { termEnd } from '../../../src/domain/subscriptions';

describe('calendar days', () => {
  it('dayOf names only days that exist, in any year', () => {
    expect(dayOf(2028, 2, 29)).toBe('2028-02-29');
    expect(dayOf(50, 1, 1)).toBe('0050-01-01');
    for (const [y, m, d] of [[2027, 2, 29], [2026, 4, 31], [2026, 13, 1], [2026, 0, 10], [2026, 1, 0], [2026, 1.5, 1]]) expect(dayOf(y, m, d), `${y}-${m}-${d}`).toBeNull();
    expect(isRealDay('2024-02-29')).toBe(true);
    for (const t of ['2023-02-29', '2026-1-01', '2026-01-01T00:00', '']) expect(isRealDay(t), t).toBe(false);
  });

  it('adds months on the same day, or the month’s last day when it is shorter', () => {
    expect(addMonths('2027-01-31', 1)).toBe('2027-02-28');
    expect(addMonths('2028-01-31', 1)).toBe('2028-02-29');
    expect(addMonths('2027-11-15', 3)).toBe('2028-02-15');
    expect(addMonths('2027-03-31', -1)).toBe('2027-02-28');
    expect(termEnd('2027-01-31', 1)).toBe('2027-02-27');
    expect(termEnd('2026-03-01', 12)).toBe('2027-02-28');
  });

  it('counts days and weekdays', () => {
    expect(daysBetween('2026-03-11', '2026-09-07')).toBe(180);
    expect(daysBetween('2026-03-11', '2026-03-01')).toBe(-10);
    expect(weekday('2026-03-11')).toBe(3);
  });
});

describe('Korean time', () => {
  it('a Korean day starts at 15:00 UTC the day before', () => {
    expect(koreaDayStart('2026-03-11').toISOString()).toBe('2026-03-10T15:00:00.000Z');
  });
  it('wall-clock times are HH:MM, 00:00–23:59', () => {
    for (const t of ['00:00', '09:05', '23:59']) expect(isClockTime(t), t).toBe(true);
    for (const t of ['24:00', '9:00', '09:60', '09:00:00']) expect(isClockTime(t), t).toBe(false);
  });
});
