/**
 * Flight numbers of airport pickups (KE123, OZ1085, 7C1101, LJ 201): the airline's two-character
 * IATA code (letters, or a letter and a digit either way round, never two digits), 1–4 digits and
 * an optional suffix letter. Written as the airline prints it: upper case, no space or dash.
 */
export const FLIGHT_NUMBER_MESSAGE = '항공편명은 항공사 코드 2자리와 숫자 1~4자리로 입력해주세요. (예: KE123, OZ1085, 7C1101)';
/** Longest stored form (2 + 4 + suffix). */
export const MAX_FLIGHT_NUMBER = 7;

const FLIGHT = /^(?:[A-Z]{2}|[A-Z]\d|\d[A-Z])\d{1,4}[A-Z]?$/;

/** A flight number as typed ("ke 123", "OZ-1085") in its written form, or null when it is not one. */
export function normalizeFlightNumber(typed: string): string | null {
  const compact = typed.trim().toUpperCase().replace(/[\s-]/g, '');
  if (!FLIGHT.test(compact)) return null;
  // Leading zeros of the number are dropped as airlines print it (KE0123 → KE123).
  const m = /^(..)(\d+)([A-Z]?)$/.exec(compact)!;
  return `${m[1]}${String(Number(m[2]))}${m[3]}`;
}
