import type { Db } from '../db/client';
import type { Config } from '../env';
import type { Clock } from '../jobs/clock';
import type { JobHandler } from '../jobs/runner';
import { sandboxAllowed } from '../sandbox-mode';
import { CHARGE_MONTH_JOB, chargeMonthJob } from './subscription-billing';
import { reconcilePayment } from './charges';
import type { PaymentContext } from '../payment-context';
import { invalidBillingKey } from './errors';
import { RECONCILE_JOB } from './ledger';
import { portoneProvider } from './portone-provider';
import type { PaymentProvider } from '../payment-provider';
import { sandboxProvider } from './sandbox-provider';
import { createClock } from '../jobs/clock';
import { tracedProvider } from '../observability/tracing';

/**
 * The provider of this server, chosen once from the configuration: PortOne when configured, the
 * sandbox while it is allowed, otherwise one that refuses every card (no payments possible).
 * Charges and cancels that take longer than PAYMENT_TIMEOUT_MS count as UNKNOWN (the reconcile jobs finish them).
 */
export function createPaymentProvider(db: Db, config: Config, clock?: Clock): PaymentProvider {
  const provider = config.portone.configured ? portoneProvider(config) : sandboxAllowed(config) ? sandboxProvider(db, config, clock ?? createClock()) : unavailableProvider();
  return tracedProvider('payments', withTimeouts(provider, config.payments.timeoutMs));
}

function withTimeouts(provider: PaymentProvider, ms: number): PaymentProvider {
  /** The call's answer, or UNKNOWN when it throws or does not answer within `ms` (the reconcile jobs read the provider's record later). */
  const bounded = <T>(call: Promise<T>): Promise<T | { status: 'UNKNOWN'; detail: string }> => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<{ status: 'UNKNOWN'; detail: string }>((resolve) => {
      timer = setTimeout(() => resolve({ status: 'UNKNOWN', detail: `no answer within ${ms} ms` }), ms);
    });
    const answered = call.catch((err: unknown) => ({ status: 'UNKNOWN' as const, detail: err instanceof Error ? err.message : String(err) }));
    return Promise.race([answered, timeout]).finally(() => clearTimeout(timer));
  };
  const deleteKey = async (key: string, reason: string) => {
    const r = await bounded(provider.deleteBillingKey(key, reason));
    return r.status === 'UNKNOWN' ? { status: 'FAILED' as const, reason: r.detail } : r;
  };
  return { ...provider, charge: (req) => bounded(provider.charge(req)), cancel: (req) => bounded(provider.cancel(req)), deleteBillingKey: deleteKey };
}

function unavailableProvider(): PaymentProvider {
  const refuse = (): Promise<never> => Promise.reject(invalidBillingKey());
  return {
    name: 'sandbox',
    verifyBillingKey: refuse,
    charge: () => Promise.resolve({ status: 'FAILED', code: 'NOT_CONFIGURED', reason: '결제 수단을 사용할 수 없습니다. 고객센터로 문의해주세요.' }),
    getPayment: () => Promise.resolve(null),
    cancel: () => Promise.resolve({ status: 'FAILED', reason: '결제사가 설정되지 않았습니다.' }),
    deleteBillingKey: () => Promise.resolve({ status: 'FAILED', reason: '결제사가 설정되지 않았습니다.' }),
    verifyWebhook: refuse,
  };
}

/** The billing jobs: monthly charges and their retries, and payments whose outcome is not known yet. */
export function billingJobHandlers(ctx: PaymentContext): Record<string, JobHandler> {
  return {
    [CHARGE_MONTH_JOB]: (job) => chargeMonthJob(ctx, job),
    [RECONCILE_JOB]: (job) => reconcilePayment(ctx, job),
  };
}

/** The job kinds `POST /admin/billing/run` runs. */
export const BILLING_JOB_KINDS = [CHARGE_MONTH_JOB, RECONCILE_JOB];

