import { createHmac, randomUUID } from 'node:crypto';
import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import { ErrorCode } from '../../domain/error-codes';
import { inTransaction, type Db } from '../db/client';
import { refreshTokens, users } from '../db/schema';
import type { Config } from '../env';
import { ApiError, unauthorized, unprocessable } from '../errors';
import { liveUser, toAccount, type Account, type UserRow } from './account-view';
import { consumeIdentity, type IdentityRow } from './identity';
import { verifyPassword } from './passwords';
import { ACCESS_TOKEN_TTL_SECONDS, REFRESH_TOKEN_TTL_SECONDS, newOpaqueToken, sha256, signAccessToken } from '../auth/tokens';
import { rowTime, wallMs } from '../jobs/clock';

/**
 * Sessions: access tokens and rotating refresh tokens (stored hashed, in families), issued by
 * login, signup, social login, recovery and refresh; revoked by logout and password changes.
 * A session is one refresh family: its id is the access token's `sid`, and an access token
 * works only while no token of its family is revoked (checked on every request).
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

/** A session's two tokens: the access token names the family (`sid`). */
export interface SessionTokens {
  access_token: string;
  refresh_token: string;
  sid: string;
}

const refreshExpiry = () => new Date(wallMs() + REFRESH_TOKEN_TTL_SECONDS * 1000);

/** Starts a session (a new refresh family) for a user: the refresh token is stored hashed. */
export async function openSession(db: Db, config: Config, userId: number): Promise<SessionTokens> {
  const sid = randomUUID();
  const refresh = newOpaqueToken();
  await db.insert(refreshTokens).values({ userId, tokenHash: refresh.hash, familyId: sid, expiresAt: refreshExpiry() });
  return { access_token: await signAccessToken(config.jwtSecret, userId, sid), refresh_token: refresh.token, sid };
}

async function answer(db: Db, config: Config, user: UserRow, sid: string, refreshToken: string): Promise<TokenResult> {
  return {
    access_token: await signAccessToken(config.jwtSecret, user.id, sid),
    refresh_token: refreshToken,
    token_type: 'Bearer',
    expires_in: ACCESS_TOKEN_TTL_SECONDS,
    user: await toAccount(db, user),
  };
}

/** A new session for a user: an access token and a refresh token of a new family. */
export async function issueTokens(db: Db, config: Config, user: UserRow): Promise<TokenResult> {
  const session = await openSession(db, config, user.id);
  return answer(db, config, user, session.sid, session.refresh_token);
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
 * How long a just-rotated refresh token may be presented again and get the same successor:
 * two tabs refreshing at once must not log the user out. After it, reuse is a theft signal.
 */
export const REFRESH_REUSE_GRACE_SECONDS = 20;

/** The successor of a refresh token is derived from it (HMAC with the server secret), so a second use within the grace window can answer the same one. */
const successorOf = (config: Config, token: string) => createHmac('sha256', config.jwtSecret).update(`refresh-successor:${token}`).digest('base64url');

/** No token of the family is revoked (a revocation racing a rotation may miss the newest row). */
const familyLive = (familyId: string) => sql`not exists (select 1 from refresh_tokens f where f.family_id = ${familyId} and f.revoked_at is not null)`;

/** Revokes every token of a refresh family (the session ends, its access tokens too). */
async function revokeFamily(db: Db, familyId: string): Promise<void> {
  await db.update(refreshTokens).set({ revokedAt: rowTime() }).where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
}

/**
 * Rotates a refresh token: the presented one is spent and its successor of the same family is
 * issued. Presenting it again within REFRESH_REUSE_GRACE_SECONDS answers the same successor
 * (two tabs, two concurrent requests); later, or when the successor is already spent, the
 * whole family is revoked (theft signal).
 */
export async function rotateRefresh(db: Db, config: Config, token: string): Promise<TokenResult> {
  const invalid = () => new ApiError(401, ErrorCode.UNAUTHORIZED, '로그인이 만료되었습니다. 다시 로그인해주세요.');
  const [row] = await db.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, sha256(token))).limit(1);
  if (!row) throw invalid();
  if (row.revokedAt) {
    await revokeFamily(db, row.familyId);
    throw invalid();
  }
  if (!row.usedAt && row.expiresAt.getTime() <= wallMs()) throw invalid();
  const user = await liveUser(db, row.userId);
  if (!user) throw invalid();
  const successor = successorOf(config, token);
  // Spend it and store its successor in one transaction: a concurrent use waits for both, then
  // finds the token spent and the successor in place.
  const rotated =
    !row.usedAt &&
    (await inTransaction(db, async (tx) => {
      const spent = await tx
        .update(refreshTokens)
        .set({ usedAt: rowTime() })
        .where(and(eq(refreshTokens.id, row.id), isNull(refreshTokens.usedAt), isNull(refreshTokens.revokedAt), familyLive(row.familyId)))
        .returning({ id: refreshTokens.id });
      if (!spent.length) return false;
      await tx.insert(refreshTokens).values({ userId: row.userId, tokenHash: sha256(successor), familyId: row.familyId, expiresAt: refreshExpiry() });
      return true;
    }));
  if (rotated) return answer(db, config, user, row.familyId, successor);
  // Already spent: the same successor within the grace window, if it is still the live one.
  const [[now], [next]] = await Promise.all([
    db.select({ usedAt: refreshTokens.usedAt, revokedAt: refreshTokens.revokedAt }).from(refreshTokens).where(eq(refreshTokens.id, row.id)),
    db.select({ usedAt: refreshTokens.usedAt, revokedAt: refreshTokens.revokedAt }).from(refreshTokens).where(eq(refreshTokens.tokenHash, sha256(successor))),
  ]);
  const withinGrace = now?.usedAt && !now.revokedAt && wallMs() - now.usedAt.getTime() <= REFRESH_REUSE_GRACE_SECONDS * 1000;
  if (withinGrace && next && !next.usedAt && !next.revokedAt) return answer(db, config, user, row.familyId, successor);
  await revokeFamily(db, row.familyId);
  throw invalid();
}

/**
 * Revokes every refresh token of a user, ending all sessions (withdrawal), or all but the
 * session `keepSid` (a password change keeps the session that made it).
 */
export async function revokeAll(db: Db, userId: number, keepSid?: string): Promise<void> {
  const others = keepSid ? ne(refreshTokens.familyId, keepSid) : undefined;
  await db.update(refreshTokens).set({ revokedAt: rowTime() }).where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt), others));
}

/** Whether the session (refresh family) began with a login less than `seconds` ago; rotations do not count. */
export async function sessionStartedWithin(db: Db, sid: string, seconds: number): Promise<boolean> {
  const [row] = await db
    .select({ startedAt: sql<Date | null>`min(${refreshTokens.createdAt})`.mapWith(refreshTokens.createdAt) })
    .from(refreshTokens)
    .where(eq(refreshTokens.familyId, sid));
  // min() over no rows is null, whatever mapWith's type says.
  const startedAt: Date | null | undefined = row?.startedAt;
  return !!startedAt && wallMs() - startedAt.getTime() < seconds * 1000;
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

/** Logout: the presented refresh token's family stops working (its access tokens too); unknown tokens are ignored. */
export async function revokeRefresh(db: Db, token: string): Promise<void> {
  const [row] = await db.select({ familyId: refreshTokens.familyId }).from(refreshTokens).where(eq(refreshTokens.tokenHash, sha256(token))).limit(1);
  if (row) await revokeFamily(db, row.familyId);
}
