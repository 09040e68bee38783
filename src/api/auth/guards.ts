import { eq } from 'drizzle-orm';
import { createMiddleware } from 'hono/factory';
import { users } from '../db/schema';
import { sha256Hex } from '../env';
import { ApiError, forbidden, notFound, unauthorized } from '../errors';
import type { AppEnv, Ctx } from '../http';
import { clientIp, limiterFor } from '../middleware/rate-limit';
import { timingSafeEqual } from 'node:crypto';
import { sessionUser } from './session-check';

function bearer(header: string | undefined): string | null {
  const match = header?.match(/^Bearer\s+(\S+)$/i);
  return match ? match[1] : null;
}

declare module 'hono' {
  interface ContextVariableMap {
    /** The session (refresh family) of the access token requireUser accepted. */
    sessionId: string;
  }
}

/**
 * Requires a valid access token of a live account and a live session (not logged out, not
 * revoked by a password change or a refresh-token replay): one query. Sets `c.var.userId` and
 * `c.var.sessionId`.
 */
export const requireUser = createMiddleware<AppEnv>(async (c, next) => {
  await authenticate(c);
  await next();
});

/** requireUser's checks: sets `userId` and `sessionId`, or throws the 401. */
async function authenticate(c: Ctx): Promise<void> {
  const token = bearer(c.req.header('authorization'));
  if (!token) throw unauthorized();
  const { db, config } = c.var.deps;
  const session = await sessionUser(db, config, token);
  c.set('userId', session.userId);
  c.set('sessionId', session.sid);
}

/** Who is acting in a staff route: a staff account, or the machine token (webhooks, automation). */
export interface StaffActor {
  userId: number | null;
  /** The account's email (or username), or 'machine-token'. */
  name: string;
}

declare module 'hono' {
  interface ContextVariableMap {
    actor: StaffActor;
  }
}

/** Failed staff/machine authentications per client IP before 429: 20 in 15 minutes. */
export const ADMIN_GUESS_LIMIT = { max: 20, windowMs: 15 * 60_000 } as const;
const JWT_SHAPE = /^[\w-]+\.[\w-]+\.[\w-]+$/;
const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;

function guessKey(c: Ctx): string | null {
  const ip = clientIp(c);
  // The end-to-end suite drives everything from loopback (as limitIp does).
  if (c.var.deps.config.env === 'test' && LOOPBACK.test(ip)) return null;
  return `ip:${ip}`;
}

/** 429 once this IP has guessed too often, before anything is compared. */
async function checkGuesses(c: Ctx): Promise<void> {
  const key = guessKey(c);
  if (key) await limiterFor(c.var.deps).check('admin-guess', key, ADMIN_GUESS_LIMIT.max);
}

async function countGuess(c: Ctx): Promise<void> {
  const key = guessKey(c);
  if (key) await limiterFor(c.var.deps).hit('admin-guess', key, ADMIN_GUESS_LIMIT.max, ADMIN_GUESS_LIMIT.windowMs);
}

/** True when `token` is ADMIN_TOKEN: compared as SHA-256 digests (equal length, timing-safe); only the digest is in memory. */
function isMachineToken(c: Ctx, token: string | null): boolean {
  const expected = c.var.deps.config.adminTokenHash;
  if (!expected || !token) return false;
  return timingSafeEqual(Buffer.from(sha256Hex(token), 'hex'), Buffer.from(expected, 'hex'));
}

/** The signed-in staff account behind the request (requireUser's checks, then the role); 403 for other accounts. */
async function staffOf(c: Ctx): Promise<StaffActor> {
  await authenticate(c);
  const userId = c.var.userId;
  const [user] = await c.var.deps.db.select({ role: users.role, email: users.email, username: users.username }).from(users).where(eq(users.id, userId)).limit(1);
  if (user?.role !== 'staff') throw forbidden('권한이 없습니다. 직원 계정으로 로그인해주세요.');
  return { userId, name: user.email ?? user.username };
}

/**
 * Whether the request carries the machine token or a live staff session, without refusing or
 * counting a guess (the sandbox's pages let staff in beside this machine's own clients).
 */
export async function isStaffRequest(c: Ctx): Promise<boolean> {
  const token = bearer(c.req.header('authorization'));
  if (!token) return false;
  if (isMachineToken(c, token)) return true;
  return staffOf(c).then(
    () => true,
    () => false,
  );
}

/** Requires a signed-in account whose role is 'staff' (the console); sets `userId` and `actor`. */
export const requireStaff = createMiddleware<AppEnv>(async (c, next) => {
  c.set('actor', await staffOf(c));
  await next();
});

/**
 * Requires the machine token (ADMIN_TOKEN) alone: webhooks and automation. Wrong tokens count
 * toward the per-IP guess limit (429 once over it); the right token always passes, so someone
 * else's wrong guesses from the same address (a shared NAT, the CI runner) never lock it out.
 */
export const requireMachine = createMiddleware<AppEnv>(async (c, next) => {
  if (!c.var.deps.config.adminTokenHash) throw forbidden('관리자 토큰이 설정되지 않았습니다. ADMIN_TOKEN을 설정해주세요.');
  if (!isMachineToken(c, bearer(c.req.header('authorization')))) {
    await checkGuesses(c);
    await countGuess(c);
    throw forbidden('관리자 인증에 실패했습니다.');
  }
  c.set('actor', { userId: null, name: 'machine-token' });
  await next();
});

/**
 * Staff routes: a staff account or the machine token, which always pass. A token that is neither
 * (a guess, a forged or expired session) counts toward the per-IP guess limit (429 once over
 * it); a valid session of an account without the staff role is 403.
 */
export const requireAdmin = createMiddleware<AppEnv>(async (c, next) => {
  const token = bearer(c.req.header('authorization'));
  if (isMachineToken(c, token)) {
    c.set('actor', { userId: null, name: 'machine-token' });
    return next();
  }
  try {
    c.set('actor', await staffOf(c));
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) {
      await checkGuesses(c);
      if (token) await countGuess(c);
      // A session token (expired, revoked) keeps its 401 so the console can send the user to login.
      if (token && JWT_SHAPE.test(token)) throw err;
      throw forbidden('관리자 인증에 실패했습니다. 직원 계정으로 로그인해주세요.');
    }
    throw err;
  }
  await next();
});

/**
 * Test fixtures (/admin/test-*) exist only with TEST_FIXTURES=on (set by the test runner, refused in
 * production): otherwise they answer the API's plain 404, as if the path did not exist.
 */
export const requireFixtures = createMiddleware<AppEnv>(async (c, next) => {
  if (!c.var.deps.config.testFixtures) throw notFound('요청한 주소를 찾을 수 없습니다.');
  await next();
});
