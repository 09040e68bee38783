import { z } from 'zod';
import { isMobile, normalizePhone } from '../accounts';
import { LICENCE_CLASSES } from '../dispatch';
import { calendarDate, decimal, IdSchema, intField } from './common';

/**
 * Bodies and queries of butler dispatch (/admin/drivers, /admin/dispatch, the assignment
 * routes). As in ./admin.ts, the create schema carries the defaults and the PATCH schema is
 * the same fields without them, so a partial update changes only the fields sent.
 */

/** Most days off one driver keeps on record (a year and a bit). */
const MAX_DAYS_OFF = 400;
/** Longest stretch the dispatch board shows at once, in days. */
const MAX_BOARD_DAYS = 14;

const driverFields = {
  name: z
    .string({ error: '기사 이름은 문자열이어야 합니다.' })
    .trim()
    .min(1, { error: '기사 이름을 입력해주세요.' })
    .max(40, { error: '기사 이름은 40자 이하로 입력해주세요.' }),
  phone: z
    .string({ error: '기사 연락처를 입력해주세요.' })
    .trim()
    .min(1, { error: '기사 연락처를 입력해주세요.' })
    .max(20, { error: '기사 연락처가 너무 깁니다.' })
    .transform(normalizePhone)
    .refine(isMobile, { error: '올바른 휴대폰 번호를 입력해주세요. (예: 010-1234-5678)' }),
  gender: z.enum(['male', 'female'], { error: '성별은 male(남성) 또는 female(여성)이어야 합니다.' }),
  licence_classes: z
    .array(z.enum(LICENCE_CLASSES, { error: `면허 종류는 ${LICENCE_CLASSES.join(', ')} 중 하나여야 합니다.` }), { error: '면허 종류는 목록이어야 합니다.' })
    .max(LICENCE_CLASSES.length, { error: '면허 종류가 너무 많습니다.' })
    .transform((list) => [...new Set(list)]),
  active: z.boolean({ error: '근무 여부는 true 또는 false여야 합니다.' }),
  days_off: z
    .array(calendarDate('휴무일'), { error: '휴무일은 목록이어야 합니다.' })
    .max(MAX_DAYS_OFF, { error: `휴무일은 ${MAX_DAYS_OFF}일까지 등록할 수 있습니다.` })
    .transform((days) => [...new Set(days)].sort()),
  memo: z
    .string({ error: '메모는 문자열이어야 합니다.' })
    .trim()
    .max(1000, { error: '메모는 1000자 이하로 입력해주세요.' })
    .nullable()
    .transform((v) => v || null),
};

/** Body of POST /admin/drivers. */
export const DriverSchema = z.object({
  ...driverFields,
  licence_classes: driverFields.licence_classes.default([]),
  active: driverFields.active.default(true),
  days_off: driverFields.days_off.default([]),
  memo: driverFields.memo.optional(),
});
/** Body of PATCH /admin/drivers/{id}: any subset; fields not sent are left as they are. */
export const DriverPatchSchema = z.object(driverFields).partial();
export type DriverInput = z.infer<typeof DriverSchema>;
export type DriverPatch = z.infer<typeof DriverPatchSchema>;

/** GET /admin/dispatch: the first Korean day (today when absent) and how many days, 1–14. */
export const DispatchBoardQuerySchema = z.object({
  from: calendarDate('시작일').optional(),
  days: decimal(
    z
      .number({ error: '기간은 숫자여야 합니다.' })
      .int({ error: '기간은 정수여야 합니다.' })
      .min(1, { error: '기간은 1일 이상이어야 합니다.' })
      .max(MAX_BOARD_DAYS, { error: `기간은 ${MAX_BOARD_DAYS}일 이하여야 합니다.` }),
  ).default(1),
});

/** GET /admin/dispatch/run-sheet: one driver's day. */
export const RunSheetQuerySchema = z.object({ driver_id: IdSchema, date: calendarDate('운행일') });

/** Body of POST /admin/butler-requests/{id}/assign. */
export const AssignDriverSchema = z.object({ driver_id: intField('기사').positive({ error: '기사를 선택해주세요.' }) });
