import { describe, expect, it } from 'vitest';
import { maskPhone, nextStage, stageOrderProblem, type StageTimes } from '../../../src/domain/driver-day';
import { tripStage } from '../../../src/domain/dispatch';

const none: StageTimes = { departed: null, arrived: null, boarded: null, ended: null };

describe('driver stages', () => {
  it('go 출발 → 도착 → 탑승 → 운행 종료', () => {
    expect(nextStage(none)).toBe('departed');
    expect(nextStage({ ...none, departed: '2026-12-01T00:00:00Z' })).toBe('arrived');
    expect(nextStage({ departed: 'a', arrived: 'b', boarded: 'c', ended: 'd' })).toBeNull();
  });

  it('refuse a stage without the one before it, a time before the previous, and an end not after 탑승', () => {
    expect(stageOrderProblem({ ...none, arrived: '2026-12-01T00:00:00Z' })).toBe('출발을 먼저 기록해야 도착을 기록할 수 있습니다.');
    expect(stageOrderProblem({ ...none, departed: '2026-12-01T01:00:00Z', arrived: '2026-12-01T00:00:00Z' })).toBe('도착 시각은 출발 시각 이후여야 합니다.');
    const t = '2026-12-01T01:00:00Z';
    expect(stageOrderProblem({ departed: t, arrived: t, boarded: t, ended: t })).toBe('운행 종료 시각은 탑승 시각 이후여야 합니다.');
    expect(stageOrderProblem({ departed: t, arrived: t, boarded: t, ended: '2026-12-01T02:00:00Z' })).toBeNull();
  });

  it('move the stage staff and the customer see', () => {
    const base = { status: 'CONFIRMED' as const, driver_id: 1, start_at: '2026-12-01T00:00:00Z', actual_start_at: null, actual_end_at: null };
    const before = new Date('2026-11-30T23:00:00Z');
    expect(tripStage(base, before)).toBe('DISPATCHED');
    expect(tripStage({ ...base, departed_at: before }, before)).toBe('DEPARTED');
    // Still 도착 after the start time while the passenger has not boarded.
    expect(tripStage({ ...base, departed_at: before, arrived_at: before }, new Date('2026-12-01T00:30:00Z'))).toBe('ARRIVED');
    expect(tripStage({ ...base, departed_at: before, arrived_at: before, actual_start_at: before }, before)).toBe('IN_PROGRESS');
    // Nothing tapped: the clock moves it as before.
    expect(tripStage(base, new Date('2026-12-01T00:30:00Z'))).toBe('IN_PROGRESS');
  });

  it('mask the passenger phone for the driver', () => {
    expect(maskPhone('01012345678')).toBe('010-****-5678');
    expect(maskPhone('0111234567')).toBe('011-***-4567');
    expect(maskPhone(null)).toBeNull();
  });
});
