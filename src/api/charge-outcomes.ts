import { butlerOutcomes } from './billing/butler-billing';
import { subscriptionOutcomes } from './billing/subscription-billing';
import { scheduleContract } from './orders/contracts';
import { earlyExitOutcome } from './billing/early-exit';
import { mileageOutcome } from './billing/mileage';
import { settlementOutcome } from './billing/settlement';
import { swapOutcome } from './orders/swap-apply';
import { swapCancelOutcome } from './orders/swap-cancel';
import type { ChargeOutcome, ChargeOutcomes } from './payment-context';

/** A subscription's first month paid: the order's own follow-up, then its contract (issue 38) in the same transaction. */
const firstMonth: ChargeOutcome = {
  async paid(tx, payment, ctx) {
    await subscriptionOutcomes.SUBSCRIPTION_FIRST.paid(tx, payment, ctx);
    await scheduleContract(tx, payment.refId, ctx.clock.now());
  },
  failed: (tx, payment, ctx) => subscriptionOutcomes.SUBSCRIPTION_FIRST.failed(tx, payment, ctx),
};

/** What follows a settled charge, for every purpose: the one table charges.ts consults. */
export const chargeOutcomes: ChargeOutcomes = { ...subscriptionOutcomes, SUBSCRIPTION_FIRST: firstMonth, SUBSCRIPTION_EARLY_EXIT: earlyExitOutcome, SUBSCRIPTION_MILEAGE: mileageOutcome, SUBSCRIPTION_SETTLEMENT: settlementOutcome, SUBSCRIPTION_SWAP: swapOutcome, SUBSCRIPTION_SWAP_CANCEL: swapCancelOutcome, ...butlerOutcomes };
