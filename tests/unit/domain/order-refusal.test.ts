import { describe, expect, it } from 'vitest';
import { orderRefusal } from '../../../src/domain/car';

describe('orderRefusal', () => {
  const today = '2026-11-23';
  it('lets a subscriptable car available by today be ordered', () => {
    expect(orderRefusal({ is_subscriptable: true, subscription_available_from: null }, today)).toBeNull();
    expect(orderRefusal({ is_subscriptable: true, subscription_available_from: '2026-11-23' }, today)).toBeNull();
  });
  it('names the day a car opens, and refuses a car not taking orders', () => {
    expect(orderRefusal({ is_subscriptable: true, subscription_available_from: '2026-12-01' }, today)).toBe('2026-12-01부터 구독할 수 있는 차량입니다.');
    expect(orderRefusal({ is_subscriptable: true, subscription_available_from: '2026-12-01T00:00:00.000Z' }, today)).toBe('2026-12-01부터 구독할 수 있는 차량입니다.');
    expect(orderRefusal({ is_subscriptable: false, subscription_available_from: '2026-12-01' }, today)).toBe('현재 구독 신청을 받지 않는 차량입니다.');
  });
});
