/** Korean time: the shop's calendar days and wall-clock times of instants (see ./index.ts). */
export const KOREA_OFFSET_MS = 9 * 3600_000;
export const HOUR_MS = 3600_000;
export const DAY_MS = 24 * HOUR_MS;

export const DAY_SHAPE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME_SHAPE = /^([01]\d|2[0-3]):[0-5]\d$/;

/** Today's date as YYYY-MM-DD in Korea, the shop's calendar, at `now` (the API's business clock; a browser's own). */
export function todayInKorea(now: Date): string {
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

/** A YYYY-MM-DD day plus `n` days. */
export function addDays(date: string, n: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
}

/** Whole days from one YYYY-MM-DD day to another (negative when `to` comes first). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

/** A day (YYYY-MM-DD, or an ISO text that starts with one) as the pages print it: YYYY.MM.DD. */
export function dotDate(day: string): string {
  return day.slice(0, 10).replaceAll('-', '.');
}

/** Korean date and time for display, e.g. 2026.12.03 14:30. */
export function formatKoreaDateTime(at: Date | string | number): string {
  return `${dotDate(koreaDate(at))} ${koreaTime(at)}`;
}
