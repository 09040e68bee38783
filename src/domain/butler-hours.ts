/**
 * The butler service's base hours and the driver-only rate, apart from the booking rules so the
 * legal-model texts can state them without depending on those rules (butler.ts re-exports them).
 */

/** Hours included in the butler fee. */
export const INCLUDED_HOURS = 8;

/** Dev default of BUTLER_OWN_CAR_HOURLY_RATE (won per hour of the driver). */
export const DEFAULT_OWN_CAR_HOURLY_RATE = 45_000;
