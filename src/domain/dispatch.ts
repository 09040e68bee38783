import { defaultEnd, tripDays, type CustomerDispatch, type TripStage } from './butler';
import { addDays, HOUR_MS, koreaDate, koreaInstant } from './dates';
import type { OrderStatus } from './orders';
import type { CustomerCar } from './butler-own-car';

// The stage and the customer's view are declared with the booking view they belong to (./butler.ts).
export type { CustomerDispatch, TripStage };

/** Butler dispatch: the shop's drivers, which driver may take which trip, and what the customer sees of it. */

export type DriverGender = 'male' | 'female';

/** Driving licence classes staff can record for a driver. */
export const LICENCE_CLASSES = ['1종 보통', '1종 대형', '2종 보통'] as const;

/** A driver as the staff API returns it (days off are Korean days YYYY-MM-DD). */
export interface Driver {
  id: number;
  name: string;
  phone: string;
  gender: DriverGender;
  licence_classes: string[];
  active: boolean;
  days_off: string[];
  memo: string | null;
  created_at: string;
  modified_at: string;
}

export const TRIP_STAGE_LABEL: Record<TripStage, string> = {
  RECEIVED: '접수',
  DISPATCHED: '배차 완료',
  DEPARTED: '기사 출발',
  ARRIVED: '기사 도착',
  IN_PROGRESS: '운행 중',
  COMPLETED: '운행 완료',
  CANCELLED: '취소',
};

/** The fields of a trip its stage depends on. */
export interface StagedTrip {
  status: OrderStatus;
  driver_id: number | null;
  start_at: string | Date;
  actual_start_at: string | Date | null;
  actual_end_at: string | Date | null;
  /** The driver's 출발 and 도착 (absent: not recorded). */
  departed_at?: string | Date | null;
  arrived_at?: string | Date | null;
}

/**
 * CANCELLED status → CANCELLED; actual_end_at set → COMPLETED; no driver → RECEIVED; then what
 * the driver recorded: 탑승 (actual_start_at) → IN_PROGRESS, 도착 → ARRIVED, 출발 → DEPARTED; with
 * nothing recorded, from the start time → IN_PROGRESS (the clock), before it → DISPATCHED.
 */
export function tripStage(t: StagedTrip, now: Date): TripStage {
  if (t.status === 'CANCELLED') return 'CANCELLED';
  if (t.actual_end_at) return 'COMPLETED';
  if (t.driver_id === null) return 'RECEIVED';
  if (t.actual_start_at) return 'IN_PROGRESS';
  if (t.arrived_at) return 'ARRIVED';
  if (t.departed_at) return 'DEPARTED';
  if (now.getTime() >= new Date(t.start_at).getTime()) return 'IN_PROGRESS';
  return 'DISPATCHED';
}

/** A span of time a driver is taken, half-open [from, to). */
export interface BusyWindow {
  from: Date;
  to: Date;
}

/** A trip's busy window for a driver: [start − buffer, (end ?? start + 8 h) + buffer]; the buffer covers the drive between trips. */
export function driverWindow(startAt: Date | string, endAt: Date | string | null, bufferMinutes: number): BusyWindow {
  const buffer = bufferMinutes * 60_000;
  const end = endAt ? new Date(endAt) : defaultEnd(startAt);
  return { from: new Date(new Date(startAt).getTime() - buffer), to: new Date(end.getTime() + buffer) };
}

/** Whether two windows share time; half-open, so windows that only touch do not overlap. */
export function windowsOverlap(a: BusyWindow, b: BusyWindow): boolean {
  return a.from.getTime() < b.to.getTime() && b.from.getTime() < a.to.getTime();
}

/**
 * Whether a driver may take a trip, overlaps aside: active, no day off on any Korean day the trip
 * covers, and the gender the customer asked for ('male'/'female'; 'any', '' or null match everyone).
 */
export function driverSuits(
  driver: Pick<Driver, 'active' | 'gender' | 'days_off'>,
  trip: { start_at: Date | string; end_at: Date | string | null; driver_preference: string | null },
): boolean {
  if (!driver.active) return false;
  const pref = trip.driver_preference;
  if ((pref === 'male' || pref === 'female') && driver.gender !== pref) return false;
  const off = new Set(driver.days_off);
  return !tripDays(trip.start_at, trip.end_at).some((day) => off.has(day));
}

/** The customer sees the driver and plate from the Korean day before the trip's day (and on/after it). */
export function showsDispatch(startAt: Date | string, now: Date): boolean {
  return koreaDate(now) >= addDays(koreaDate(startAt), -1);
}

