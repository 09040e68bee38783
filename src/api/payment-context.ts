import type { PaymentPurpose } from '../domain/payments';
import type { Db } from './db/client';
import type { payments } from './db/schema';
import type { Clock } from './jobs/clock';
import type { PaymentProvider } from './payment-provider';

/** A row of the payment ledger (billing/ledger.ts). */
export type PaymentRow = typeof payments.$inferSelect;

/** What asking the provider needs from the app (refunds, reconciliation of cancels). */
export interface ProviderContext {
  db: Db;
  payments: PaymentProvider;
  clock: Clock;
  log: (level: 'info' | 'error', message: string, extra?: unknown) => void;
}

/**
 * What moving money needs from the app (a slice of Deps, so jobs and routes pass the same thing):
 * the provider, and what follows a settled charge of each purpose. Billing declares the
 * follow-ups it needs (ChargeOutcomes); the composition root (charge-outcomes.ts) fills the table,
 * so billing never imports the orders whose charges it settles.
 */
export interface PaymentContext extends ProviderContext {
  outcomes: ChargeOutcomes;
  /** What follows a recorded refund, inside its transaction, once per refund row (a card payment's 수정세금계산서). */
  refunded: RefundFollowUp;
}

/** A refund recorded on `payment` (the row after it): the composition root's follow-up (charge-outcomes.ts). */
export type RefundFollowUp = (tx: Db, payment: PaymentRow, refund: { id: number; amount: number; reason: string }, now: Date) => Promise<void>;

/**
 * What happens after a charge's outcome is known, per purpose, inside the transaction that
 * records it (so the follow-up happens exactly when the status changes, once).
 */
export interface ChargeOutcome {
  paid(tx: Db, payment: PaymentRow, ctx: PaymentContext): Promise<void>;
  failed(tx: Db, payment: PaymentRow, ctx: PaymentContext): Promise<void>;
}
export type ChargeOutcomes = Record<PaymentPurpose, ChargeOutcome>;
