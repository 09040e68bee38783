import { z } from 'zod';
import { PAYMENT_STATUSES } from '../payments';
import { instant } from './butler';
import { calendarDate, decimal, IdSchema, intField, pageField } from './common';

const billingKey = z.string({ error: '빌링키를 입력해주세요.' }).trim().min(1, { error: '빌링키를 입력해주세요.' }).max(200, { error: '빌링키가 너무 깁니다.' });

/** Body of POST /subscriptions/{id}/pay (the owed month) and POST /butlers/requests/{id}/pay (a declined overtime): paid now, with a new card when given. */
export const PayOwedSchema = z.object({ billing_key: billingKey.optional() });

/** Body of POST /subscriptions/{id}/card: the new card's billing key (issued as at ordering). */
export const ChangeCardSchema = z.object({ billing_key: billingKey });
/** GET ?date= and POST body of /subscriptions/{id}/early-exit: the return day (YYYY-MM-DD). */
export const EarlyExitDateSchema = z.object({ date: calendarDate('반납일') });
/** GET without a date answers only the days one can choose (the server's business clock, not the browser's). */
/** POST /subscriptions/{id}/withdrawal: the card refund the page showed (a changed quote is refused with 409, nothing refunded). */
export const WithdrawalConfirmSchema = z.object({ quoted_refund: intField('환불 금액').min(0, { error: '환불 금액이 올바르지 않습니다.' }) });
export const EarlyExitQuerySchema = z.object({ date: calendarDate('반납일').optional() });

/** A payment id in a path (ours: lower-case letters, digits and dashes). */
export const PaymentIdParamSchema = z.object({
  id: z.string().regex(/^[a-z0-9-]{1,80}$/, { error: '결제 내역을 찾을 수 없습니다.' }),
});

/** Body of POST /admin/payments/{id}/refund: all that is left, or `amount` won; the reason is kept in the audit log. */
export const RefundSchema = z.object({
  amount: intField('환불 금액').min(1, { error: '환불 금액은 1원 이상이어야 합니다.' }).optional(),
  reason: z.string({ error: '환불 사유를 입력해주세요.' }).trim().min(1, { error: '환불 사유를 입력해주세요.' }).max(200, { error: '환불 사유는 200자 이하로 입력해주세요.' }),
});

/** GET /admin/payments: by status and Korean days (requested), newest first. */
export const AdminPaymentsQuerySchema = z.object({
  status: z.enum(PAYMENT_STATUSES, { error: `상태는 ${PAYMENT_STATUSES.join(', ')} 중 하나여야 합니다.` }).optional(),
  from: calendarDate('시작일').optional(),
  to: calendarDate('종료일').optional(),
  page: pageField,
});

/**
 * Body of POST /admin/butler-requests/{id}/trip: what the trip really took. The start alone marks it
 * under way (운행 중); with the end it is finished and overtime is settled. Both must have passed on
 * the business clock. `preview`: the overtime it would charge, nothing saved or charged (the
 * console's confirm step).
 */
export const TripRecordSchema = z.object({
  actual_start_at: instant('실제 출발 시간'),
  actual_end_at: instant('실제 종료 시간').optional(),
  preview: z.boolean({ error: 'preview 값은 true 또는 false여야 합니다.' }).optional(),
});
export type TripRecordInput = z.infer<typeof TripRecordSchema>;

/** Body of POST /admin/test-clock (test fixtures only): the business clock's new now; omitted = real time again. */
export const TestClockSchema = z.object({ now: instant('시각').optional() });

/** Months of a 구독 연장 (the car's terms decide which; the rule answers 422 for others). */
const extensionMonths = (label: string) => intField(label).min(1, { error: '연장 기간은 1개월 이상이어야 합니다.' }).max(60, { error: '연장 기간은 60개월 이하로 선택해주세요.' });

/** GET /subscriptions/{id}/extension[?months=]: the choices, and with months the quote. */
export const ExtensionQuerySchema = z.object({
  months: decimal(extensionMonths('연장 기간')).optional(),
});

/**
 * POST /subscriptions/{id}/extension: the months, the monthly fee the customer was quoted (the
 * server recomputes; a different fee is 409) and, from my page, the end date the quote was for
 * (a repeat of a done extension answers it again; docs/decisions/extension.md).
 */
export const ExtensionConfirmSchema = z.object({
  months: extensionMonths('연장 기간'),
  quoted_fee: intField('견적 월 구독료').min(0, { error: '견적 월 구독료가 올바르지 않습니다.' }),
  end_date: calendarDate('종료일').optional(),
  /** 가격 변경 동의: the new monthly fee the customer ticked (required when it differs from the current one). */
  price_consent: intField('동의한 월 구독료').min(0, { error: '동의한 월 구독료가 올바르지 않습니다.' }).optional(),
});

/** GET /subscriptions/{id}/extensions/{extensionId}/annex. */
export const ExtensionAnnexParamSchema = z.object({ id: IdSchema, extensionId: IdSchema });

/** GET /subscriptions/{id}/swap[?date=&car_id=]: the window and cars, with a day and a car the quote. */
export const SwapQuerySchema = z.object({
  date: calendarDate('교체일').optional(),
  car_id: IdSchema.optional(),
});

const wonAmount = (label: string) => intField(label).min(-100_000_000, { error: `${label}이 올바르지 않습니다.` }).max(100_000_000, { error: `${label}이 올바르지 않습니다.` });

/**
 * POST /subscriptions/{id}/swap: the day, the new car, and the difference and new monthly fee the
 * customer was quoted (the server recomputes; another quote is 409). docs/decisions/swap.md.
 */
export const SwapConfirmSchema = z.object({
  date: calendarDate('교체일'),
  car_id: IdSchema,
  quoted_adjustment: wonAmount('견적 차액'),
  quoted_fee: intField('견적 월 구독료').min(0, { error: '견적 월 구독료가 올바르지 않습니다.' }).max(100_000_000, { error: '견적 월 구독료가 올바르지 않습니다.' }),
  /** 가격 변경 동의: the new monthly fee the customer ticked (required when it differs from the current one). */
  price_consent: intField('동의한 월 구독료').min(0, { error: '동의한 월 구독료가 올바르지 않습니다.' }).optional(),
});

/** GET /subscriptions/{id}/swaps/{swapId}/annex and POST …/cancel: a swap of a subscription. */
export const SwapParamSchema = z.object({ id: IdSchema, swapId: IdSchema });
