import { and, desc, eq, type SQL } from 'drizzle-orm';
import type { AuditEntry as AuditEntryView, AuditPage } from '../../domain/console';
import { inTransaction, type Db } from '../db/client';
import { auditLog, butlerRequests, payments, subscriptionRequests, subscriptions, users } from '../db/schema';
import type { StaffActor } from '../auth/guards';
import { ADMIN_PAGE_SIZE, onPage, paginationInfo, totalRows } from '../pagination';

/**
 * The audit log staff read in the console: who did what to which row, with the row before and the
 * answer after. Every staff write records its row in the write's own transaction.
 */

export interface AuditEntry {
  action: 'create' | 'update' | 'delete' | 'archive' | 'restore' | 'publish' | 'confirm' | 'cancel' | 'refund' | 'retry' | 'trip' | 'assign' | 'unassign' | 'invite' | 'correct_stages' | 'change_pickup' | 'change_trip' | 'odometer' | 'settle' | 'refuse_eligibility' | 'reissue' | 'resend' | 'mark_paid' | 'read' | 'approve' | 'decline' | 'remove' | 'accept' | 'refuse';
  entity: string;
  entityId: number | string | null;
  before: unknown;
  after: unknown;
}

/** A customer acting on their own order, as the audit log names them: customer:{email, else username, else id}. */
export async function customerActor(db: Db, userId: number): Promise<StaffActor> {
  const [u] = await db.select({ email: users.email, username: users.username }).from(users).where(eq(users.id, userId));
  return { userId, name: `customer:${u?.email ?? u?.username ?? userId}` };
}

/** One audit_log row (who, what, when, before/after); call inside the write's transaction. */
export async function recordAudit(tx: Db, actor: StaffActor, e: AuditEntry): Promise<void> {
  await tx.insert(auditLog).values({
    actorUserId: actor.userId,
    actor: actor.name.slice(0, 254),
    action: e.action,
    entity: e.entity,
    entityId: e.entityId === null ? null : String(e.entityId),
    before: e.before ?? null,
    after: e.after ?? null,
  });
}

/** The order desk's audited rows, as they are before an action (null when missing: the action answers 404 itself). */
const ORDER_ROWS = {
  subscription_request: (tx: Db, id: number) => tx.select().from(subscriptionRequests).where(eq(subscriptionRequests.id, id)),
  subscription: (tx: Db, id: number) => tx.select().from(subscriptions).where(eq(subscriptions.id, id)),
  butler_request: (tx: Db, id: number) => tx.select().from(butlerRequests).where(eq(butlerRequests.id, id)),
};

/**
 * An order-desk action (confirm, cancel, subscription on/off) and its audit row in one
 * transaction; the service's own transaction nests in it (a savepoint). The row as it was is
 * recorded as `before`, the answer as `after`.
 */
export async function auditedAction<T>(db: Db, actor: StaffActor, what: { action: AuditEntry['action']; entity: keyof typeof ORDER_ROWS; entityId: number }, work: (tx: Db) => Promise<T>): Promise<T> {
  return inTransaction(db, async (tx) => {
    const [row] = await ORDER_ROWS[what.entity](tx, what.entityId);
    // The billing key is a payment credential: it stays in its own row, never in the log staff read.
    const before = row ? (({ billingKey: _key, ...rest }: Record<string, unknown>) => rest)(row) : null;
    const result = await work(tx);
    await recordAudit(tx, actor, { ...what, before, after: result });
    return result;
  });
}

/** The audit row of an action that writes it itself, in its own last transaction (see auditedCall). */
export type AuditWriter = (tx: Db, result: unknown) => Promise<void>;

/**
 * An order-desk action that moves money before its final transaction (a refund at the provider
 * cannot be rolled back with it): the row as it was is read first, and the action writes the
 * audit row with `audit(tx, result)` inside its own final transaction.
 */
export async function auditedCall<T>(db: Db, actor: StaffActor, what: { action: AuditEntry['action']; entity: keyof typeof ORDER_ROWS | 'payment'; entityId: number | string }, work: (audit: AuditWriter) => Promise<T>): Promise<T> {
  const [row] = what.entity === 'payment' ? await db.select().from(payments).where(eq(payments.id, String(what.entityId))) : await ORDER_ROWS[what.entity](db, Number(what.entityId));
  const before = row ? (({ billingKey: _key, ...rest }: Record<string, unknown>) => rest)(row) : null;
  return work((tx, result) => recordAudit(tx, actor, { action: what.action, entity: what.entity, entityId: what.entityId, before, after: result }));
}

/** The audit log, newest first. */
export async function auditList(db: Db, q: { entity?: string; entity_id?: string; page: number }): Promise<AuditPage> {
  const where: SQL[] = [];
  if (q.entity) where.push(eq(auditLog.entity, q.entity));
  if (q.entity_id) where.push(eq(auditLog.entityId, q.entity_id));
  const query = db
    .select({ row: auditLog, total: totalRows() })
    .from(auditLog)
    .where(where.length ? and(...where) : undefined)
    .orderBy(desc(auditLog.id));
  const rows = await onPage(query.$dynamic(), q.page, ADMIN_PAGE_SIZE);
  return {
    entries: rows.map(({ row }) => ({
      id: row.id,
      actor: row.actor,
      actor_user_id: row.actorUserId,
      action: row.action,
      entity: row.entity,
      entity_id: row.entityId,
      // jsonb as recordAudit stored it: a row's fields, or null.
      before: row.before as AuditEntryView['before'],
      after: row.after as AuditEntryView['after'],
      created_at: row.createdAt.toISOString(),
    })),
    pagination_info: paginationInfo(q.page, rows[0]?.total ?? 0, ADMIN_PAGE_SIZE),
  };
}
