import { MAX_WAYPOINTS, type DriverPreference } from '../../domain/butler';
import { prefillFromSearch, prefillToSearch } from '../../domain/butler-prefill';
import { session } from '../checkout/checkoutStorage';
import { clampPassengerInput, initialForm, overlayPrefill, type ReservationForm, type WaypointRow } from './reservation-form';

/**
 * The reservation form's saved draft: everything typed on /butler/request, kept in session
 * storage (this tab, spec 3 §3) under FORM_DRAFT_KEY from the first change until the booking
 * succeeds or the user presses 입력 초기화. It survives a reload, the login round trip and the
 * card provider's redirect. The card step's own draft (butlerReservationDraft: the payload
 * and form sent on the provider's return) is separate and unchanged.
 */
const FORM_DRAFT_KEY = 'butlerReservationForm';

export interface SavedForm {
  v: 1;
  /**
   * The prefill query the form was opened with (normalised by prefillToSearch), '' for none.
   * Opening the page with the same query again (a reload) restores the draft; another query
   * (a new link from the chat or the fleet) starts from that prefill instead.
   */
  source: string;
  form: ReservationForm;
}

const DRIVERS: readonly DriverPreference[] = ['any', 'male', 'female', ''];
const WALL = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/;
const MAX_TEXT = 1000;

const str = (v: unknown, max = MAX_TEXT) => (typeof v === 'string' ? v.slice(0, max) : '');
const wall = (v: unknown) => (typeof v === 'string' && WALL.test(v) ? v : '');
const id = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : null);

/** A stored form read defensively: unknown or malformed values fall back to blanks; null when it is not a form at all. */
export function sanitizeForm(x: unknown): ReservationForm | null {
  if (!x || typeof x !== 'object' || Array.isArray(x)) return null;
  const f = x as Record<string, unknown>;
  const rows = Array.isArray(f.waypoints) ? f.waypoints.slice(0, MAX_WAYPOINTS) : [];
  const waypoints: WaypointRow[] = rows
    .filter((r): r is Record<string, unknown> => !!r && typeof r === 'object')
    .map((r, i) => ({ key: id(r.key) ?? i + 1, address: str(r.address, 200), time: wall(r.time) }));
  // Keys must stay unique for React rows.
  if (new Set(waypoints.map((w) => w.key)).size !== waypoints.length) waypoints.forEach((w, i) => (w.key = i + 1));
  const passengers = clampPassengerInput(str(f.passengers, 10), true).value;
  return {
    carId: id(f.carId),
    start: wall(f.start),
    end: wall(f.end),
    startLocation: str(f.startLocation, 200),
    endLocation: str(f.endLocation, 200),
    waypoints,
    passengers,
    purpose: str(f.purpose, 100),
    driver: DRIVERS.includes(f.driver as DriverPreference) ? (f.driver as DriverPreference) : 'any',
    memo: str(f.memo),
    flightNumber: str(f.flightNumber, 20),
    couponId: id(f.couponId),
    points: str(f.points, 10).replace(/\D/g, ''),
  };
}

/** A saved draft from its stored JSON; null when missing, unreadable or of another version. */
export function parseSavedForm(raw: string | null | undefined): SavedForm | null {
  if (!raw) return null;
  try {
    const x = JSON.parse(raw) as Partial<SavedForm> | null;
    if (!x || x.v !== 1) return null;
    const form = sanitizeForm(x.form);
    return form ? { v: 1, source: typeof x.source === 'string' ? x.source : '', form } : null;
  } catch {
    return null;
  }
}

/** The prefill of a query string in one canonical spelling ('' when it carries none). */
export function prefillSource(search: string): string {
  return prefillToSearch(prefillFromSearch(search));
}

export interface Opening {
  form: ReservationForm;
  /** The prefill query the form stands for (kept with the draft). */
  source: string;
  /** Whether the form is one the user typed before (a draft), rather than a fresh or prefilled one. */
  restored: boolean;
}

/**
 * The form the page opens with, first match wins:
 * 1. back from the card provider with the card step's form → that form;
 * 2. a saved draft and no prefill query, or the very query the draft was made from (a reload) → the draft;
 * 3. a saved draft and another prefill query (a new link from the chat or the fleet) → the
 *    draft with the prefill's fields laid over it (the prefill wins where it says something);
 * 4. the prefill, or the defaults (tomorrow 09:00).
 */
export function openingForm(args: { search: string; today: string; cardForm: unknown; saved: SavedForm | null }): Opening {
  const source = prefillSource(args.search);
  const card = args.cardForm ? sanitizeForm(args.cardForm) : null;
  if (card) return { form: card, source: args.saved?.source ?? source, restored: true };
  const { saved } = args;
  if (saved && (!source || saved.source === source)) return { form: saved.form, source: saved.source, restored: true };
  if (saved) return { form: overlayPrefill(saved.form, prefillFromSearch(args.search), args.today), source, restored: true };
  return { form: initialForm(prefillFromSearch(args.search), args.today), source, restored: false };
}

export function loadSavedForm(): SavedForm | null {
  try {
    return parseSavedForm(session()?.getItem(FORM_DRAFT_KEY));
  } catch {
    return null;
  }
}

export function saveForm(form: ReservationForm, source: string): void {
  try {
    session()?.setItem(FORM_DRAFT_KEY, JSON.stringify({ v: 1, source, form } satisfies SavedForm));
  } catch {
    /* storage full or blocked: the form still works, it just is not kept */
  }
}

export function clearSavedForm(): void {
  try {
    session()?.removeItem(FORM_DRAFT_KEY);
  } catch {
    /* blocked storage */
  }
}
