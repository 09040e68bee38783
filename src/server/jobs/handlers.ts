import type { PaymentContext } from '../payments/context';
import { billingJobHandlers } from '../payments';
import { runDueJobs, type JobHandler, type RunReport } from './runner';

/** Every job kind this server runs, with its handler. */
export function jobHandlers(ctx: PaymentContext): Record<string, JobHandler> {
  return { ...billingJobHandlers(ctx) };
}

/**
 * Runs the due jobs of this replica (`worker` names it in the queue's leases): the loop of
 * `npm start` calls it every few seconds, `POST /admin/billing/run` on demand.
 */
export function createJobRunner(ctx: PaymentContext, worker: string, concurrency = 16): (kinds?: readonly string[]) => Promise<RunReport> {
  const handlers = jobHandlers(ctx);
  return (kinds) => runDueJobs({ db: ctx.db, clock: ctx.clock, handlers, worker, kinds, concurrency, log: (m) => ctx.log('error', `[jobs] ${m}`) });
}
