import { clampPassengers, defaultEnd, MAX_PASSENGERS, MIN_PASSENGERS, quoteButler, type ButlerCar, type ButlerQuote, type DriverPreference } from '../../domain/butler';
import type { ButlerPrefill } from '../../domain/butler-prefill';
import { addDays, HOUR_MS, koreaDate, koreaInstant, koreaTime } from '../../domain/dates';
import { CONFLICT_CODE, type ApiFailure } from '../../domain/error-codes';
import { formatWon } from '../../domain/money';
import { applicablePoints, couponSelectable, maxUsablePoints, roundPoints, type CouponHolding } from '../../domain/pricing';
import type { ButlerReservationInput } from '../../domain/schemas/butler';
import { normalizeFlightNumber } from '../../domain/flights';

/** Pure state rules of the reservation form (/butler/request): defaults, prefill, required values, payload. */

/** Start time of a fresh form: tomorrow at this Korean hour. */
const DEFAULT_START_TIME = '09:00';

/** One waypoint row; `key` keeps React rows stable while rows are added and deleted. */
export interface WaypointRow {
  key: number;
  address: string;
  /** Korean wall time 'YYYY-MM-DDTHH:MM', or '' for none. */
  time: string;
}

/** What the form holds; times are Korean wall times as a datetime-local input shows them ('YYYY-MM-DDTHH:MM'). */
export interface ReservationForm {
  carId: number | null;
  start: string;
  /** '' when the user leaves the arrival time open. */
  end: string;
  startLocation: string;
  endLocation: string;
  waypoints: WaypointRow[];
  /** As typed; read with clampPassengers. */
  passengers: string;
  purpose: string;
  driver: DriverPreference;
  memo: string;
  /** The flight of an airport pickup as typed ('' for none; checked by normalizeFlightNumber). */
  flightNumber: string;
  couponId: number | null;
  /** Points as typed (digits). */
  points: string;
}

/** The reservation payload without the billing key (spec 3 §3). */
export type ReservationPayload = Omit<ButlerReservationInput, 'billing_key'> & { car_id: number };

/** A datetime-local value ('YYYY-MM-DDTHH:MM') of an instant, in Korean time. */
export function wallTime(at: Date | string | number): string {
  return `${koreaDate(at)}T${koreaTime(at)}`;
}

/** The instant of a datetime-local value read as Korean time; null when blank or malformed. */
export function instantOf(value: string): Date | null {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(value);
  return m ? koreaInstant(m[1], m[2]) : null;
}

/** A new start; the end moves to start + 8 h (spec 3 §4.1), and stays as is when the start is unreadable. */
export function withStart(form: ReservationForm, start: string): ReservationForm {
  const at = instantOf(start);
  return { ...form, start, end: at ? wallTime(defaultEnd(at)) : form.end };
}

/** A blank form (what the server renders before the browser knows the day). */
export const EMPTY_FORM: ReservationForm = {
  carId: null, start: '', end: '', startLocation: '', endLocation: '', waypoints: [],
  passengers: '1', purpose: '', driver: 'any', memo: '', flightNumber: '', couponId: null, points: '',
};

/** The end of a prefill's hours after the start (a full day from the chat); the form as it is without hours. */
function withHours(form: ReservationForm, hours: number | undefined): ReservationForm {
  const at = hours ? instantOf(form.start) : null;
  return at && hours ? { ...form, end: wallTime(at.getTime() + hours * HOUR_MS) } : form;
}

/** The form's first state: start tomorrow 09:00 (or the prefilled day and time), end 8 h later (or the prefilled hours), prefilled fields. */
export function initialForm(prefill: ButlerPrefill, today: string): ReservationForm {
  const start = `${prefill.date ?? addDays(today, 1)}T${prefill.time ?? DEFAULT_START_TIME}`;
  const form = withStart(
    {
      ...EMPTY_FORM,
      carId: prefill.carId ?? null,
      startLocation: prefill.origin ?? '',
      endLocation: prefill.destination ?? '',
      waypoints: (prefill.waypoints ?? []).map((address, i) => ({ key: i + 1, address, time: '' })),
      passengers: String(prefill.passengers ?? 1),
      purpose: prefill.purpose ?? '',
      memo: prefill.memo ?? '',
    },
    start,
  );
  return withHours(form, prefill.hours);
}

