import { describe, expect, it } from 'vitest';
import { agoText, durationText, elapsedText, hoursText } from '../../../src/domain/dates';

describe('spans of time in Korean words', () => {
  it('minutes: hours and minutes, a zero part left out', () => {
    expect(durationText(560)).toBe('9시간 20분');
    expect(durationText(480)).toBe('8시간');
    expect(durationText(45)).toBe('45분');
    expect(durationText(60)).toBe('1시간');
    expect(durationText(0)).toBe('0분');
    expect(durationText(-5)).toBe('0분');
  });

  it('fractional hours, rounded to the minute', () => {
    expect(hoursText(12)).toBe('12시간');
    expect(hoursText(9.5)).toBe('9시간 30분');
    expect(hoursText(0.5)).toBe('30분');
    // 9.999 h is 600 minutes, not "9시간 60분".
    expect(hoursText(9.999)).toBe('10시간');
  });

  it('waited: seconds under a minute, then whole minutes and hours', () => {
    expect(elapsedText(0)).toBe('0초');
    expect(elapsedText(59)).toBe('59초');
    expect(elapsedText(61)).toBe('1분');
    expect(elapsedText(59 * 60 + 59)).toBe('59분');
    expect(elapsedText(3600)).toBe('1시간');
    expect(elapsedText(2 * 3600 + 5 * 60)).toBe('2시간 5분');
  });

  it('ago: to the second under an hour, 방금 under 5 s', () => {
    expect(agoText(2)).toBe('방금');
    expect(agoText(12)).toBe('12초 전');
    expect(agoText(60)).toBe('1분 전');
    expect(agoText(200)).toBe('3분 20초 전');
    expect(agoText(3_600)).toBe('1시간 전');
    expect(agoText(3_900)).toBe('1시간 5분 전');
    expect(agoText(-3)).toBe('방금');
  });
});
