import { z } from 'zod';
import { MAX_PASSENGERS, MAX_WAYPOINTS, MIN_PASSENGERS } from '../butler';

/**
 * The chat's booking state. Keys are the Korean labels the spec names (§3 "Chat booking
 * state"); the page keeps it in browser storage and sends it with every message.
 * 차량 번호 is the fleet id of the chosen car (what the reservation form needs), 차량 its name.
 */
export const BOOKING_KEYS = ['날짜', '탑승 시간', '출발지', '목적지', '탑승 인원', '차량', '경유지', '차량 번호', '담당자', '목적', '메모'] as const;
export type BookingKey = (typeof BOOKING_KEYS)[number];

/** Keys the reservation form cannot do without, in the order the assistant asks for them. */
export const REQUIRED_KEYS = ['날짜', '탑승 시간', '출발지', '목적지', '탑승 인원', '차량'] as const satisfies readonly BookingKey[];

/** Longest user message, in characters. */
export const MAX_MESSAGE_CHARS = 1000;
/** Largest booking state a request may carry, in bytes of JSON. */
export const MAX_STATE_BYTES = 8 * 1024;

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

const text = (max: number) => z.string().trim().min(1, { error: '빈 값은 저장할 수 없습니다.' }).max(max, { error: `${max}자 이하로 입력해주세요.` });

/** One schema per key: the page, the local assistant and the LLM's updates all pass through these. */
export const BookingFieldSchemas = {
  날짜: z.string().regex(DATE, { error: '날짜는 YYYY-MM-DD 형식이어야 합니다.' }),
  '탑승 시간': z.string().regex(TIME, { error: '탑승 시간은 HH:MM 형식이어야 합니다.' }),
  출발지: text(200),
  목적지: text(200),
  '탑승 인원': z
    .number({ error: '탑승 인원은 숫자여야 합니다.' })
    .int({ error: '탑승 인원은 정수여야 합니다.' })
    .min(MIN_PASSENGERS, { error: `탑승 인원은 ${MIN_PASSENGERS}명 이상이어야 합니다.` })
    .max(MAX_PASSENGERS, { error: `탑승 인원은 최대 ${MAX_PASSENGERS}명입니다.` }),
  차량: text(200),
  경유지: z.array(text(200)).max(MAX_WAYPOINTS, { error: `경유지는 최대 ${MAX_WAYPOINTS}곳입니다.` }),
  '차량 번호': z.number({ error: '차량 번호는 숫자여야 합니다.' }).int().positive(),
  담당자: text(100),
  목적: text(100),
  메모: text(500),
} satisfies Record<BookingKey, z.ZodType>;

/** The booking state: every key optional; unknown keys are dropped. */
export const BookingStateSchema = z.object({
  날짜: BookingFieldSchemas.날짜.optional(),
  '탑승 시간': BookingFieldSchemas['탑승 시간'].optional(),
  출발지: BookingFieldSchemas.출발지.optional(),
  목적지: BookingFieldSchemas.목적지.optional(),
  '탑승 인원': BookingFieldSchemas['탑승 인원'].optional(),
  차량: BookingFieldSchemas.차량.optional(),
  경유지: BookingFieldSchemas.경유지.optional(),
  '차량 번호': BookingFieldSchemas['차량 번호'].optional(),
  담당자: BookingFieldSchemas.담당자.optional(),
  목적: BookingFieldSchemas.목적.optional(),
  메모: BookingFieldSchemas.메모.optional(),
});
export type BookingState = z.infer<typeof BookingStateSchema>;

