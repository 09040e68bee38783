import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { users } from '../db/schema';
import type { Config } from '../env';
import { unauthorized } from '../errors';
import { sessionEnded, verifyAccessToken } from './tokens';

/**
 * The live session behind an access token: a valid signature, a live account, and a session
 * (refresh family) of that account with no revoked token. One query, on the family index.
 * A withdrawn account is 401 UNAUTHORIZED; an ended session is 401 TOKEN_EXPIRED.
 */
export async function sessionUser(db: Db, config: Config, accessToken: string): Promise<{ userId: number; sid: string }> {
  const { userId, sid } = await verifyAccessToken(config.jwtSecret, accessToken);
  const live = sql<boolean | null>`(select bool_and(s.revoked_at is null) from refresh_tokens s where s.family_id = ${sid} and s.user_id = ${userId})`;
  const [user] = await db
    .select({ id: users.id, live })
    .from(users)
    .where(and(eq(users.id, userId), isNull(users.deletedAt)))
    .limit(1);
  if (!user) throw unauthorized('계정을 찾을 수 없습니다. 다시 로그인해주세요.');
  if (user.live !== true) throw sessionEnded();
  return { userId: user.id, sid };
}
