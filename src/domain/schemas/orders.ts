import { z } from 'zod';
import { calendarDate, intField as int } from './common';
import { SubscriptionOptionsSchema } from './subscription-options';

const month = int('구독 기간').min(1, { error: '구독 기간은 1개월 이상이어야 합니다.' });
const billingKey = z
  .string({ error: '빌링키를 입력해주세요.' })
  .trim()
  .min(1, { error: '빌링키를 입력해주세요.' })
  .max(200, { error: '빌링키가 너무 깁니다.' });
/** Held coupon id (GET /subscriptions/coupons → coupons[].id); 0 or null means none. */
const couponId = int('쿠폰 ID').min(0, { error: '쿠폰 ID는 0 이상이어야 합니다.' }).nullable();
const points = int('포인트').min(0, { error: '포인트는 0 이상이어야 합니다.' });

/** Body of POST /subscriptions/cars/{id}/request. */
export const CreateSubscriptionRequestSchema = z.object({
  month,
  /** The first day of the term; default the car's first free day from tomorrow in Korea (src/api/orders/availability.ts). */
  start_date: calendarDate('구독 시작일').optional(),
  coupon_id: couponId.optional(),
  point_amount: points.optional(),
  billing_key: billingKey,
  /** Mileage plan, driver age, extra drivers, handover, 선납금; absent = the car's defaults (subscription-price.ts defaultOptions). */
  options: SubscriptionOptionsSchema.optional(),
  /** The additional drivers' checked licences (POST /subscriptions/licences, role EXTRA), one per extra driver. */
  extra_driver_licence_ids: z.array(int('운전면허 ID').min(1, { error: '운전면허 ID가 올바르지 않습니다.' }), { error: '추가 운전자 면허 목록이 올바르지 않습니다.' }).max(10, { error: '추가 운전자는 10명 이하입니다.' }).optional(),
  /** The optional 위치정보 이용약관 동의 (the car's location for 탁송, 긴급 지원, 도난 대응); absent = not given. */
  location_consent: z.boolean({ error: '위치정보 동의 여부는 true 또는 false여야 합니다.' }).optional(),
  /**
   * What the page showed as 오늘 결제 금액. Never charged: the server prices the order itself and
   * refuses it (409) when this differs, so the customer is never charged a price they did not see.
   */
  quoted_first_payment: int('결제 예정 금액').min(0, { error: '결제 예정 금액은 0 이상이어야 합니다.' }).optional(),
});
export type CreateSubscriptionRequestInput = z.infer<typeof CreateSubscriptionRequestSchema>;

/** Body of PUT /subscriptions/requests/{id}: every field, re-validated and re-priced like creation. */
export const UpdateSubscriptionRequestSchema = z.object({
  month,
  coupon_id: couponId,
  point_amount: points,
  billing_key: billingKey,
});
export type UpdateSubscriptionRequestInput = z.infer<typeof UpdateSubscriptionRequestSchema>;

/** A coupon, point-coupon or referral code in a path: trimmed, upper-cased, 1–40 letters, digits, - or _. */
export const CodeParamSchema = z.object({
  code: z
    .string()
    .trim()
    .min(1, { error: '코드를 입력해주세요.' })
    .max(40, { error: '코드는 40자 이하입니다.' })
    .regex(/^[A-Za-z0-9_-]+$/, { error: '코드는 영문, 숫자, -, _ 만 사용할 수 있습니다.' })
    .transform((s) => s.toUpperCase()),
});

/** Query of GET /subscriptions/coupons. */
export const CouponListQuerySchema = z.object({
  service: z.enum(['SUBSCRIBE', 'BUTLER'], { error: 'service는 SUBSCRIBE 또는 BUTLER여야 합니다.' }).optional(),
});

/** Body of POST /admin/subscription-requests/{id}/confirm; end defaults to start + term − 1 day. */
export const ConfirmRequestSchema = z.object({
  start_date: calendarDate('시작일'),
  end_date: calendarDate('종료일').optional(),
  /** Staff chose to confirm over other paid requests of the car for overlapping days: those are refunded and cancelled (issue 49). */
  cancel_conflicting: z.boolean({ error: 'cancel_conflicting은 true 또는 false여야 합니다.' }).optional(),
});

/** Body of POST /admin/test-users (non-production only). */
export const TestUserSchema = z.object({
  points: int('포인트').min(0).optional(),
  coupons: z.array(z.string().max(40)).max(20).optional(),
  name: z.string().trim().max(80).optional(),
  /** An account that has not passed identity verification (as after a social signup). */
  unverified: z.boolean().optional(),
  /** false: no checked licence yet (its 본인인증 gives the birth date, so the order page's licence step runs). */
  licence: z.boolean().optional(),
  /** The birth date of the licence or of the 본인인증 (default 1990-03-15). */
  birth_date: calendarDate('생년월일').optional(),
});

/** Body of the /admin/test-licences fixture. */
export const TestLicenceSchema = z.object({ user_id: int('회원 ID').min(1) });

/** Query of GET /subscriptions/availability: up to 100 car ids, comma-separated (`ids=3,7,12`). */
export const AvailabilityQuerySchema = z.object({
  ids: z
    .string({ error: 'ids를 입력해주세요.' })
    .max(1000, { error: 'ids가 너무 깁니다.' })
    .transform((s) => s.split(',').map((x) => x.trim()).filter(Boolean))
    .pipe(
      z
        .array(z.string().regex(/^[1-9]\d{0,9}$/, { error: 'ids는 쉼표로 구분한 차량 ID여야 합니다.' }).transform(Number))
        .min(1, { error: 'ids를 입력해주세요.' })
        .max(100, { error: '한 번에 100대까지 조회할 수 있습니다.' }),
    ),
  /** The term the page shows (car page slider, garage months filter, order): judged for it. */
  month: z.coerce.number({ error: '구독 기간은 개월 수여야 합니다.' }).int({ error: '구독 기간은 개월 수여야 합니다.' }).min(1, { error: '구독 기간은 1개월 이상이어야 합니다.' }).max(120, { error: '구독 기간은 120개월 이하여야 합니다.' }).optional(),
  /** The start the order page chose (YYYY-MM-DD); never before the car's earliest start. */
  start: calendarDate('시작일').optional(),
});
