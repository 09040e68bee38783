import { PortOneClient, PortOneError } from '@portone/server-sdk';
import { samePersonName } from '../../domain/company';
import type { Config } from '../env';
import { serviceUnavailable } from '../errors';
import type { BusinessCheckQuery, BusinessStatusAnswer, BusinessStatusProvider } from '../business-status-provider';

/**
 * The sandbox stand-in for the 국세청 status check and 진위확인, decided by the number's 4th and 5th
 * digits (the 구분코드 place): 99 폐업자, 98 휴업자, 97 조회되지 않음, 96 the provider unreachable
 * (503), 95 a register that holds 대표자 김대표 and 개업일자 2015-03-02 (anything else typed does not
 * match); any other number is a 계속사업자 whose register matches what was typed. Examples with a
 * valid check digit: 123-99-00006 (폐업), 123-98-00009 (휴업), 123-97-00002 (조회되지 않음),
 * 123-95-00008 (김대표, 2015-03-02).
 */
const SANDBOX_BUSINESS_CASES = { '99': 'CLOSED', '98': 'SUSPENDED', '97': 'NOT_FOUND', '96': 'UNREACHABLE', '95': 'REGISTER' } as const;

/** The register the sandbox's `95` numbers hold. */
const SANDBOX_REGISTER = { ceo: '김대표', openedOn: '2015-03-02' } as const;

function sandboxBusinessStatusProvider(): BusinessStatusProvider {
  return {
    name: 'sandbox',
    check({ businessNumber, openedOn, ceo }) {
      const kind = SANDBOX_BUSINESS_CASES[businessNumber.slice(3, 5) as keyof typeof SANDBOX_BUSINESS_CASES];
      if (kind === 'UNREACHABLE') return Promise.reject(unreachable());
      if (kind === 'NOT_FOUND') return Promise.resolve(null);
      if (kind === 'REGISTER') return Promise.resolve({ status: 'ACTIVE', since: null, matches: samePersonName(ceo, SANDBOX_REGISTER.ceo) && openedOn === SANDBOX_REGISTER.openedOn });
      return Promise.resolve(kind ? { status: kind, since: '2026-01-01', matches: true } : { status: 'ACTIVE', since: null, matches: true });
    },
  };
}

const unreachable = () => serviceUnavailable('사업자 상태 조회 서비스에 연결할 수 없습니다. 잠시 후 다시 시도해주세요.');

/** 20150302 or 2015-03-02 → 2015-03-02 (the register's 개업일 as PortOne passes it on). */
const isoDay = (d: string) => (/^\d{8}$/.test(d) ? `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6)}` : d.slice(0, 10));

/**
 * PortOne's 사업자 조회 (platform.company.getPlatformCompanyState: 계속 / 휴업 / 폐업 and the date)
 * and 사업자등록 정보조회 (platform.company.getB2bBusinessInfos: the register's 대표자명 and 개업일,
 * compared here as the 국세청 진위확인 compares them), reshaped into the product's answer.
 */
function portoneBusinessStatusProvider(config: Pick<Config, 'portone'>): BusinessStatusProvider {
  const client = PortOneClient({ secret: config.portone.apiSecret ?? '', baseUrl: config.portone.apiBaseUrl, storeId: config.portone.storeId });
  return {
    name: 'portone',
    async check({ businessNumber, openedOn, ceo }: BusinessCheckQuery): Promise<BusinessStatusAnswer | null> {
      try {
        const { companyState } = await client.platform.company.getPlatformCompanyState({ businessRegistrationNumber: businessNumber });
        const status = companyState.businessStatus === 'CLOSED' ? 'CLOSED' : companyState.businessStatus === 'SUSPENDED' ? 'SUSPENDED' : companyState.businessStatus === 'IN_BUSINESS' ? 'ACTIVE' : null;
        if (!status) throw unreachable();
        const { result } = await client.platform.company.getB2bBusinessInfos({ brnList: [businessNumber] });
        const info = result.find((r) => r.brn === businessNumber)?.businessInfo;
        const matches = Boolean(info && samePersonName(info.ceoName, ceo) && isoDay(info.openingDate) === openedOn);
        return { status, since: companyState.closedSuspendedDate ?? null, matches };
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
