import { hoursText } from '../dates';
import { INCLUDED_HOURS } from '../butler';
import { formatTimeKo } from './format';

/**
 * A full-day booking (하루종일, 종일, 온종일, 하루 대절 …): the chat sets the boarding time and
 * writes the hours into the memo, the one place the reservation form and the driver read them
 * (the chat's state has no end time). 12 hours by default: the included 8 plus 4 of overtime.
 */
export const FULL_DAY_START = '09:00';
export const FULL_DAY_HOURS = 12;

const FULL_DAY =
  /(?:(?<![가-힣])(?:하루|온)\s*종일|(?<![가-힣])종일|(?<![가-힣])하루\s*(?:내내|꼬박|동안|전체|대절|렌트)|꼬박\s*하루|(?<![가-힣])일일\s*대절|풀\s*데이|(?<![a-z])(?:all|full)[\s-]*day(?![a-z]))/i;

/** Where a message asks for the whole day, or null. */
export function findFullDay(text: string): { index: number; length: number } | null {
  const m = FULL_DAY.exec(text);
  return m ? { index: m.index, length: m[0].length } : null;
}

const toMinutes = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
const pad = (n: number) => String(n).padStart(2, '0');

/** Hours from a start to an end time (HH:MM); an end not after the start is the next day's, 00:00 is midnight. */
export function spanHours(start: string, end: string): number {
  let minutes = toMinutes(end) - toMinutes(start);
  if (minutes <= 0) minutes += 24 * 60;
  return minutes / 60;
}

/** The wall-clock end of `hours` from a start, and whether it falls on a later day. */
export function endOf(start: string, hours: number): { time: string; nextDay: boolean } {
  const total = toMinutes(start) + Math.round(hours * 60);
  const within = ((total % 1440) + 1440) % 1440;
  return { time: `${pad(Math.floor(within / 60))}:${pad(within % 60)}`, nextDay: total >= 1440 };
}

/** Started hours beyond the included 8 (the overtime the fee adds). */
export const overtimeOf = (hours: number) => Math.max(0, Math.ceil(Math.round((hours - INCLUDED_HOURS) * 1000) / 1000));

/** "오후 9시", or "다음 날 오전 3시" past midnight. */
export function endText(start: string, hours: number): string {
  const end = endOf(start, hours);
  return `${end.nextDay ? '다음 날 ' : ''}${formatTimeKo(end.time)}`;
}

/** The memo line of a full-day booking: "하루종일 이용: 오전 9시 ~ 오후 9시 (12시간)". */
export function fullDayLine(start: string, hours: number): string {
  return `하루종일 이용: ${formatTimeKo(start)} ~ ${endText(start, hours)} (${hoursText(hours)})`;
}

/**
 * The memo line of hours the customer gave (3시간, 오후 2시부터 5시까지): "이용 시간: 오후 2시 ~
 * 오후 5시 (3시간)", or "이용 시간: 5시간" while no boarding time is known. Like the full-day
 * line it is the one place the form (its end time) and the driver read the hours from.
 */
export function hoursLine(start: string | undefined, hours: number): string {
  return start ? `이용 시간: ${formatTimeKo(start)} ~ ${endText(start, hours)} (${hoursText(hours)})` : `이용 시간: ${hoursText(hours)}`;
}

/** The line of `kind` for a start and hours. */
export function durationLine(kind: 'fullDay' | 'hours', start: string | undefined, hours: number): string {
  return kind === 'fullDay' && start ? fullDayLine(start, hours) : hoursLine(start, hours);
}

const LINE = /(하루종일 이용|이용 시간): (?:[^()/]*\((\d{1,2})시간(?: (\d{1,2})분)?\)|(\d{1,2})시간(?: (\d{1,2})분)?)/;
const MAX_MEMO = 500;

/** The hours of the full-day or hours line in a memo, or null when there is none. */
export function fullDayHours(memo: string | null | undefined): number | null {
  const m = memo ? LINE.exec(memo) : null;
  if (!m) return null;
  const h = m[2] ?? m[4];
  const min = m[3] ?? m[5];
  return Number(h) + (min ? Number(min) / 60 : 0);
}

/** Which line a memo carries: a full day's or hours the customer gave; null when none. */
export function durationKind(memo: string | null | undefined): 'fullDay' | 'hours' | null {
  const m = memo ? LINE.exec(memo) : null;
  return m ? (m[1] === '하루종일 이용' ? 'fullDay' : 'hours') : null;
}

/** The memo without its hours line (what the customer wrote). */
export function memoWithoutDuration(memo: string | null | undefined): string {
  return (memo ?? '')
    .replace(LINE, '')
    .split(' / ')
    .map((p) => p.trim())
    .filter(Boolean)
    .join(' / ');
}

/** The full-day line of a memo as written, or null. */
export function fullDayLineIn(memo: string | null | undefined): string | null {
  return (memo && LINE.exec(memo)?.[0]) || null;
}

/** A memo with its full-day line replaced by `line` (first, the rest after " / "), within 500 characters. */
export function withFullDayLine(memo: string | null | undefined, line: string): string {
  const rest = memoWithoutDuration(memo);
  return rest ? `${line} / ${rest}`.slice(0, MAX_MEMO) : line;
}
