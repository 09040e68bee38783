import { randomInt } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import { normalizePhone, sameName } from '../../domain/accounts';
import type { SignupInput, UpdateAccountInput } from '../../domain/schemas/accounts';
import type { Db } from '../db/client';
import { isUniqueViolation } from '../db/errors';
import { users } from '../db/schema';
import type { Config } from '../env';
import type { PasswordLock } from '../middleware/rate-limit';
import { badRequest, conflict, forbidden, unauthorized, unprocessable } from '../errors';
import { liveUser, toAccount, type Account, type UserRow } from './account-view';
import { consumeIdentity, type IdentityRow } from './identity';
import type { SocialProfile } from './oauth';
import { hashPassword, verifyPassword } from './passwords';
import { applyReferral } from '../wallet/referrals';
import { issueTokens, revokeAll, sessionStartedWithin, type TokenResult } from './sessions';
import { recentlyVerified } from './verification-codes';
import { newReferralCode } from '../wallet/referrals';
import { scheduleMarketingReminder } from '../notifications/marketing-consent';
import { rowTime, wallMs } from '../jobs/clock';

/**
 * Accounts: signup (identity-verified), social accounts, profile changes, identity linking and
 * withdrawal. The account view is in account-view.ts, sessions and tokens in sessions.ts, mail
 * codes in verification-codes.ts.
 */

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
export async function signup(db: Db, config: Config, input: SignupInput, identity: IdentityRow, now: Date = new Date(wallMs())): Promise<TokenResult> {
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
        marketingConsentAt: input.marketing_consent ? now : null,
        marketingNightConsent: Boolean(input.marketing_consent && input.marketing_night_consent),
      });
      // The consent's 2-yearly reminder (정보통신망법 제50조⑧).
      if (input.marketing_consent) await scheduleMarketingReminder(tx, user.id, now);
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

/** How recent a login must be to change the password without the current one (the reset flow). */
export const FRESH_LOGIN_SECONDS = 15 * 60;

/**
 * Updates the account. A password change needs the current password, or a session that
 * logged in within the last 15 minutes (the recovery flow logs in just before it; refreshing
 * tokens does not make a session fresh). Wrong current
 * passwords count toward the account's login lock (`lockFor`). After a change every other
 * session is revoked; the session that made it (`session.sid`) stays logged in.
 */
export async function updateAccount(
  db: Db,
  userId: number,
  input: UpdateAccountInput,
  session: { sid: string },
  lockFor?: (account: string) => PasswordLock,
  now: Date = new Date(wallMs()),
): Promise<Account> {
  const user = await liveUser(db, userId);
  if (!user) throw unauthorized('계정을 찾을 수 없습니다. 다시 로그인해주세요.');
  const changes: Partial<typeof users.$inferInsert> = { updatedAt: rowTime() };
  if (input.name !== undefined) changes.name = input.name;
  if (input.profile_image !== undefined) changes.profileImage = input.profile_image;
  // A consent given (again) starts its 2-yearly reminders from now; a withdrawal ends them and the night-time consent.
  const consentGiven = input.marketing_consent === true && !user.marketingConsent;
  if (input.marketing_consent !== undefined) changes.marketingConsent = input.marketing_consent;
  if (consentGiven) changes.marketingConsentAt = now;
  if (input.marketing_consent === false) Object.assign(changes, { marketingConsentAt: null, marketingNightConsent: false });
  if (input.marketing_night_consent !== undefined) {
    const consenting = input.marketing_consent ?? user.marketingConsent;
    if (input.marketing_night_consent && !consenting) throw unprocessable('야간 광고 수신은 광고성 정보 수신에 동의한 뒤 선택할 수 있습니다.', { marketing_night_consent: ['광고성 정보 수신 동의가 필요합니다.'] });
    changes.marketingNightConsent = input.marketing_night_consent && consenting;
  }
  if (input.email !== undefined && input.email !== user.email) {
    if (await emailTaken(db, input.email)) throw conflict('이미 사용 중인 이메일입니다.', { email: ['이미 사용 중인 이메일입니다.'] });
    if (!(await recentlyVerified(db, input.email))) {
      throw unprocessable('새 이메일 인증을 먼저 완료해주세요.', { email: ['이메일 인증번호를 받아 인증한 뒤 변경할 수 있습니다.'] });
    }
    changes.email = input.email;
  }
  if (input.password !== undefined) {
    if (input.current_password !== undefined) {
      const lock = lockFor?.(user.email ?? `user:${user.id}`);
      await lock?.check();
      if (!(await verifyPassword(input.current_password, user.passwordHash))) {
        await lock?.failed();
        throw badRequest('현재 비밀번호가 올바르지 않습니다.', { current_password: ['현재 비밀번호가 올바르지 않습니다.'] });
      }
      await lock?.passed();
    } else if (!(await sessionStartedWithin(db, session.sid, FRESH_LOGIN_SECONDS))) {
      throw forbidden('보안을 위해 현재 비밀번호를 함께 입력하거나 다시 로그인한 뒤 변경해주세요.');
    }
    changes.passwordHash = await hashPassword(input.password);
  }
  try {
    const [row] = await db.update(users).set(changes).where(eq(users.id, userId)).returning();
    if (changes.passwordHash) await revokeAll(db, userId, session.sid);
    if (consentGiven) await scheduleMarketingReminder(db, userId, now);
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
        marketingConsentAt: null,
        marketingNightConsent: false,
        deletedAt: rowTime(),
        updatedAt: rowTime(),
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
    await tx.update(users).set({ ci: identity.ci, ciVerified: true, name: user.name ?? identity.name, mobile: user.mobile ?? identity.phone, updatedAt: rowTime() }).where(eq(users.id, userId));
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

/**
 * A driver's account (role 'driver', linked to the roster row), made when the driver accepts a
 * staff invite on /driver, inside the invite's transaction. 409 when the email is taken.
 */
export async function createDriverAccount(tx: Db, v: { email: string; password: string; name: string; mobile: string | null; driverId: number }): Promise<UserRow> {
  const passwordHash = await hashPassword(v.password);
  try {
    return await insertUserRow(tx, { email: v.email, passwordHash, name: v.name, mobile: v.mobile, role: 'driver', driverId: v.driverId, usernameSeed: v.email.split('@')[0] });
  } catch (err) {
    if (isUniqueViolation(err, 'users_email_uq')) throw conflict('이미 사용 중인 이메일입니다. 다른 이메일을 입력해주세요.', { email: ['이미 사용 중인 이메일입니다.'] });
    if (isUniqueViolation(err, 'users_driver_uq')) throw conflict('이미 계정이 있는 기사입니다. 로그인해주세요.');
    throw err;
  }
}
