import { DAY_SHAPE } from './korea-time';

/** Calendar arithmetic on YYYY-MM-DD days: which days exist, months and weekdays (see ./index.ts). */

/** Earliest and latest years a date field accepts: dates outside have no use here and would overflow term arithmetic or PostgreSQL. */
const MIN_YEAR = 1900;
const MAX_YEAR = 2999;

/** The YYYY-MM-DD of a year, month (1–12) and day, or null when no such day exists (2026-02-30, month 13). */
export function dayOf(year: number, month: number, day: number): string | null {
  if (![year, month, day].every(Number.isInteger) || month < 1 || month > 12 || day < 1 || day > 31) return null;
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day); // not Date.UTC: it reads years 0–99 as 1900–1999
  return d.getUTCMonth() === month - 1 ? d.toISOString().slice(0, 10) : null;
}

/** Whether a YYYY-MM-DD string names a day that exists (no 2024-02-30), in any year. */
export function isRealDay(text: string): boolean {
  const m = DAY_SHAPE.exec(text);
  return !!m && dayOf(Number(m[1]), Number(m[2]), Number(m[3])) === text;
}

/** Whether a YYYY-MM-DD string names a day that exists (no 2024-02-30) between MIN_YEAR and MAX_YEAR. */
export function isCalendarDate(text: string): boolean {
  const year = Number(text.slice(0, 4));
  return isRealDay(text) && year >= MIN_YEAR && year <= MAX_YEAR;
}

/** Days in a month (1–12) of a year. */
export function daysInMonth(year: number, month: number): number {
  const d = new Date(0);
  d.setUTCFullYear(year, month, 0);
  return d.getUTCDate();
}

/**
 * A YYYY-MM-DD day plus `n` months, on the same day of the month or that month's last day when
 * it is shorter (01-31 plus one month is 02-28 or 02-29).
 */
export function addMonths(date: string, n: number): string {
  const [y, m, d] = date.split('-').map(Number);
  const index = m - 1 + n;
  const year = y + Math.floor(index / 12);
  const month = (((index % 12) + 12) % 12) + 1;
  return `${year}-${String(month).padStart(2, '0')}-${String(Math.min(d, daysInMonth(year, month))).padStart(2, '0')}`;
}

/** Day of the week of a YYYY-MM-DD day, 0 = Sunday … 6 = Saturday. */
export function weekday(date: string): number {
  return new Date(`${date}T00:00:00Z`).getUTCDay();
}

/** Full years (만 나이) on `on` (YYYY-MM-DD) of someone born on `birth` (YYYY-MM-DD). */
export function ageOn(birth: string, on: string): number {
  const [by, bm, bd] = birth.split('-').map(Number);
  const [y, m, d] = on.split('-').map(Number);
  return y - by - (m < bm || (m === bm && d < bd) ? 1 : 0);
}
