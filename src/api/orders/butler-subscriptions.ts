import { and, desc, eq, ne } from 'drizzle-orm';
import type { ButlerSubscriptionView } from '../../domain/butler';
import type { Db } from '../db/client';
import { butlerRequests, butlerSubscriptions } from '../db/schema';
import type { RequestRow } from './butler-requests';
import { toViews } from './butler-views';

/** A butler subscription in API shape. */
export async function subscriptionViews(db: Db, rows: { sub: typeof butlerSubscriptions.$inferSelect; request: RequestRow }[], now: Date): Promise<ButlerSubscriptionView[]> {
  const views = await toViews(db, rows.map((r) => r.request), now);
  return rows.map((r, i) => ({ id: r.sub.id, created_at: r.sub.createdAt.toISOString(), modified_at: r.sub.modifiedAt.toISOString(), request: views[i] }));
}

/** GET /butlers: the user's butler subscriptions (confirmed requests not cancelled since), newest first. */
export async function listButlerSubscriptions(db: Db, userId: number, now: Date): Promise<ButlerSubscriptionView[]> {
  const rows = await db
    .select({ sub: butlerSubscriptions, request: butlerRequests })
    .from(butlerSubscriptions)
    .innerJoin(butlerRequests, eq(butlerRequests.id, butlerSubscriptions.requestId))
    .where(and(eq(butlerSubscriptions.userId, userId), ne(butlerRequests.status, 'CANCELLED')))
    .orderBy(desc(butlerSubscriptions.createdAt), desc(butlerSubscriptions.id));
  return subscriptionViews(db, rows, now);
}
