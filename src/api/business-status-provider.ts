import type { BusinessStatus } from '../domain/company';

/** What the 사업자 check answered: 계속 / 휴업 / 폐업 (and since when for the last two), and whether the 진위확인 matched. */
export interface BusinessStatusAnswer {
  status: BusinessStatus;
  /** YYYY-MM-DD of 휴업 or 폐업 when the provider says; null otherwise. */
  since: string | null;
  /**
   * The 국세청 사업자등록 진위확인: whether the number's register holds this 개업일자 and this
   * 대표자성명 (valid 01 of the NTS validate call; 02 is false).
   */
  matches: boolean;
}

/** What the 진위확인 is asked: the number, the 개업일자 and the 대표자성명 as the customer typed them. */
export interface BusinessCheckQuery {
  /** 10 digits, checksum already checked. */
  businessNumber: string;
  /** YYYY-MM-DD. */
  openedOn: string;
  ceo: string;
}

/**
 * The 사업자 adapter (docs/decisions/business-accounts.md): PortOne's B2B calls or the sandbox
 * stand-in (src/api/companies/status-providers.ts). A failure to reach it throws the 503; an
 * unknown number is null.
 */
export interface BusinessStatusProvider {
  name: 'sandbox' | 'portone';
  check(query: BusinessCheckQuery): Promise<BusinessStatusAnswer | null>;
}
