import { createHmac, randomInt, randomUUID } from 'node:crypto';
import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { normalizePhone, sameName, type AccountView } from '../../domain/accounts';
import { ErrorCode } from '../../domain/error-codes';
import type { SignupInput, UpdateAccountInput } from '../../domain/schemas/accounts';
import type { Db } from '../db/client';
import { isUniqueViolation } from '../db/errors';
import { newReferralCode } from '../db/factories';
import { refreshTokens, users, verificationCodes } from '../db/schema';
import type { Config } from '../env';
import { ApiError, badRequest, conflict, forbidden, unauthorized, unprocessable } from '../errors';
import { consumeIdentity, type IdentityRow } from './identity';
import type { SocialProfile } from './oauth';
import { hashPassword, verifyPassword } from './passwords';
import { pointBalance } from './points';
import { applyReferral } from './referrals';
import { ACCESS_TOKEN_TTL_SECONDS, REFRESH_TOKEN_TTL_SECONDS, newOpaqueToken, sha256, signAccessToken } from './tokens';

type UserRow = typeof users.$inferSelect;

/** The account as GET /accounts shows it: the spec's fields (point = the ledger's sum) and a few of ours. */
export interface Account extends AccountView {
  social_provider: string | null;
  marketing_consent: boolean;
  has_password: boolean;
  created_at: string;
}

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

export async function toAccount(db: Db, u: UserRow): Promise<Account> {
  return {
    id: u.id,
    username: u.username,
    name: u.name,
    email: u.email,
    mobile: u.mobile,
    profile_image: u.profileImage,
    ci_verified: u.ciVerified,
    referral_code: u.referralCode,
    point: await pointBalance(db, u.id),
    social_provider: u.socialProvider,
    marketing_consent: u.marketingConsent,
    has_password: Boolean(u.passwordHash),
    created_at: u.createdAt.toISOString(),
  };
}

async function liveUser(db: Db, id: number): Promise<UserRow | undefined> {
  const [u] = await db.select().from(users).where(and(eq(users.id, id), isNull(users.deletedAt))).limit(1);
  return u;
}

/** The current account, or 401 when it no longer exists. */
export async function getAccount(db: Db, userId: number): Promise<Account> {
  const u = await liveUser(db, userId);
  if (!u) throw unauthorized('계정을 찾을 수 없습니다. 다시 로그인해주세요.');
  return toAccount(db, u);
}

/** A new access token and a refresh token; the refresh token continues `familyId` when rotating. */
async function issueTokens(db: Db, config: Config, user: UserRow, familyId: string = randomUUID()): Promise<TokenResult> {
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

/** Whether a live account already uses this email (the only place existence is revealed). */
export async function emailTaken(db: Db, email: string): Promise<boolean> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.email, email.toLowerCase())).limit(1);
  return Boolean(row);
}

/** A username derived from the email's local part plus a short random tail. */
function usernameFrom(seed: string): string {
  const base = seed.toLowerCase().replace(/[^a-z0-9._-]/g, '').slice(0, 40) || 'user';
  return `${base}_${randomInt(36 ** 5).toString(36).padStart(5, '0')}`;
}

/** Inserts a user with a fresh referral code, retrying on the (rare) code collision. */
async function insertUserRow(db: Db, values: Omit<typeof users.$inferInsert, 'referralCode' | 'username'> & { username?: string; usernameSeed: string }): Promise<UserRow> {
  const { usernameSeed, ...rest } = values;
  for (let attempt = 0; ; attempt++) {
    try {
      const [row] = await db.insert(users).values({ username: usernameFrom(usernameSeed), referralCode: newReferralCode(), ...rest }).returning();
      return row;
    } catch (err) {
      const collision = isUniqueViolation(err, 'referral_code') || isUniqueViolation(err, 'username');
      if (!collision || attempt >= 4) throw err;
    }
  }
}

