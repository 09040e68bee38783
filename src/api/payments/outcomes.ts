import { butlerOutcomes } from '../services/butler-billing';
import { subscriptionOutcomes } from '../services/subscription-billing';
import type { ChargeOutcomes } from './context';

/** What follows a settled charge, for every purpose: the one table charges.ts consults. */
export const chargeOutcomes: ChargeOutcomes = { ...subscriptionOutcomes, ...butlerOutcomes };
