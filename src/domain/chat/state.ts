import { MAX_PASSENGERS, MAX_WAYPOINTS, MIN_PASSENGERS } from '../butler';
import { isClockTime, isRealDay } from '../dates';

/**
 * The chat's booking state. Keys are the Korean labels the spec names (§3 "Chat booking
 * state"); the page keeps it in browser storage and sends it with every message.
 * 차량 번호 is the fleet id of the chosen car (what the reservation form needs), 차량 its name.
 * The rules live here without zod so the page ships small; schemas.ts wraps the same rules
 * in zod for the API.
 */
export const BOOKING_KEYS = ['날짜', '탑승 시간', '출발지', '목적지', '탑승 인원', '차량', '경유지', '차량 번호', '담당자', '목적', '메모'] as const;
export type BookingKey = (typeof BOOKING_KEYS)[number];

export interface BookingState {
  /** YYYY-MM-DD, Korean calendar. */
  날짜?: string;
  /** HH:MM, 24 h. */
  '탑승 시간'?: string;
  출발지?: string;
  목적지?: string;
  /** 1–20. */
  '탑승 인원'?: number;
  차량?: string;
  경유지?: string[];
  '차량 번호'?: number;
  담당자?: string;
  목적?: string;
  메모?: string;
}

/** Changes to the state: a value sets a key, null removes it. */
export type BookingUpdates = { [K in BookingKey]?: BookingState[K] | null };

/** Keys the reservation form cannot do without, in the order the assistant asks for them. */
export const REQUIRED_KEYS = ['날짜', '탑승 시간', '출발지', '목적지', '탑승 인원', '차량'] as const satisfies readonly BookingKey[];

/** Longest user message, in characters. */
export const MAX_MESSAGE_CHARS = 1000;
/** Largest booking state a request may carry, in bytes of JSON. */
export const MAX_STATE_BYTES = 8 * 1024;

/** Action buttons a reply may ask the page to show. */
export const UI_TRIGGERS = ['fleet', 'pricing', 'reserve', 'my'] as const;
export type UiTrigger = (typeof UI_TRIGGERS)[number];

const TEXT_MAX: Partial<Record<BookingKey, number>> = { 출발지: 200, 목적지: 200, 차량: 200, 담당자: 100, 목적: 100, 메모: 500 };

export type FieldCheck<K extends BookingKey = BookingKey> = { ok: true; value: NonNullable<BookingState[K]> } | { ok: false; message: string };

function text(value: unknown, max: number): FieldCheck {
  if (typeof value !== 'string') return { ok: false, message: '문자로 입력해주세요.' };
  const t = value.trim();
  if (!t) return { ok: false, message: '빈 값은 저장할 수 없습니다.' };
  if (t.length > max) return { ok: false, message: `${max}자 이하로 입력해주세요.` };
  return { ok: true, value: t };
}

/** Checks one value of the booking state; strings come back trimmed. The one rule set of the page, the assistant and the API. */
export function checkField<K extends BookingKey>(key: K, value: unknown): FieldCheck<K> {
  return check(key, value) as FieldCheck<K>;
}

function check(key: BookingKey, value: unknown): FieldCheck {
  switch (key) {
    case '날짜':
      return typeof value === 'string' && isRealDay(value) ? { ok: true, value } : { ok: false, message: '날짜는 YYYY-MM-DD 형식이어야 합니다.' };
    case '탑승 시간':
      return typeof value === 'string' && isClockTime(value) ? { ok: true, value } : { ok: false, message: '탑승 시간은 HH:MM 형식이어야 합니다.' };
    case '탑승 인원':
      if (typeof value !== 'number' || Number.isNaN(value)) return { ok: false, message: '탑승 인원은 숫자여야 합니다.' };
      if (!Number.isInteger(value)) return { ok: false, message: '탑승 인원은 정수여야 합니다.' };
      if (value < MIN_PASSENGERS) return { ok: false, message: `탑승 인원은 ${MIN_PASSENGERS}명 이상이어야 합니다.` };
      if (value > MAX_PASSENGERS) return { ok: false, message: `탑승 인원은 최대 ${MAX_PASSENGERS}명입니다.` };
      return { ok: true, value };
    case '차량 번호':
      return typeof value === 'number' && Number.isInteger(value) && value > 0 && value <= 2_147_483_647 ? { ok: true, value } : { ok: false, message: '차량 번호는 숫자여야 합니다.' };
    case '경유지': {
      if (!Array.isArray(value)) return { ok: false, message: '경유지는 목록이어야 합니다.' };
      if (value.length > MAX_WAYPOINTS) return { ok: false, message: `경유지는 최대 ${MAX_WAYPOINTS}곳입니다.` };
      const out: string[] = [];
      for (const v of value) {
        const one = text(v, 200);
        if (!one.ok) return one;
        out.push(one.value as string);
      }
      return { ok: true, value: out };
    }
    default:
      return text(value, TEXT_MAX[key] ?? 200);
  }
}

/** The state with updates applied: null removes a key, anything else replaces it. */
export function applyUpdates(state: BookingState, updates: BookingUpdates): BookingState {
  const next: Record<string, unknown> = { ...state };
  for (const [key, value] of Object.entries(updates)) {
    if (value === undefined) continue;
    if (value === null) delete next[key];
    else next[key] = value;
  }
  return next;
}

/** Keeps what is valid of untrusted updates (a reply, a stored value), key by key; unknown keys are dropped. */
export function sanitizeUpdates(raw: unknown): BookingUpdates {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return {};
  const out: Record<string, unknown> = {};
  for (const key of BOOKING_KEYS) {
    if (!(key in raw)) continue;
    const value = (raw as Record<string, unknown>)[key];
    if (value === null) out[key] = null;
    else if (value !== undefined) {
      const one = checkField(key, value);
      if (one.ok) out[key] = one.value;
    }
  }
  return out;
}

/** A stored state read defensively: anything malformed is dropped key by key. */
export function sanitizeState(raw: unknown): BookingState {
  return applyUpdates({}, sanitizeUpdates(raw));
}

/** The first required key still missing, in asking order; null when the booking is complete. */
export function nextMissing(state: BookingState): (typeof REQUIRED_KEYS)[number] | null {
  for (const key of REQUIRED_KEYS) {
    const v = state[key];
    if (v === undefined || v === null || v === '') return key;
  }
  return null;
}

/** Whether the state has any value at all. */
export function isEmptyState(state: BookingState): boolean {
  return Object.values(state).every((v) => v === undefined || (Array.isArray(v) && v.length === 0));
}
