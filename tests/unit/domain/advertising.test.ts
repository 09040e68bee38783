import { describe, expect, it } from 'vitest';
import { adHoldUntil, inAdNight, marketingReminderAt, marketingReminderDay } from '../../../src/domain/advertising';

const kst = (s: string) => new Date(`${s}+09:00`);

describe('(광고) night window, 21:00–08:00 KST (정보통신망법 제50조③)', () => {
  it('holds a night message until 08:00 the next (or same) morning', () => {
    expect(adHoldUntil(kst('2033-05-01T21:00:00'), false)).toEqual(kst('2033-05-02T08:00:00'));
    expect(adHoldUntil(kst('2033-05-01T23:59:00'), false)).toEqual(kst('2033-05-02T08:00:00'));
    expect(adHoldUntil(kst('2033-05-02T00:10:00'), false)).toEqual(kst('2033-05-02T08:00:00'));
    expect(adHoldUntil(kst('2033-05-02T07:59:00'), false)).toEqual(kst('2033-05-02T08:00:00'));
    expect(adHoldUntil(kst('2033-12-31T22:00:00'), false)).toEqual(kst('2034-01-01T08:00:00'));
  });
  it('lets daytime messages and night messages with the night-time consent go now', () => {
    expect(adHoldUntil(kst('2033-05-02T08:00:00'), false)).toBeNull();
    expect(adHoldUntil(kst('2033-05-02T20:59:00'), false)).toBeNull();
    expect(adHoldUntil(kst('2033-05-02T23:00:00'), true)).toBeNull();
    expect(inAdNight(kst('2033-05-02T12:00:00'))).toBe(false);
    expect(inAdNight(kst('2033-05-02T03:00:00'))).toBe(true);
  });
});

describe('the 2-yearly reminder of the marketing consent (제50조⑧)', () => {
  it('falls every 24 months from the Korean day of the consent, at 10:00 KST', () => {
    const at = kst('2031-03-15T23:30:00');
    expect(marketingReminderDay(at, 1)).toBe('2033-03-15');
    expect(marketingReminderDay(at, 2)).toBe('2035-03-15');
    expect(marketingReminderAt(at, 1)).toEqual(kst('2033-03-15T10:00:00'));
    // 29 February: the last day of February two years on.
    expect(marketingReminderDay(kst('2032-02-29T12:00:00'), 1)).toBe('2034-02-28');
  });
});
