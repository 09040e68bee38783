import { butlerOutcomes } from './billing/butler-billing';
import { subscriptionOutcomes } from './billing/subscription-billing';
import { earlyExitOutcome } from './billing/early-exit';
import type { ChargeOutcomes } from './payment-context';

/** What follows a settled charge, for every purpose: the one table charges.ts consults. */
export const chargeOutcomes: ChargeOutcomes = { ...subscriptionOutcomes, SUBSCRIPTION_EARLY_EXIT: earlyExitOutcome, ...butlerOutcomes };
