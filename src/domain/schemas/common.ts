import { z } from 'zod';
import { isCalendarDate } from '../dates';

/** Largest value of a PostgreSQL integer (int4) column; ids, amounts and counts above it are a 400, never a database error. */
export const MAX_INT = 2_147_483_647;

/** A JSON integer that fits an integer column (−2³¹…2³¹−1); narrow it further with .min/.max. */
export const intField = (label: string) =>
  z
    .number({ error: `${label} 값은 숫자여야 합니다.` })
    .int({ error: `${label} 값은 정수여야 합니다.` })
    .min(-MAX_INT - 1, { error: `${label} 값이 너무 작습니다.` })
    .max(MAX_INT, { error: `${label} 값이 너무 큽니다.` });

/** A positive database id in a path or query ('42' is read as 42), up to the int4 range, e.g. /subscriptions/cars/{id}. */
export const IdSchema = z.coerce
  .number({ error: '숫자 ID를 입력해주세요.' })
  .int({ error: 'ID는 정수여야 합니다.' })
  .positive({ error: 'ID는 1 이상이어야 합니다.' })
  .max(MAX_INT, { error: 'ID가 너무 큽니다.' });

/** A calendar day YYYY-MM-DD that exists, within the years the shop deals in (see isCalendarDate). */
export const calendarDate = (label: string) =>
  z
    .string({ error: `${label}은(는) YYYY-MM-DD 형식이어야 합니다.` })
    .regex(/^\d{4}-\d{2}-\d{2}$/, { error: `${label}은(는) YYYY-MM-DD 형식이어야 합니다.` })
    .refine(isCalendarDate, { error: `${label}이(가) 올바른 날짜가 아닙니다.` });
