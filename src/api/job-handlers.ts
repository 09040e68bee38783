import { randomBytes } from 'node:crypto';
import type { Config } from './env';
import { createChannels, type NotificationChannels } from './notifications/channels';
import { notificationJobHandlers } from './notifications/outbox';
import type { ProviderContext } from './payment-context';
import { chargeOutcomesFor, refundFollowUp } from './charge-outcomes';
import { billingJobHandlers } from './billing/providers';
import { POSITION_PURGE_JOB, purgePositions } from './dispatch/driver-day';
import { swapPairCallOffJobHandler } from './dispatch/swap-pair-call-off-job';
import { LOCATION_DAILY_JOB, locationDaily } from './dispatch/location';
import { CONTRACT_JOB, contractJobHandler } from './orders/contracts';
import { MARKETING_REMINDER_JOB, marketingReminder } from './notifications/marketing-consent';
import { ANNEX_JOB, annexJobHandler } from './orders/extension';
import { SWAP_ANNEX_JOB, swapAnnexJobHandler } from './orders/swap-annexes';
import { SWAP_PAIR_CALL_OFF_JOB } from './orders/swap-cancel';
import type { Logger } from './observability/logger';
import type { TaxInvoiceProvider } from './tax-invoice-provider';
import { createTaxInvoiceProvider } from './invoices/providers';
import { STATEMENT_JOB, statementsJob } from './invoices/statements';
import { issueTaxInvoiceJob, TAX_INVOICE_JOB } from './invoices/tax-invoices';
import { createWorkerState, runDueJobs, type JobHandler, type RunReport } from './jobs/runner';

/** What the jobs of a replica need: money, the configuration, and the notification channels (made from the configuration when absent). */
export interface JobContext extends ProviderContext {
  config: Config;
  channels?: NotificationChannels;
  /** One line per finished job when given (the API's logger). */
  logger?: Logger;
  /** The 전자세금계산서 provider (made from the configuration when absent). */
  taxInvoices?: TaxInvoiceProvider;
}

/** Every job kind this server runs, with its handler. */
export function jobHandlers(ctx: JobContext): Record<string, JobHandler> {
  const channels = ctx.channels ?? createChannels(ctx.config, ctx.log);
  const taxInvoices = ctx.taxInvoices ?? createTaxInvoiceProvider(ctx.db, ctx.config, ctx.clock);
  return {
    ...billingJobHandlers({ ...ctx, outcomes: chargeOutcomesFor(ctx.config), refunded: refundFollowUp }),
    ...notificationJobHandlers({ ...ctx, channels }),
    // The driver's last shared position, deleted a set time after the trip ends (docs/decisions/driver-day.md).
    [POSITION_PURGE_JOB]: (job) => purgePositions(ctx.db, Number((job.payload as { butlerRequestId?: number }).butlerRequestId) || null, ctx.clock.now()),
    // 위치정보 확인자료: purged 6 months after the last read, and the drivers' 30-day notice of reads (docs/decisions/legal.md §5).
    [LOCATION_DAILY_JOB]: () => locationDaily(ctx.db, ctx.clock.now()),
    // The marketing consent's reminder every 2 years from it (정보통신망법 제50조⑧, docs/decisions/legal.md §6).
    [MARKETING_REMINDER_JOB]: (job) => marketingReminder(ctx.db, job, ctx.clock.now()),
    // The contract PDF of a paid order, issued once (docs/decisions/contract.md).
    [CONTRACT_JOB]: (job) => contractJobHandler(ctx, job),
    // The 부속 계약서 of a 구독 연장, issued once per extension (docs/decisions/extension.md).
    [ANNEX_JOB]: (job) => annexJobHandler(ctx, job),
    // The 부속 계약서 of a 차량 교체, issued once per confirmed swap (docs/decisions/swap.md).
    [SWAP_ANNEX_JOB]: (job) => swapAnnexJobHandler(ctx, job),
    // A cancelled swap's return and delivery pair, called off once (docs/decisions/swap.md).
    [SWAP_PAIR_CALL_OFF_JOB]: (job) => swapPairCallOffJobHandler(ctx.db, job, ctx.clock.now()),
    // 후불 companies' monthly statements, and each statement's 전자세금계산서 (docs/decisions/business-invoices.md).
    [STATEMENT_JOB]: (job) => statementsJob(ctx.db, { dueDay: ctx.config.invoices.dueDay }, job, ctx.clock.now()),
    [TAX_INVOICE_JOB]: (job) => issueTaxInvoiceJob({ db: ctx.db, config: ctx.config, clock: ctx.clock, taxInvoices }, job),
  };
}

/**
 * Runs the due jobs of this replica (`worker` names it in the queue's leases, with a suffix no
 * other process shares): the loop of `npm start` calls it every few seconds, `POST
 * /admin/billing/run` on demand. One worker memory for every call, so a run after a database
 * fault first settles what the faulted run claimed (src/api/jobs/runner.ts).
 */
export function createJobRunner(ctx: JobContext, worker: string, concurrency = 16): (kinds?: readonly string[]) => Promise<RunReport> {
  const handlers = jobHandlers(ctx);
  const state = createWorkerState();
  const name = `${worker}#${randomBytes(3).toString('hex')}`;
  return (kinds) =>
    runDueJobs({
      db: ctx.db, clock: ctx.clock, handlers, worker: name, kinds, concurrency, state,
      log: (m) => ctx.log('error', `[jobs] ${m}`),
      logRun: ctx.logger && ((fields) => ctx.logger?.info(fields, 'job')),
    });
}
