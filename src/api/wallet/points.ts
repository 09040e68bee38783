import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { pointTransactions, users } from '../db/schema';
import { formatNumber } from '../../domain/money';
import { unprocessable } from '../errors';

/** A ledger entry's identity; the unique index makes an entry tied to a record happen once. */
export interface LedgerEntry {
  userId: number;
  amount: number;
  reason: string;
  description?: string | null;
  refType?: string | null;
  refId?: number | null;
}

/** The balance in won: the sum of the user's ledger rows. */
export async function pointBalance(db: Db, userId: number): Promise<number> {
  const [row] = await db
    .select({ total: sql<string | number | null>`coalesce(sum(${pointTransactions.amount}), 0)` })
    .from(pointTransactions)
    .where(eq(pointTransactions.userId, userId));
  return Number(row?.total ?? 0);
}

/** Locks the user's row until the transaction ends, so balance checks and spends of one user run one at a time. */
export async function lockUser(tx: Db, userId: number): Promise<void> {
  await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
}

/** Adds a credit row; returns false when this (user, reason, ref) was already credited. */
export async function creditPoints(tx: Db, entry: LedgerEntry): Promise<boolean> {
  const rows = await tx
    .insert(pointTransactions)
    .values({ ...entry, amount: Math.abs(entry.amount) })
    .onConflictDoNothing()
    .returning({ id: pointTransactions.id });
  return rows.length > 0;
}

/**
 * Spends points inside the caller's transaction: locks the user row, checks the balance and
 * writes a negative row. Throws 422 (nothing written) when the balance is short.
 */
export async function spendPoints(tx: Db, entry: LedgerEntry): Promise<void> {
  const amount = Math.abs(entry.amount);
  if (amount === 0) return;
  await lockUser(tx, entry.userId);
  const balance = await pointBalance(tx, entry.userId);
  if (amount > balance) {
    throw unprocessable('보유 포인트가 부족합니다.', { point_amount: [`사용 가능한 포인트는 ${formatNumber(balance)}P 입니다.`] });
  }
  await tx.insert(pointTransactions).values({ ...entry, amount: -amount });
}

/** The user's ledger, newest first, in API shape. */
export async function pointHistory(db: Db, userId: number) {
  const rows = await db
    .select()
    .from(pointTransactions)
    .where(and(eq(pointTransactions.userId, userId)))
    .orderBy(desc(pointTransactions.createdAt), desc(pointTransactions.id));
  return rows.map((r) => ({ id: r.id, amount: r.amount, reason: r.reason, description: r.description, created_at: r.createdAt.toISOString() }));
}
