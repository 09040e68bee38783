import { PortOneClient, PortOneError } from '@portone/server-sdk';
import type { Config } from '../env';
import { serviceUnavailable } from '../errors';
import type { BusinessStatusAnswer, BusinessStatusProvider } from '../business-status-provider';

/**
 * The sandbox stand-in for the 국세청 status check, decided by the number's 4th and 5th digits
 * (the 구분코드 place): 99 폐업자, 98 휴업자, 97 조회되지 않음, 96 the provider unreachable (503);
 * anything else 계속사업자. Examples with a valid check digit: 123-99-00006 (폐업), 123-98-00009 (휴업), 123-97-00002 (조회되지 않음).
 */
const SANDBOX_BUSINESS_CASES = { '99': 'CLOSED', '98': 'SUSPENDED', '97': 'NOT_FOUND', '96': 'UNREACHABLE' } as const;

function sandboxBusinessStatusProvider(): BusinessStatusProvider {
  return {
    name: 'sandbox',
    check(businessNumber) {
      const kind = SANDBOX_BUSINESS_CASES[businessNumber.slice(3, 5) as keyof typeof SANDBOX_BUSINESS_CASES];
      if (kind === 'UNREACHABLE') return Promise.reject(unreachable());
      if (kind === 'NOT_FOUND') return Promise.resolve(null);
      return Promise.resolve(kind ? { status: kind, since: '2026-01-01' } : { status: 'ACTIVE', since: null });
    },
  };
}

const unreachable = () => serviceUnavailable('사업자 상태 조회 서비스에 연결할 수 없습니다. 잠시 후 다시 시도해주세요.');

/** PortOne's 사업자 조회 (platform.company.getPlatformCompanyState), reshaped into the product's answer. */
function portoneBusinessStatusProvider(config: Pick<Config, 'portone'>): BusinessStatusProvider {
  const client = PortOneClient({ secret: config.portone.apiSecret ?? '', baseUrl: config.portone.apiBaseUrl, storeId: config.portone.storeId });
  return {
    name: 'portone',
    async check(businessNumber): Promise<BusinessStatusAnswer | null> {
      try {
        const { companyState } = await client.platform.company.getPlatformCompanyState({ businessRegistrationNumber: businessNumber });
        const status = companyState.businessStatus === 'CLOSED' ? 'CLOSED' : companyState.businessStatus === 'SUSPENDED' ? 'SUSPENDED' : companyState.businessStatus === 'IN_BUSINESS' ? 'ACTIVE' : null;
        if (!status) throw unreachable();
        return { status, since: companyState.closedSuspendedDate ?? null };
      } catch (err) {
        if (err instanceof PortOneError && (err as { data?: { type?: string } }).data?.type === 'PLATFORM_COMPANY_NOT_FOUND') return null;
        throw unreachable();
      }
    },
  };
}

/** PortOne when it is configured (production needs it: src/api/env.ts refuses the sandbox there), else the sandbox. */
export function createBusinessStatusProvider(config: Pick<Config, 'portone'>): BusinessStatusProvider {
  return config.portone.configured ? portoneBusinessStatusProvider(config) : sandboxBusinessStatusProvider();
}
