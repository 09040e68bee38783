import { z } from 'zod';
import { parseInstant } from '../dates';
import { MAX_PASSENGERS, MAX_WAYPOINTS, MIN_PASSENGERS } from '../butler';
import { IdSchema, intField, optionalText, required } from './common';
import { withParticle } from '../korean';
import { FLIGHT_NUMBER_MESSAGE, normalizeFlightNumber } from '../flights';
import { EXEMPTION_CASES } from '../butler-legal';

/** Longest text of a location or waypoint address. */
const MAX_LOCATION = 200;
const MAX_PURPOSE = 100;
/** Longest memo or description. */
const MAX_NOTE = 1000;

const NUL = '\u0000';

/** An ISO date-time; answered as a UTC ISO string. */
export const instant = (label: string) =>
  z
    .string({ error: `${withParticle(label, '을/를')} 입력해주세요.` })
    .max(40, { error: `${label} 형식이 올바르지 않습니다.` })
    .refine((s) => parseInstant(s) !== null, { error: `${label} 형식이 올바르지 않습니다. (예: 2026-12-03T09:00:00+09:00)` })
    .transform((s) => parseInstant(s)!.toISOString());

/** An optional ISO date-time; '' and null mean none. */
const optionalInstant = (label: string) =>
  z
    .string({ error: `${label} 형식이 올바르지 않습니다.` })
    .max(40, { error: `${label} 형식이 올바르지 않습니다.` })
    .refine((s) => s.trim() === '' || parseInstant(s) !== null, { error: `${label} 형식이 올바르지 않습니다. (예: 2026-12-03T18:00:00+09:00)` })
    .nullable()
    .optional()
    .transform((s) => (s === undefined ? undefined : s && s.trim() ? parseInstant(s)!.toISOString() : null));

const int = intField;

const passengers = int('탑승 인원')
  .min(MIN_PASSENGERS, { error: `탑승 인원은 ${MIN_PASSENGERS}~${MAX_PASSENGERS}명으로 입력해주세요.` })
  .max(MAX_PASSENGERS, { error: `탑승 인원은 ${MIN_PASSENGERS}~${MAX_PASSENGERS}명으로 입력해주세요.` });

const driverPreference = z
  .enum(['male', 'female', 'any', ''], { error: '기사 선호는 male, female, any 중 하나여야 합니다.' })
  .nullable()
  .optional()
  .transform((v) => (v === undefined ? undefined : v || null));

/** An optional flight number (airport pickups): KE123, OZ1085, 7C1101; blank and null are none, undefined stays undefined. */
const flightNumber = z
  .string({ error: FLIGHT_NUMBER_MESSAGE })
  .max(20, { error: FLIGHT_NUMBER_MESSAGE })
  .refine((s) => s.trim() === '' || normalizeFlightNumber(s) !== null, { error: FLIGHT_NUMBER_MESSAGE })
  .nullable()
  .optional()
  .transform((s) => (s === undefined ? undefined : s && s.trim() ? normalizeFlightNumber(s) : null));

const BODY = '요청 본문은 JSON 객체여야 합니다.';
const WAYPOINT = '경유지는 주소(address)와 시간(scheduled_time)을 가진 객체여야 합니다.';
const tooManyWaypoints = `경유지는 최대 ${MAX_WAYPOINTS}곳까지 입력할 수 있습니다.`;

/** A short proof text (BUTLER_LEGAL_MODEL=exemptions); blank is none. */
const proofText = (label: string, max: number) =>
  z
    .string({ error: `${label} 값은 문자열이어야 합니다.` })
    .trim()
    .max(max, { error: `${withParticle(label, '은/는')} ${max}자 이하로 입력해주세요.` })
    .refine((s) => !s.includes(NUL), { error: `${label}에 사용할 수 없는 문자가 포함되어 있습니다.` })
    .nullable()
    .optional();

/** Which 시행령 제18조 case the booking claims, with its proof (judged by judgeEligibility). */
const EligibilitySchema = z.object({
  case: z.enum(EXEMPTION_CASES, { error: '해당하는 경우를 선택해주세요.' }),
  foreigner_id: proofText('여권번호·외국인등록번호', 20),
  birth_date: proofText('생년월일', 10),
  contract_number: proofText('계약번호', 40),
  wedding_date: proofText('결혼식 날짜', 10),
  wedding_venue: proofText('예식장', 100),
  transport_number: proofText('항공·선박편명', 20),
  confirmed: z.boolean({ error: '확인 여부는 true 또는 false여야 합니다.' }).nullable().optional(),
}, { error: '대여 자격(eligibility) 형식이 올바르지 않습니다.' });