/**
 * A prefill (a new link from the chat or the fleet) laid over a form the user typed before:
 * the fields the link carries win, the rest stays. A new start day or time moves the whole
 * schedule with it (the end and the waypoint times keep their distance to the start).
 */
export function overlayPrefill(form: ReservationForm, prefill: ButlerPrefill, today: string): ReservationForm {
  const next: ReservationForm = { ...form };
  if (prefill.carId) next.carId = prefill.carId;
  if (prefill.origin) next.startLocation = prefill.origin;
  if (prefill.destination) next.endLocation = prefill.destination;
  if (prefill.waypoints?.length) next.waypoints = prefill.waypoints.map((address, i) => ({ key: i + 1, address, time: '' }));
  if (prefill.passengers) next.passengers = String(prefill.passengers);
  if (prefill.purpose) next.purpose = prefill.purpose;
  if (prefill.memo) next.memo = prefill.memo;
  return withHours(overlaySchedule(form, next, prefill, today), prefill.hours);
}

/** The start of a prefill laid over the form: the end and the waypoint times move with it. */
function overlaySchedule(form: ReservationForm, next: ReservationForm, prefill: ButlerPrefill, today: string): ReservationForm {
  if (!prefill.date && !prefill.time) return next;
  const before = instantOf(form.start);
  const [day, time] = before ? form.start.split('T') : [addDays(today, 1), DEFAULT_START_TIME];
  const start = `${prefill.date ?? day}T${prefill.time ?? time}`;
  const after = instantOf(start);
  if (!before || !after) return withStart(next, start);
  const shift = (v: string) => {
    const at = instantOf(v);
    return at ? wallTime(at.getTime() + after.getTime() - before.getTime()) : v;
  };
  return { ...next, start, end: shift(form.end), waypoints: next.waypoints.map((w) => (w.time ? { ...w, time: shift(w.time) } : w)) };
}

/** Whether a required value is missing: car, start time, start and end location, passengers above 0 (spec 3 §5). */
export function missingRequired(form: ReservationForm): boolean {
  return !form.carId || !instantOf(form.start) || !form.startLocation.trim() || !form.endLocation.trim() || !(Number(form.passengers) > 0);
}

/** The required values in the order the form shows them, with the id of the control to focus and a Korean name. */
const REQUIRED_FIELDS = [
  { key: 'car', id: 'car-button', label: '차량' },
  { key: 'start', id: 'start-at', label: '출발 시간' },
  { key: 'startLocation', id: 'start-location', label: '출발지' },
  { key: 'endLocation', id: 'end-location', label: '도착지' },
  { key: 'passengers', id: 'passengers', label: '탑승 인원' },
] as const;
export type RequiredField = (typeof REQUIRED_FIELDS)[number];

/**
 * The required values still missing, in form order. `carKnown` says whether the chosen car is
 * in the fleet (a link may name a car that does not exist). Same rule as missingRequired.
 */
export function missingFields(form: ReservationForm, carKnown = true): RequiredField[] {
  const missing: Record<RequiredField['key'], boolean> = {
    car: !form.carId || !carKnown,
    start: !instantOf(form.start),
    startLocation: !form.startLocation.trim(),
    endLocation: !form.endLocation.trim(),
    passengers: !(Number(form.passengers) > 0),
  };
  return REQUIRED_FIELDS.filter((f) => missing[f.key]);
}

/** A value put into a box with the note that says why it is not what was typed (null when nothing changed). */
export interface Clamped {
  value: string;
  note: string | null;
}

export const PASSENGER_NOTES = {
  max: `최대 ${MAX_PASSENGERS}명까지 가능합니다.`,
  min: `최소 ${MIN_PASSENGERS}명부터 가능합니다.`,
};

/**
 * The passenger box while typing: digits only; above 20 becomes 20 and 0 becomes 1, each with
 * a note, so the box always shows the count that will be sent. Blank stays blank (the user is
 * still typing); `settle` (on blur) turns blank into 1.
 */
