import { z } from 'zod';
import { isCalendarDate } from '../dates';
import { withParticle } from '../korean';

/** Largest value of a PostgreSQL integer (int4) column; ids, amounts and counts above it are a 400, never a database error. */
export const MAX_INT = 2_147_483_647;

/** A JSON integer that fits an integer column (−2³¹…2³¹−1); narrow it further with .min/.max. */
export const intField = (label: string) =>
  z
    .number({ error: `${label} 값은 숫자여야 합니다.` })
    .int({ error: `${label} 값은 정수여야 합니다.` })
    .min(-MAX_INT - 1, { error: `${label} 값이 너무 작습니다.` })
    .max(MAX_INT, { error: `${label} 값이 너무 큽니다.` });

/**
 * A whole number in a path or query: decimal digits only, read as a number ('42' is 42), so '1e1',
 * '0x10', '+1', ' 7' or '7.0' are refused rather than read as 10, 16 or 7; a JSON number passes through.
 */
export const decimal = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (typeof v === 'string' ? (/^\d{1,12}$/.test(v) ? Number(v) : Number.NaN) : v), schema);

/** A positive database id in a path or query ('42' is read as 42), up to the int4 range, e.g. /subscriptions/cars/{id}. */
export const IdSchema = decimal(
  z.number({ error: '숫자 ID를 입력해주세요.' }).int({ error: 'ID는 정수여야 합니다.' }).positive({ error: 'ID는 1 이상이어야 합니다.' }).max(MAX_INT, { error: 'ID가 너무 큽니다.' }),
);

/** A page number of a list query, 1–`max`, 1 when absent. */
export const pageNumber = (max: number, tooBig = '페이지가 너무 큽니다.') =>
  decimal(
    z.number({ error: '페이지는 숫자여야 합니다.' }).int({ error: '페이지는 정수여야 합니다.' }).min(1, { error: '페이지는 1부터 시작합니다.' }).max(max, { error: tooBig }),
  ).default(1);

/** The page of the console's lists, 1–100,000. */
export const pageField = pageNumber(100_000);

/** `pagination_info` of every page-numbered list answer (GET /subscriptions/garages, the console's lists). */
export interface PaginationInfo {
  current_page: number;
  total_pages: number;
  /** Rows in the whole list. */
  count: number;
  /** The next page, or null on the last. */
  next: number | null;
}

/** A calendar day YYYY-MM-DD that exists, within the years the shop deals in (see isCalendarDate). */
export const calendarDate = (label: string) =>
  z
    .string({ error: `${withParticle(label, '은/는')} YYYY-MM-DD 형식이어야 합니다.` })
    .regex(/^\d{4}-\d{2}-\d{2}$/, { error: `${withParticle(label, '은/는')} YYYY-MM-DD 형식이어야 합니다.` })
    .refine(isCalendarDate, { error: `${withParticle(label, '이/가')} 올바른 날짜가 아닙니다.` });

const NUL = '\u0000';

/** A required one-line text, trimmed, 1–max characters: `missing` when absent or blank. */
export const required = (label: string, missing: string, max: number) =>
  z
    .string({ error: missing })
    .trim()
    .min(1, { error: missing })
    .max(max, { error: `${withParticle(label, '은/는')} ${max}자 이하로 입력해주세요.` })
    .refine((s) => !s.includes(NUL), { error: `${label}에 사용할 수 없는 문자가 포함되어 있습니다.` });

/** An optional text; blank and null become null, undefined stays undefined (left unchanged on edit). */
export const optionalText = (label: string, max: number) =>
  z
    .string({ error: `${label} 값은 문자열이어야 합니다.` })
    .trim()
    .max(max, { error: `${withParticle(label, '은/는')} ${max}자 이하로 입력해주세요.` })
    .refine((s) => !s.includes(NUL), { error: `${label}에 사용할 수 없는 문자가 포함되어 있습니다.` })
    .nullable()
    .optional()
    .transform((v) => (v === undefined ? undefined : v || null));
