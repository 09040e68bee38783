import { and, eq, isNull } from 'drizzle-orm';
import type { AccountDetails } from '../../domain/accounts';
import type { Db } from '../db/client';
import { users } from '../db/schema';
import { unauthorized } from '../errors';
import { pointBalance } from '../wallet/points';

/** A user row as the database holds it. */
export type UserRow = typeof users.$inferSelect;

/** The account as GET /accounts shows it: the spec's fields (point = the ledger's sum) and a few of ours. */
export type Account = AccountDetails;

/** A user row in the Account shape (point from the ledger). */
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
    marketing_night_consent: u.marketingNightConsent,
    has_password: Boolean(u.passwordHash),
    created_at: u.createdAt.toISOString(),
  };
}

/** The user unless withdrawn. */
export async function liveUser(db: Db, id: number): Promise<UserRow | undefined> {
  const [u] = await db.select().from(users).where(and(eq(users.id, id), isNull(users.deletedAt))).limit(1);
  return u;
}

/** The current account, or 401 when it no longer exists. */
export async function getAccount(db: Db, userId: number): Promise<Account> {
  const u = await liveUser(db, userId);
  if (!u) throw unauthorized('계정을 찾을 수 없습니다. 다시 로그인해주세요.');
  return toAccount(db, u);
}
