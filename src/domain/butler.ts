import type { PaymentView } from './payments';
import type { CardView } from './card-label';
import type { ButlerLegalView } from './butler-legal';
import type { CompanyTripView } from './company';
import type { TripCharge } from './trip-charge';
import { couponDiscount, finalPrice, roundPoints, type CouponTerms } from './pricing';
import { lastBookableDay, MAX_ADVANCE_DAYS } from './butler-calendar';
import { addDays, HOUR_MS, koreaDate } from './dates';
import type { Brand } from './car';

export { seatsFromSubModel } from './butler-seats';
import type { OrderStatus } from './orders';
import type { GalleryImage } from './photos';

export { INCLUDED_HOURS } from './butler-hours';
import { INCLUDED_HOURS } from './butler-hours';
/** Overtime per started hour when a car has no overtime fee: this share of the butler fee. */
const DEFAULT_OVERTIME_SHARE = 0.1;
/** Passenger count bounds. */
export const MIN_PASSENGERS = 1;
export const MAX_PASSENGERS = 20;
/** Longest trip, in hours (each covered day is reserved). */
export const MAX_TRIP_HOURS = 72;
/** Waypoints per trip. */
export const MAX_WAYPOINTS = 10;

export type DriverPreference = 'male' | 'female' | 'any' | '';

/** A moment: a Date, an ISO string or epoch milliseconds. */
export type Instant = Date | string | number;

/** A butler car as GET /butlers/cars returns it (won; reserved days YYYY-MM-DD in Korea). */
export interface ButlerCar {
  id: number;
  sub_model: string | null;
  /** Won for the included 8 hours. */
  butler_fee: number;
  /** Won per started overtime hour; null means 10% of butler_fee. */
  butler_overtime_fee: number | null;
  model: { id: number; name: string; image: string | null; brand: Brand };
  /** Image addresses in gallery order; `gallery` has each with its alt text and encoded photo. */
  images: string[];
  gallery: GalleryImage[];
  color: string | null;
  mileage: number | null;
  license_plate: string | null;
  retail_price: number | null;
  description: string | null;
  butler_reservated_dates: string[];
}

/** A waypoint as read back. */
interface ButlerWaypoint {
  id: number;
  address: string;
  /** ISO instant or null. */
  scheduled_time: string | null;
}

/** A butler request as GET /butlers/requests returns it. */
/** GET /companies/{id}/trips: the trips booked for a company (src/domain/company.ts). */
export type CompanyTripsAnswer = { trips: ButlerRequestView[] };

export interface ButlerRequestView {
  id: number;
  /** The fleet car; for a driver-only booking (own-car) the customer's car in this shape (id 0, customerCarAsButlerCar). */
  car: ButlerCar;
  /** BUTLER_LEGAL_MODEL=own-car: the customer's car the driver drives (null for a fleet car). */
  customer_car: CustomerCar | null;
  status: OrderStatus;
  start_at: string;
  end_at: string | null;
  start_location: string;
  end_location: string;
  description: string | null;
  passenger_count: number;
  purpose: string | null;
  memo: string | null;
  driver_preference: DriverPreference | null;
  /** The flight of an airport pickup (KE123), or null. */
  flight_number: string | null;
  /** What the booking rests on (BUTLER_LEGAL_MODEL): the carrier named, or the claimed case and its proof. */
  legal: ButlerLegalView;
  /** Booked for a company (법인): the passenger, cost centre, how it is billed and its approval; null for a private booking. */
  company_booking: CompanyTripView | null;
  way_points: ButlerWaypoint[];
  created_at: string;
  modified_at: string;
  point_used: number;
  coupon: { id: number; coupon: { name: string; code: string } } | null;
  base_fee: number;
  overtime_hours: number;
  overtime_fee: number;
  coupon_discount: number;
  final_price: number;
  /** The card the booking charges (issuer, last four digits); null when the provider did not say. Never the billing key. */
  card: CardView | null;
  /** The fee's charge at booking (null when nothing was to pay). */
  payment: PaymentView | null;
  /** The latest attempt at the overtime charge staff settled after the trip (null when none); FAILED is owed (POST /butlers/requests/{id}/pay). */
  overtime_payment: PaymentView | null;
  /** Won paid for the booking so far, after refunds (the fee, edit differences, overtime). */
  paid_amount: number;
  /** Where the trip stands (접수, 배차 완료, 운행 중, 운행 완료, 취소). */
  stage: TripStage;
  /** The driver and plate, from the Korean day before the trip (null before, without a driver, or cancelled). */
  dispatch: CustomerDispatch | null;
  /** The times the driver (or staff) recorded: 출발, 도착, 탑승, 운행 종료; and the overtime hours of the recorded trip (0 before its end). */
  trip_record: TripRecordView;
  /**
   * What the charge after the trip is made of (예약 · 실제 이용 · 대기 · 선결제 · 추가 청구, src/domain/waiting.ts),
   * as it was charged with 운행 종료; null before the end.
   */
  trip_charge: TripCharge | null;
  /** The customer's rating of the finished trip (null until rated; possible once the stage is COMPLETED). */
  rating: TripRating | null;
}

