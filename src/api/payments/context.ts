import type { PaymentPurpose } from '../../domain/payments';
import type { Db } from '../db/client';
import type { Clock } from '../jobs/clock';
import type { PaymentRow } from './ledger';
import type { PaymentProvider } from './provider';

/** What moving money needs from the app (a slice of Deps, so jobs and routes pass the same thing). */
export interface PaymentContext {
  db: Db;
  payments: PaymentProvider;
  clock: Clock;
  log: (level: 'info' | 'error', message: string, extra?: unknown) => void;
}

/**
 * What happens after a charge's outcome is known, per purpose, inside the transaction that
 * records it (so the follow-up happens exactly when the status changes, once): outcomes.ts.
 */
export interface ChargeOutcome {
  paid(tx: Db, payment: PaymentRow, ctx: PaymentContext): Promise<void>;
  failed(tx: Db, payment: PaymentRow, ctx: PaymentContext): Promise<void>;
}
export type ChargeOutcomes = Record<PaymentPurpose, ChargeOutcome>;
