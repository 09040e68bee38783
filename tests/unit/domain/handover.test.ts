import { describe, expect, it } from 'vitest';
import { acknowledgementMatches, handoverWindow, secondChargeDay, shiftedTerm } from '../../../src/domain/handover';

const billing = { paidMonths: 1, month2Tried: false, active: true, exitSet: false };

describe('handoverWindow', () => {
  it('is the Korean wall-clock window on the day, as instants', () => {
    expect(handoverWindow('2029-03-10', '10:00', '12:30')).toEqual({ from: new Date('2029-03-10T01:00:00Z'), to: new Date('2029-03-10T03:30:00Z') });
  });
  it('refuses an end before or at the start, windows under 30 minutes or over 6 hours, and impossible times, in Korean', () => {
    for (const [s, e] of [['12:00', '10:00'], ['10:00', '10:00'], ['10:00', '10:29'], ['08:00', '14:01'], ['24:00', '25:00']]) {
      const w = handoverWindow('2029-03-10', s, e);
      expect('error' in w && /[가-힣]/.test(w.error), `${s}–${e}`).toBe(true);
    }
    expect('error' in handoverWindow('2029-02-30', '10:00', '11:00')).toBe(true);
    expect('error' in handoverWindow('2029-03-10', '10:00', '10:30')).toBe(false);
    expect('error' in handoverWindow('2029-03-10', '08:00', '14:00')).toBe(false);
  });
});

describe('shiftedTerm (the first day follows the delivery)', () => {
  const term = { start: '2029-03-10', end: '2030-03-09', months: 12 };
  it('moves a natural term to the delivery day, later or earlier, keeping the months', () => {
    expect(shiftedTerm(term, '2029-03-12', billing)).toEqual({ move: true, start: '2029-03-12', end: '2030-03-11' });
    expect(shiftedTerm(term, '2029-03-08', billing)).toEqual({ move: true, start: '2029-03-08', end: '2030-03-07' });
    // Month ends as the billing calendar counts them (termEnd: a month on, less a day; 2/31 is 2/28).
    expect(shiftedTerm({ start: '2029-01-29', end: '2029-02-27', months: 1 }, '2029-01-31', billing)).toEqual({ move: true, start: '2029-01-31', end: '2029-02-27' });
    expect(shiftedTerm({ start: '2029-01-29', end: '2029-02-27', months: 1 }, '2029-02-02', billing)).toEqual({ move: true, start: '2029-02-02', end: '2029-03-01' });
  });
  it('shifts a custom end by the same number of days', () => {
    expect(shiftedTerm({ start: '2029-03-10', end: '2029-12-31', months: 12 }, '2029-03-13', billing)).toEqual({ move: true, start: '2029-03-13', end: '2030-01-03' });
  });
  it('keeps the dates on the start day, after month 2 was charged or tried, when cancelled or exiting', () => {
    expect(shiftedTerm(term, '2029-03-10', billing)).toEqual({ move: false, reason: 'same-day' });
    expect(shiftedTerm(term, '2029-04-12', { ...billing, paidMonths: 2 })).toEqual({ move: false, reason: 'billed' });
    expect(shiftedTerm(term, '2029-03-12', { ...billing, month2Tried: true })).toEqual({ move: false, reason: 'billed' });
    expect(shiftedTerm(term, '2029-03-12', { ...billing, active: false })).toEqual({ move: false, reason: 'inactive' });
    expect(shiftedTerm(term, '2029-03-12', { ...billing, exitSet: true })).toEqual({ move: false, reason: 'exit' });
  });
  it('month 2 then falls on the new day of the next month', () => {
    expect(secondChargeDay('2029-03-12')).toBe('2029-04-12');
  });
});

describe('acknowledgementMatches', () => {
  it('takes the account name, spaces ignored', () => {
    expect(acknowledgementMatches('홍길동', '홍길동')).toBe(true);
    expect(acknowledgementMatches(' 홍 길동 ', '홍길동')).toBe(true);
    expect(acknowledgementMatches('김철수', '홍길동')).toBe(false);
    expect(acknowledgementMatches('', '홍길동')).toBe(false);
  });
  it('without an account name, any name of two characters or more', () => {
    expect(acknowledgementMatches('홍길동', null)).toBe(true);
    expect(acknowledgementMatches('홍', null)).toBe(false);
  });
});
