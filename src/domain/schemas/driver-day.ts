import { withParticle } from '../korean';
import { z } from 'zod';
import { isMobile, normalizePhone } from '../accounts';
import { DRIVER_STAGES } from '../driver-day';
import { emailField, passwordField } from './accounts';
import { ButlerRequestUpdateSchema, instant } from './butler';
import { IdSchema } from './common';

/** Bodies of the driver's day: staff's invite, the driver's sign-up, stage taps, staff's corrections, positions. */

/** Body of POST /admin/drivers/{id}/invite: by 알림톡 to a mobile number (the roster's when left out) or by email. */
export const DriverInviteSchema = z.discriminatedUnion(
  'channel',
  [
    z.object({
      channel: z.literal('phone'),
      phone: z
        .string({ error: '휴대폰 번호는 문자열이어야 합니다.' })
        .trim()
        .max(20, { error: '휴대폰 번호가 너무 깁니다.' })
        .transform(normalizePhone)
        .refine(isMobile, { error: '올바른 휴대폰 번호를 입력해주세요. (예: 010-1234-5678)' })
        .optional(),
    }),
    z.object({ channel: z.literal('email'), email: emailField }),
  ],
  { error: '초대 방법(channel)은 phone 또는 email이어야 합니다.' },
);
export type DriverInviteInput = z.infer<typeof DriverInviteSchema>;

/** The invite code in the link (/driver?invite=CODE): 43 base64url characters. */
export const InviteCodeSchema = z
  .string({ error: '초대 코드를 입력해주세요.' })
  .trim()
  .min(1, { error: '초대 코드를 입력해주세요.' })
  .max(100, { error: '초대 코드가 올바르지 않습니다.' })
  .regex(/^[\w-]+$/, { error: '초대 코드가 올바르지 않습니다.' });

/** Body of POST /driver/invites/accept: the code, the email the driver will sign in with (fixed for an email invite) and a password. */
export const AcceptInviteSchema = z.object({
  code: InviteCodeSchema,
  email: emailField.optional(),
  password: passwordField,
  /** (선택) 위치기반서비스 이용약관 and 개인위치정보 제3자 제공 (docs/decisions/legal.md §5): each optional, the second needs the first. */
  location_terms: z.boolean({ error: '위치정보 이용약관 동의는 true 또는 false여야 합니다.' }).optional(),
  location_third_party: z.boolean({ error: '위치정보 제3자 제공 동의는 true 또는 false여야 합니다.' }).optional(),
});
export type AcceptInviteInput = z.infer<typeof AcceptInviteSchema>;

/** GET /driver/invites/{code}: whether it can be used (and its channel) before the form is shown. */
export const InviteCodeParamSchema = z.object({ code: InviteCodeSchema });

/** Path of POST /driver/trips/{id}/stages/{stage}. */
export const DriverStageParamSchema = z.object({
  id: IdSchema,
  stage: z.enum(DRIVER_STAGES, { error: `단계는 ${DRIVER_STAGES.join(', ')} 중 하나여야 합니다.` }),
});

/** Body of a tap (optional): when the driver tapped (a tap kept offline is sent later with its own time). */
export const DriverStageSchema = z.object({ tapped_at: instant('누른 시각').optional() }).default({});

/** Body of PATCH /admin/butler-requests/{id}/stages: staff correct any recorded time (null clears it); audited. */
export const StageCorrectionSchema = z
  .object({
    departed_at: instant('출발 시각').nullable().optional(),
    arrived_at: instant('도착 시각').nullable().optional(),
    boarded_at: instant('탑승 시각').nullable().optional(),
    ended_at: instant('운행 종료 시각').nullable().optional(),
    reason: z.string({ error: '사유는 문자열이어야 합니다.' }).trim().min(1, { error: '정정 사유를 입력해주세요.' }).max(200, { error: '사유는 200자 이하로 입력해주세요.' }),
  })
  .refine((v) => [v.departed_at, v.arrived_at, v.boarded_at, v.ended_at].some((t) => t !== undefined), { error: '정정할 시각을 하나 이상 보내주세요.' });
export type StageCorrectionInput = z.infer<typeof StageCorrectionSchema>;

/** Body of POST /driver/trips/{id}/position: the browser's coordinates. */
export const PositionSchema = z.object({
  lat: z.number({ error: '위도는 숫자여야 합니다.' }).min(-90, { error: '위도가 올바르지 않습니다.' }).max(90, { error: '위도가 올바르지 않습니다.' }),
  lng: z.number({ error: '경도는 숫자여야 합니다.' }).min(-180, { error: '경도가 올바르지 않습니다.' }).max(180, { error: '경도가 올바르지 않습니다.' }),
  accuracy: z.number({ error: '정확도는 숫자여야 합니다.' }).min(0).max(100_000).nullable().optional(),
});

