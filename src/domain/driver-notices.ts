import { addDays, formatKoreaDateTime, HOUR_MS, koreaDate, koreaTime, weekday } from './dates';
import { withParticle } from './korean';
import { INCLUDED_HOURS } from './butler-hours';

/**
 * What a driver is told about their trips (docs/decisions/driver-day.md "Notices"): an
 * assignment, a change of time or address, a reassignment away, a cancellation. Each is one
 * 알림톡 (SMS fallback) and one row of the 알림 list on /driver.
 */
export type DriverNoticeKind = 'assigned' | 'changed' | 'unassigned' | 'cancelled';

export const DRIVER_NOTICE_TITLE: Record<DriverNoticeKind, string> = {
  assigned: '새 운행 배정',
  changed: '운행 변경',
  unassigned: '배정 해제',
  cancelled: '운행 취소',
};

/** The parts of a trip whose change the driver and the customer are told of. */
export interface TripPlan {
  start_at: string;
  /** The booked end (null: open, start + 8 h). */
  end_at: string | null;
  start_location: string;
  end_location: string;
  way_points: { address: string; scheduled_time: string | null }[];
  flight_number: string | null;
}

type TripField = 'start_at' | 'end_at' | 'start_location' | 'end_location' | 'way_points' | 'flight_number';

/** One changed part, as people read it: 픽업 시각 2026.12.03 09:00 → 2026.12.03 09:30. */
export interface TripChange {
  field: TripField;
  label: string;
  before: string;
  after: string;
}

const TRIP_FIELD_LABEL: Record<TripField, string> = {
  start_at: '픽업 시각',
  end_at: '종료 시각',
  start_location: '출발지',
  end_location: '도착지',
  way_points: '경유지',
  flight_number: '항공편',
};

const stops = (w: TripPlan['way_points']) => (w.length ? w.map((p) => (p.scheduled_time ? `${p.address}(${koreaTime(p.scheduled_time)})` : p.address)).join(', ') : '없음');

/** Booked minutes of a plan (an open end counts as the included 8 hours). */
const bookedMinutes = (p: TripPlan) => (p.end_at ? (Date.parse(p.end_at) - Date.parse(p.start_at)) / 60_000 : INCLUDED_HOURS * 60);

/**
 * What differs between two plans of one trip, in a fixed order (empty when nothing changed). The
 * end counts as changed only when the booked length did: a moved pickup takes its end along.
 */
export function tripChanges(before: TripPlan, after: TripPlan): TripChange[] {
  const sameLength = bookedMinutes(before) === bookedMinutes(after);
  const shown: Record<TripField, (p: TripPlan) => string> = {
    start_at: (p) => formatKoreaDateTime(p.start_at),
    end_at: (p) => (sameLength ? '' : p.end_at ? formatKoreaDateTime(p.end_at) : '미정'),
    start_location: (p) => p.start_location,
    end_location: (p) => p.end_location,
    way_points: (p) => stops(p.way_points),
    flight_number: (p) => p.flight_number ?? '없음',
  };
  return (Object.keys(shown) as TripField[]).flatMap((field) => {
    const b = shown[field](before);
    const a = shown[field](after);
    return b === a ? [] : [{ field, label: TRIP_FIELD_LABEL[field], before: b, after: a }];
  });
}

/** The changes in one line for a message: "픽업 시각 09:00 → 09:30 · 출발지 A → B". */
export const changesLine = (changes: TripChange[]) => changes.map((c) => `${c.label} ${c.before} → ${c.after}`).join(' · ');

/**
 * The trip moved to `newStart`: its end and each waypoint's time move by the same amount (the
 * booked duration stays, so the price does not change).
 */
export function shiftTrip<T extends { start_at: string; end_at: string | null; way_points: { address: string; scheduled_time: string | null }[] }>(trip: T, newStart: string): T {
  const delta = Date.parse(newStart) - Date.parse(trip.start_at);
  const move = (at: string | null) => (at ? new Date(Date.parse(at) + delta).toISOString() : null);
  return { ...trip, start_at: new Date(Date.parse(newStart)).toISOString(), end_at: move(trip.end_at), way_points: trip.way_points.map((w) => ({ ...w, scheduled_time: move(w.scheduled_time) })) };
}

