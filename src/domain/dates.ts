/**
 * The shop's one date module: calendar days (YYYY-MM-DD strings), Korean wall-clock times
 * (HH:MM) and instants. The shop keeps Korean time (Asia/Seoul, UTC+9, no daylight saving).
 */
export const KOREA_OFFSET_MS = 9 * 3600_000;
export const HOUR_MS = 3600_000;
export const DAY_MS = 24 * HOUR_MS;

const DAY_SHAPE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME_SHAPE = /^([01]\d|2[0-3]):[0-5]\d$/;

/** Today's date as YYYY-MM-DD in Korea, the shop's calendar. */
export function todayInKorea(now: Date = new Date()): string {
  return koreaDate(now);
}

/** The Korean calendar day (YYYY-MM-DD) of an instant. */
export function koreaDate(at: Date | string | number): string {
  return new Date(new Date(at).getTime() + KOREA_OFFSET_MS).toISOString().slice(0, 10);
}

/** The Korean wall-clock time (HH:MM) of an instant. */
export function koreaTime(at: Date | string | number): string {
  return new Date(new Date(at).getTime() + KOREA_OFFSET_MS).toISOString().slice(11, 16);
}

/** Whether a text is a 24-hour wall-clock time HH:MM (00:00–23:59). */
export function isClockTime(text: string): boolean {
  return TIME_SHAPE.test(text);
}

/** The instant of a Korean day (YYYY-MM-DD) and wall-clock time (HH:MM); null when either is malformed or impossible. */
export function koreaInstant(date: string, time: string): Date | null {
  if (!DAY_SHAPE.test(date) || !isClockTime(time)) return null;
  const d = new Date(`${date}T${time}:00+09:00`);
  return Number.isNaN(d.getTime()) || koreaDate(d) !== date ? null : d;
}

/** The instant a Korean day (YYYY-MM-DD) begins (00:00 in Korea); the next day's start is the end bound of a day. */
export function koreaDayStart(date: string): Date {
  return new Date(Date.parse(`${date}T00:00:00Z`) - KOREA_OFFSET_MS);
}

/** Earliest and latest years a date field accepts: dates outside have no use here and would overflow term arithmetic or PostgreSQL. */
export const MIN_YEAR = 1900;
export const MAX_YEAR = 2999;

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

/** A YYYY-MM-DD day plus `n` days. */
export function addDays(date: string, n: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
}

/** Whole days from one YYYY-MM-DD day to another (negative when `to` comes first). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
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

/** Korean date and time for display, e.g. 2026.12.03 14:30. */
export function formatKoreaDateTime(at: Date | string | number): string {
  return `${koreaDate(at).replaceAll('-', '.')} ${koreaTime(at)}`;
}

const ISO = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * An ISO 8601 date-time as an instant, or null when it is malformed or names a day or time that
 * does not exist (2026-02-30, 24:00). Without an offset it is read as Korean time (UTC+9).
 */
export function parseInstant(text: string): Date | null {
  const m = ISO.exec(text.trim());
  if (!m) return null;
  const [, y, mo, d, h, mi, s = '0', frac = '0', zone] = m;
  const parts = [y, mo, d, h, mi, s].map(Number);
  const ms = Number(frac.padEnd(3, '0').slice(0, 3));
  const wall = Date.UTC(parts[0], parts[1] - 1, parts[2], parts[3], parts[4], parts[5], ms);
  const check = new Date(wall);
  if (check.getUTCFullYear() !== parts[0] || check.getUTCMonth() !== parts[1] - 1 || check.getUTCDate() !== parts[2] || parts[3] > 23 || parts[4] > 59 || parts[5] > 59) return null;
  let offset = KOREA_OFFSET_MS;
  if (zone && zone.toUpperCase() === 'Z') offset = 0;
  else if (zone) {
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    const oh = Number(digits.slice(0, 2));
    const om = Number(digits.slice(2));
    if (oh > 14 || om > 59) return null;
    offset = sign * (oh * 60 + om) * 60_000;
  }
  return new Date(wall - offset);
}
