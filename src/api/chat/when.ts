import { addDays, dayOf, daysBetween, weekday } from '../../domain/dates';
import { koreanNumber } from './numbers';

/** A value found in a message and where (so later passes can mask it). */
export interface Found<T> {
  value: T;
  index: number;
  length: number;
}

const WEEKDAYS = '월화수목금토일'; // Monday first, as Korean weeks are counted
const DAY_WORDS: Record<string, number> = { 하루: 1, 이틀: 2, 사흘: 3, 나흘: 4, 닷새: 5, 엿새: 6, 이레: 7, 열흘: 10 };

/** Monday-first index (0 = 월) of a YYYY-MM-DD day. */
const weekdayIndex = (date: string) => (weekday(date) + 6) % 7;

/**
 * A month and day of this year gone this many days ago or less is read as that past day ("3월 1일"
 * said on 11 March): its next occurrence lies beyond the 180-day booking window anyway, and the
 * chat answers that the day has passed instead of booking a year ahead. Older ones roll to next year.
 */
const RECENT_PAST_DAYS = 120;

/** A month and day without a year: this year's, or next year's once it has passed (see RECENT_PAST_DAYS). */
function nextMonthDay(today: string, m: number, d: number): string | null {
  const y = Number(today.slice(0, 4));
  const thisYear = dayOf(y, m, d);
  if (thisYear && (thisYear >= today || daysBetween(thisYear, today) <= RECENT_PAST_DAYS)) return thisYear;
  return dayOf(y + 1, m, d) ?? thisYear;
}

function weekOffset(word: string | undefined): number | null {
  if (!word) return null;
  const w = word.replace(/\s/g, '').replace(/주$/, '');
  if (w === '다다음') return 14;
  if (/^(다음|담|차)$/.test(w)) return 7;
  if (/^(지난|저번)$/.test(w)) return -7;
  return 0; // 이번주, 금주
}

const WEEK = '(지난\\s*주|저번\\s*주|이번\\s*주|금주|다다음\\s*주|다음\\s*주|담주|차주|지난|저번)';

/** Days back of the past-day words: 어제, 그제/그저께/엊그제, 그끄제/그끄저께. */
const PAST_DAY_WORDS: Record<string, number> = { 어제: 1, 그제: 2, 그저께: 2, 엊그제: 2, 엊그저께: 2, 그끄제: 3, 그끄저께: 3 };

/** `agreed` is the day already agreed in the conversation, when there is one. */
type Resolver = (m: RegExpExecArray, today: string, agreed?: string) => string | null;

const DAY_COUNT = '하루|이틀|사흘|나흘|닷새|엿새|이레|열흘|\\d{1,2}\\s*일';
const dayCount = (word: string) => DAY_WORDS[word] ?? Number(word.replace(/\D/g, ''));

/**
 * Days said against the day already agreed (다음 날로, 하루 미뤄, 이틀 뒤로, 하루 앞당겨): read
 * only when there is one, before the patterns that count from today.
 */
const AGREED_PATTERNS: Array<[RegExp, Resolver]> = [
  [/(?:그\s*)?다음\s*날(?!짜)|익일|이튿날/g, (_m, _t, a) => (a ? addDays(a, 1) : null)],
  [new RegExp(`(${DAY_COUNT})\\s*(?:만\\s*)?(?:더\\s*)?(?:뒤로|후로|미뤄|미루|연기|늦춰|늦게)`, 'g'), (m, _t, a) => (a ? addDays(a, dayCount(m[1])) : null)],
  [new RegExp(`(${DAY_COUNT})\\s*(?:만\\s*)?(?:앞당|당겨|앞으로|일찍)`, 'g'), (m, _t, a) => (a ? addDays(a, -dayCount(m[1])) : null)],
];

