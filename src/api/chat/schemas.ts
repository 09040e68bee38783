import { z } from 'zod';
import { formatNumber } from '../../domain/money';
import { MAX_INT } from '../../domain/schemas/common';
import { BOOKING_KEYS, checkField, MAX_MESSAGE_CHARS, MAX_STATE_BYTES, type BookingKey, type BookingState, type BookingUpdates } from '../../domain/chat/state';

/** One key of the booking state as a zod schema: the rule of state.ts (checkField), with its Korean message. */
function field<K extends BookingKey>(key: K) {
  return z.unknown().transform((value, ctx): NonNullable<BookingState[K]> => {
    const r = checkField(key, value);
    if (r.ok) return r.value;
    ctx.addIssue({ code: 'custom', message: r.message });
    return z.NEVER;
  });
}

/** Each key's schema. */
const BookingFieldSchemas = Object.fromEntries(BOOKING_KEYS.map((k) => [k, field(k)])) as { [K in BookingKey]: ReturnType<typeof field<K>> };

/** The booking state: every key optional; unknown keys are dropped. */
const BookingStateSchema: z.ZodType<BookingState, Record<string, unknown>> = z.object(
  Object.fromEntries(BOOKING_KEYS.map((k) => [k, field(k).optional()])) as Record<BookingKey, z.ZodOptional<ReturnType<typeof field>>>,
) as unknown as z.ZodType<BookingState, Record<string, unknown>>;

/** Changes to the state: a value sets a key, null removes it. */
const BookingUpdatesSchema: z.ZodType<BookingUpdates> = z.object(
  Object.fromEntries(BOOKING_KEYS.map((k) => [k, field(k).nullable().optional()])) as Record<BookingKey, z.ZodOptional<z.ZodNullable<ReturnType<typeof field>>>>,
) as unknown as z.ZodType<BookingUpdates>;

/**
 * Updates from outside the process (the model's block): the whole object through
 * BookingUpdatesSchema, else key by key through the key's schema, dropping what fails.
 */
export function validateUpdates(raw: unknown): BookingUpdates {
  const whole = BookingUpdatesSchema.safeParse(raw);
  if (whole.success) return whole.data;
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return {};
  const out: Record<string, unknown> = {};
  for (const key of BOOKING_KEYS) {
    if (!(key in raw)) continue;
    const one = BookingFieldSchemas[key].nullable().safeParse((raw as Record<string, unknown>)[key]);
    if (one.success && one.data !== undefined) out[key] = one.data;
  }
  return out;
}

const utf8Bytes = (v: unknown) => new TextEncoder().encode(JSON.stringify(v ?? {})).length;

const dropEmpty = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined && v !== ''));

/** Body of POST /services/gpt/1. */
export const ChatRequestSchema = z.object({
  message: z
    .string({ error: '메시지를 입력해주세요.' })
    .trim()
    .min(1, { error: '메시지를 입력해주세요.' })
    .max(MAX_MESSAGE_CHARS, { error: `메시지는 ${formatNumber(MAX_MESSAGE_CHARS)}자 이하로 입력해주세요.` }),
  carId: z
    .union([z.number(), z.string().regex(/^\d{1,9}$/).transform(Number)], { error: '차량 ID가 올바르지 않습니다.' })
    .pipe(z.number().int({ error: '차량 ID가 올바르지 않습니다.' }).nonnegative({ error: '차량 ID가 올바르지 않습니다.' }).max(MAX_INT, { error: '차량 ID가 올바르지 않습니다.' }))
    .nullish()
    .transform((v) => (v ? v : null)),
  state: z
    .unknown()
    .refine((v) => utf8Bytes(v) <= MAX_STATE_BYTES, { error: `예약 정보가 너무 큽니다. (최대 ${MAX_STATE_BYTES / 1024}KB)` })
    .transform((v) => (v && typeof v === 'object' && !Array.isArray(v) ? dropEmpty(v as Record<string, unknown>) : {}))
    .pipe(BookingStateSchema),
});
export type ChatRequest = z.infer<typeof ChatRequestSchema>;
