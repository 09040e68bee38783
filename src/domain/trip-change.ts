import { INCLUDED_HOURS, overtimeHours, type Instant } from './butler';
import type { DispatchTrip } from './dispatch';
import type { TripChange } from './driver-notices';
import { formatNumber, won } from './money';

/**
 * Staff change a booked trip (issue 50: a late flight, a new flight number, a stop added or
 * dropped, a longer day): what the change does to the price and to the free waiting, as the
 * console shows it before saving and the customer's message says it afterwards.
 */

/** The booked hours a trip is priced on: the included 8 plus each started hour beyond them. */
export const bookedHours = (start: Instant, end: Instant | null | undefined) => INCLUDED_HOURS + overtimeHours(start, end);

/** The price before and after a change of the booked hours (won; points_back go back to the balance). */
export interface TripPriceChange {
  hours_before: number;
  hours_after: number;
  before: number;
  after: number;
  /** after − before: above 0 is charged to the card on file, below 0 refunded to it. */
  difference: number;
  points_back: number;
}

/** The free waiting at the pickup before and after (a flight number makes it an airport pickup). */
export interface WaitingChange {
  free_before: number;
  free_after: number;
}

/** POST /admin/butler-requests/{id}/trip/preview and the answer of PATCH …/trip. */
export interface TripChangePreview {
  changes: TripChange[];
  /** Null when the booked hours, and so the price, stay. */
  price: TripPriceChange | null;
  /** Null when the free waiting stays. */
  waiting: WaitingChange | null;
}

/** PATCH /admin/butler-requests/{id}/trip: the trip as the board shows it after the change, whether anything changed, and what it did. */
export interface TripChangeAnswer extends TripChangePreview {
  trip: DispatchTrip;
  changed: boolean;
}

/** "이용 8시간 → 10시간 · 결제 금액 1,000,000원 → 1,300,000원 (차액 300,000원 추가 결제)"; '' without a price change. */
export function priceChangeLine(p: TripPriceChange | null): string {
  if (!p) return '';
  const settle = p.difference > 0 ? `차액 ${won(p.difference)} 추가 결제` : p.difference < 0 ? `차액 ${won(-p.difference)} 환불` : '차액 없음';
  const points = p.points_back > 0 ? ` · 포인트 ${formatNumber(p.points_back)}P 반환` : '';
  return `이용 ${p.hours_before}시간 → ${p.hours_after}시간 · 결제 금액 ${won(p.before)} → ${won(p.after)} (${settle})${points}`;
}

/** "무료 대기 15분 → 60분"; '' when it stays. */
export function waitingChangeLine(w: WaitingChange | null): string {
  return w ? `무료 대기 ${w.free_before}분 → ${w.free_after}분` : '';
}
