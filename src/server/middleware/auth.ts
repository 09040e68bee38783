import { and, eq, isNull } from 'drizzle-orm';
import { createMiddleware } from 'hono/factory';
import { users } from '../db/schema';
import { forbidden, unauthorized } from '../errors';
import type { AppEnv } from '../http';
import { verifyAccessToken } from '../services/tokens';
import { timingSafeEqual } from 'node:crypto';

function bearer(header: string | undefined): string | null {
  const match = header?.match(/^Bearer\s+(\S+)$/i);
  return match ? match[1] : null;
}

/** Requires a valid access token of a live account; sets `c.var.userId`. */
export const requireUser = createMiddleware<AppEnv>(async (c, next) => {
  const token = bearer(c.req.header('authorization'));
  if (!token) throw unauthorized();
  const { db, config } = c.var.deps;
  const userId = await verifyAccessToken(config.jwtSecret, token);
  const [user] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, userId), isNull(users.deletedAt)))
    .limit(1);
  if (!user) throw unauthorized('계정을 찾을 수 없습니다. 다시 로그인해주세요.');
  c.set('userId', user.id);
  await next();
});

/** Requires the staff token from ADMIN_TOKEN in `Authorization: Bearer`. */
export const requireAdmin = createMiddleware<AppEnv>(async (c, next) => {
  const expected = c.var.deps.config.adminToken;
  if (!expected) throw forbidden('관리자 기능이 설정되지 않았습니다. ADMIN_TOKEN을 설정해주세요.');
  const token = bearer(c.req.header('authorization')) ?? '';
  const a = Buffer.from(token);
  const b = Buffer.from(expected);
  if (a.length !== b.length || !timingSafeEqual(a, b)) throw forbidden('관리자 인증에 실패했습니다.');
  await next();
});
