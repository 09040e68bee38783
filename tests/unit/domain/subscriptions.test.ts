import { describe, expect, it } from 'vitest';
import { subscriptionActive } from '../../../src/domain/subscriptions';

describe('subscriptionActive', () => {
  it('is true through the end date and false the day after', () => {
    expect(subscriptionActive({ isActive: true, endDate: '2026-03-31' }, '2026-03-31')).toBe(true);
    expect(subscriptionActive({ isActive: true, endDate: '2026-03-31' }, '2026-04-01')).toBe(false);
  });
  it('is true before the start and false when switched off', () => {
    expect(subscriptionActive({ isActive: true, endDate: '2027-01-01' }, '2025-01-01')).toBe(true);
    expect(subscriptionActive({ isActive: false, endDate: '2027-01-01' }, '2026-01-01')).toBe(false);
  });
});
