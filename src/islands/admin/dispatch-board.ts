import { koreaDate, koreaTime } from '../../domain/dates';
import type { DispatchTrip, DriverGender } from '../../domain/dispatch';

/** How the board groups its trips: by the car that runs them or by the driver who drives them. */
export type BoardView = 'car' | 'driver';

export const GENDER_LABEL: Record<DriverGender, string> = { male: '남', female: '여' };

/** The group of trips without a driver; the board lists it first in either view. */
const UNASSIGNED = '미배차';

export interface TripGroup {
  key: string;
  label: string;
  /** The driver of a 기사별 group (null for 미배차 and for car groups): its run sheets are his. */
  driverId: number | null;
  trips: DispatchTrip[];
}

/** A trip's stops in order: 출발지 → 경유지… → 도착지. */
export const routeText = (t: Pick<DispatchTrip, 'start_location' | 'way_points' | 'end_location'>) => [t.start_location, ...t.way_points, t.end_location].join(' → ');

/** A car as staff name it: model and plate. */
export const carText = (car: DispatchTrip['car']) => `${car.name} · ${car.license_plate ?? '번호 없음'}`;

/**
 * The board's groups: 미배차 first (trips without a driver, in either view), then one group per
 * car or per driver in name order; trips inside a group keep the order the API gave (by start).
 */
export function groupTrips(trips: readonly DispatchTrip[], view: BoardView): TripGroup[] {
  const unassigned: TripGroup = { key: 'none', label: UNASSIGNED, driverId: null, trips: [] };
  const groups = new Map<string, TripGroup>();
  for (const t of trips) {
    if (!t.driver) {
      unassigned.trips.push(t);
      continue;
    }
    const key = view === 'car' ? `car-${t.car.id}` : `driver-${t.driver.id}`;
    const label = view === 'car' ? carText(t.car) : t.driver.name;
    const group = groups.get(key) ?? { key, label, driverId: view === 'driver' ? t.driver.id : null, trips: [] };
    group.trips.push(t);
    groups.set(key, group);
  }
  const named = [...groups.values()].sort((a, b) => a.label.localeCompare(b.label, 'ko'));
  return unassigned.trips.length ? [unassigned, ...named] : named;
}

/** The Korean days a group's trips start on, in order: one run sheet each. */
export const tripDaysOf = (trips: readonly DispatchTrip[]) => [...new Set(trips.map((t) => koreaDate(t.start_at)))].sort();

/** An HH:mm typed by staff on the Korean day of `sameDayAs` (an instant), as the instant the API takes. */
export const atKoreanDay = (sameDayAs: string, time: string) => `${koreaDate(sameDayAs)}T${time}:00+09:00`;

/**
 * A pickup moved `minutes` later (픽업 변경 +30분/+60분), as the Korean day and HH:mm the form
 * keeps: a 23:50 pickup +30 is 00:20 of the next day, not of its own.
 */
export function movedPickup(startAt: string, minutes: number): { day: string; time: string } {
  const at = new Date(Date.parse(startAt) + minutes * 60_000).toISOString();
  return { day: koreaDate(at), time: koreaTime(at) };
}
