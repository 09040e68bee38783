import type { CouponTerms } from './pricing';
import { HOUR_MS } from './dates';
import { INCLUDED_HOURS, overtimeHours, overtimeRate, quoteButler, type ButlerCar, type Instant } from './butler';
import { won } from './money';
import type { TripCharge } from './trip-charge';

/**
 * The waiting rule of a chauffeured trip (issue 50), as the peers state it: the driver waits for
 * free up to a set time — longer at an airport, where a flight lands late and bags take time —
 * and after that each started step is charged at the car's hourly overtime rate. Billing of the
 * trip itself starts at 탑승, so waiting is counted apart: from the driver's 도착 (or the booked
 * pickup time, when the driver came early) to 탑승. It is charged once after the trip, with the
 * overtime, in the one overtime charge of the booking.
 */
export interface WaitingPolicy {
  /** Free minutes at an airport pickup (a flight number on the booking, or the pickup place an airport). */
  airportFreeMinutes: number;
  /** Free minutes at any other pickup. */
  freeMinutes: number;
  /** Waiting beyond the free minutes is charged per started step of this many minutes. */
  stepMinutes: number;
}

/** The defaults (PUBLIC_BUTLER_WAITING_* settings, docs/settings.md). */
export const DEFAULT_WAITING_POLICY: WaitingPolicy = { airportFreeMinutes: 60, freeMinutes: 15, stepMinutes: 30 };

const MINUTE_MS = 60_000;
const AIRPORT = /공항|airport/i;

/** An airport pickup: the booking names a flight, or its pickup place is an airport (인천국제공항, 김포공항 …). */
export function isAirportPickup(b: { flight_number: string | null | undefined; start_location: string }): boolean {
  return Boolean(b.flight_number) || AIRPORT.test(b.start_location);
}

/** The free minutes of a pickup. */
export function freeWaitingMinutes(policy: WaitingPolicy, airport: boolean): number {
  return airport ? policy.airportFreeMinutes : policy.freeMinutes;
}

/**
 * Whole minutes the driver waited: from 도착, or from the booked pickup time when the driver came
 * earlier (coming early is the driver's own choice), to 탑승; 0 without both taps.
 */
export function waitingMinutes(bookedStart: Instant, arrived: Instant | null | undefined, boarded: Instant | null | undefined): number {
  if (!arrived || !boarded) return 0;
  const from = Math.max(new Date(arrived).getTime(), new Date(bookedStart).getTime());
  const ms = new Date(boarded).getTime() - from;
  return ms > 0 ? Math.floor(ms / MINUTE_MS) : 0;
}

/** The price of one waiting step: the hourly rate's share of the step, in whole won (150,000원/h, 30 min → 75,000원). */
function waitingStepPrice(rate: number, policy: WaitingPolicy): number {
  return Math.floor((rate * policy.stepMinutes) / 60);
}

export interface WaitingCharge {
  airport: boolean;
  minutes: number;
  freeMinutes: number;
  /** Minutes beyond the free ones. */
  chargedMinutes: number;
  stepMinutes: number;
  steps: number;
  stepPrice: number;
  amount: number;
}

/** What `minutes` of waiting cost: every started step beyond the free minutes at the step's price. */
export function waitingCharge(policy: WaitingPolicy, airport: boolean, minutes: number, rate: number): WaitingCharge {
  const freeMinutes = freeWaitingMinutes(policy, airport);
  const chargedMinutes = Math.max(0, minutes - freeMinutes);
  const steps = chargedMinutes > 0 ? Math.ceil(chargedMinutes / policy.stepMinutes) : 0;
  const stepPrice = waitingStepPrice(rate, policy);
  return { airport, minutes, freeMinutes, chargedMinutes, stepMinutes: policy.stepMinutes, steps, stepPrice, amount: steps * stepPrice };
}

/**
 * The wait so far at a pickup, while the driver waits (도착 recorded, 탑승 not yet): the rule's
 * minutes up to `now` — the server's time, never the phone's: it is money — and where they stand
 * against the free time. Prices are left out (the driver's phone names none: rate 0).
 */
export function waitingSoFar(policy: WaitingPolicy, booking: { start_at: Instant; flight_number: string | null; start_location: string }, arrived: Instant, now: Instant): WaitingCharge {
  return waitingCharge(policy, isAirportPickup(booking), waitingMinutes(booking.start_at, arrived, now), 0);
}

