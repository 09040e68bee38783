import type { Db } from '../db/client';
import type { Config } from '../env';
import type { Clock } from '../jobs/clock';
import type { TaxInvoiceProvider } from '../tax-invoice-provider';
import { portoneTaxInvoiceProvider } from './portone-tax-invoices';
import { sandboxTaxInvoiceProvider } from './sandbox-tax-invoices';

/** How long an issue may take before its outcome counts as unknown (the job asks again under the same key). */
const ISSUE_TIMEOUT_MS = 20_000;

/** Whether the tax-invoice sandbox may run: chosen (TAX_INVOICE_PROVIDER=sandbox), the sandbox on, never in production. */
export const taxSandboxAllowed = (config: Config) => config.invoices.taxProvider === 'sandbox' && config.sandbox && config.env !== 'production';

/**
 * The tax-invoice provider of this server, from the configuration: PortOne B2B, the sandbox, or —
 * in production without PortOne B2B — one that refuses every issue with a reason staff read.
 */
export function createTaxInvoiceProvider(db: Db, config: Config, clock: Clock): TaxInvoiceProvider {
  const provider = config.invoices.taxProvider === 'portone' ? portoneTaxInvoiceProvider(config) : taxSandboxAllowed(config) ? sandboxTaxInvoiceProvider(db, config, clock) : unavailable();
  return {
    ...provider,
    issue: (doc) => {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<{ status: 'UNKNOWN'; detail: string }>((resolve) => {
        timer = setTimeout(() => resolve({ status: 'UNKNOWN', detail: `no answer within ${ISSUE_TIMEOUT_MS} ms` }), ISSUE_TIMEOUT_MS);
      });
      const answered = provider.issue(doc).catch((err: unknown) => ({ status: 'UNKNOWN' as const, detail: err instanceof Error ? err.message : String(err) }));
      return Promise.race([answered, timeout]).finally(() => clearTimeout(timer));
    },
  };
}

function unavailable(): TaxInvoiceProvider {
  const reason = '전자세금계산서 발행 수단이 설정되지 않았습니다 (TAX_INVOICE_PROVIDER=portone과 PortOne B2B 계약이 필요합니다).';
  return {
    name: 'unavailable',
    issue: () => Promise.resolve({ status: 'FAILED', code: 'NOT_CONFIGURED', reason }),
    resend: () => Promise.resolve({ status: 'FAILED', reason }),
  };
}
