import { describe, expect, it } from 'vitest';
import { bookedHours, priceChangeLine, waitingChangeLine } from '../../../src/domain/trip-change';

describe('bookedHours', () => {
  it('is the included 8 plus each started hour beyond', () => {
    expect(bookedHours('2026-12-10T09:00:00+09:00', null)).toBe(8);
    expect(bookedHours('2026-12-10T09:00:00+09:00', '2026-12-10T17:00:00+09:00')).toBe(8);
    expect(bookedHours('2026-12-10T09:00:00+09:00', '2026-12-10T18:10:00+09:00')).toBe(10);
    expect(bookedHours('2026-12-10T09:00:00+09:00', '2026-12-10T12:00:00+09:00')).toBe(8);
  });
});

describe('priceChangeLine', () => {
  const base = { hours_before: 8, hours_after: 10, before: 1_000_000, after: 1_300_000, difference: 300_000, points_back: 0 };
  it('says the hours, both prices and what the card is charged', () => {
    expect(priceChangeLine(base)).toBe('이용 8시간 → 10시간 · 결제 금액 1,000,000원 → 1,300,000원 (차액 300,000원 추가 결제)');
  });
  it('says a refund and the points that go back', () => {
    expect(priceChangeLine({ ...base, hours_before: 10, hours_after: 8, before: 50_000, after: 0, difference: -50_000, points_back: 20_000 })).toBe(
      '이용 10시간 → 8시간 · 결제 금액 50,000원 → 0원 (차액 50,000원 환불) · 포인트 20,000P 반환',
    );
  });
  it('is empty without a price change', () => expect(priceChangeLine(null)).toBe(''));
});

describe('waitingChangeLine', () => {
  it('says the free waiting before and after', () => expect(waitingChangeLine({ free_before: 15, free_after: 60 })).toBe('무료 대기 15분 → 60분'));
  it('is empty when it stays', () => expect(waitingChangeLine(null)).toBe(''));
});
