import type { Db } from '../db/client';
import type { Config } from '../env';
import type { JobHandler } from '../jobs/runner';
import { sandboxAllowed } from '../sandbox-mode';
import { CHARGE_MONTH_JOB, chargeMonthJob } from '../services/subscription-billing';
import { reconcilePayment } from './charges';
import type { PaymentContext } from './context';
import { invalidBillingKey } from './errors';
import { RECONCILE_JOB } from './ledger';
import { chargeOutcomes } from './outcomes';
import { portoneProvider } from './portone-provider';
import type { ChargeResult, PaymentProvider } from './provider';
import { sandboxProvider } from './sandbox-provider';

/**
 * The provider of this server, chosen once from the configuration: PortOne when configured, the
 * sandbox while it is allowed, otherwise one that refuses every card (no payments possible).
 * Charges that take longer than PAYMENT_TIMEOUT_MS count as UNKNOWN (the reconcile job finishes them).
 */
export function createPaymentProvider(db: Db, config: Config): PaymentProvider {
  const provider = config.portone.configured ? portoneProvider(config) : sandboxAllowed(config) ? sandboxProvider(db, config) : unavailableProvider();
  return withChargeTimeout(provider, config.payments.timeoutMs);
}

function withChargeTimeout(provider: PaymentProvider, ms: number): PaymentProvider {
  return {
    ...provider,
    charge: (req) => {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<ChargeResult>((resolve) => {
        timer = setTimeout(() => resolve({ status: 'UNKNOWN', detail: `no answer within ${ms} ms` }), ms);
      });
      const call = provider.charge(req).catch((err: unknown): ChargeResult => ({ status: 'UNKNOWN', detail: err instanceof Error ? err.message : String(err) }));
      return Promise.race([call, timeout]).finally(() => clearTimeout(timer));
    },
  };
}

function unavailableProvider(): PaymentProvider {
  const refuse = (): Promise<never> => Promise.reject(invalidBillingKey());
  return {
    name: 'sandbox',
    verifyBillingKey: refuse,
    charge: () => Promise.resolve({ status: 'FAILED', code: 'NOT_CONFIGURED', reason: '결제 수단을 사용할 수 없습니다. 고객센터로 문의해주세요.' }),
    getPayment: () => Promise.resolve(null),
    cancel: () => Promise.resolve({ status: 'FAILED', reason: '결제사가 설정되지 않았습니다.' }),
    verifyWebhook: refuse,
  };
}

/** The billing jobs: monthly charges and their retries, and payments whose outcome is not known yet. */
export function billingJobHandlers(ctx: PaymentContext): Record<string, JobHandler> {
  return {
    [CHARGE_MONTH_JOB]: (job) => chargeMonthJob(ctx, chargeOutcomes, job),
    [RECONCILE_JOB]: (job) => reconcilePayment(ctx, chargeOutcomes, job),
  };
}

/** The job kinds `POST /admin/billing/run` runs. */
export const BILLING_JOB_KINDS = [CHARGE_MONTH_JOB, RECONCILE_JOB];

export { chargeOutcomes };