/**
 * Signup: the identity verification must be verified, unused and of the same name and phone
 * as the form; one person (CI) holds one account; the email is unique. The referrer phone,
 * when given, must belong to a live account; the referral is recorded with the account.
 */
export async function signup(db: Db, config: Config, input: SignupInput, identity: IdentityRow): Promise<TokenResult> {
  const mismatch: Record<string, string[]> = {};
  if (!identity.name || !sameName(identity.name, input.name)) mismatch.name = ['본인인증한 이름과 일치하지 않습니다.'];
  if (!identity.phone || normalizePhone(identity.phone) !== input.mobile) mismatch.mobile = ['본인인증한 휴대폰 번호와 일치하지 않습니다.'];
  if (Object.keys(mismatch).length) throw unprocessable('본인인증 정보와 입력한 정보가 일치하지 않습니다.', mismatch);
  if (identity.consumedAt) throw conflict('이미 사용된 본인인증입니다. 다시 인증해주세요.', { identity_code: ['이미 사용된 본인인증입니다.'] });
  if (await emailTaken(db, input.email)) throw conflict('이미 사용 중인 이메일입니다.', { email: ['이미 사용 중인 이메일입니다.'] });
  const [sameCi] = await db.select({ id: users.id }).from(users).where(eq(users.ci, identity.ci!)).limit(1);
  if (sameCi) throw conflict('이미 가입된 회원입니다. 기존 계정으로 로그인하거나 비밀번호를 재설정해주세요.', { identity_code: ['이미 가입된 회원입니다.'] });
  let referrerId: number | null = null;
  if (input.referrerPhone) {
    const [referrer] = await db.select({ id: users.id }).from(users).where(and(eq(users.mobile, input.referrerPhone), isNull(users.deletedAt))).orderBy(users.id).limit(1);
    if (!referrer) throw unprocessable('추천인을 찾을 수 없습니다. 휴대폰 번호를 확인해주세요.', { referrerPhone: ['해당 휴대폰 번호로 가입한 회원이 없습니다.'] });
    referrerId = referrer.id;
  }
  const passwordHash = await hashPassword(input.password);
  try {
    return await db.transaction(async (tx) => {
      await consumeIdentity(tx, identity.id);
      const user = await insertUserRow(tx, {
        usernameSeed: input.email.split('@')[0],
        name: identity.name,
        email: input.email,
        mobile: input.mobile,
        passwordHash,
        ci: identity.ci,
        ciVerified: true,
        marketingConsent: input.marketing_consent ?? false,
      });
      // Recorded (and rewarded, per the points area's rules) in the same transaction as the account.
      if (referrerId) await applyReferral(tx, { referrerId, refereeId: user.id });
      return issueTokens(tx, config, user);
    });
  } catch (err) {
    if (isUniqueViolation(err, 'users_email_uq')) throw conflict('이미 사용 중인 이메일입니다.', { email: ['이미 사용 중인 이메일입니다.'] });
    if (isUniqueViolation(err, 'users_ci_uq')) throw conflict('이미 가입된 회원입니다. 기존 계정으로 로그인하거나 비밀번호를 재설정해주세요.', { identity_code: ['이미 가입된 회원입니다.'] });
    throw err;
  }
}

