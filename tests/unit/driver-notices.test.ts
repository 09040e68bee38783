import { describe, expect, it } from 'vitest';
import { changesLine, customerChangeLine, dayHeading, groupByDay, shiftTrip, tripChanges, usedHours, type TripPlan } from '../../src/domain/driver-notices';

const plan: TripPlan = {
  start_at: '2026-12-10T00:00:00.000Z', // 09:00 KST
  end_at: '2026-12-10T08:00:00.000Z',
  start_location: '인천 중구 공항로 272',
  end_location: '서울 강남구 테헤란로 152',
  way_points: [{ address: '서울 중구 세종대로 110', scheduled_time: '2026-12-10T03:00:00.000Z' }],
  flight_number: 'KE123',
};

describe('tripChanges', () => {
  it('is empty when nothing changed', () => expect(tripChanges(plan, { ...plan })).toEqual([]));
  it('names each changed part before → after, as people read it', () => {
    const changes = tripChanges(plan, { ...plan, start_at: '2026-12-10T00:30:00.000Z', end_location: '서울 종로구 사직로 161' });
    expect(changes).toEqual([
      { field: 'start_at', label: '픽업 시각', before: '2026.12.10 09:00', after: '2026.12.10 09:30' },
      { field: 'end_location', label: '도착지', before: '서울 강남구 테헤란로 152', after: '서울 종로구 사직로 161' },
    ]);
    expect(changesLine(changes)).toBe('픽업 시각 2026.12.10 09:00 → 2026.12.10 09:30 · 도착지 서울 강남구 테헤란로 152 → 서울 종로구 사직로 161');
  });
  it('shows waypoints with their times and a removed flight as 없음', () => {
    const [w, f] = tripChanges(plan, { ...plan, way_points: [], flight_number: null });
    expect(w).toMatchObject({ before: '서울 중구 세종대로 110(12:00)', after: '없음' });
    expect(f).toMatchObject({ label: '항공편', before: 'KE123', after: '없음' });
  });
});

describe('shiftTrip', () => {
  it('moves the end and each waypoint by the same amount', () => {
    const moved = shiftTrip({ start_at: plan.start_at, end_at: '2026-12-10T08:00:00.000Z', way_points: plan.way_points }, '2026-12-10T10:00:00+09:00');
    expect(moved).toEqual({ start_at: '2026-12-10T01:00:00.000Z', end_at: '2026-12-10T09:00:00.000Z', way_points: [{ address: '서울 중구 세종대로 110', scheduled_time: '2026-12-10T04:00:00.000Z' }] });
  });
  it('keeps an open end open', () => expect(shiftTrip({ start_at: plan.start_at, end_at: null, way_points: [] }, '2026-12-10T00:30:00Z').end_at).toBeNull());
});

describe('customerChangeLine', () => {
  const moved = tripChanges(plan, { ...plan, start_at: '2026-12-10T05:30:00.000Z' });
  it('says a late flight moved the pickup, with the particle the time takes', () => {
    expect(customerChangeLine('flight_delay', moved, '2026-12-10T05:30:00.000Z')).toBe('항공편 지연으로 픽업 시각이 14:30으로 변경되었습니다.');
    expect(customerChangeLine('flight_delay', moved, '2026-12-10T05:15:00.000Z')).toBe('항공편 지연으로 픽업 시각이 14:15로 변경되었습니다.');
  });
  it('otherwise says what changed', () => {
    expect(customerChangeLine('other', moved, '2026-12-10T05:30:00.000Z')).toBe('픽업 시각이 14:30으로 변경되었습니다.');
    expect(customerChangeLine('other', tripChanges(plan, { ...plan, start_location: '김포공항' }), plan.start_at)).toBe('예약 내용이 변경되었습니다: 출발지.');
  });
});

describe('the coming days', () => {
  it('heads today and tomorrow by name and the rest by date and weekday', () => {
    expect(dayHeading('2026-12-03', '2026-12-03')).toBe('오늘 · 12.03 (목)');
    expect(dayHeading('2026-12-04', '2026-12-03')).toBe('내일 · 12.04 (금)');
    expect(dayHeading('2026-12-06', '2026-12-03')).toBe('12.06 (일)');
  });
  it('groups trips by Korean day in order; one under way from yesterday is today’s', () => {
    const t = (id: number, start_at: string) => ({ id, start_at });
    const groups = groupByDay([t(3, '2026-12-05T01:00:00Z'), t(1, '2026-12-02T23:00:00Z'), t(2, '2026-12-02T14:00:00Z'), t(4, '2026-12-04T16:00:00Z')], '2026-12-03');
    expect(groups.map((g) => [g.day, g.trips.map((x) => x.id)])).toEqual([['2026-12-03', [2, 1]], ['2026-12-05', [4, 3]]]);
  });
  it('used hours from 탑승 to 운행 종료, to a tenth', () => {
    expect(usedHours('2026-12-03T00:00:00Z', '2026-12-03T08:30:00Z')).toBe(8.5);
    expect(usedHours('2026-12-03T00:00:00Z', null)).toBeNull();
  });
});

describe('tripChanges and the booked end', () => {
  it('leaves the end out when a moved pickup takes it along', () => {
    const moved = shiftTrip(plan, '2026-12-10T09:30:00+09:00');
    expect(tripChanges(plan, moved).map((c) => c.field)).toEqual(['start_at', 'way_points']);
  });
  it('names a longer or open end as 종료 시각', () => {
    expect(tripChanges(plan, { ...plan, end_at: '2026-12-10T10:00:00.000Z' })).toEqual([{ field: 'end_at', label: '종료 시각', before: '2026.12.10 17:00', after: '2026.12.10 19:00' }]);
    expect(tripChanges(plan, { ...plan, end_at: null })).toEqual([]);
    expect(tripChanges({ ...plan, end_at: '2026-12-10T06:00:00.000Z' }, { ...plan, end_at: null })[0]).toMatchObject({ field: 'end_at', after: '미정' });
  });
});
