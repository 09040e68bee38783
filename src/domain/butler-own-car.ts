import { INCLUDED_HOURS, quoteButler, type ButlerCar, type ButlerQuote, type CustomerCar, type Instant } from './butler';
import type { CouponTerms } from './pricing';

/**
 * BUTLER_LEGAL_MODEL=own-car (docs/decisions/legal.md §2): the business supplies only a driver for
 * the customer's own car — a car they bring (make/model, plate, insured for another driver), or
 * the LUXE subscription car they are driving now. No fleet car is rented, so the price is the
 * driver's hourly rate (BUTLER_OWN_CAR_HOURLY_RATE) with the fleet's rule: the included 8 hours
 * are always charged, each started hour beyond at the same rate.
 */

export { DEFAULT_OWN_CAR_HOURLY_RATE } from './butler-hours';

/** The car a driver is booked for: the customer's subscription car, or one they bring. */
export type { CustomerCar } from './butler';

/** What the booking body says of the customer's car (POST /butlers/own-car/request). */
export type CustomerCarClaim =
  | { kind: 'subscription'; subscription_id: number }
  | { kind: 'own'; make_model: string; plate: string; insured: boolean };

/** The insurance statement the customer ticks for their own car (required). */
export const OWN_CAR_INSURANCE_TEXT =
  '이 차량은 가입한 자동차보험으로 다른 사람(LUXE 기사)이 운전해도 보상됩니다. (누구나 운전 특약 또는 임시운전자 특약 가입) 보험이 없어 생긴 사고 책임은 차량 소유자에게 있습니다.';
export const OWN_CAR_INSURANCE_MESSAGE = '다른 운전자가 운전해도 보상되는 보험(누구나 운전 또는 임시운전자 특약)에 가입했음을 확인해주세요.';
export const PLATE_MESSAGE = '차량번호를 정확히 입력해주세요. (예: 12가3456, 123가4567, 서울12가3456)';
const MAKE_MODEL_MESSAGE = '제조사와 모델을 2자 이상 입력해주세요. (예: BMW 520i)';

/** Hangul used as the 용도 letter of a Korean registration plate (자동차 등록번호판). */
const PLATE = /^(?:(?:서울|부산|대구|인천|광주|대전|울산|세종|경기|강원|충북|충남|전북|전남|경북|경남|제주)\s?)?(\d{2,3})\s?([가-힣])\s?(\d{4})$/;

/**
 * A Korean plate normalised ("12 가 3456" → "12가3456", an old region prefix kept: "서울12가3456"),
 * or null when it is not one: 2 or 3 digits, one Hangul syllable, 4 digits.
 */
export function normalizePlate(value: string): string | null {
  const v = value.trim().replace(/\s+/g, ' ');
  const m = PLATE.exec(v);
  if (!m) return null;
  const region = v.match(/^[가-힣]{2}(?=\s?\d)/)?.[0] ?? '';
  return `${region}${m[1]}${m[2]}${m[3]}`;
}

/** The fee terms of a driver-only booking, in the fleet car's shape (8 hours included, then per hour). */
export function ownCarFees(hourlyRate: number): Pick<ButlerCar, 'butler_fee' | 'butler_overtime_fee'> {
  return { butler_fee: hourlyRate * INCLUDED_HOURS, butler_overtime_fee: hourlyRate };
}

/** The price of a driver for the customer's car: hourly rate × max(8, started hours), coupon and points as the fleet. */
export function quoteOwnCar(
  hourlyRate: number,
  start: Instant,
  end: Instant | null | undefined,
  coupon: Pick<CouponTerms, 'discount_type' | 'discount_rate' | 'discount'> | null,
  points: number,
): ButlerQuote {
  return quoteButler(ownCarFees(hourlyRate), start, end, coupon, points);
}

/** How staff, the driver and messages name the customer's car: "고객 차량 BMW 520i · 12가3456". */
export function customerCarText(car: CustomerCar): string {
  return `${customerCarName(car)} · ${car.plate ?? '번호 없음'}`;
}

/** The name alone: "고객 차량 BMW 520i", "고객 차량 Porsche 911 (LUXE 구독 차량)". */
export function customerCarName(car: CustomerCar): string {
  return `고객 차량 ${car.kind === 'subscription' ? `${car.name} (LUXE 구독 차량)` : car.name}`;
}

/** The own car the customer typed, checked; or the field and Korean reason it is refused. */
export function judgeOwnCar(claim: { make_model: string; plate: string; insured: boolean }):
  | { ok: true; car: Extract<CustomerCar, { kind: 'own' }> }
  | { ok: false; field: string; message: string } {
  const name = claim.make_model.trim().replace(/\s+/g, ' ');
  if (name.length < 2 || name.length > 60) return { ok: false, field: 'customer_car.make_model', message: MAKE_MODEL_MESSAGE };
  const plate = normalizePlate(claim.plate);
  if (!plate) return { ok: false, field: 'customer_car.plate', message: PLATE_MESSAGE };
  if (!claim.insured) return { ok: false, field: 'customer_car.insured', message: OWN_CAR_INSURANCE_MESSAGE };
  return { ok: true, car: { kind: 'own', name, plate, insured: true } };
}

/** A subscription car the customer may book a driver for (GET /butlers/own-car/cars). */
export interface SubscriptionCarChoice {
  subscription_id: number;
  car_id: number;
  name: string;
  plate: string | null;
}

export interface OwnCarChoicesAnswer {
  cars: SubscriptionCarChoice[];
}

/**
 * The customer's car in the fleet car's shape, so a driver-only booking reads like any other on
 * the customer's pages (name "고객 차량 BMW 520i", the driver-only fees for the edit preview);
 * its `id` is 0: there is no fleet car. The booking's `customer_car` says what it really is.
 */
export function customerCarAsButlerCar(car: CustomerCar, hourlyRate: number): ButlerCar {
  return {
    id: 0,
    sub_model: car.kind === 'subscription' ? 'LUXE 구독 차량' : null,
    ...ownCarFees(hourlyRate),
    model: { id: 0, name: car.name, image: null, brand: { id: 0, name: '고객 차량', image: null } },
    images: [],
    gallery: [],
    color: null,
    mileage: null,
    license_plate: car.plate,
    retail_price: null,
    description: null,
    butler_reservated_dates: [],
  };
}