/** Date patterns, most specific first; each match is masked before the next pattern runs. */
const DATE_PATTERNS: Array<[RegExp, Resolver]> = [
  [/(?<!\d)(\d{4})\s*[-./년]\s*(\d{1,2})\s*[-./월]\s*(\d{1,2})\s*일?/g, (m) => dayOf(+m[1], +m[2], +m[3])],
  [/(?<!\d)(\d{1,2})\s*월\s*(\d{1,2})\s*일/g, (m, t) => nextMonthDay(t, +m[1], +m[2])],
  [/(?<![\d:./])(\d{1,2})\s*[/.]\s*(\d{1,2})(?![\d:/.]|\s*(?:시간|명|인|%))/g, (m, t) => nextMonthDay(t, +m[1], +m[2])],
  [/(내일\s*모레|모레|글피|내일|명일|오늘|금일)/g, (m, t) => {
    const w = m[1].replace(/\s/g, '');
    const n = w === '오늘' || w === '금일' ? 0 : w === '내일' || w === '명일' ? 1 : w === '글피' ? 3 : 2;
    return addDays(t, n);
  }],
  // Days gone: read so the chat can say they are past (never silently dropped).
  [/(그끄저께|그끄제|엊그저께|엊그제|그저께|(?<![가-힣])그제(?!서야)|어제)/g, (m, t) => addDays(t, -PAST_DAY_WORDS[m[1]])],
  [/(?<!\d)(\d{1,3})\s*일\s*(?:후|뒤|있다가)/g, (m, t) => addDays(t, +m[1])],
  [/(하루|이틀|사흘|나흘|닷새|엿새|이레|열흘)\s*(?:후|뒤|있다가)/g, (m, t) => addDays(t, DAY_WORDS[m[1]])],
  [/(일주일|(\d{1,2}|한|두|세)\s*주)\s*(?:후|뒤)/g, (m, t) => addDays(t, 7 * (m[2] ? (koreanNumber(m[2]) ?? 1) : 1))],
  [new RegExp(`${WEEK}?\\s*(?:의\\s*)?([${WEEKDAYS}])\\s*(?:요일|욜)`, 'g'), (m, t, agreed) => {
    const target = WEEKDAYS.indexOf(m[2]);
    const today = weekdayIndex(t);
    // A bare weekday once a day is agreed ("토요일로 바꿔줘"): the next one after that day, never one before it.
    if (!m[1] && agreed) return addDays(agreed, (target - weekdayIndex(agreed) + 7) % 7 || 7);
    // 지난 금요일: the last one gone (지난주 금요일 is the one of last week).
    if (m[1] && /^(지난|저번)$/.test(m[1].replace(/\s/g, ''))) return addDays(t, -((today - target + 7) % 7 || 7));
    const offset = weekOffset(m[1]);
    if (offset === null) return addDays(t, (target - today + 7) % 7 || 7);
    return addDays(t, target - today + offset);
  }],
  [/(이번|금|다다음|다음|담|차|지난|저번)?\s*주말/g, (m, t) => {
    const today = weekdayIndex(t);
    const offset = weekOffset(m[1]);
    if (offset === null) return addDays(t, (5 - today + 7) % 7 || 7);
    return addDays(t, 5 - today + offset);
  }],
  [/(이번\s*달|이달|다음\s*달|담달|지난\s*달|저번\s*달)?\s*(?<![\d월]|박\s*)(\d{1,2})\s*일(?!\s*(?:후|뒤|간|동안|째|전|정도|이상|이내|치))/g, (m, t) => {
    const y = Number(t.slice(0, 4));
    const mo = Number(t.slice(5, 7));
    const d = +m[2];
    if (m[1] && /다음|담/.test(m[1])) return mo === 12 ? dayOf(y + 1, 1, d) : dayOf(y, mo + 1, d);
    if (m[1] && /지난|저번/.test(m[1])) return mo === 1 ? dayOf(y - 1, 12, d) : dayOf(y, mo - 1, d);
    const here = dayOf(y, mo, d);
    if (m[1] || (here && here >= t)) return here;
    return mo === 12 ? dayOf(y + 1, 1, d) : dayOf(y, mo + 1, d);
  }],
];

/** Replaces a span with blanks of the same length, so indexes stay valid. */
export function mask(text: string, index: number, length: number): string {
  return text.slice(0, index) + '\u0001'.repeat(length) + text.slice(index + length);
}

