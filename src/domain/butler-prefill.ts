/**
 * What another page (the fleet calendar, the chat assistant) hands to the reservation form
 * at /butler/request, carried in its query string. Every field is optional; the form checks
 * everything again before anything is sent.
 */
export interface ButlerPrefill {
  carId?: number;
  /** Start day, YYYY-MM-DD (Korean calendar). */
  date?: string;
  /** Start time, HH:MM (24 h, Korea). */
  time?: string;
  /** Hours from the start to the end (a full day from the chat); the form's default is 8. */
  hours?: number;
  origin?: string;
  destination?: string;
  /** Waypoint addresses in order. */
  waypoints?: string[];
  passengers?: number;
  purpose?: string;
  memo?: string;
}

import { MAX_TRIP_HOURS } from './butler';

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
const MAX_TEXT = 200;

const text = (v: string | null) => {
  const t = v?.trim().slice(0, MAX_TEXT);
  return t ? t : undefined;
};

/** The query string (without '?') that carries a prefill; empty fields are left out. */
export function prefillToSearch(p: ButlerPrefill): string {
  const q = new URLSearchParams();
  if (p.carId) q.set('carId', String(p.carId));
  if (p.date) q.set('date', p.date);
  if (p.time) q.set('time', p.time);
  if (p.hours) q.set('hours', String(p.hours));
  if (p.origin) q.set('from', p.origin);
  if (p.destination) q.set('to', p.destination);
  for (const w of p.waypoints ?? []) if (w.trim()) q.append('wp', w.trim());
  if (p.passengers) q.set('passengers', String(p.passengers));
  if (p.purpose) q.set('purpose', p.purpose);
  if (p.memo) q.set('memo', p.memo);
  return q.toString();
}

/** Reads a prefill from a query string, dropping whatever is malformed. */
export function prefillFromSearch(search: string): ButlerPrefill {
  const q = new URLSearchParams(search);
  const out: ButlerPrefill = {};
  const carId = Number(q.get('carId'));
  if (Number.isInteger(carId) && carId > 0) out.carId = carId;
  const date = q.get('date');
  if (date && DATE.test(date)) out.date = date;
  const time = q.get('time');
  if (time && TIME.test(time)) out.time = time;
  // Whole quarter hours up to the longest trip the API takes.
  const hours = Number(q.get('hours'));
  if (hours > 0 && hours <= MAX_TRIP_HOURS && Number.isInteger(hours * 4)) out.hours = hours;
  out.origin = text(q.get('from'));
  out.destination = text(q.get('to'));
  const wps = q.getAll('wp').map((w) => text(w)).filter((w): w is string => !!w).slice(0, 10);
  if (wps.length) out.waypoints = wps;
  const n = Number(q.get('passengers'));
  if (Number.isInteger(n) && n >= 1 && n <= 20) out.passengers = n;
  out.purpose = text(q.get('purpose'));
  out.memo = text(q.get('memo'));
  for (const k of Object.keys(out) as (keyof ButlerPrefill)[]) if (out[k] === undefined) delete out[k];
  return out;
}
