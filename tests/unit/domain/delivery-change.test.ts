import { describe, expect, it } from 'vitest';
import { deliveryChangeClosed, deliveryChangeDeadline, deliveryChangeLines, earliestMovedStart, movedEnd, zoneChangeRefusal } from '../../../src/domain/delivery-change';

describe('탁송 정보 변경 rule', () => {
  it('closes cutoff days before the start, naming the deadline', () => {
    expect(deliveryChangeDeadline('2030-03-10', 2)).toBe('2030-03-08');
    expect(deliveryChangeClosed('2030-03-10', '2030-03-08', 2)).toBeNull();
    expect(deliveryChangeClosed('2030-03-10', '2030-03-09', 2)).toBe('탁송 정보는 구독 시작 2일 전인 2030-03-08까지만 변경할 수 있습니다. 변경이 필요하면 고객센터로 문의해주세요.');
    expect(earliestMovedStart('2030-03-01', 2)).toBe('2030-03-03');
    expect(earliestMovedStart('2030-03-01', 0)).toBe('2030-03-02');
  });

  it('moves the end with the start: the natural end of the term, or the same length', () => {
    expect(movedEnd('2030-03-10', '2031-03-09', 12, '2030-03-20')).toBe('2031-03-19');
    expect(movedEnd('2030-03-10', '2031-03-20', 12, '2030-03-12')).toBe('2031-03-22');
  });

  it('refuses a new address in another 탁송 zone (the fee would change)', () => {
    expect(zoneChangeRefusal('서울 중구 세종대로 110', '경기 성남시 분당구 1')).toBeNull();
    expect(zoneChangeRefusal('서울 중구 세종대로 110', '부산 해운대구 우동 1408')).toMatch(/탁송비가 달라져/);
    expect(zoneChangeRefusal(null, '부산 해운대구 우동 1408')).toBeNull();
  });

  it('names each change', () => {
    expect(deliveryChangeLines({ address: '서울 중구 1', window: 'MORNING', start: '2030-03-10' }, { address: '서울 강남구 2', window: 'EVENING', start: '2030-03-12' })).toEqual([
      '시작일 2030-03-10 → 2030-03-12', '탁송 주소 서울 중구 1 → 서울 강남구 2', '탁송 시간대 오전 09:00~12:00 → 오후 16:00~19:00',
    ]);
  });
});