function collect(text: string, patterns: Array<[RegExp, (m: RegExpExecArray) => string | null]>): { found: Found<string>[]; rest: string } {
  let rest = text;
  const found: Found<string>[] = [];
  for (const [re, resolve] of patterns) {
    re.lastIndex = 0;
    const scan = rest;
    for (let m = re.exec(scan); m; m = re.exec(scan)) {
      if (m[0].trim() === '') {
        re.lastIndex += 1;
        continue;
      }
      const value = resolve(m);
      // Leading blanks of an optional group are not part of the mention.
      const lead = m[0].length - m[0].trimStart().length;
      if (!value) continue; // not a real day or time: leave the words for other readers
      found.push({ value, index: m.index + lead, length: m[0].trim().length });
      rest = mask(rest, m.index + lead, m[0].trim().length);
    }
  }
  found.sort((a, b) => a.index - b.index);
  return { found, rest };
}

/** "A 말고 B": the mention after a correction word wins over the first. */
function pick(text: string, found: Found<string>[]): Found<string> | null {
  if (!found.length) return null;
  for (let i = 1; i < found.length; i++) {
    const between = text.slice(found[i - 1].index + found[i - 1].length, found[i].index);
    if (/말고|아니고|아니라|대신|에서\s*(?:변경|바꿔)|→|->/.test(between)) return found[i];
  }
  return found[0];
}

/**
 * Every date mention in a message relative to `today` (YYYY-MM-DD in Korea): 오늘, 내일, 모레,
 * 글피, 3일 후, 다음 주 금요일, 이번 주말, 12월 3일, 12/3, 2026-12-03, 15일, and days gone (어제,
 * 그저께, 지난주 금요일, 지난달 20일). Returns the one meant (the first, the one after 말고, an
 * upcoming one before a gone one) and the text with every mention masked.
 */
export function findDate(text: string, today: string, agreed?: string): { date: Found<string> | null; rest: string } {
  const patterns = agreed ? [...AGREED_PATTERNS, ...DATE_PATTERNS] : DATE_PATTERNS;
  const { found, rest } = collect(text, patterns.map(([re, r]) => [re, (m) => r(m, today, agreed)]));
  // "어제 말씀드린 대로 20일": a day gone next to an upcoming one is talk, the upcoming one is the booking.
  const upcoming = found.filter((f) => f.value >= today);
  return { date: pick(text, upcoming.length ? upcoming : found), rest };
}

const MERIDIEM = '(오전|오후|아침|낮|점심|저녁|밤|새벽|am|pm|AM|PM)';
export const HOUR_WORDS = '열한|열두|다섯|여섯|일곱|여덟|아홉|한|두|세|네|열';

/** 24-hour clock from a 12-hour reading and its meridiem word; bare 1–6 o'clock is taken as afternoon. */
export function toHour24(hour: number, meridiem: string | undefined): number | null {
  const m = meridiem?.toLowerCase();
  let h = hour;
  if (h > 24) return null;
  if (h >= 13) return h === 24 ? 0 : h;
  if (m === '오후' || m === 'pm' || m === '저녁') h = h === 12 ? 12 : h + 12;
  else if (m === '밤') h = h === 12 ? 0 : h >= 6 ? h + 12 : h;
  else if (m === '낮' || m === '점심') h = h <= 6 ? h + 12 : h;
  else if (m === '오전' || m === 'am' || m === '아침' || m === '새벽') h = h === 12 ? 0 : h;
  else if (!m) h = h >= 1 && h <= 6 ? h + 12 : h;
  return h;
}

/** Words that start with 시 but are no o'clock (시간, 시청, 시내 …). */
const NOT_OCLOCK = '간|청|내|외|작|티|트|장|계|즌|스템|리즈|설|기|절|험|민|속|점|공|세|합|켜|키|킨|킬|골|댁';

const pad = (n: number) => String(n).padStart(2, '0');

const TIME_PATTERNS: Array<[RegExp, (m: RegExpExecArray) => string | null]> = [
  [new RegExp(`(?:${MERIDIEM}\\s*)?(?<!\\d)(\\d{1,2})\\s*:\\s*(\\d{2})(?!\\d)`, 'g'), (m) => {
    const h = m[1] ? toHour24(+m[2], m[1]) : +m[2] <= 24 ? +m[2] % 24 : null;
    return h !== null && +m[3] < 60 ? `${pad(h)}:${m[3]}` : null;
  }],
  [
    new RegExp(
      `(?:${MERIDIEM}\\s*)?(?:(?<!\\d)(\\d{1,2})|(?<=^|[^가-힣]|오전|오후|아침|낮|점심|저녁|밤|새벽)(${HOUR_WORDS}))\\s*시(?!${NOT_OCLOCK})(?:\\s*(\\d{1,2})\\s*분|\\s*(반)(?=$|[^가-힣]|에|쯤|경|까지|부터|정도|으로|이|출발|도착|탑승))?`,
      'g',
    ),
    (m) => {
      const raw = m[2] ? +m[2] : koreanNumber(m[3]);
      if (raw === null) return null;
      const h = toHour24(raw, m[1]);
      const min = m[5] ? 30 : m[4] ? +m[4] : 0;
      return h !== null && h < 24 && min < 60 ? `${pad(h)}:${pad(min)}` : null;
    },
  ],
  [/정오/g, () => '12:00'],
  [/자정/g, () => '00:00'],
];

