import { addDays, addMonths, daysBetween, koreaInstant } from './dates';
import { termEnd } from './subscriptions';
import type { BusyWindow } from './dispatch';
import type { LicenceRole, LicenceStatus } from './licence';
import type { DeliveryWindow } from './subscription-price';

/**
 * 탁송(인도)과 반납: the car brought to the customer at the start of a subscription and taken back
 * at its end, each by a roster driver within a time window, and what was recorded at the handover
 * (odometer, fuel or charge, notes), which the customer acknowledges. docs/decisions/handover.md.
 */

export const HANDOVER_KINDS = ['DELIVERY', 'RETURN'] as const;
export type HandoverKind = (typeof HANDOVER_KINDS)[number];
export type HandoverStatus = 'SCHEDULED' | 'DONE' | 'CANCELLED';

export const HANDOVER_KIND_LABEL: Record<HandoverKind, string> = { DELIVERY: '탁송(인도)', RETURN: '반납' };
/** A swap's pair (차량 교체): the old car's RETURN and the new car's DELIVERY on the swap day. */
const SWAP_HANDOVER_LABEL: Record<HandoverKind, string> = { DELIVERY: '교체 인도', RETURN: '교체 반납' };
/** What a handover is called on the board, /driver, /my and in messages: 교체 반납/교체 인도 for a swap's pair. */
export const handoverLabel = (h: { kind: HandoverKind; swap?: unknown }) => (h.swap ? SWAP_HANDOVER_LABEL[h.kind] : HANDOVER_KIND_LABEL[h.kind]);
/** The record's name on buttons and messages: the customer takes the car over at a delivery (인수), hands it back at a return (반납). */
export const HANDOVER_RECORD_LABEL: Record<HandoverKind, string> = { DELIVERY: '인수 기록', RETURN: '반납 기록' };
export const HANDOVER_STATUS_LABEL: Record<HandoverStatus, string> = { SCHEDULED: '예정', DONE: '완료', CANCELLED: '취소' };

/** Shortest and longest window a handover may be booked for, in minutes. */
const MIN_WINDOW_MINUTES = 30;
const MAX_WINDOW_MINUTES = 6 * 60;

/**
 * A handover's window on a Korean day: `start` and `end` are HH:MM Korean wall-clock times on
 * `date`, end after start, between 30 minutes and 6 hours long. The busy window is [from, to);
 * an error (Korean) when the times do not make one.
 */
export function handoverWindow(date: string, start: string, end: string): BusyWindow | { error: string } {
  const from = koreaInstant(date, start);
  const to = koreaInstant(date, end);
  if (!from || !to) return { error: '날짜와 시간을 확인해주세요.' };
  const minutes = (to.getTime() - from.getTime()) / 60_000;
  if (minutes <= 0) return { error: '종료 시간은 시작 시간 이후여야 합니다.' };
  if (minutes < MIN_WINDOW_MINUTES) return { error: `시간대는 ${MIN_WINDOW_MINUTES}분 이상으로 잡아주세요.` };
  if (minutes > MAX_WINDOW_MINUTES) return { error: `시간대는 ${MAX_WINDOW_MINUTES / 60}시간 이내로 잡아주세요.` };
  return { from, to };
}

/** A subscription's dates as the first-day rule reads them. */
export interface TermDates {
  start: string;
  end: string;
  /** The term in months (the request's). */
  months: number;
}

/** What the billing state allows: whether a monthly charge beyond the first has been made or tried, or the term is otherwise settled. */
export interface BillingFacts {
  paidMonths: number;
  /** Any attempt at month 2 (paid, pending or failed). */
  month2Tried: boolean;
  active: boolean;
  /** 중도 해지 set: the end is fixed by the customer's return day. */
  exitSet: boolean;
}

export type StartShift =
  | { move: false; reason: 'same-day' | 'billed' | 'inactive' | 'exit' }
  | { move: true; start: string; end: string };

/**
 * The first day follows the actual handover (docs/decisions/handover.md): when the delivery is
 * recorded on a Korean day other than the confirmed start, and only the first month has been
 * charged (month 2 neither paid nor tried), the start moves to that day and the end moves with it,
 * keeping the term: termEnd(new start, months) when the end was the term's natural end, otherwise
 * the same number of days later or earlier. Otherwise the dates stay and the actual day is only
 * recorded.
 */
export function shiftedTerm(term: TermDates, actualDay: string, billing: BillingFacts): StartShift {
  if (actualDay === term.start) return { move: false, reason: 'same-day' };
  if (!billing.active) return { move: false, reason: 'inactive' };
  if (billing.exitSet) return { move: false, reason: 'exit' };
  if (billing.paidMonths > 1 || billing.month2Tried) return { move: false, reason: 'billed' };
  const natural = term.end === termEnd(term.start, term.months);
  const end = natural ? termEnd(actualDay, term.months) : addDays(term.end, daysBetween(term.start, actualDay));
  return { move: true, start: actualDay, end };
}

/** The day month 2 is charged after a start: the start's day of the next month (as billing counts it). */
export const secondChargeDay = (start: string) => addMonths(start, 1);

/** What the customer must type to acknowledge: their name as on the account (spaces ignored), or any 2+ characters when the account has none. */
export function acknowledgementMatches(typed: string, accountName: string | null): boolean {
  const squash = (s: string) => s.replace(/\s+/g, '');
  const t = squash(typed);
  if (!accountName || !squash(accountName)) return t.length >= 2;
  return t === squash(accountName);
}

