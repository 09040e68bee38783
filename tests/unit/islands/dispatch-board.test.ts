import { describe, expect, it } from 'vitest';
import type { DispatchTrip } from '../../../src/domain/dispatch';
import { atKoreanDay, groupTrips, movedPickup, routeText, tripDaysOf } from '../../../src/islands/admin/dispatch-board';

const car = (id: number, name: string, plate: string | null = null) => ({ id, name, license_plate: plate });
const driver = (id: number, name: string) => ({ id, name, phone: '010-0000-0000' });

function trip(id: number, start: string, over: Partial<DispatchTrip> = {}): DispatchTrip {
  return {
    id, status: 'CONFIRMED', stage: over.driver ? 'DISPATCHED' : 'RECEIVED', start_at: start, end_at: null,
    start_location: '서울역', end_location: '인천공항', way_points: [], waypoints: [], passenger_count: 2, purpose: null, memo: null, driver_preference: null, flight_number: null,
    car: car(1, 'S-Class', '12가 3456'), customer_car: null, customer: { name: '김고객', mobile: null }, driver: null, actual_start_at: null, actual_end_at: null, departed_at: null, arrived_at: null,
    ...over,
  };
}

describe('dispatch board', () => {
  const trips = [
    trip(1, '2026-12-03T00:00:00Z'),
    trip(2, '2026-12-03T01:00:00Z', { driver: driver(7, '홍길동'), car: car(2, 'G90', '34나 5678') }),
    trip(3, '2026-12-03T02:00:00Z', { driver: driver(5, '강감찬') }),
    trip(4, '2026-12-04T16:00:00Z', { driver: driver(7, '홍길동') }),
  ];

  it('puts 미배차 first, then drivers by name, trips in the order given', () => {
    expect(groupTrips(trips, 'driver').map((g) => [g.label, g.driverId, g.trips.map((t) => t.id)])).toEqual([
      ['미배차', null, [1]], ['강감찬', 5, [3]], ['홍길동', 7, [2, 4]],
    ]);
  });

  it('groups assigned trips by car with its plate', () => {
    expect(groupTrips(trips, 'car').map((g) => [g.label, g.trips.map((t) => t.id)])).toEqual([
      ['미배차', [1]], ['G90 · 34나 5678', [2]], ['S-Class · 12가 3456', [3, 4]],
    ]);
  });

  it('leaves out an empty 미배차 group', () => {
    expect(groupTrips(trips.slice(1), 'car')[0].label).toBe('G90 · 34나 5678');
  });

  it('reads the route with its waypoints and the Korean days of a driver’s trips', () => {
    expect(routeText({ start_location: 'A', way_points: ['B', 'C'], end_location: 'D' })).toBe('A → B → C → D');
    // 16:00 UTC on the 4th is 01:00 on the 5th in Korea.
    expect(tripDaysOf(groupTrips(trips, 'driver')[2].trips)).toEqual(['2026-12-03', '2026-12-05']);
  });
});

describe('픽업 변경 +30분/+60분', () => {
  it('keeps the day a late pickup moves to: 23:50 +30 is 00:20 of the next Korean day', () => {
    expect(movedPickup('2026-12-03T14:50:00Z', 30)).toEqual({ day: '2026-12-04', time: '00:20' });
    expect(atKoreanDay(`${movedPickup('2026-12-03T14:50:00Z', 30).day}T00:00:00+09:00`, '00:20')).toBe('2026-12-04T00:20:00+09:00');
    expect(movedPickup('2026-12-03T00:00:00Z', 60)).toEqual({ day: '2026-12-03', time: '10:00' });
  });
});
