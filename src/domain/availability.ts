import { addDays, addMonths, dotDate } from './dates';

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

/**
 * What the pages say for one car, a start and a term (docs/decisions/availability.md):
 * - `free`: the term fits from the start (with no term: some offered term fits);
 * - `next_start`: the earliest start on or after it at which the term fits (the start when free);
 * - `longest_month`: the longest offered term that fits from the start (null: none).
 */
export interface TermAvailability {
  start: string;
  month: number | null;
  free: boolean;
  next_start: string;
  longest_month: number | null;
}

/**
 * Availability for what the customer is looking at: a start and a term (`month`), judged against
 * the car's timeline and its offered terms (ascending). With no term (home cards, the unfiltered
 * garage) the shortest offered term decides from when, and the longest that fits is said; a car
 * offering no term at all is judged by its first free day.
 */
export function termAvailability(timeline: readonly DaySpan[], start: string, month: number | null, terms: readonly number[]): TermAvailability {
  const fits = (m: number) => !clashes(timeline, termSpan(start, m)).length;
  const longest = [...terms].reverse().find(fits) ?? null;
  const judged = month ?? terms[0] ?? null;
  if (judged === null) {
    const day = firstFreeDay(timeline, start);
    return { start, month: null, free: day === start, next_start: day, longest_month: null };
  }
  const next = nextFreeStart(timeline, judged, start);
  return { start, month, free: month === null ? longest !== null : next === start, next_start: next, longest_month: longest };
}

/**
 * The line a card or page shows: 구독 가능 when the term fits from the start; with no term and not
 * every term fitting, "최대 N개월 구독 가능"; else "YYYY.MM.DD부터 구독 가능" (the earliest start that fits).
 */
export function termAvailabilityText(a: TermAvailability, terms: readonly number[]): string {
  if (a.month === null && a.longest_month !== null) return a.longest_month === terms.at(-1) ? '구독 가능' : `최대 ${a.longest_month}개월 구독 가능`;
  return a.free ? '구독 가능' : `${dotDate(a.next_start)}부터 구독 가능`;
}

/** The car page's and order page's second clause when the chosen term does not fit but a shorter one does. */
export function shorterTermNote(a: Pick<TermAvailability, 'free' | 'month' | 'longest_month'>): string {
  return !a.free && a.month !== null && a.longest_month !== null && a.longest_month < a.month ? `지금 시작하면 최대 ${a.longest_month}개월 구독 가능` : '';
}

/** GET /subscriptions/availability: per car, for the asked start and term (or the earliest start, any term). */
export interface CarAvailability extends TermAvailability {
  car_id: number;
  /** The earliest start (YYYY-MM-DD) that fits the term judged: next_start, kept under its old name for the pages. */
  available_from: string;
  /** 구독 가능, "최대 N개월 구독 가능" or "YYYY.MM.DD부터 구독 가능". */
  text: string;
}

export interface AvailabilityAnswer {
  availability: CarAvailability[];
}

/**
 * Issue 49: a paid request whose hold lapsed is off the car's timeline, so a later order may take
 * the same days. The order desk shows each such pair on both requests before either is confirmed.
 */
export interface DeskBooking {
  id: number;
  status: 'PENDING' | 'CONFIRMED';
  /** The days asked (pending: requested start + term) or confirmed. */
  span: DaySpan;
  /** Pending: the first month is paid (not refunded). Confirmed: always true. */
  paid: boolean;
}

/** One booking's clash as the desk shows it. */
export interface BookingConflict {
  request_id: number;
  status: 'PENDING' | 'CONFIRMED';
  start: string;
  /** Last day, inclusive. */
  end: string;
}

/** The other paid or confirmed bookings of the same car whose days overlap `own`'s. */
export function bookingConflicts(own: DeskBooking, others: readonly DeskBooking[]): BookingConflict[] {
  return others
    .filter((o) => o.id !== own.id && o.paid && overlaps(o.span, own.span))
    .map((o) => ({ request_id: o.id, status: o.status, start: o.span.start, end: addDays(o.span.end, -1) }));
}

/** The desk's Korean warning on a pending request with conflicts (null: none). */
export function conflictWarning(conflicts: readonly BookingConflict[]): string | null {
  if (!conflicts.length) return null;
  const list = (s: BookingConflict['status']) => conflicts.filter((c) => c.status === s).map((c) => `#${c.request_id} (${dotDate(c.start)}~${dotDate(c.end)})`).join(', ');
  const confirmed = list('CONFIRMED');
  const pending = list('PENDING');
  const parts = [];
  if (confirmed) parts.push(`이 기간과 겹치는 같은 차량의 확정된 구독 신청: ${confirmed}. 이 신청은 진행할 수 없으니 환불 후 취소해주세요.`);
  if (pending) parts.push(`이 기간과 겹치는 같은 차량의 결제 완료된 신청: ${pending}. 한 건만 확정할 수 있으며, 확정하면 나머지는 환불 후 취소됩니다.`);
  return parts.join(' ');
}
