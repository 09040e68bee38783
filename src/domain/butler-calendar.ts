import { addDays, addMonths, weekday } from './dates';

/**
 * The fleet calendar and how far ahead a trip may be booked. Apart from src/domain/butler.ts so
 * /fleet's bundle does not carry the quote and its pricing.
 */

/** Days shown by the fleet calendar (6 weeks). */
const CALENDAR_DAYS = 42;
/** How far ahead a trip may start, in days. */
export const MAX_ADVANCE_DAYS = 180;

export interface CalendarCell {
  /** YYYY-MM-DD. */
  date: string;
  day: number;
  /** Whether the day belongs to the month shown (the grid pads with the neighbours' days). */
  inMonth: boolean;
  past: boolean;
  reserved: boolean;
  selectable: boolean;
}

/** A month of the fleet calendar: 42 days from the Sunday on or before the 1st; past and reserved days cannot be chosen. */
export function calendarMonth(year: number, month: number, today: string, reserved: readonly string[]): CalendarCell[] {
  const first = addMonths(`${year}-01-01`, month - 1); // month 0 or 13 is the neighbouring year's
  const gridStart = addDays(first, -weekday(first));
  const taken = new Set(reserved);
  const monthPrefix = first.slice(0, 7);
  return Array.from({ length: CALENDAR_DAYS }, (_, i) => {
    const date = addDays(gridStart, i);
    const past = date < today;
    const isReserved = taken.has(date);
    return { date, day: Number(date.slice(8)), inMonth: date.startsWith(monthPrefix), past, reserved: isReserved, selectable: !past && !isReserved };
  });
}

/** The last Korean day a trip may start on, counted from today (YYYY-MM-DD). */
export function lastBookableDay(today: string): string {
  return addDays(today, MAX_ADVANCE_DAYS);
}
