import { addDays, addMonths } from './dates';

/**
 * A car is one plate: its timeline is the days it is promised, as half-open day ranges
 * [start, end) (YYYY-MM-DD, Korean days; `end` is the first free day). Confirmed subscriptions
 * and live holds (a paid first month waiting for staff) are both on it. Pure rules; the API
 * reads the rows (src/api/orders/availability.ts). docs/decisions/availability.md.
 */
export interface DaySpan {
  start: string;
  /** The first day after the span (exclusive). */
  end: string;
}

/** The default hold on a car after its first month is paid, in days (SUBSCRIPTION_HOLD_DAYS). */
export const DEFAULT_HOLD_DAYS = 7;

/** The days a term of `months` starting on `start` covers: [start, start + months). */
export function termSpan(start: string, months: number): DaySpan {
  return { start, end: addMonths(start, months) };
}

/** A subscription's stored dates (end inclusive, as staff confirm them) as a span. */
export function inclusiveSpan(start: string, lastDay: string): DaySpan {
  return { start, end: addDays(lastDay, 1) };
}

/** True when two spans share at least one day (touching ends do not overlap). */
export function overlaps(a: DaySpan, b: DaySpan): boolean {
  return a.start < b.end && b.start < a.end;
}

/** The spans of `timeline` that share a day with `span`. */
export function clashes(timeline: readonly DaySpan[], span: DaySpan): DaySpan[] {
  return timeline.filter((t) => overlaps(t, span));
}

/**
 * The earliest start on or after `from` at which a term of `months` overlaps nothing on the
 * timeline. The answer is `from` or the end of some span, so only those are tried.
 */
export function nextFreeStart(timeline: readonly DaySpan[], months: number, from: string): string {
  const candidates = [from, ...timeline.map((t) => t.end).filter((d) => d > from)].sort();
  for (const start of candidates) {
    if (!clashes(timeline, termSpan(start, months)).length) return start;
  }
  return from; // unreachable: the latest end is always free
}

/** The first day on or after `from` that no span covers (what the pages show: "…부터 구독 가능"). */
export function firstFreeDay(timeline: readonly DaySpan[], from: string): string {
  let day = from;
  for (;;) {
    const cover = timeline.find((t) => t.start <= day && day < t.end);
    if (!cover) return day;
    day = cover.end;
  }
}

/** When a hold placed at `placedAt` lapses. */
export function holdExpiry(placedAt: Date, holdDays: number): Date {
  return new Date(placedAt.getTime() + holdDays * 86_400_000);
}

/** A hold counts until its expiry; an expired hold is ignored by the overlap check. */
export function holdLive(expiresAt: Date | null, now: Date): boolean {
  return expiresAt !== null && expiresAt.getTime() > now.getTime();
}

/** YYYY-MM-DD as the pages print it: YYYY.MM.DD. */
export function dotDate(day: string): string {
  return day.slice(0, 10).replaceAll('-', '.');
}

/** The car's availability line: 구독 가능 today (or on `today`'s next day), else "YYYY.MM.DD부터 구독 가능". */
export function availabilityText(freeFrom: string, earliestStart: string): string {
  return freeFrom <= earliestStart ? '구독 가능' : `${dotDate(freeFrom)}부터 구독 가능`;
}

/** The Korean refusal of an overlapping order: the requested days, and the next start that fits. */
export function overlapMessage(span: DaySpan, next: string, similar: readonly string[] = []): string {
  const base = `선택하신 기간(${dotDate(span.start)}~${dotDate(addDays(span.end, -1))})에는 이 차량의 다른 구독 일정이 있습니다. ${dotDate(next)}부터 구독을 시작할 수 있습니다.`;
  return similar.length ? `${base} 비슷한 차량: ${similar.join(', ')}` : base;
}

/** What a refused order answers besides its message (409 data). */
export interface OverlapRefusal {
  next_start_date: string;
  similar_cars: { id: number; name: string; fee: number }[];
}

/** GET /subscriptions/availability: per car, the first free day and its line. */
export interface CarAvailability {
  car_id: number;
  /** The first day (YYYY-MM-DD) from tomorrow in Korea that no subscription or hold covers. */
  available_from: string;
  /** 구독 가능, or "YYYY.MM.DD부터 구독 가능". */
  text: string;
}

export interface AvailabilityAnswer {
  availability: CarAvailability[];
}
