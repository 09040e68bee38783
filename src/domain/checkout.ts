import { INCLUDED_HOURS } from './butler';
import { HOUR_MS } from './dates';

/** Billing offer period per month of a subscription term, in days (spec: term × 30 days). */
const OFFER_DAYS_PER_MONTH = 30;

/** How long a registered card is offered for: a length in days, or a window of ISO instants. */
export type OfferPeriod = { days: number } | { from: string; to: string };

/** A subscription's offer period: term × 30 days. */
export function termOfferPeriod(months: number): OfferPeriod {
  return { days: Math.max(1, months) * OFFER_DAYS_PER_MONTH };
}

/** A butler booking's offer period: from now to the included 8 hours later. */
export function butlerOfferPeriod(now: Date): OfferPeriod {
  return { from: now.toISOString(), to: new Date(now.getTime() + INCLUDED_HOURS * HOUR_MS).toISOString() };
}
