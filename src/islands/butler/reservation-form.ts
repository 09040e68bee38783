import { clampPassengers, defaultEnd, quoteButler, type ButlerCar, type ButlerQuote, type DriverPreference } from '../../domain/butler';
import type { ButlerPrefill } from '../../domain/butler-prefill';
import { addDays, koreaDate, koreaInstant, koreaTime } from '../../domain/dates';
import { applicablePoints, couponSelectable, maxUsablePoints, type CouponHolding } from '../../domain/pricing';
import type { ButlerReservationInput } from '../../domain/schemas/butler';

/** Pure state rules of the reservation form (/butler/request): defaults, prefill, required values, payload. */

/** Start time of a fresh form: tomorrow at this Korean hour. */
export const DEFAULT_START_TIME = '09:00';

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
  passengers: '1', purpose: '', driver: 'any', memo: '', couponId: null, points: '',
};

/** The form's first state: start tomorrow 09:00 (or the prefilled day and time), end 8 h later, prefilled fields. */
export function initialForm(prefill: ButlerPrefill, today: string): ReservationForm {
  const start = `${prefill.date ?? addDays(today, 1)}T${prefill.time ?? DEFAULT_START_TIME}`;
  return withStart(
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
}

/** Whether a required value is missing: car, start time, start and end location, passengers above 0 (spec 3 §5). */
export function missingRequired(form: ReservationForm): boolean {
  return !form.carId || !instantOf(form.start) || !form.startLocation.trim() || !form.endLocation.trim() || !(Number(form.passengers) > 0);
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
    driver_preference: form.driver,
    coupon_id: couponId,
    point_amount: points > 0 ? points : null,
  };
}

/** The form as a prefill, so a visitor sent to /login comes back to what they typed. */
export function toPrefill(form: ReservationForm): ButlerPrefill {
  const [date, time] = form.start.split('T');
  return {
    carId: form.carId ?? undefined,
    date: date || undefined,
    time: time || undefined,
    origin: form.startLocation || undefined,
    destination: form.endLocation || undefined,
    waypoints: form.waypoints.map((w) => w.address).filter(Boolean),
    passengers: clampPassengers(form.passengers),
    purpose: form.purpose || undefined,
    memo: form.memo || undefined,
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
