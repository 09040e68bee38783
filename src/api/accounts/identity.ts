import { createHash } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import { normalizePhone } from '../../domain/accounts';
import { ErrorCode } from '../../domain/error-codes';
import type { Db } from '../db/client';
import { identityVerifications } from '../db/schema';
import type { Config } from '../env';
import { ApiError, conflict, unprocessable } from '../errors';
import { sandboxAllowed } from '../sandbox-mode';
import { rowTime, wallMs } from '../jobs/clock';

export type IdentityRow = typeof identityVerifications.$inferSelect;

/** A verification may be used for signup or recovery within this many minutes. */
const IDENTITY_MAX_AGE_MINUTES = 60;

/** The sandbox stands in for PortOne only when enabled (SANDBOX or a loopback HOST), PortOne unconfigured, never in production. */
export { sandboxAllowed };

/** A deterministic stand-in CI for the sandbox: the same person always gets the same CI. */
function sandboxCi(name: string, phone: string, birthDate: string): string {
  const key = `sandbox|${name.normalize('NFC').replace(/\s+/g, '')}|${normalizePhone(phone)}|${birthDate}`;
  return createHash('sha256').update(key).digest('base64');
}

/** Records a person verified on the sandbox page; an id can be verified once. */
export async function recordSandboxVerification(db: Db, v: { verificationId: string; name: string; phone: string; birthDate: string }): Promise<IdentityRow> {
  const phone = normalizePhone(v.phone);
  const rows = await db
    .insert(identityVerifications)
    .values({ verificationId: v.verificationId, provider: 'sandbox', status: 'VERIFIED', name: v.name.trim(), phone, birthDate: v.birthDate, ci: sandboxCi(v.name, phone, v.birthDate) })
    .onConflictDoNothing()
    .returning();
  if (!rows.length) throw conflict('이미 사용된 본인인증 번호입니다. 처음부터 다시 인증해주세요.');
  return rows[0];
}

interface PortOneIdentity {
  status?: string;
  verifiedAt?: string;
  verifiedCustomer?: { name?: string; phoneNumber?: string; birthDate?: string; ci?: string };
}

/** Reads a verification from PortOne's REST API with the server's secret. */
async function fetchPortOne(config: Config, verificationId: string): Promise<PortOneIdentity> {
  let res: Response;
  try {
    res = await fetch(`${config.portone.apiBaseUrl}/identity-verifications/${encodeURIComponent(verificationId)}`, {
      headers: { authorization: `PortOne ${config.portone.apiSecret}`, accept: 'application/json' },
      signal: AbortSignal.timeout(10_000),
    });
  } catch {
    throw new ApiError(502, ErrorCode.INTERNAL, '본인인증 확인 중 오류가 발생했습니다. 잠시 후 다시 시도해주세요.');
  }
  if (res.status === 404) throw unprocessable('본인인증 정보를 찾을 수 없습니다. 다시 인증해주세요.', { identity_code: ['본인인증 정보를 찾을 수 없습니다.'] });
  if (!res.ok) throw new ApiError(502, ErrorCode.INTERNAL, '본인인증 확인 중 오류가 발생했습니다. 잠시 후 다시 시도해주세요.');
  return (await res.json().catch(() => ({}))) as PortOneIdentity;
}

const tooOld = () => unprocessable('본인인증 유효시간이 지났습니다. 다시 인증해주세요.', { identity_code: ['본인인증 유효시간이 지났습니다.'] });
const notVerified = () => unprocessable('본인인증이 완료되지 않았습니다. 다시 인증해주세요.', { identity_code: ['본인인증이 완료되지 않았습니다.'] });

/**
 * The verified person behind an identityVerificationId: PortOne's answer (verified server
 * side, then recorded) when configured, else the sandbox record. Throws 422 when it is not
 * a usable verification: unknown, failed, too old, or from the wrong provider.
 */
export async function resolveIdentity(db: Db, config: Config, verificationId: string, now = new Date(wallMs())): Promise<IdentityRow> {
  let [row] = await db.select().from(identityVerifications).where(eq(identityVerifications.verificationId, verificationId)).limit(1);
  if (config.portone.configured) {
    if (row && row.provider !== 'portone') throw notVerified();
    if (!row) {
      const remote = await fetchPortOne(config, verificationId);
      const customer = remote.verifiedCustomer ?? {};
      if (remote.status !== 'VERIFIED' || !customer.name) throw notVerified();
      const verifiedAt = remote.verifiedAt ? Date.parse(remote.verifiedAt) : NaN;
      if (!Number.isNaN(verifiedAt) && now.getTime() - verifiedAt > IDENTITY_MAX_AGE_MINUTES * 60_000) throw tooOld();
      const phone = normalizePhone(customer.phoneNumber ?? '');
      const birthDate = /^\d{4}-\d{2}-\d{2}$/.test(customer.birthDate ?? '') ? customer.birthDate! : null;
      // Without a CI from the channel, name + birth date + phone identifies the person.
      const ci = customer.ci || `derived:${createHash('sha256').update(`${customer.name}|${birthDate}|${phone}`).digest('base64')}`;
      await db
        .insert(identityVerifications)
        .values({ verificationId, provider: 'portone', status: 'VERIFIED', name: customer.name, phone, birthDate, ci })
        .onConflictDoNothing();
      [row] = await db.select().from(identityVerifications).where(eq(identityVerifications.verificationId, verificationId)).limit(1);
    }
  } else if (!sandboxAllowed(config) || !row || row.provider !== 'sandbox') {
    throw notVerified();
  }
  if (!row || row.status !== 'VERIFIED' || !row.ci) throw notVerified();
  if (now.getTime() - row.createdAt.getTime() > IDENTITY_MAX_AGE_MINUTES * 60_000) throw tooOld();
  return row;
}

/** Marks a verification as used, once; a second use is a 409. Call inside the transaction that uses it. */
export async function consumeIdentity(db: Db, id: number): Promise<void> {
  const rows = await db
    .update(identityVerifications)
    .set({ consumedAt: rowTime() })
    .where(and(eq(identityVerifications.id, id), isNull(identityVerifications.consumedAt)))
    .returning({ id: identityVerifications.id });
  if (!rows.length) throw conflict('이미 사용된 본인인증입니다. 다시 인증해주세요.', { identity_code: ['이미 사용된 본인인증입니다.'] });
}