/** Body of POST /admin/butler-requests/{id}/cancel: empty (the customer's rule), or the reason staff refund in full beyond it. */
export const StaffButlerCancelSchema = z.object({
  full_refund_reason: z.string({ error: '전액 환불 사유는 문자열이어야 합니다.' }).trim().min(2, { error: '전액 환불 사유를 2자 이상 입력해주세요.' }).max(200, { error: '전액 환불 사유는 200자 이하로 입력해주세요.' }).optional(),
}, { error: BODY });

/** Body of POST /admin/butler-requests/{id}/refuse-eligibility: why staff refuse the claimed case. */
export const EligibilityRefusalSchema = z.object({
  reason: required('거절 사유', '거절 사유를 입력해주세요.', 200),
}, { error: BODY });

/** Body of POST /butlers/cars/{carId}/request (spec §3); the path's car wins over car_id. */
export const ButlerReservationSchema = z.object({
  car_id: int('차량 ID').min(1, { error: '차량 ID는 1 이상이어야 합니다.' }).nullable().optional(),
  start_at: instant('출발 시간'),
  start_location: required('출발지', '출발지를 입력해주세요.', MAX_LOCATION),
  end_at: optionalInstant('도착 시간').transform((v) => v ?? null),
  end_location: required('도착지', '도착지를 입력해주세요.', MAX_LOCATION),
  /** Rows with a blank address are dropped (as the form does) before the limit is checked. */
  way_point_requests: z
    .array(
      z.object({
        address: z
          .string({ error: '경유지 주소는 문자열이어야 합니다.' })
          .trim()
          .max(MAX_LOCATION, { error: `경유지 주소는 ${MAX_LOCATION}자 이하로 입력해주세요.` })
          .refine((s) => !s.includes(NUL), { error: '경유지 주소에 사용할 수 없는 문자가 포함되어 있습니다.' }),
        scheduled_time: optionalInstant('경유지 시간').transform((v) => v ?? null),
      }, { error: WAYPOINT }),
      { error: '경유지 목록 형식이 올바르지 않습니다.' },
    )
    .max(MAX_WAYPOINTS * 5, { error: tooManyWaypoints })
    .nullable()
    .optional()
    .transform((list) => (list ?? []).filter((w) => w.address !== ''))
    .refine((list) => list.length <= MAX_WAYPOINTS, { error: tooManyWaypoints }),
  passenger_count: passengers.optional().default(MIN_PASSENGERS),
  purpose: optionalText('목적', MAX_PURPOSE).transform((v) => v ?? null),
  memo: optionalText('메모', MAX_NOTE).transform((v) => v ?? null),
  description: optionalText('설명', MAX_NOTE).transform((v) => v ?? null),
  driver_preference: driverPreference.transform((v) => v ?? null),
  /** The flight of an airport pickup, so the driver can follow it (optional). */
  flight_number: flightNumber.transform((v) => v ?? null),
  /** Held coupon id (GET /butlers/coupons → coupons[].id); 0 or null means none. */
  coupon_id: int('쿠폰 ID').min(0, { error: '쿠폰 ID는 0 이상이어야 합니다.' }).nullable().optional(),
  point_amount: int('포인트').min(0, { error: '포인트는 0 이상이어야 합니다.' }).nullable().optional(),
  /** BUTLER_LEGAL_MODEL=exemptions: the case and proof (ignored under the other models). */
  eligibility: EligibilitySchema.nullable().optional(),
  billing_key: z
    .string({ error: '빌링키를 입력해주세요.' })
    .trim()
    .min(1, { error: '빌링키를 입력해주세요.' })
    .max(200, { error: '빌링키가 너무 깁니다.' })
    .refine((s) => !s.includes(NUL), { error: '빌링키 형식이 올바르지 않습니다.' }),
}, { error: BODY });
/**
 * The customer's car of a driver-only booking (BUTLER_LEGAL_MODEL=own-car): their LUXE subscription
 * car by its subscription's id, or their own car (the plate and the insurance statement are judged
 * by judgeOwnCar, so each refusal names its field in Korean).
 */
const CustomerCarSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('subscription'), subscription_id: IdSchema }),
  z.object({
    kind: z.literal('own'),
    make_model: z.string({ error: '제조사와 모델을 입력해주세요.' }).max(60, { error: '제조사와 모델은 60자 이하로 입력해주세요.' }).refine((s) => !s.includes(NUL), { error: '제조사·모델에 사용할 수 없는 문자가 포함되어 있습니다.' }),
    plate: z.string({ error: '차량번호를 입력해주세요.' }).max(20, { error: '차량번호는 20자 이하로 입력해주세요.' }),
    insured: z.boolean({ error: '보험 확인 여부는 true 또는 false여야 합니다.' }).optional().default(false),
  }),
], { error: '고객 차량(customer_car) 형식이 올바르지 않습니다. 구독 차량 또는 내 차량을 선택해주세요.' });

/** Body of POST /butlers/own-car/request: the fleet booking's trip, extras and card, with the customer's car instead of a fleet car. */
export const OwnCarReservationSchema = ButlerReservationSchema.omit({ car_id: true, eligibility: true }).extend({ customer_car: CustomerCarSchema });
export type OwnCarReservation = z.output<typeof OwnCarReservationSchema>;

/** The payload the reservation form builds. */
export type ButlerReservationInput = z.input<typeof ButlerReservationSchema>;
/** The payload after validation (times as UTC ISO strings, blank waypoints dropped). */
export type ButlerReservation = z.output<typeof ButlerReservationSchema>;

/**
 * Body of PUT /butlers/requests/{id} (spec §3). `month` and `billing_key` are accepted and
 * ignored: the spec sends month 1 and a temporary key, and the card stays the one registered
 * at booking. Times and locations are required; `end_at`, `description`, `way_points` and the
 * extra fields keep their value when left out (null clears them; `way_points: []` removes all).
 */
export const ButlerRequestUpdateSchema = z.object({
  month: int('개월 수').min(0, { error: '개월 수는 0 이상이어야 합니다.' }).nullable().optional(),
  billing_key: z
    .string({ error: '빌링키 형식이 올바르지 않습니다.' })
    .max(200, { error: '빌링키가 너무 깁니다.' })
    .refine((s) => !s.includes(NUL), { error: '빌링키 형식이 올바르지 않습니다.' })
    .nullable()
    .optional(),
  start_at: instant('출발 시간'),
  end_at: optionalInstant('도착 시간'),
  start_location: required('출발지', '출발지를 입력해주세요.', MAX_LOCATION),
  end_location: required('도착지', '도착지를 입력해주세요.', MAX_LOCATION),
  description: optionalText('설명', MAX_NOTE),
  /** Every row needs a nonblank address. */
  way_points: z
    .array(
      z.object({
        address: required('경유지 주소', '경유지 주소를 입력해주세요.', MAX_LOCATION),
        scheduled_time: optionalInstant('경유지 시간').transform((v) => v ?? null),
      }, { error: WAYPOINT }),
      { error: '경유지 목록 형식이 올바르지 않습니다.' },
    )
    .max(MAX_WAYPOINTS, { error: tooManyWaypoints })
    .nullable()
    .optional()
    .transform((v) => (v === null ? [] : v)),
  passenger_count: passengers.optional(),
  purpose: optionalText('목적', MAX_PURPOSE),
  memo: optionalText('메모', MAX_NOTE),
  driver_preference: driverPreference,
  flight_number: flightNumber,
}, { error: BODY });
/** The payload the detail page's edit mode builds. */
export type ButlerRequestUpdateInput = z.input<typeof ButlerRequestUpdateSchema>;
export type ButlerRequestUpdate = z.output<typeof ButlerRequestUpdateSchema>;

/** Longest rating comment. */
export const MAX_RATING_COMMENT = 500;

/** Body of POST /butlers/requests/{id}/rating: a whole 1–5 and an optional comment. */
export const TripRatingSchema = z.object({
  score: z
    .number({ error: '별점은 1~5 사이의 숫자로 선택해주세요.' })
    .int({ error: '별점은 1~5 사이의 숫자로 선택해주세요.' })
    .min(1, { error: '별점은 1~5 사이의 숫자로 선택해주세요.' })
    .max(5, { error: '별점은 1~5 사이의 숫자로 선택해주세요.' }),
  comment: optionalText('후기', MAX_RATING_COMMENT).transform((v) => v ?? null),
}, { error: BODY });

/** Path of POST /butlers/cars/{carId}/request. */
export const CarIdParamSchema = z.object({ carId: IdSchema });
