import { randomUUID } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import { ErrorCode } from '../../domain/error-codes';
import type { Db } from '../db/client';
import { refreshTokens, users } from '../db/schema';
import type { Config } from '../env';
import { ApiError, unauthorized, unprocessable } from '../errors';
import { liveUser, toAccount, type Account, type UserRow } from './account-view';
import { consumeIdentity, type IdentityRow } from './identity';
import { verifyPassword } from './passwords';
import { ACCESS_TOKEN_TTL_SECONDS, REFRESH_TOKEN_TTL_SECONDS, newOpaqueToken, sha256, signAccessToken } from './tokens';

/**
 * Sessions: access tokens and rotating refresh tokens (stored hashed, in families), issued by
 * login, signup, social login, recovery and refresh; revoked by logout and password changes.
 */

/** What login, signup, social login, refresh and recovery answer with. */
export interface TokenResult {
  access_token: string;
  refresh_token: string;
  token_type: 'Bearer';
  /** Seconds the access token lives (86400). */
  expires_in: number;
  user: Account;
}

const BAD_LOGIN = '이메일 또는 비밀번호가 올바르지 않습니다.';

/** A new access token and a refresh token; the refresh token continues `familyId` when rotating. */
export async function issueTokens(db: Db, config: Config, user: UserRow, familyId: string = randomUUID()): Promise<TokenResult> {
  const refresh = newOpaqueToken();
  await db.insert(refreshTokens).values({ userId: user.id, tokenHash: refresh.hash, familyId, expiresAt: new Date(Date.now() + REFRESH_TOKEN_TTL_SECONDS * 1000) });
  return {
    access_token: await signAccessToken(config.jwtSecret, user.id),
    refresh_token: refresh.token,
    token_type: 'Bearer',
    expires_in: ACCESS_TOKEN_TTL_SECONDS,
    user: await toAccount(db, user),
  };
}

/** Email + password login; one generic message for a wrong email and a wrong password. */
export async function login(db: Db, config: Config, email: string, password: string): Promise<TokenResult> {
  const [user] = await db.select().from(users).where(and(eq(users.email, email), isNull(users.deletedAt))).limit(1);
  const valid = await verifyPassword(password, user?.passwordHash);
  if (!user || !valid) throw unauthorized(BAD_LOGIN);
  return issueTokens(db, config, user);
}

/** Tokens for the live account with this email (after a verified 'reset' code). */
export async function loginByEmail(db: Db, config: Config, email: string): Promise<TokenResult | null> {
  const [user] = await db.select().from(users).where(and(eq(users.email, email), isNull(users.deletedAt))).limit(1);
  return user ? issueTokens(db, config, user) : null;
}

/**
 * Rotates a refresh token: the presented one is spent and a new one of the same family is
 * issued. Presenting a spent or revoked token revokes the whole family (theft signal).
 */
export async function rotateRefresh(db: Db, config: Config, token: string): Promise<TokenResult> {
  const invalid = () => new ApiError(401, ErrorCode.UNAUTHORIZED, '로그인이 만료되었습니다. 다시 로그인해주세요.');
  const [row] = await db.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, sha256(token))).limit(1);
  if (!row) throw invalid();
  if (row.usedAt || row.revokedAt) {
    await db.update(refreshTokens).set({ revokedAt: new Date() }).where(and(eq(refreshTokens.familyId, row.familyId), isNull(refreshTokens.revokedAt)));
    throw invalid();
  }
  if (row.expiresAt.getTime() <= Date.now()) throw invalid();
  // Spend it atomically: of two concurrent uses only one wins; the other counts as reuse.
  const spent = await db
    .update(refreshTokens)
    .set({ usedAt: new Date() })
    .where(and(eq(refreshTokens.id, row.id), isNull(refreshTokens.usedAt), isNull(refreshTokens.revokedAt)))
    .returning({ id: refreshTokens.id });
  if (!spent.length) {
    await db.update(refreshTokens).set({ revokedAt: new Date() }).where(eq(refreshTokens.familyId, row.familyId));
    throw invalid();
  }
  const user = await liveUser(db, row.userId);
  if (!user) throw invalid();
  return issueTokens(db, config, user, row.familyId);
}

/** Revokes every refresh token of a user (logout everywhere, password change, withdrawal). */
export async function revokeAll(db: Db, userId: number): Promise<void> {
  await db.update(refreshTokens).set({ revokedAt: new Date() }).where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)));
}

/** Password recovery: a fresh verification of the account's owner (same CI) logs them in. */
export async function recoverWithIdentity(db: Db, config: Config, identity: IdentityRow): Promise<TokenResult> {
  const [user] = await db.select().from(users).where(and(eq(users.ci, identity.ci!), isNull(users.deletedAt))).limit(1);
  if (!user) throw unprocessable('본인인증한 정보로 가입된 계정이 없습니다.', { identity_code: ['가입된 계정이 없습니다.'] });
  return db.transaction(async (tx) => {
    await consumeIdentity(tx, identity.id);
    return issueTokens(tx, config, user);
  });
}

/** Logout: the presented refresh token's family stops working; unknown tokens are ignored. */
export async function revokeRefresh(db: Db, token: string): Promise<void> {
  const [row] = await db.select({ familyId: refreshTokens.familyId }).from(refreshTokens).where(eq(refreshTokens.tokenHash, sha256(token))).limit(1);
  if (row) await db.update(refreshTokens).set({ revokedAt: new Date() }).where(and(eq(refreshTokens.familyId, row.familyId), isNull(refreshTokens.revokedAt)));
}
