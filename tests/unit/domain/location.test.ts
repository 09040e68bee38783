import { describe, expect, it } from 'vitest';
import { continuesReadSession, LOCATION_READ_SESSION_MINUTES, locationConsentTexts, locationLogCutoff, locationNoticeDue } from '../../../src/domain/location';

const kst = (s: string) => new Date(`${s}+09:00`);

describe('locationLogCutoff (확인자료 kept 6 months)', () => {
  it('is the start of the Korean day six calendar months back', () => {
    expect(locationLogCutoff(kst('2026-12-02T10:00:00')).toISOString()).toBe(kst('2026-06-02T00:00:00').toISOString());
    // Just after midnight in Korea is already the next Korean day (UTC is still the day before).
    expect(locationLogCutoff(kst('2026-12-03T00:30:00')).toISOString()).toBe(kst('2026-06-03T00:00:00').toISOString());
  });
  it('clamps to the shorter month', () => {
    expect(locationLogCutoff(kst('2026-08-31T12:00:00')).toISOString()).toBe(kst('2026-02-28T00:00:00').toISOString());
  });
});

describe('locationNoticeDue (30-day batch notice)', () => {
  const first = kst('2026-11-01T10:00:00');
  it('is due 30 days after the oldest untold read, not before', () => {
    expect(locationNoticeDue(first, kst('2026-12-01T09:59:59'))).toBe(false);
    expect(locationNoticeDue(first, kst('2026-12-01T10:00:00'))).toBe(true);
  });
  it('is never due with nothing untold', () => {
    expect(locationNoticeDue(null, kst('2027-01-01T00:00:00'))).toBe(false);
  });
});

describe('continuesReadSession', () => {
  const last = kst('2026-12-02T10:00:00');
  it('holds within the session minutes and not after', () => {
    expect(continuesReadSession(last, new Date(last.getTime() + LOCATION_READ_SESSION_MINUTES * 60_000))).toBe(true);
    expect(continuesReadSession(last, new Date(last.getTime() + LOCATION_READ_SESSION_MINUTES * 60_000 + 1))).toBe(false);
    expect(continuesReadSession(last, new Date(last.getTime() - 1))).toBe(false);
  });
});

describe('locationConsentTexts', () => {
  it('are two separate optional texts naming the officer', () => {
    const texts = locationConsentTexts({ name: '김위치', email: 'loc@example.com', company: '주식회사 럭스모빌리티' });
    expect(texts.map((t) => t.kind)).toEqual(['terms', 'third_party']);
    for (const t of texts) {
      expect(t.title).toMatch(/^\(선택\)/);
      expect(t.text).toContain('주식회사 럭스모빌리티 위치정보관리책임자 김위치 (loc@example.com)');
    }
    expect(texts[1].text).toContain('30일마다');
  });
});