/** What the driver's phone says of a wait so far: 대기 N분 and the free minutes left, or the minutes beyond them with the started steps. */
export function waitingSoFarText(w: WaitingCharge): string {
  const left = w.freeMinutes - w.minutes;
  if (left > 0) return `대기 ${w.minutes}분 · 무료 대기 ${left}분 남음`;
  if (w.chargedMinutes === 0) return `대기 ${w.minutes}분 · 무료 대기 시간이 끝났습니다`;
  return `대기 ${w.minutes}분 · 무료 대기 ${w.freeMinutes}분을 ${w.chargedMinutes}분 넘었습니다 (${w.stepMinutes}분 단위 ${w.steps}회 청구)`;
}

/**
 * The waiting rule in Korean, as /fleet, the reservation form and the terms state it (the same
 * numbers waitingCharge applies). With a car's hourly rate the step's price is named too.
 */
export function waitingRuleLines(policy: WaitingPolicy, rate?: number): string[] {
  const step = policy.stepMinutes;
  const price = rate ? ` (이 차량은 ${step}분마다 ${won(waitingStepPrice(rate, policy))})` : '';
  return [
    `기사님은 픽업 장소에서 공항 픽업(항공편명을 입력했거나 픽업 장소가 공항인 예약)은 ${policy.airportFreeMinutes}분, 그 외에는 ${policy.freeMinutes}분까지 무료로 기다립니다.`,
    '대기 시간은 기사님이 픽업 장소에 도착한 때(예약한 출발 시각보다 먼저 도착했다면 출발 시각)부터 탑승까지이며, 이용 시간은 탑승부터 계산합니다.',
    `무료 대기 시간이 지나면 시작된 ${step}분마다 차량의 시간당 초과 요금의 ${step}분 몫이 청구됩니다${price}.`,
    '대기 요금은 운행이 끝난 뒤 초과 이용 요금과 함께 예약한 카드로 한 번에 결제되며, 쿠폰과 포인트는 적용되지 않습니다.',
  ];
}

// ── What the charge after the trip is made of ─────────────────────────────────

export interface TripChargeInput {
  car: Pick<ButlerCar, 'butler_fee' | 'butler_overtime_fee'>;
  booking: {
    start_at: Instant;
    end_at: Instant | null;
    flight_number: string | null;
    start_location: string;
    /** What was charged at booking, and the points used then. */
    final_price: number;
    point_used: number;
    coupon: Pick<CouponTerms, 'discount_type' | 'discount_rate' | 'discount'> | null;
  };
  actual: { arrived: Instant | null; boarded: Instant; ended: Instant };
  policy: WaitingPolicy;
}

/**
 * The charge after a trip: the overtime by the quote's rule on 탑승 → 운행 종료 (coupon on the
 * total, the points as booked) minus what was paid, never negative (a shorter trip refunds
 * nothing), plus the waiting beyond the free minutes.
 */
export function tripCharge({ car, booking, actual, policy }: TripChargeInput): TripCharge {
  const rate = overtimeRate(car);
  const bookedHours = INCLUDED_HOURS + overtimeHours(booking.start_at, booking.end_at);
  const usedMs = Math.max(0, new Date(actual.ended).getTime() - new Date(actual.boarded).getTime());
  const usedHours = Math.ceil(usedMs / HOUR_MS);
  const overtimeAmount = Math.max(0, quoteButler(car, actual.boarded, actual.ended, booking.coupon, booking.point_used).final - booking.final_price);
  const hours = Math.max(0, overtimeHours(actual.boarded, actual.ended) - overtimeHours(booking.start_at, booking.end_at));
  const gross = hours * rate;
  const w = waitingCharge(policy, isAirportPickup(booking), waitingMinutes(booking.start_at, actual.arrived, actual.boarded), rate);
  return {
    booked_hours: bookedHours,
    used_minutes: Math.floor(usedMs / 60_000),
    used_hours: usedHours,
    overtime_hours: hours,
    overtime_rate: rate,
    overtime_coupon: Math.max(0, gross - overtimeAmount),
    overtime_amount: overtimeAmount,
    airport: w.airport,
    waiting_minutes: w.minutes,
    free_minutes: w.freeMinutes,
    step_minutes: w.stepMinutes,
    waiting_steps: w.steps,
    step_price: w.stepPrice,
    waiting_amount: w.amount,
    prepaid: booking.final_price,
    amount: overtimeAmount + w.amount,
  };
}

export * from './trip-charge';