/** The recorded stages of a trip (ISO instants or null) and the started hours beyond the booked 8 h of 탑승 → 운행 종료. */
interface TripRecordView {
  departed_at: string | null;
  arrived_at: string | null;
  boarded_at: string | null;
  ended_at: string | null;
  overtime_hours: number;
}

/** A finished trip's rating: 1–5 and an optional comment (ISO instant). */
export interface TripRating {
  score: number;
  comment: string | null;
  created_at: string;
}

/** POST /butlers/requests/{id}/rating. */
export interface TripRatingAnswer {
  rating: TripRating;
}

/** Where a butler trip stands, for staff and the customer alike (labels and rules: ./dispatch.ts). */
export type TripStage = 'RECEIVED' | 'DISPATCHED' | 'DEPARTED' | 'ARRIVED' | 'IN_PROGRESS' | 'COMPLETED' | 'CANCELLED';

/**
 * What the customer's booking shows of its dispatch (null before the day before the trip, or with no driver, or cancelled).
 * No number: customer and driver reach each other in the trip's message thread (issue 50, src/domain/trip-thread.ts).
 */
export interface CustomerDispatch {
  driver_name: string;
  license_plate: string | null;
}

/** A butler subscription as GET /butlers returns it. */
export interface ButlerSubscriptionView {
  id: number;
  created_at: string;
  modified_at: string;
  request: ButlerRequestView;
}

/** GET /butlers/cars. */
export interface ButlerFleetAnswer {
  cars: ButlerCar[];
}

/** GET /butlers/cars/{id}. */
export interface ButlerCarAnswer {
  car: ButlerCar;
}

/** GET /butlers: the user's confirmed bookings. */
export interface ButlerSubscriptionListAnswer {
  butlers: ButlerSubscriptionView[];
}

/** GET /butlers/requests. */
export interface ButlerRequestListAnswer {
  butler_requests: ButlerRequestView[];
}

/** GET and PUT /butlers/requests/{id}. */
export interface ButlerRequestAnswer {
  butler_request: ButlerRequestView;
}

/** POST /butlers/cars/{carId}/request: the booking and its charge; created is false for a repeat of the same order. */
export interface ButlerOrderAnswer extends ButlerRequestAnswer {
  created: boolean;
  payment: PaymentView | null;
}

/**
 * GET /butlers/requests/{id}/cancel-preview: what a cancel now would refund, by the server's policy
 * and business clock (`now`, ISO), so the confirm dialog states what DELETE will do.
 */
export interface ButlerCancelPreview {
  paid_amount: number;
  refund_amount: number;
  refund_percent: number;
  now: string;
}

/** DELETE /butlers/requests/{id}: what went back (won, percent of the paid fee, points). */
export interface ButlerCancelAnswer {
  id: number;
  refunded_amount: number;
  refund_percent: number;
  refunded_points: number;
  coupon_returned: boolean;
}

/** Won per started overtime hour: the car's overtime fee, else 10% of its butler fee (floored). */
export function overtimeRate(car: Pick<ButlerCar, 'butler_fee' | 'butler_overtime_fee'>): number {
  return car.butler_overtime_fee ?? Math.floor(car.butler_fee * DEFAULT_OVERTIME_SHARE);
}

/** Started hours beyond the included 8; 0 without an end or when the end is not after the start. */
export function overtimeHours(start: Instant, end: Instant | null | undefined): number {
  if (!end) return 0;
  const ms = new Date(end).getTime() - new Date(start).getTime() - INCLUDED_HOURS * HOUR_MS;
  return ms > 0 ? Math.ceil(ms / HOUR_MS) : 0;
}

/** The end a trip gets when none is given: start plus the included 8 hours. */
export function defaultEnd(start: Instant): Date {
  return new Date(new Date(start).getTime() + INCLUDED_HOURS * HOUR_MS);
}

/** Passenger count as the form keeps it: an integer 1–20, anything else falls back to 1. */
export function clampPassengers(value: unknown): number {
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value.trim()) : Number.NaN;
  return Number.isInteger(n) && n >= MIN_PASSENGERS && n <= MAX_PASSENGERS ? n : MIN_PASSENGERS;
}

export interface ButlerQuote {
  /** Won for the included 8 hours. */
  baseFee: number;
  overtimeHours: number;
  /** Won per overtime hour. */
  overtimeRate: number;
  overtimeFee: number;
  /** baseFee + overtimeFee. */
  total: number;
  couponDiscount: number;
  points: number;
  /** total − coupon − points, never below 0. */
  final: number;
}

