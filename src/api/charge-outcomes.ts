import { butlerOutcomes } from './billing/butler-billing';
import { subscriptionOutcomes } from './billing/subscription-billing';
import { scheduleContract } from './orders/contracts';
import { earlyExitOutcome } from './billing/early-exit';
import { mileageOutcome } from './billing/mileage';
import { settlementOutcome } from './billing/settlement';
import { swapOutcome } from './orders/swap-apply';
import { swapCancelOutcome } from './orders/swap-cancel';
import type { ChargeOutcome, ChargeOutcomes, RefundFollowUp } from './payment-context';
import type { Config } from './env';
import { amendCardTaxInvoice, recordCardTaxInvoice } from './invoices/card-tax-invoices';

/** A subscription's first month paid: the order's own follow-up, then its contract (issue 38) in the same transaction. */
const firstMonth: ChargeOutcome = {
  async paid(tx, payment, ctx) {
    await subscriptionOutcomes.SUBSCRIPTION_FIRST.paid(tx, payment, ctx);
    await scheduleContract(tx, payment.refId, ctx.clock.now());
  },
  failed: (tx, payment, ctx) => subscriptionOutcomes.SUBSCRIPTION_FIRST.failed(tx, payment, ctx),
};

/** What follows a settled charge, for every purpose. */
const byPurpose: ChargeOutcomes = { ...subscriptionOutcomes, SUBSCRIPTION_FIRST: firstMonth, SUBSCRIPTION_EARLY_EXIT: earlyExitOutcome, SUBSCRIPTION_MILEAGE: mileageOutcome, SUBSCRIPTION_SETTLEMENT: settlementOutcome, SUBSCRIPTION_SWAP: swapOutcome, SUBSCRIPTION_SWAP_CANCEL: swapCancelOutcome, ...butlerOutcomes };

/**
 * The one table charges.ts consults: each purpose's follow-up and, for every paid charge, the tax
 * document the operator chose for a company's card payment (CARD_TAX_DOCUMENT), in the same transaction.
 */
export function chargeOutcomesFor(config: Pick<Config, 'invoices'>): ChargeOutcomes {
  const out = {} as ChargeOutcomes;
  for (const [purpose, o] of Object.entries(byPurpose) as [keyof ChargeOutcomes, ChargeOutcome][]) {
    out[purpose] = {
      async paid(tx, payment, ctx) {
        await o.paid(tx, payment, ctx);
        await recordCardTaxInvoice(tx, config.invoices.cardDocument, payment, ctx.clock.now());
      },
      failed: (tx, payment, ctx) => o.failed(tx, payment, ctx),
    };
  }
  return out;
}

/** What follows every recorded refund: a company card payment's 수정세금계산서 (when it has a 전자세금계산서). */
export const refundFollowUp: RefundFollowUp = amendCardTaxInvoice;