/** Changes to the state: a value sets a key, null removes it. */
export const BookingUpdatesSchema = z.object({
  날짜: BookingFieldSchemas.날짜.nullable().optional(),
  '탑승 시간': BookingFieldSchemas['탑승 시간'].nullable().optional(),
  출발지: BookingFieldSchemas.출발지.nullable().optional(),
  목적지: BookingFieldSchemas.목적지.nullable().optional(),
  '탑승 인원': BookingFieldSchemas['탑승 인원'].nullable().optional(),
  차량: BookingFieldSchemas.차량.nullable().optional(),
  경유지: BookingFieldSchemas.경유지.nullable().optional(),
  '차량 번호': BookingFieldSchemas['차량 번호'].nullable().optional(),
  담당자: BookingFieldSchemas.담당자.nullable().optional(),
  목적: BookingFieldSchemas.목적.nullable().optional(),
  메모: BookingFieldSchemas.메모.nullable().optional(),
});
export type BookingUpdates = z.infer<typeof BookingUpdatesSchema>;

/** Action buttons a reply may ask the page to show. */
export const UI_TRIGGERS = ['fleet', 'pricing', 'reserve', 'my'] as const;
export type UiTrigger = (typeof UI_TRIGGERS)[number];
export const UiTriggerSchema = z.enum(UI_TRIGGERS);

/** The structured part of a reply (the JSON form, the stream's last data event, the LLM's block). */
export const ChatReplyMetaSchema = z.object({
  updates: BookingUpdatesSchema.default({}),
  ui_triggers: z.array(UiTriggerSchema).max(4).default([]),
  next_prompt: z.string().max(300).nullish(),
});
export type ChatReplyMeta = z.infer<typeof ChatReplyMetaSchema>;

const utf8Bytes = (v: unknown) => new TextEncoder().encode(JSON.stringify(v ?? {})).length;

/** Body of POST /services/gpt/1. */
export const ChatRequestSchema = z.object({
  message: z
    .string({ error: '메시지를 입력해주세요.' })
    .trim()
    .min(1, { error: '메시지를 입력해주세요.' })
    .max(MAX_MESSAGE_CHARS, { error: `메시지는 ${MAX_MESSAGE_CHARS.toLocaleString('en-US')}자 이하로 입력해주세요.` }),
  carId: z
    .union([z.number(), z.string().regex(/^\d{1,9}$/).transform(Number)], { error: '차량 ID가 올바르지 않습니다.' })
    .pipe(z.number().int().nonnegative({ error: '차량 ID가 올바르지 않습니다.' }))
    .nullish()
    .transform((v) => (v ? v : null)),
  state: z
    .unknown()
    .refine((v) => utf8Bytes(v) <= MAX_STATE_BYTES, { error: `예약 정보가 너무 큽니다. (최대 ${MAX_STATE_BYTES / 1024}KB)` })
    .transform((v) => (v && typeof v === 'object' && !Array.isArray(v) ? dropNulls(v as Record<string, unknown>) : {}))
    .pipe(BookingStateSchema),
});
export type ChatRequest = z.infer<typeof ChatRequestSchema>;

function dropNulls(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined && v !== ''));
}

/** The state with updates applied: null removes a key, anything else replaces it. */
export function applyUpdates(state: BookingState, updates: BookingUpdates): BookingState {
  const next: Record<string, unknown> = { ...state };
  for (const [key, value] of Object.entries(updates)) {
    if (value === undefined) continue;
    if (value === null) delete next[key];
    else next[key] = value;
  }
  return next as BookingState;
}

/**
 * Keeps what is valid of untrusted updates (an LLM's, a stored value): the whole object through
 * the schema, else key by key, dropping the keys that fail.
 */
export function sanitizeUpdates(raw: unknown): BookingUpdates {
  const whole = BookingUpdatesSchema.safeParse(raw);
  if (whole.success) return whole.data;
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return {};
  const out: Record<string, unknown> = {};
  for (const key of BOOKING_KEYS) {
    if (!(key in raw)) continue;
    const value = (raw as Record<string, unknown>)[key];
    const one = BookingFieldSchemas[key].nullable().safeParse(value);
    if (one.success) out[key] = one.data;
  }
  return out as BookingUpdates;
}

/** A stored state read defensively: anything malformed is dropped key by key. */
export function sanitizeState(raw: unknown): BookingState {
  const updates = sanitizeUpdates(raw);
  return applyUpdates({}, updates);
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