/**
 * The price of a butler trip: the one function the reservation form and the server both use.
 * The coupon applies to the total including overtime; points come off last.
 */
export function quoteButler(
  car: Pick<ButlerCar, 'butler_fee' | 'butler_overtime_fee'>,
  start: Instant,
  end: Instant | null | undefined,
  coupon: Pick<CouponTerms, 'discount_type' | 'discount_rate' | 'discount'> | null,
  points: number,
): ButlerQuote {
  const hours = overtimeHours(start, end);
  const rate = overtimeRate(car);
  const overtimeFee = hours * rate;
  const total = car.butler_fee + overtimeFee;
  const off = coupon ? couponDiscount(coupon, total) : 0;
  const used = Math.max(0, points);
  return { baseFee: car.butler_fee, overtimeHours: hours, overtimeRate: rate, overtimeFee, total, couponDiscount: off, points: used, final: finalPrice(total, off, used) };
}

/** A pending booking re-priced by an edit: the new quote and the points that go back to the balance. */
export interface ButlerRequote {
  quote: ButlerQuote;
  pointsBack: number;
}

/**
 * The price of an edited trip (PUT /butlers/requests/{id} and its preview): the held coupon is
 * recomputed on the new total with overtime; the points stay unless the price after the coupon
 * is below them, then they drop to the largest 10,000-won step within it and the rest goes back.
 */
export function requoteButler(
  car: Pick<ButlerCar, 'butler_fee' | 'butler_overtime_fee'>,
  start: Instant,
  end: Instant | null | undefined,
  coupon: Pick<CouponTerms, 'discount_type' | 'discount_rate' | 'discount'> | null,
  pointUsed: number,
): ButlerRequote {
  const before = quoteButler(car, start, end, coupon, 0);
  const payable = before.total - before.couponDiscount;
  const kept = pointUsed > payable ? roundPoints(payable) : pointUsed;
  return { quote: quoteButler(car, start, end, coupon, kept), pointsBack: pointUsed - kept };
}

/** The Korean calendar days a trip covers, first to last (an open end counts as start + 8 h). */
export function tripDays(start: Instant, end: Instant | null | undefined): string[] {
  const first = koreaDate(start);
  const last = koreaDate(end ?? defaultEnd(start));
  const days: string[] = [];
  for (let d = first; d <= last && days.length <= MAX_TRIP_HOURS / 24 + 1; d = addDays(d, 1)) days.push(d);
  return days;
}

/** A refusal of a trip's times: the payload field it concerns and a Korean message. */
export interface TripProblem {
  field: string;
  message: string;
}

export interface TripTimes {
  start: Instant;
  end: Instant | null | undefined;
  waypoints?: readonly { scheduled_time?: string | null }[];
}

/**
 * What is wrong with a trip's times at `now`, in the order a user should fix it (empty when
 * fine): the start must lie ahead and within MAX_ADVANCE_DAYS Korean days, the end (when
 * given) after the start and within MAX_TRIP_HOURS, and every waypoint time between the start
 * and the end (start + 8 h without an end). `waypointField` names the waypoint list in the payload.
 */
export function tripProblems(trip: TripTimes, now: Date, waypointField = 'way_point_requests'): TripProblem[] {
  const out: TripProblem[] = [];
  const start = new Date(trip.start).getTime();
  const end = trip.end ? new Date(trip.end).getTime() : null;
  if (start <= now.getTime()) out.push({ field: 'start_at', message: '출발 시간은 현재 시각 이후로 선택해주세요.' });
  if (koreaDate(start) > lastBookableDay(koreaDate(now))) out.push({ field: 'start_at', message: `출발일은 오늘부터 ${MAX_ADVANCE_DAYS}일 이내로 선택해주세요.` });
  if (end !== null && end <= start) out.push({ field: 'end_at', message: '도착 시간은 출발 시간 이후로 선택해주세요.' });
  if (end !== null && end - start > MAX_TRIP_HOURS * HOUR_MS) out.push({ field: 'end_at', message: `이용 시간은 최대 ${MAX_TRIP_HOURS}시간까지 예약할 수 있습니다.` });
  const last = end !== null && end > start ? end : start + INCLUDED_HOURS * HOUR_MS;
  (trip.waypoints ?? []).forEach((w, i) => {
    if (!w.scheduled_time) return;
    const at = new Date(w.scheduled_time).getTime();
    if (at < start || at > last) out.push({ field: `${waypointField}.${i}.scheduled_time`, message: '경유지 시간은 출발 시간과 도착 시간 사이로 선택해주세요.' });
  });
  return out;
}

/** The customer's car a driver-only (own-car) booking's driver drives: their LUXE subscription car or a car they bring. */
export type CustomerCar =
  | { kind: 'subscription'; subscription_id: number; car_id: number; name: string; plate: string | null }
  | { kind: 'own'; name: string; plate: string; insured: true };