export function clampPassengerInput(raw: string, settle = false): Clamped {
  const digits = raw.replace(/\D/g, '').replace(/^0+(?=\d)/, '');
  if (!digits) return settle ? { value: String(MIN_PASSENGERS), note: PASSENGER_NOTES.min } : { value: '', note: null };
  const n = Number(digits);
  if (n > MAX_PASSENGERS) return { value: String(MAX_PASSENGERS), note: PASSENGER_NOTES.max };
  if (n < MIN_PASSENGERS) return { value: String(MIN_PASSENGERS), note: PASSENGER_NOTES.min };
  return { value: String(n), note: null };
}

/** The note shown when the points box was lowered to the most usable now. */
export const pointsNote = (cap: number) => `최대 ${formatWon(cap)} P까지 사용할 수 있습니다.`;

/**
 * The points box against the most usable now (`cap`, won): above it becomes the cap, with a
 * note; anything else is kept as typed (the 만원 hint and the floor are PointInput's).
 */
export function clampPointsInput(typed: string, cap: number): Clamped {
  const digits = typed.replace(/\D/g, '');
  const wanted = digits ? Number(digits) : 0;
  const most = roundPoints(cap);
  return wanted > most ? { value: String(most), note: pointsNote(most) } : { value: digits, note: null };
}

/**
 * Whether the API refused the booking because another booking took one of its days first
 * (409 CONFLICT with the start_at field, src/api/orders/butler-trip-checks.ts dayTaken). The
 * refusal comes before any charge: nothing was paid.
 */
export function isDayTaken(status: number, error: Pick<ApiFailure, 'code' | 'errors'>): boolean {
  return status === 409 && error.code === CONFLICT_CODE && Boolean(error.errors?.start_at?.length);
}

/** The payload to send: Korean times as ISO instants, blank waypoints dropped, passengers clamped 1–20. */
export function toPayload(form: ReservationForm, couponId: number | null, points: number): ReservationPayload {
  const iso = (v: string) => instantOf(v)?.toISOString() ?? null;
  return {
    car_id: form.carId ?? 0,
    start_at: iso(form.start) ?? '',
    start_location: form.startLocation.trim(),
    end_at: iso(form.end),
    end_location: form.endLocation.trim(),
    way_point_requests: form.waypoints.filter((w) => w.address.trim()).map((w) => ({ address: w.address.trim(), scheduled_time: iso(w.time) })),
    passenger_count: clampPassengers(form.passengers),
    purpose: form.purpose.trim(),
    memo: form.memo.trim(),
    flight_number: form.flightNumber.trim() ? (normalizeFlightNumber(form.flightNumber) ?? form.flightNumber.trim()) : null,
    driver_preference: form.driver,
    coupon_id: couponId,
    point_amount: points > 0 ? points : null,
  };
}

export interface FormPricing {
  /** Coupons that may be chosen for the car's base fee. */
  usable: CouponHolding[];
  /** The chosen coupon when it is still usable, else null. */
  couponId: number | null;
  /** Most points usable now (balance and the price after the coupon, in 10,000 steps). */
  limit: number;
  /** Points applied, won. */
  points: number;
  quote: ButlerQuote;
}

/**
 * The price the form shows, with the same quoteButler the server charges: coupons offered by
 * the base fee, applied to the total with overtime; points last. Null without a car.
 */
export function formPricing(form: ReservationForm, car: ButlerCar | null, coupons: CouponHolding[], balance: number, today: string): FormPricing | null {
  if (!car) return null;
  const start = instantOf(form.start);
  const end = start ? instantOf(form.end) : null;
  const usable = coupons.filter((h) => couponSelectable(h, car.butler_fee, today));
  const held = usable.find((h) => h.id === form.couponId) ?? null;
  const before = quoteButler(car, start ?? 0, end, held?.coupon ?? null, 0);
  const limit = maxUsablePoints(before.final, balance);
  const points = applicablePoints(form.points, limit);
  return { usable, couponId: held?.id ?? null, limit, points, quote: quoteButler(car, start ?? 0, end, held?.coupon ?? null, points) };
}

/** The held coupons of GET /butlers/coupons, which may be a list or sit under coupons, user_coupons, items or list (spec 3 §7). */
export function couponList(data: unknown): CouponHolding[] {
  if (Array.isArray(data)) return data as CouponHolding[];
  if (!data || typeof data !== 'object') return [];
  const d = data as Record<string, unknown>;
  const list = [d.coupons, d.user_coupons, d.items, d.list].find(Array.isArray);
  return (list as CouponHolding[] | undefined) ?? [];
}
