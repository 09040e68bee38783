import { z } from 'zod';
import { isClockTime } from '../dates';
import { HANDOVER_KINDS } from '../handover';
import { calendarDate, decimal, IdSchema, intField } from './common';

/** Bodies and queries of 탁송·반납 (staff: /admin/handovers; the customer: /subscriptions/{id}/handovers). */

const clock = (label: string) =>
  z.string({ error: `${label}을 입력해주세요.` }).regex(/^\d{2}:\d{2}$/, { error: `${label}은 HH:MM 형식이어야 합니다.` }).refine(isClockTime, { error: `${label}이 올바른 시각이 아닙니다.` });

const scheduleFields = {
  driver_id: IdSchema,
  date: calendarDate('날짜'),
  window_start: clock('시작 시간'),
  window_end: clock('종료 시간'),
  address: z
    .string({ error: '주소는 문자열이어야 합니다.' })
    .trim()
    .max(300, { error: '주소는 300자 이하로 입력해주세요.' })
    .nullable()
    .optional()
    .transform((v) => v || null),
};

/** Body of POST /admin/subscriptions/{id}/handovers: schedule (or reschedule) the delivery or the return. */
export const ScheduleHandoverSchema = z.object({
  kind: z.enum(HANDOVER_KINDS, { error: '종류는 DELIVERY(탁송) 또는 RETURN(반납)이어야 합니다.' }),
  ...scheduleFields,
});
export type ScheduleHandoverInput = z.infer<typeof ScheduleHandoverSchema>;

/**
 * Body of POST /admin/subscriptions/{id}/swaps/{swapId}/handovers: one driver and one window for a
 * swap's pair on the swap day (`date` may be sent, and must then be the swap day).
 */
export const ScheduleSwapHandoversSchema = z.object({
  driver_id: IdSchema,
  date: calendarDate('날짜').optional(),
  window_start: clock('시작 시간'),
  window_end: clock('종료 시간'),
  address: scheduleFields.address,
});
export type ScheduleSwapHandoversInput = z.infer<typeof ScheduleSwapHandoversSchema>;

/** Body of POST /admin/test-swap (TEST_FIXTURES only): a CONFIRMED swap as the customer side leaves it. */
export const TestSwapSchema = z.object({ subscription_id: IdSchema, to_car_id: IdSchema, swap_date: calendarDate('교체일') });

/** /admin/subscriptions/{id}/swaps/{swapId}/handovers. */
export const SwapParamSchema = z.object({ id: IdSchema, swapId: IdSchema });

/** Body of POST /admin/handovers/{id}/record: what was read at the handover. */
export const HandoverRecordSchema = z.object({
  odometer_km: intField('주행거리').min(0, { error: '주행거리는 0 이상이어야 합니다.' }).max(2_000_000, { error: '주행거리가 너무 큽니다.' }),
  fuel_percent: intField('연료(충전) 잔량').min(0, { error: '연료(충전) 잔량은 0~100% 사이여야 합니다.' }).max(100, { error: '연료(충전) 잔량은 0~100% 사이여야 합니다.' }),
  notes: z
    .string({ error: '메모는 문자열이어야 합니다.' })
    .trim()
    .max(2000, { error: '메모는 2000자 이하로 입력해주세요.' })
    .nullable()
    .optional()
    .transform((v) => v || null),
});
export type HandoverRecordInput = z.infer<typeof HandoverRecordSchema>;

/** Body of POST /subscriptions/{id}/handovers/{handoverId}/acknowledge: the customer's typed name. */
export const AcknowledgeHandoverSchema = z.object({
  name: z.string({ error: '이름을 입력해주세요.' }).trim().min(1, { error: '이름을 입력해주세요.' }).max(40, { error: '이름은 40자 이하로 입력해주세요.' }),
});


/** Query of GET /admin/handovers: handovers scheduled on `days` Korean days from `from` (today when absent). */
export const HandoverBoardQuerySchema = z.object({
  from: calendarDate('시작일').optional(),
  days: decimal(z.number({ error: '기간은 숫자여야 합니다.' }).int({ error: '기간은 정수여야 합니다.' }).min(1, { error: '기간은 1일 이상이어야 합니다.' }).max(31, { error: '기간은 31일 이하여야 합니다.' })).default(7),
});

/** GET /handovers/{id}/photos/{photoId}: a condition photo of a handover. */
export const HandoverPhotoParamSchema = z.object({ id: IdSchema, photoId: IdSchema });