/** Email + password login; one generic message for a wrong email and a wrong password. */
export async function login(db: Db, config: Config, email: string, password: string): Promise<TokenResult> {
  const [user] = await db.select().from(users).where(and(eq(users.email, email), isNull(users.deletedAt))).limit(1);
  const valid = await verifyPassword(password, user?.passwordHash);
  if (!user || !valid) throw unauthorized(BAD_LOGIN);
  return issueTokens(db, config, user);
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
async function revokeAll(db: Db, userId: number): Promise<void> {
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

/** How recent a login must be to change the password without the current one (the reset flow). */
export const FRESH_LOGIN_SECONDS = 15 * 60;

/**
 * Updates the account. A password change needs the current password, or an access token
 * issued in the last 15 minutes (the recovery flow logs in just before it); other sessions
 * are revoked after a change.
 */
export async function updateAccount(db: Db, userId: number, input: UpdateAccountInput, accessToken: string): Promise<Account> {
  const user = await liveUser(db, userId);
  if (!user) throw unauthorized('계정을 찾을 수 없습니다. 다시 로그인해주세요.');
  const changes: Partial<typeof users.$inferInsert> = { updatedAt: new Date() };
  if (input.name !== undefined) changes.name = input.name;
  if (input.profile_image !== undefined) changes.profileImage = input.profile_image;
  if (input.marketing_consent !== undefined) changes.marketingConsent = input.marketing_consent;
  if (input.email !== undefined && input.email !== user.email) {
    if (await emailTaken(db, input.email)) throw conflict('이미 사용 중인 이메일입니다.', { email: ['이미 사용 중인 이메일입니다.'] });
    if (!(await recentlyVerified(db, input.email))) {
      throw unprocessable('새 이메일 인증을 먼저 완료해주세요.', { email: ['이메일 인증번호를 받아 인증한 뒤 변경할 수 있습니다.'] });
    }
    changes.email = input.email;
  }
  if (input.password !== undefined) {
    const iat = decodeJwt(accessToken).iat ?? 0;
    const fresh = Date.now() / 1000 - iat < FRESH_LOGIN_SECONDS;
    if (input.current_password !== undefined) {
      if (!(await verifyPassword(input.current_password, user.passwordHash))) {
        throw badRequest('현재 비밀번호가 올바르지 않습니다.', { current_password: ['현재 비밀번호가 올바르지 않습니다.'] });
      }
    } else if (!fresh) {
      throw forbidden('보안을 위해 현재 비밀번호를 함께 입력하거나 다시 로그인한 뒤 변경해주세요.');
    }
    changes.passwordHash = await hashPassword(input.password);
  }
  try {
    const [row] = await db.update(users).set(changes).where(eq(users.id, userId)).returning();
    if (changes.passwordHash) await revokeAll(db, userId);
    return toAccount(db, row);
  } catch (err) {
    if (isUniqueViolation(err, 'users_email_uq')) throw conflict('이미 사용 중인 이메일입니다.', { email: ['이미 사용 중인 이메일입니다.'] });
    throw err;
  }
}

/**
 * Withdrawal: the account can no longer log in, its personal data is erased (name, email,
 * phone, CI, social link, password), and its orders stay for the records.
 */
export async function withdraw(db: Db, userId: number): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({
        username: `withdrawn_${userId}`,
        name: '탈퇴회원',
        email: null,
        mobile: null,
        passwordHash: null,
        profileImage: null,
        ci: null,
        ciVerified: false,
        socialProvider: null,
        socialId: null,
        marketingConsent: false,
        deletedAt: new Date(),
        updatedAt: new Date(),
      })
      .where(and(eq(users.id, userId), isNull(users.deletedAt)));
    await revokeAll(tx, userId);
  });
}

/** Links a verified person to an account that was created without one (e.g. a social login). */
export async function attachIdentity(db: Db, userId: number, identity: IdentityRow): Promise<void> {
  const user = await liveUser(db, userId);
  if (!user || user.ci === identity.ci) return;
  if (user.ci) throw conflict('이미 본인인증을 마친 계정입니다.');
  const [other] = await db.select({ id: users.id }).from(users).where(eq(users.ci, identity.ci!)).limit(1);
  if (other) throw conflict('이미 가입된 회원입니다. 기존 계정으로 로그인해주세요.', { identity_code: ['이미 가입된 회원입니다.'] });
  await db.transaction(async (tx) => {
    await consumeIdentity(tx, identity.id);
    await tx.update(users).set({ ci: identity.ci, ciVerified: true, name: user.name ?? identity.name, mobile: user.mobile ?? identity.phone, updatedAt: new Date() }).where(eq(users.id, userId));
  });
}