/** A handover as staff (the board, the console) and the customer (/my/subscriptions) see it. */
export interface Handover {
  id: number;
  subscription_id: number;
  kind: HandoverKind;
  status: HandoverStatus;
  scheduled_date: string;
  window_start: string;
  window_end: string;
  address: string | null;
  driver: { id: number; name: string; phone: string };
  /** A swap's pair (null: the subscription's own delivery or return): the swap, its day and the car handed over (the old car for the RETURN, the new one for the DELIVERY). */
  swap: HandoverSwap | null;
  record: HandoverRecord | null;
  acknowledged_at: string | null;
  acknowledged_name: string | null;
  created_at: string;
  updated_at: string;
}

/** The swap a handover belongs to, and the car it hands over. */
export interface HandoverSwap {
  id: number;
  swap_date: string;
  car_id: number;
  /** The car's name and its plate ("BMW 520i · 12가 3456"). */
  car: string;
  plate: string | null;
}

/** What was recorded at the handover. */
interface HandoverRecord {
  odometer_km: number;
  fuel_percent: number;
  notes: string | null;
  recorded_at: string;
  recorded_by: string;
  /** The Korean day of the handover. */
  actual_date: string;
}

/** A handover on the staff board, with its subscription's car and customer. */
export interface BoardHandover extends Handover {
  /** The car handed over: the order's at the delivery; at the return, the car held then (a swap's new car after a swap). */
  car: string;
  plate: string | null;
  customer: { name: string; mobile: string | null };
  start_date: string;
  end_date: string;
  /** The contract's drivers' licences as last checked (the customer first; no number, no birth date): the driver checks the card at the door against them. */
  licences: HandoverLicence[];
}

/** One driver's licence status on the board and the driver's phone. */
export interface HandoverLicence {
  name: string;
  role: LicenceRole;
  status: LicenceStatus;
  status_text: string;
  expires_on: string | null;
  checked_at: string;
}

/** An active subscription that still lacks a delivery or a return on the schedule. */
export interface OpenHandover {
  subscription_id: number;
  /** The car to hand over: the order's before the delivery; after it, the car held at the end (after a swap: the swap's new car). */
  car: string;
  plate: string | null;
  customer: { name: string; mobile: string | null };
  start_date: string;
  end_date: string;
  missing: HandoverKind[];
  /** What the customer chose with the order (탁송 or 라운지 인수; the 탁송 address and window, as changed on /my): the schedule dialog starts from it. */
  choice: { handover: 'DELIVERY' | 'PICKUP'; address: string | null; window: DeliveryWindow | null } | null;
}

/** The odometer at delivery and at return (km; null while not recorded): what mileage and overage read. */
export interface HandoverReadings {
  delivery: { odometer_km: number; fuel_percent: number; recorded_at: Date; actual_date: string } | null;
  return: { odometer_km: number; fuel_percent: number; recorded_at: Date; actual_date: string } | null;
}

export interface HandoverAnswer {
  handover: Handover;
}
export interface HandoverListAnswer {
  handovers: Handover[];
}
export interface AdminHandoversAnswer {
  handovers: BoardHandover[];
  open: OpenHandover[];
  /** CONFIRMED swaps with no live pair yet (교체 배차 대기). */
  open_swaps: OpenSwap[];
}

/** A CONFIRMED 차량 교체 still waiting for its pair (the old car's return and the new car's delivery, one driver, one window, on the swap day). */
export interface OpenSwap {
  swap_id: number;
  subscription_id: number;
  customer: { name: string; mobile: string | null };
  swap_date: string;
  from_car: { id: number; car: string; plate: string | null };
  to_car: { id: number; car: string; plate: string | null };
  /** Where the subscription's own delivery went (the default place of the pair), or null. */
  address: string | null;
}

/** POST /admin/subscriptions/{id}/swaps/{swapId}/handovers: the pair as scheduled (RETURN first). */
export interface SwapHandoversAnswer {
  handovers: Handover[];
}
/** The record answer, with whether the subscription's dates moved to the handover day. */
export interface HandoverRecordAnswer {
  handover: Handover;
  dates: { start_date: string; end_date: string; moved: boolean; reason: string | null };
}
export interface DriverHandoversAnswer {
  handovers: BoardHandover[];
}

/** 상태 사진: at most this many condition photos on one handover record. */
export const MAX_HANDOVER_PHOTOS = 12;
/** Longest side of a stored condition photo, in pixels (the upload is re-encoded to WebP at most this size). */
export const HANDOVER_PHOTO_MAX_SIDE = 1600;

/** A condition photo as the API lists it (the bytes come from its `url`, with the access token). */
export interface HandoverPhotoView {
  id: number;
  handover_id: number;
  width: number;
  height: number;
  content_type: string;
  /** The API path of the image (GET with the bearer token): /handovers/{id}/photos/{photoId}. */
  url: string;
  created_at: string;
}
export interface HandoverPhotosAnswer {
  photos: HandoverPhotoView[];
}
export interface HandoverPhotoAnswer {
  photo: HandoverPhotoView;
}

/**
 * Whether another condition photo may be added to a handover: not to a cancelled one, not once the
 * customer acknowledged the record (what they confirmed stays as it was), not past the limit.
 * The Korean refusal (a 409), or null.
 */
export function photoRefusal(h: { status: HandoverStatus; acknowledged: boolean }, count: number): string | null {
  if (h.status === 'CANCELLED') return '취소된 일정에는 사진을 올릴 수 없습니다.';
  if (h.acknowledged) return '고객이 확인한 기록에는 사진을 더 올릴 수 없습니다.';
  if (count >= MAX_HANDOVER_PHOTOS) return `사진은 한 일정에 ${MAX_HANDOVER_PHOTOS}장까지 올릴 수 있습니다.`;
  return null;
}
