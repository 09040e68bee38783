import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { ErrorCode } from '../../domain/error-codes';
import type { Config } from '../env';
import { ApiError, unprocessable } from '../errors';
import { sandboxAllowed } from '../sandbox-mode';

/** Prefix of billing keys issued by the sandbox provider. */
export const SANDBOX_KEY_PREFIX = 'sandbox-bk-';

export type BillingProvider = 'portone' | 'sandbox';

function sign(secret: string, nonce: string): string {
  return createHmac('sha256', `sandbox-billing:${secret}`).update(nonce).digest('base64url').slice(0, 24);
}

/** A new sandbox billing key, signed so the server can verify it without storing it. */
export function issueSandboxBillingKey(config: Config): string {
  const nonce = randomBytes(12).toString('base64url');
  return `${SANDBOX_KEY_PREFIX}${nonce}.${sign(config.jwtSecret, nonce)}`;
}

/** Whether a key was issued by this server's sandbox. */
export function isValidSandboxKey(config: Config, key: string): boolean {
  if (!key.startsWith(SANDBOX_KEY_PREFIX)) return false;
  const [nonce, sig] = key.slice(SANDBOX_KEY_PREFIX.length).split('.');
  if (!nonce || !sig) return false;
  const a = Buffer.from(sig);
  const b = Buffer.from(sign(config.jwtSecret, nonce));
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The sandbox stands in for PortOne only when enabled (SANDBOX or a loopback HOST), PortOne unconfigured, never in production. */
export { sandboxAllowed };

const invalidKey = () => unprocessable('유효하지 않은 결제 수단(빌링키)입니다. 카드를 다시 등록해주세요.', { billing_key: ['유효하지 않은 빌링키입니다.'] });

/**
 * Verifies a billing key before anything is spent: with PortOne configured,
 * GET /billing-keys/{key} must answer status ISSUED; otherwise it must be a sandbox key.
 */
export async function verifyBillingKey(config: Config, key: string, fetchImpl: typeof fetch = fetch): Promise<BillingProvider> {
  if (!config.portone.configured) {
    if (!sandboxAllowed(config) || !isValidSandboxKey(config, key)) throw invalidKey();
    return 'sandbox';
  }
  if (key.startsWith(SANDBOX_KEY_PREFIX)) throw invalidKey();
  let res: Response;
  try {
    res = await fetchImpl(`${config.portone.apiBaseUrl.replace(/\/$/, '')}/billing-keys/${encodeURIComponent(key)}`, {
      headers: { authorization: `PortOne ${config.portone.apiSecret}` },
      signal: AbortSignal.timeout(10_000),
    });
  } catch {
    throw new ApiError(502, ErrorCode.PAYMENT, '결제사와 통신하지 못했습니다. 잠시 후 다시 시도해주세요.');
  }
  if (res.status === 404) throw invalidKey();
  if (!res.ok) throw new ApiError(502, ErrorCode.PAYMENT, '결제 수단을 확인하지 못했습니다. 잠시 후 다시 시도해주세요.');
  const body = (await res.json().catch(() => null)) as { status?: string } | null;
  if (body?.status !== 'ISSUED') throw invalidKey();
  return 'portone';
}

/** A billing key for display: its first 6 and last 4 characters. */
export function maskBillingKey(key: string): string {
  return key.length <= 10 ? '*'.repeat(key.length) : `${key.slice(0, 6)}${'*'.repeat(6)}${key.slice(-4)}`;
}