/** A stop between pickup and destination, with the time the customer asked to be there (ISO, or null). */
export interface TripStop {
  address: string;
  scheduled_time: string | null;
}

/**
 * What the customer asked of the trip, which the driver and staff must read before it: the
 * purpose, the memo (e.g. "유아 카시트 1개"), passengers, the driver preference and every
 * waypoint with its time. The 배차 card, the 운행표 and the order desk show it alike.
 */
export interface TripBrief {
  passenger_count: number;
  purpose: string | null;
  memo: string | null;
  driver_preference: string | null;
  /** The flight of an airport pickup (KE123), so the driver can check its arrival; null when none. */
  flight_number: string | null;
  /** The waypoints in order with their times (way_points on the board is the addresses alone). */
  waypoints: TripStop[];
}

/** A trip as the dispatch board and the run sheet show it. */
export interface DispatchTrip extends TripBrief {
  id: number;
  status: OrderStatus;
  stage: TripStage;
  start_at: string;
  end_at: string | null;
  start_location: string;
  end_location: string;
  way_points: string[];
  passenger_count: number;
  driver_preference: string | null;
  /** The fleet car; for a driver-only booking (own-car) id 0 and the customer's car ("고객 차량 BMW 520i"). */
  car: { id: number; name: string; license_plate: string | null };
  /** BUTLER_LEGAL_MODEL=own-car: the customer's car the driver drives (null for a fleet car). */
  customer_car: CustomerCar | null;
  customer: { name: string; mobile: string | null };
  driver: { id: number; name: string; phone: string } | null;
  actual_start_at: string | null;
  actual_end_at: string | null;
  departed_at: string | null;
  arrived_at: string | null;
}


/** What customers made of a driver's trips: the mean of their 1–5 ratings (one decimal) and how many. */
export interface DriverRatingSummary {
  driver_id: number;
  average: number;
  count: number;
}

/** A rating at or under this many stars alerts staff at once (issue 50). */
export const LOW_RATING_MAX = 2;

/** One customer rating as staff read it: the trip, its driver, the stars and what the customer wrote. */
export interface StaffTripRating {
  id: number;
  butler_request_id: number;
  start_at: string;
  start_location: string;
  driver: { id: number; name: string } | null;
  score: number;
  comment: string | null;
  created_at: string;
}

/** GET /admin/trip-ratings: the newest ratings first. */
export interface StaffTripRatingsAnswer {
  ratings: StaffTripRating[];
}

/** The mean of `count` 1–5 scores adding up to `sum`, to one decimal (17 / 4 = 4.25 → 4.3); null without any. */
export function averageScore(sum: number, count: number): number | null {
  if (count <= 0) return null;
  return Math.round((sum * 10) / count + 1e-9) / 10;
}

/** GET /admin/drivers, with each rated driver's average (drivers never rated are absent from `ratings`). */
export interface DriverListAnswer {
  drivers: Driver[];
  ratings: DriverRatingSummary[];
}

/** POST /admin/drivers and PATCH /admin/drivers/{id}. */
export interface DriverAnswer {
  driver: Driver;
}

/** GET /admin/dispatch: non-cancelled trips starting on the Korean days [from, to) (`to` is exclusive: from + days), unassigned first. */
export interface DispatchBoardAnswer {
  from: string;
  to: string;
  buffer_minutes: number;
  trips: DispatchTrip[];
  drivers: Driver[];
}

/** GET /admin/butler-requests/{id}/driver-proposals. */
export interface DriverProposalsAnswer {
  drivers: Driver[];
}

/** POST /admin/butler-requests/{id}/assign and DELETE /admin/butler-requests/{id}/driver. */
export interface DispatchTripAnswer {
  trip: DispatchTrip;
}

/** GET /admin/dispatch/run-sheet: one driver's trips starting on one Korean day. */
export interface RunSheetAnswer {
  driver: Driver;
  date: string;
  trips: DispatchTrip[];
}

/** When staff are alerted of a trip with no driver: the evening before, and again on the morning of the day. */
export type UnassignedAlert = 'eve' | 'day';
export const UNASSIGNED_ALERTS: readonly UnassignedAlert[] = ['eve', 'day'];

/**
 * The instant of an unassigned-trip alert (issue 50): 17:00 in Korea the day before the trip's
 * Korean day, and 07:00 on the day (or 2 hours before an earlier start).
 */
export function unassignedAlertAt(start: Date, alert: UnassignedAlert): Date {
  const day = koreaDate(start);
  if (alert === 'eve') return koreaInstant(addDays(day, -1), '17:00')!;
  const morning = koreaInstant(day, '07:00')!;
  return new Date(Math.min(morning.getTime(), start.getTime() - 2 * HOUR_MS));
}