/** The boarding time of a message as HH:MM (오후 2시 반, 14:30, 아침 9시, 세 시, 정오) and the text with times masked. */
export function findTime(text: string): { time: Found<string> | null; rest: string } {
  const { found, rest } = collect(text, TIME_PATTERNS);
  return { time: pick(text, found), rest };
}

/**
 * A boarding time and an end time ("아침 8시부터 저녁 8시까지", "밤 9시까지"): the end is the time
 * followed by 까지, the start is read from the other times as findTime reads them.
 */
export function findTimeSpan(text: string): { start: Found<string> | null; end: Found<string> | null; rest: string } {
  const { found, rest } = collect(text, TIME_PATTERNS);
  let end = found.find((f) => /^\s*(?:쯤|경|정도)?\s*까지/.test(text.slice(f.index + f.length))) ?? null;
  const start = pick(text, found.filter((f) => f !== end));
  // A day ends in the evening: a bare "9시까지" is 21:00 and "12시까지" midnight (bare 1–6 are afternoon already).
  if (end && !new RegExp(MERIDIEM).test(text.slice(end.index, end.index + end.length))) {
    const h = Number(end.value.slice(0, 2));
    if (h >= 7 && h <= 11) end = { ...end, value: `${pad(h + 12)}${end.value.slice(2)}` };
    else if (h === 12) end = { ...end, value: `00${end.value.slice(2)}` };
  }
  return { start, end, rest };
}

/**
 * A start and an end said together ("오후 2시부터 5시까지", "14:00~18:00", "2시에서 6시까지"): both
 * times, or null when the message has not two. A bare end before the start is the afternoon's
 * (오전 9시부터 1시까지 → 13:00, 저녁 6시부터 10시까지 → 22:00).
 */
export function findStartEnd(text: string): { start: Found<string>; end: Found<string>; rest: string } | null {
  const { found, rest } = collect(text, TIME_PATTERNS);
  if (found.length !== 2) return null;
  const [a, b] = found;
  const between = text.slice(a.index + a.length, b.index);
  const until = /^\s*(?:쯤|경|정도)?\s*까지/.test(text.slice(b.index + b.length));
  if (!/^\s*(?:쯤|경)?\s*(?:부터|에서)?\s*(?:~|-|–|부터|에서)?\s*$/.test(between) || !(until || /~|-|–|부터|에서/.test(between))) return null;
  let end = b;
  if (!new RegExp(MERIDIEM).test(text.slice(b.index, b.index + b.length))) {
    const h = Number(b.value.slice(0, 2));
    if (b.value < a.value && h < 12 && `${pad(h + 12)}${b.value.slice(2)}` > a.value) end = { ...b, value: `${pad(h + 12)}${b.value.slice(2)}` };
  }
  return { start: a, end, rest };
}

/** Hours of use a message mentions (10시간, 9시간 30분, 열 시간), for price questions; null when none. */
export function findHours(text: string): number | null {
  const latin = text.match(/(?<![\d.])(\d{1,2}(?:\.\d+)?)\s*(?:h|hr|hrs|hour|hours)(?![a-z])/i);
  if (latin) return Number(latin[1]);
  const m = text.match(new RegExp(`(\\d{1,2}(?:\\.\\d+)?|${HOUR_WORDS})\\s*시간(?:\\s*(\\d{1,2})\\s*분|\\s*(반))?`));
  if (!m) return null;
  const base = /^\d/.test(m[1]) ? Number(m[1]) : koreanNumber(m[1]);
  if (base === null) return null;
  return base + (m[3] ? 0.5 : m[2] ? Number(m[2]) / 60 : 0);
}