/** Finds the account of a social identity, or creates one; the email is kept only when free. */
export async function socialLogin(db: Db, config: Config, profile: SocialProfile): Promise<TokenResult & { is_new: boolean }> {
  const find = async () => {
    const [u] = await db
      .select()
      .from(users)
      .where(and(eq(users.socialProvider, profile.provider), eq(users.socialId, profile.id), isNull(users.deletedAt)))
      .limit(1);
    return u;
  };
  const existing = await find();
  if (existing) return { ...(await issueTokens(db, config, existing)), is_new: false };
  const email = profile.email && !(await emailTaken(db, profile.email.toLowerCase())) ? profile.email.toLowerCase() : null;
  try {
    const user = await insertUserRow(db, {
      usernameSeed: `${profile.provider}`,
      name: profile.name,
      email,
      profileImage: profile.profileImage,
      socialProvider: profile.provider,
      socialId: profile.id,
    });
    return { ...(await issueTokens(db, config, user)), is_new: true };
  } catch (err) {
    // Two first logins at once: the other one created the account.
    const again = isUniqueViolation(err) ? await find() : undefined;
    if (!again) throw err;
    return { ...(await issueTokens(db, config, again)), is_new: false };
  }
}

// ── Mail codes ──────────────────────────────────────────────────────────────

/** Codes live 10 minutes and allow 5 tries. */
export const CODE_TTL_SECONDS = 600;
export const CODE_MAX_ATTEMPTS = 5;

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
      .set({ expiresAt: new Date() })
      .where(and(eq(verificationCodes.target, target), eq(verificationCodes.purpose, purpose), isNull(verificationCodes.consumedAt)));
    await tx.insert(verificationCodes).values({ target, purpose, codeHash: codeHash(config, target, purpose, code), expiresAt: new Date(Date.now() + CODE_TTL_SECONDS * 1000) });
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
  if (row.expiresAt.getTime() <= Date.now()) throw unprocessable('인증번호가 만료되었습니다. 다시 요청해주세요.', { code: ['인증번호가 만료되었습니다.'] });
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
    .set({ consumedAt: new Date() })
    .where(and(eq(verificationCodes.id, row.id), isNull(verificationCodes.consumedAt), gt(verificationCodes.expiresAt, new Date())))
    .returning({ id: verificationCodes.id });
  if (!spent.length) throw unprocessable('인증번호가 만료되었습니다. 다시 요청해주세요.', { code: ['인증번호가 만료되었습니다.'] });
}

/** An email change needs a code for the new address verified in the last 30 minutes. */
export const EMAIL_VERIFIED_WINDOW_SECONDS = 30 * 60;

async function recentlyVerified(db: Db, email: string): Promise<boolean> {
  const since = new Date(Date.now() - EMAIL_VERIFIED_WINDOW_SECONDS * 1000);
  const [row] = await db
    .select({ id: verificationCodes.id })
    .from(verificationCodes)
    .where(and(eq(verificationCodes.target, email), eq(verificationCodes.purpose, 'email'), gt(verificationCodes.consumedAt, since)))
    .limit(1);
  return Boolean(row);
}

/** Tokens for the live account with this email (after a verified 'reset' code). */
export async function loginByEmail(db: Db, config: Config, email: string): Promise<TokenResult | null> {
  const [user] = await db.select().from(users).where(and(eq(users.email, email), isNull(users.deletedAt))).limit(1);
  return user ? issueTokens(db, config, user) : null;
}

/** Logout: the presented refresh token's family stops working; unknown tokens are ignored. */
export async function revokeRefresh(db: Db, token: string): Promise<void> {
  const [row] = await db.select({ familyId: refreshTokens.familyId }).from(refreshTokens).where(eq(refreshTokens.tokenHash, sha256(token))).limit(1);
  if (row) await db.update(refreshTokens).set({ revokedAt: new Date() }).where(and(eq(refreshTokens.familyId, row.familyId), isNull(refreshTokens.revokedAt)));
}
