/** The shop keeps Korean time (Asia/Seoul, UTC+9, no daylight saving). */
export const KOREA_OFFSET_MS = 9 * 3600_000;
export const HOUR_MS = 3600_000;
export const DAY_MS = 24 * HOUR_MS;

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

/** The instant of a Korean day (YYYY-MM-DD) and wall-clock time (HH:MM); null when either is malformed or impossible. */
export function koreaInstant(date: string, time: string): Date | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || !/^([01]\d|2[0-3]):[0-5]\d$/.test(time)) return null;
  const d = new Date(`${date}T${time}:00+09:00`);
  return Number.isNaN(d.getTime()) || koreaDate(d) !== date ? null : d;
}

/** Earliest and latest years a date field accepts: dates outside have no use here and would overflow term arithmetic or PostgreSQL. */
export const MIN_YEAR = 1900;
export const MAX_YEAR = 2999;

/** Whether a YYYY-MM-DD string names a day that exists (no 2024-02-30) between MIN_YEAR and MAX_YEAR. */
export function isCalendarDate(text: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (y < MIN_YEAR || y > MAX_YEAR) return false;
  const day = new Date(Date.UTC(y, mo - 1, d));
  return day.getUTCFullYear() === y && day.getUTCMonth() === mo - 1 && day.getUTCDate() === d;
}

/** A YYYY-MM-DD day plus `n` days. */
export function addDays(date: string, n: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
}

/** Korean date and time for display, e.g. 2026.12.03 14:30. */
export function formatKoreaDateTime(at: Date | string | number): string {
  return `${koreaDate(at).replaceAll('-', '.')} ${koreaTime(at)}`;
}
