import type { BusinessStatus } from '../domain/company';

/** What the 사업자 상태 check answered: 계속 / 휴업 / 폐업, and since when for the last two. */
export interface BusinessStatusAnswer {
  status: BusinessStatus;
  /** YYYY-MM-DD of 휴업 or 폐업 when the provider says; null otherwise. */
  since: string | null;
}

/**
 * The 사업자 상태 adapter (docs/decisions/business-accounts.md): PortOne's B2B company-state call
 * or the sandbox stand-in (src/api/companies/status-providers.ts). A failure to reach it throws
 * the 503; an unknown number is null.
 */
export interface BusinessStatusProvider {
  name: 'sandbox' | 'portone';
  /** `businessNumber`: 10 digits, checksum already checked. */
  check(businessNumber: string): Promise<BusinessStatusAnswer | null>;
}
