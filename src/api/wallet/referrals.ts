import { randomInt } from 'node:crypto';
import { desc, eq } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { inTransaction, type Db } from '../db/client';
import { referrals, users } from '../db/schema';
import { badRequest, conflict, notFound } from '../errors';
import { creditPoints } from './points';

/** Points in won credited to both the referrer and the new member, once per referral. */
export const REFERRAL_REWARD = 10_000;

/**
 * Records that `refereeId` was referred by `referrerId` and credits REFERRAL_REWARD to both.
 * An account is referred at most once (unique referee); a repeat is a no-op returning false.
 * Called at signup (referrer found by phone) and by POST /users/referrals/{code}.
 */
export async function applyReferral(db: Db, { referrerId, refereeId }: { referrerId: number; refereeId: number }): Promise<boolean> {
  if (referrerId === refereeId) throw badRequest('본인의 추천 코드는 사용할 수 없습니다.', { code: ['본인의 추천 코드는 사용할 수 없습니다.'] });
  return inTransaction(db, async (tx) => {
    const [row] = await tx.insert(referrals).values({ referrerId, refereeId }).onConflictDoNothing().returning({ id: referrals.id });
    if (!row) return false;
    const ref = { reason: 'REFERRAL', refType: 'referral', refId: row.id, amount: REFERRAL_REWARD };
    await creditPoints(tx, { ...ref, userId: referrerId, description: '친구 추천 보상' });
    await creditPoints(tx, { ...ref, userId: refereeId, description: '추천 코드 등록 보상' });
    return true;
  });
}

/** POST /users/referrals/{code}: the code's owner becomes the user's referrer. */
export async function applyReferralCode(db: Db, userId: number, code: string): Promise<void> {
  const [owner] = await db.select({ id: users.id }).from(users).where(eq(users.referralCode, code));
  if (!owner) throw notFound('존재하지 않는 추천 코드입니다.');
  if (owner.id === userId) throw badRequest('본인의 추천 코드는 사용할 수 없습니다.', { code: ['본인의 추천 코드는 사용할 수 없습니다.'] });
  const applied = await applyReferral(db, { referrerId: owner.id, refereeId: userId });
  if (!applied) throw conflict('이미 추천 코드를 등록했습니다. 추천 코드는 계정당 한 번만 등록할 수 있습니다.');
}

/** GET /users/referrals: my code, people I referred, and who referred me. */
export async function referralStatus(db: Db, userId: number) {
  const other = alias(users, 'other');
  const [me] = await db.select({ code: users.referralCode }).from(users).where(eq(users.id, userId));
  const given = await db
    .select({ username: other.username, createdAt: referrals.createdAt })
    .from(referrals)
    .innerJoin(other, eq(other.id, referrals.refereeId))
    .where(eq(referrals.referrerId, userId))
    .orderBy(desc(referrals.createdAt));
  const received = await db
    .select({ username: other.username, createdAt: referrals.createdAt })
    .from(referrals)
    .innerJoin(other, eq(other.id, referrals.referrerId))
    .where(eq(referrals.refereeId, userId));
  return {
    referral_code: me?.code ?? null,
    reward: REFERRAL_REWARD,
    referrals_given: given.map((r) => ({ referree_username: r.username, created_at: r.createdAt.toISOString() })),
    referrals_received: received.map((r) => ({ referrer_username: r.username, created_at: r.createdAt.toISOString() })),
  };
}

const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** An 8-character referral code without look-alike characters (no 0/O, 1/I). */
export function newReferralCode(): string {
  return Array.from({ length: 8 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
}
