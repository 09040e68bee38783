import { createHmac, randomInt } from 'node:crypto';
import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import { ErrorCode } from '../../domain/error-codes';
import type { Db } from '../db/client';
import { users, verificationCodes } from '../db/schema';
import type { Config } from '../env';
import { ApiError, unprocessable } from '../errors';
import { rowTime, wallMs } from '../jobs/clock';

/* Mail codes: 6 digits, stored as a keyed hash, for an email change or a password reset. */

/** Codes live 10 minutes and allow 5 tries. */
export const CODE_TTL_SECONDS = 600;
const CODE_MAX_ATTEMPTS = 5;

const codeHash = (config: Config, target: string, purpose: string, code: string) =>
  createHmac('sha256', config.jwtSecret).update(`${purpose}|${target}|${code}`).digest('hex');

/**
 * Creates a 6-digit code for `target` (earlier codes of the same purpose stop working) and
 * returns it for delivery; only its HMAC is stored. For 'reset' no code is made when no
 * account has that email, and the caller answers the same either way.
 */
export async function createCode(db: Db, config: Config, target: string, purpose: 'email' | 'reset'): Promise<string | null> {
  if (purpose === 'reset') {
    const [u] = await db.select({ id: users.id }).from(users).where(and(eq(users.email, target), isNull(users.deletedAt))).limit(1);
    if (!u) return null;
  }
  const code = String(randomInt(1_000_000)).padStart(6, '0');
  await db.transaction(async (tx) => {
    // Earlier codes expire now; consumedAt is kept for codes that were verified.
    await tx
      .update(verificationCodes)
      .set({ expiresAt: rowTime() })
      .where(and(eq(verificationCodes.target, target), eq(verificationCodes.purpose, purpose), isNull(verificationCodes.consumedAt)));
    await tx.insert(verificationCodes).values({ target, purpose, codeHash: codeHash(config, target, purpose, code), expiresAt: new Date(wallMs() + CODE_TTL_SECONDS * 1000) });
  });
  return code;
}

/** Checks a code: expired, used up, or wrong codes fail with a Korean message; success spends it. */
export async function checkCode(db: Db, config: Config, target: string, purpose: 'email' | 'reset', code: string): Promise<void> {
  const [row] = await db
    .select()
    .from(verificationCodes)
    .where(and(eq(verificationCodes.target, target), eq(verificationCodes.purpose, purpose), isNull(verificationCodes.consumedAt)))
    .orderBy(desc(verificationCodes.id))
    .limit(1);
  if (!row) throw unprocessable('인증번호를 먼저 요청해주세요.', { code: ['인증번호를 먼저 요청해주세요.'] });
  if (row.expiresAt.getTime() <= wallMs()) throw unprocessable('인증번호가 만료되었습니다. 다시 요청해주세요.', { code: ['인증번호가 만료되었습니다.'] });
  // Count the try first and atomically, so parallel guesses cannot exceed the limit.
  const counted = await db
    .update(verificationCodes)
    .set({ attempts: sql`${verificationCodes.attempts} + 1` })
    .where(and(eq(verificationCodes.id, row.id), sql`${verificationCodes.attempts} < ${CODE_MAX_ATTEMPTS}`, isNull(verificationCodes.consumedAt)))
    .returning({ attempts: verificationCodes.attempts });
  if (!counted.length) throw new ApiError(429, ErrorCode.RATE_LIMITED, '인증 시도 횟수를 초과했습니다. 인증번호를 다시 요청해주세요.');
  if (row.codeHash !== codeHash(config, target, purpose, code)) {
    const left = CODE_MAX_ATTEMPTS - counted[0].attempts;
    throw unprocessable(`인증번호가 올바르지 않습니다. (남은 시도 ${left}회)`, { code: ['인증번호가 올바르지 않습니다.'] });
  }
  const spent = await db
    .update(verificationCodes)
    .set({ consumedAt: rowTime() })
    .where(and(eq(verificationCodes.id, row.id), isNull(verificationCodes.consumedAt), gt(verificationCodes.expiresAt, new Date(wallMs()))))
    .returning({ id: verificationCodes.id });
  if (!spent.length) throw unprocessable('인증번호가 만료되었습니다. 다시 요청해주세요.', { code: ['인증번호가 만료되었습니다.'] });
}

/** An email change needs a code for the new address verified in the last 30 minutes. */
const EMAIL_VERIFIED_WINDOW_SECONDS = 30 * 60;

/** Whether a code for this email was verified in the last 30 minutes. */
export async function recentlyVerified(db: Db, email: string): Promise<boolean> {
  const since = new Date(wallMs() - EMAIL_VERIFIED_WINDOW_SECONDS * 1000);
  const [row] = await db
    .select({ id: verificationCodes.id })
    .from(verificationCodes)
    .where(and(eq(verificationCodes.target, email), eq(verificationCodes.purpose, 'email'), gt(verificationCodes.consumedAt, since)))
    .limit(1);
  return Boolean(row);
}
