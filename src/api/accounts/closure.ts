import { and, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import { closureBlockers, closureRefusal, type ClosureFacts, type ClosurePreview } from '../../domain/account-closure';
import { todayInKorea } from '../../domain/dates';
import { INCLUDED_HOURS } from '../../domain/butler';
import { inTransaction, type Db } from '../db/client';
import { butlerRequests, payments, subscriptionHandovers, subscriptionRequests, subscriptionSettlements, subscriptions, users } from '../db/schema';
import { badRequest, conflict, forbidden, unauthorized } from '../errors';
import type { PasswordLock } from '../middleware/rate-limit';
import { liveUser, type UserRow } from './account-view';
import { FRESH_LOGIN_SECONDS, withdraw } from './accounts';
import { verifyPassword } from './passwords';
import { sessionStartedWithin } from './sessions';

/**
 * 회원 탈퇴 (DELETE /accounts) and its preview (GET /accounts/withdrawal): the account's facts read
 * here, judged by src/domain/account-closure.ts. docs/decisions/accounts.md.
 */

/** What decides whether the account may be closed, read in `db` (the withdrawal's transaction under the user's lock). */
async function closureFacts(db: Db, user: UserRow, now: Date): Promise<ClosureFacts> {
  const [pending] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(subscriptionRequests)
    .where(and(eq(subscriptionRequests.userId, user.id), eq(subscriptionRequests.status, 'PENDING')));
  const subs = await db.select().from(subscriptions).where(eq(subscriptions.userId, user.id));
  const ids = subs.map((s) => s.id);
  const handovers = ids.length
    ? await db
        .select({ subscriptionId: subscriptionHandovers.subscriptionId, kind: subscriptionHandovers.kind, status: subscriptionHandovers.status })
        .from(subscriptionHandovers)
        .where(and(inArray(subscriptionHandovers.subscriptionId, ids), ne(subscriptionHandovers.status, 'CANCELLED')))
    : [];
  const settlements = ids.length
    ? await db.select({ subscriptionId: subscriptionSettlements.subscriptionId, status: subscriptionSettlements.status }).from(subscriptionSettlements).where(inArray(subscriptionSettlements.subscriptionId, ids))
    : [];
  // A trip is ahead until it is recorded as ended or its booked end (start + 8 h when none) has passed.
  const [trips] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(butlerRequests)
    .where(
      and(
        eq(butlerRequests.userId, user.id),
        ne(butlerRequests.status, 'CANCELLED'),
        isNull(butlerRequests.actualEndAt),
        sql`coalesce(${butlerRequests.endAt}, ${butlerRequests.startAt} + make_interval(hours => ${INCLUDED_HOURS})) > ${now.toISOString()}::timestamptz`,
      ),
    );
  const [inFlight] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(payments)
    .where(and(eq(payments.userId, user.id), eq(payments.status, 'PENDING')));
  return {
    role: user.role,
    pendingRequests: pending?.n ?? 0,
    subscriptions: subs.map((s) => {
      const mine = handovers.filter((h) => h.subscriptionId === s.id);
      return {
        isActive: s.isActive,
        endDate: s.endDate,
        billingStatus: s.billingStatus,
        deliveriesDone: mine.filter((h) => h.kind === 'DELIVERY' && h.status === 'DONE').length,
        returnsDone: mine.filter((h) => h.kind === 'RETURN' && h.status === 'DONE').length,
        returnScheduled: mine.some((h) => h.kind === 'RETURN' && h.status === 'SCHEDULED'),
        settlement: settlements.find((x) => x.subscriptionId === s.id)?.status ?? null,
      };
    }),
    butlerTripsAhead: trips?.n ?? 0,
    pendingPayments: inFlight?.n ?? 0,
  };
}

/** GET /accounts/withdrawal: whether this account may be closed now, what must end first, and whether the password is asked. */
export async function closurePreview(db: Db, userId: number, now: Date): Promise<ClosurePreview> {
  const user = await liveUser(db, userId);
  if (!user) throw unauthorized('계정을 찾을 수 없습니다. 다시 로그인해주세요.');
  const blockers = closureBlockers(await closureFacts(db, user, now), todayInKorea(now));
  return { can_withdraw: blockers.length === 0, blockers, needs_password: Boolean(user.passwordHash) };
}

/**
 * DELETE /accounts: closes the account once nothing is running (409 listing what must end first).
 * An account with a password gives it (a wrong one counts toward the login lock, as on PUT
 * /accounts); one without (a social signup) must have logged in within FRESH_LOGIN_SECONDS. The
 * check and the erasure run under the user's row lock, which orders take too.
 */
export async function closeAccount(
  db: Db,
  userId: number,
  input: { current_password?: string },
  session: { sid: string },
  lockFor: (account: string) => PasswordLock,
  now: Date,
): Promise<void> {
  const user = await liveUser(db, userId);
  if (!user) throw unauthorized('계정을 찾을 수 없습니다. 다시 로그인해주세요.');
  if (user.passwordHash) {
    if (!input.current_password) throw badRequest('탈퇴하려면 현재 비밀번호를 입력해주세요.', { current_password: ['현재 비밀번호를 입력해주세요.'] });
    const lock = lockFor(user.email ?? `user:${user.id}`);
    await lock.check();
    if (!(await verifyPassword(input.current_password, user.passwordHash))) {
      await lock.failed();
      throw badRequest('현재 비밀번호가 올바르지 않습니다.', { current_password: ['현재 비밀번호가 올바르지 않습니다.'] });
    }
    await lock.passed();
  } else if (!(await sessionStartedWithin(db, session.sid, FRESH_LOGIN_SECONDS))) {
    throw forbidden('보안을 위해 다시 로그인한 뒤 탈퇴해주세요.');
  }
  await inTransaction(db, async (tx) => {
    const [locked] = await tx.select().from(users).where(and(eq(users.id, userId), isNull(users.deletedAt))).for('update');
    if (!locked) throw unauthorized('계정을 찾을 수 없습니다. 다시 로그인해주세요.');
    const blockers = closureBlockers(await closureFacts(tx, locked, now), todayInKorea(now));
    if (blockers.length) throw conflict(closureRefusal(blockers), { blockers: blockers.map((b) => b.message) });
    await withdraw(tx, userId);
  });
}