/** Body of PUT /driver/location/consents: give (true) or withdraw (false) each 위치정보 consent; one left out stays as it is. */
export const LocationConsentSchema = z
  .object({
    terms: z.boolean({ error: 'terms는 true 또는 false여야 합니다.' }).optional(),
    third_party: z.boolean({ error: 'third_party는 true 또는 false여야 합니다.' }).optional(),
  })
  .refine((v) => v.terms !== undefined || v.third_party !== undefined, { error: '바꿀 동의를 하나 이상 보내주세요.' });

const place = (label: string) =>
  z
    .string({ error: `${withParticle(label, '은/는')} 문자열이어야 합니다.` })
    .trim()
    .min(1, { error: `${withParticle(label, '을/를')} 입력해주세요.` })
    .max(200, { error: `${withParticle(label, '은/는')} 200자 이하로 입력해주세요.` })
    .refine((s) => !s.includes('\u0000'), { error: `${label}에 사용할 수 없는 문자가 포함되어 있습니다.` });

const changeCause = z.enum(['flight_delay', 'other'], { error: '변경 이유는 flight_delay(항공편 지연) 또는 other(기타)여야 합니다.' }).default('other');
const changeReason = z.string({ error: '사유는 문자열이어야 합니다.' }).trim().min(1, { error: '변경 사유를 입력해주세요.' }).max(200, { error: '사유는 200자 이하로 입력해주세요.' });

/**
 * Body of PATCH /admin/butler-requests/{id}/pickup: staff move the pickup (a late flight) or change
 * its addresses, with the reason; audited, and the driver and the customer are told.
 */
export const PickupChangeSchema = z
  .object({
    start_at: instant('픽업 시각').optional(),
    start_location: place('출발지').optional(),
    end_location: place('도착지').optional(),
    cause: changeCause,
    reason: changeReason,
  })
  .refine((v) => v.start_at !== undefined || v.start_location !== undefined || v.end_location !== undefined, { error: '바꿀 픽업 시각이나 주소를 하나 이상 보내주세요.' });
export type PickupChangeInput = z.output<typeof PickupChangeSchema>;

const edit = ButlerRequestUpdateSchema.shape;

/**
 * Body of PATCH /admin/butler-requests/{id}/trip (and its preview): staff change a booked trip's
 * pickup, end, addresses, waypoints (the whole list; [] removes all) or flight number, with the
 * reason. A change of the booked hours is re-priced: `confirm_price` is the new price the console
 * showed (won), so what is charged or refunded is what staff saw.
 */
export const TripChangeSchema = z
  .object({
    start_at: instant('픽업 시각').optional(),
    end_at: edit.end_at,
    start_location: place('출발지').optional(),
    end_location: place('도착지').optional(),
    way_points: edit.way_points,
    flight_number: edit.flight_number,
    cause: changeCause,
    reason: changeReason,
    confirm_price: z.number({ error: '확인한 금액은 숫자여야 합니다.' }).int({ error: '확인한 금액은 정수여야 합니다.' }).min(0, { error: '확인한 금액이 올바르지 않습니다.' }).optional(),
  })
  .refine((v) => [v.start_at, v.end_at, v.start_location, v.end_location, v.way_points, v.flight_number].some((x) => x !== undefined), { error: '바꿀 내용(시각, 주소, 경유지, 항공편)을 하나 이상 보내주세요.' });
export type TripChangeInput = z.output<typeof TripChangeSchema>;

/** Body of POST /driver/notices/read: the newest notice the page showed (that one and older are read). */
export const NoticesReadSchema = z.object({ up_to_id: z.number({ error: '알림 번호는 숫자여야 합니다.' }).int({ error: '알림 번호는 정수여야 합니다.' }).positive({ error: '알림 번호가 올바르지 않습니다.' }) });

/** Query of GET /driver/trips/past. */
export const PastTripsQuerySchema = z.object({ page: z.coerce.number({ error: '페이지는 숫자여야 합니다.' }).int({ error: '페이지는 정수여야 합니다.' }).min(1, { error: '페이지는 1 이상이어야 합니다.' }).max(1000, { error: '페이지가 너무 큽니다.' }).default(1) });

/**
 * POST /admin/test-trip-earlier (TEST_FIXTURES=on only): the minutes a booked trip and its recorded
 * times are moved back (1 minute to 24 hours).
 */
export const TestTripEarlierSchema = z.object({
  butler_request_id: IdSchema,
  minutes: z.number({ error: '옮길 분을 숫자로 입력해주세요.' }).int({ error: '옮길 분은 정수여야 합니다.' }).min(1, { error: '옮길 분은 1분 이상이어야 합니다.' }).max(1440, { error: '옮길 분은 1440분 이하여야 합니다.' }),
});

/** Path of GET /butlers/guest-thread/{token}: a company trip guest's link token (checked by its HMAC; anything else 404). */
export const GuestThreadTokenSchema = z.object({ token: z.string({ error: '링크가 올바르지 않습니다.' }).max(80, { error: '링크가 올바르지 않습니다.' }) });
