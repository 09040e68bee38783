import { createHash } from 'node:crypto';
import { z } from 'zod';
import { koreaDate } from '../../domain/dates';
import type { LicenceStatus, LicenceVerdict } from '../../domain/licence';
import type { Config } from '../env';
import { serviceUnavailable } from '../errors';
import type { LicenceProvider, LicenceQuestion } from '../licence-provider';
import { tracedProvider } from '../observability/tracing';

/**
 * The sandbox stand-in for the 운전자격확인시스템, decided by the number's last two (check) digits:
 * 90 갱신 기간 만료, 91 효력 정지, 92 취소, 93 조회되지 않음, 94 본인 정보 불일치; 95 valid until the day
 * its six serial digits spell (YYMMDD), expired after; anything else valid to the end of the tenth year after the check (a test clock far ahead still finds it valid). The
 * year digits are the 최초 취득 year (issued on 1 March of it), so a number of this year is a new driver.
 */
const SANDBOX_LICENCE_CASES: Record<string, LicenceStatus> = {
  '90': 'EXPIRED',
  '91': 'SUSPENDED',
  '92': 'REVOKED',
  '93': 'NOT_FOUND',
  '94': 'MISMATCH',
};

function sandboxLicenceProvider(): LicenceProvider {
  return {
    name: 'sandbox',
    verify(q: LicenceQuestion, now: Date): Promise<LicenceVerdict> {
      return Promise.resolve(sandboxVerdict(q, now));
    },
  };
}

function sandboxVerdict(q: LicenceQuestion, now: Date): LicenceVerdict {
  const reference = `sandbox-${createHash('sha256').update(`${q.number}|${now.toISOString()}`).digest('hex').slice(0, 16)}`;
  const check = q.number.slice(10);
  const fixed = SANDBOX_LICENCE_CASES[check];
  if (fixed)
    return {
      status: fixed,
      first_issued_on: null,
      expires_on: fixed === 'EXPIRED' ? koreaDate(now.getTime() - 86_400_000) : null,
      reference,
    };
  const yy = Number(q.number.slice(2, 4));
  const firstIssued = `${yy > 50 ? 1900 + yy : 2000 + yy}-03-01`;
  const serial = q.number.slice(4, 10);
  const expires = check === '95' ? `20${serial.slice(0, 2)}-${serial.slice(2, 4)}-${serial.slice(4, 6)}` : `${Number(koreaDate(now).slice(0, 4)) + 10}-12-31`;
  return {
    status: expires < koreaDate(now) ? 'EXPIRED' : 'VALID',
    first_issued_on: firstIssued,
    expires_on: expires,
    reference,
  };
}

const RelayAnswer = z.object({
  status: z.enum(['VALID', 'EXPIRED', 'SUSPENDED', 'REVOKED', 'NOT_FOUND', 'MISMATCH']),
  first_issued_on: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .nullable()
    .default(null),
  expires_on: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .nullable()
    .default(null),
  reference: z.string().min(1).max(80),
});

/**
 * The relay to the 도로교통공단 system: the interface is given to registered rental companies under
 * contract, so the operator runs a relay that answers this JSON (docs/decisions/legal.md §1).
 */
function httpLicenceProvider(url: string, apiKey: string, timeoutMs = 5_000): LicenceProvider {
  return {
    name: 'http',
    async verify(q: LicenceQuestion): Promise<LicenceVerdict> {
      let body: unknown;
      try {
        const res = await fetch(url, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${apiKey}`,
            'content-type': 'application/json',
          },
          body: JSON.stringify({
            licence_number: q.number,
            licence_type: q.type,
            name: q.name,
            birth_date: q.birthDate,
          }),
          signal: AbortSignal.timeout(timeoutMs),
        });
        if (!res.ok) throw new Error(`licence relay answered ${res.status}`);
        body = await res.json();
      } catch {
        throw serviceUnavailable('운전면허 확인 서비스에 연결할 수 없습니다. 잠시 후 다시 시도해주세요.');
      }
      const parsed = RelayAnswer.safeParse(body);
      if (!parsed.success) throw serviceUnavailable('운전면허 확인 서비스의 응답을 읽을 수 없습니다. 잠시 후 다시 시도해주세요.');
      return parsed.data;
    },
  };
}

export function createLicenceProvider(config: Pick<Config, 'licence'>): LicenceProvider {
  const { provider, apiUrl, apiKey } = config.licence;
  return tracedProvider('licences', provider === 'http' && apiUrl && apiKey ? httpLicenceProvider(apiUrl, apiKey) : sandboxLicenceProvider());
}