/** Why the pickup moved, as the customer's message says it. */
export type PickupChangeCause = 'flight_delay' | 'other';

/**
 * The customer's first line about a changed trip: "항공편 지연으로 픽업 시각이 14:30으로
 * 변경되었습니다." for a late flight, otherwise what changed.
 */
export function customerChangeLine(cause: PickupChangeCause, changes: TripChange[], newStart: string): string {
  const timeMoved = changes.some((c) => c.field === 'start_at');
  const at = koreaTime(newStart);
  if (cause === 'flight_delay' && timeMoved) return `항공편 지연으로 픽업 시각이 ${withParticle(at, '으로/로')} 변경되었습니다.`;
  if (timeMoved && changes.length === 1) return `픽업 시각이 ${withParticle(at, '으로/로')} 변경되었습니다.`;
  return `예약 내용이 변경되었습니다: ${changes.map((c) => c.label).join(', ')}.`;
}

/** A notice as /driver lists it. */
interface DriverNoticeView {
  id: number;
  kind: DriverNoticeKind;
  title: string;
  trip_id: number;
  start_at: string;
  start_location: string;
  changes: TripChange[];
  created_at: string;
  read: boolean;
}

/** GET /driver/notices: the driver's newest notices first, and how many are unread. */
export interface DriverNoticesAnswer {
  notices: DriverNoticeView[];
  unread: number;
}

/** How many notices /driver shows. */
export const DRIVER_NOTICES_SHOWN = 30;

// ── Days ─────────────────────────────────────────────────────────────────────

/** How many coming days (today included) /driver lists. */
export const DRIVER_DAYS_AHEAD = 8;
/** How far back 지난 운행 goes, and its page size. */
export const PAST_TRIPS_DAYS = 30;
export const PAST_TRIPS_PAGE_SIZE = 10;

const WEEKDAY = ['일', '월', '화', '수', '목', '금', '토'];

/** 오늘 · 12.03 (목), 내일 · 12.04 (금), 12.05 (토). */
export function dayHeading(day: string, today: string): string {
  const date = `${day.slice(5, 7)}.${day.slice(8, 10)} (${WEEKDAY[weekday(day)]})`;
  if (day === today) return `오늘 · ${date}`;
  if (day === addDays(today, 1)) return `내일 · ${date}`;
  return date;
}

/**
 * Trips grouped by their Korean start day, in day order, each day's in start order. A trip under
 * way from a day before today is listed under today (it is today's work).
 */
export function groupByDay<T extends { start_at: string }>(trips: T[], today: string): { day: string; heading: string; trips: T[] }[] {
  const groups = new Map<string, T[]>();
  for (const t of [...trips].sort((a, b) => Date.parse(a.start_at) - Date.parse(b.start_at))) {
    const day = koreaDate(t.start_at) < today ? today : koreaDate(t.start_at);
    groups.set(day, [...(groups.get(day) ?? []), t]);
  }
  return [...groups.keys()].sort().map((day) => ({ day, heading: dayHeading(day, today), trips: groups.get(day)! }));
}

/** Hours between 탑승 and 운행 종료, to one decimal (null until both are recorded). */
export function usedHours(boarded: string | null, ended: string | null): number | null {
  if (!boarded || !ended) return null;
  return Math.round(((Date.parse(ended) - Date.parse(boarded)) / HOUR_MS) * 10) / 10;
}

/** A past trip of the driver's with its record. */
export interface DriverPastTrip {
  id: number;
  start_at: string;
  start_location: string;
  end_location: string;
  status: 'CONFIRMED' | 'CANCELLED' | 'PENDING';
  times: { arrived: string | null; boarded: string | null; ended: string | null };
  used_hours: number | null;
  rating: number | null;
}

/** GET /driver/trips/past?page=: the last PAST_TRIPS_DAYS days, newest first. */
export interface DriverPastTripsAnswer {
  trips: DriverPastTrip[];
  page: number;
  has_more: boolean;
}
