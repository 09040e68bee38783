import { and, eq, gt, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rateLimits } from '../db/schema';

/** One counter's current window: hits so far and the milliseconds until it ends. */
export interface WindowCount {
  count: number;
  retryAfterMs: number;
}

/**
 * Where rate-limit counters live. A window opens at a key's first hit and lasts `windowMs`;
 * hits after it has ended open a new one. Implementations must count atomically: concurrent
 * hits from any number of processes never lose an increment.
 */
export interface RateLimitStore {
  /** Counts one hit on (bucket, key) and answers the window's count including it. */
  hit(bucket: string, key: string, windowMs: number): Promise<WindowCount>;
  /** The open window of (bucket, key) without counting, or null when none is open. */
  peek(bucket: string, key: string): Promise<WindowCount | null>;
  /** Forgets (bucket, key). */
  reset(bucket: string, key: string): Promise<void>;
  /** Deletes the counters whose window has ended; answers how many. */
  sweep(): Promise<number>;
}

const t = rateLimits;
/** Milliseconds from the database's now() to the row's expires_at (in RETURNING: the new row). */
const retryAfterMs = sql<number>`(extract(epoch from (${t.expiresAt} - now())) * 1000)::float8`.mapWith(Number);

/**
 * The counters in the `rate_limits` table, so every replica on one DATABASE_URL shares one
 * budget (PGlite, one process, uses the same code). Time is the database's `now()`, one clock for
 * all replicas. A hit is one statement: INSERT … ON CONFLICT (bucket, key) DO UPDATE, which locks
 * the row, so concurrent hits queue on it and each sees the count before it (no lost increments);
 * the same statement starts a new window over an ended one.
 */
export class DbRateLimitStore implements RateLimitStore {
  constructor(private db: Db) {}

  async hit(bucket: string, key: string, windowMs: number): Promise<WindowCount> {
    const ended = sql`${t.expiresAt} <= now()`;
    const [row] = await this.db
      .insert(t)
      .values({ bucket, key, count: 1, windowStart: sql`now()`, expiresAt: sql`now() + make_interval(secs => ${windowMs / 1000}::float8)` })
      .onConflictDoUpdate({
        target: [t.bucket, t.key],
        // Every right-hand side reads the row as it was before this hit.
        set: {
          count: sql`CASE WHEN ${ended} THEN 1 ELSE ${t.count} + 1 END`,
          windowStart: sql`CASE WHEN ${ended} THEN now() ELSE ${t.windowStart} END`,
          expiresAt: sql`CASE WHEN ${ended} THEN excluded.expires_at ELSE ${t.expiresAt} END`,
        },
      })
      .returning({ count: t.count, retryAfterMs });
    return row;
  }

  async peek(bucket: string, key: string): Promise<WindowCount | null> {
    const [row] = await this.db
      .select({ count: t.count, retryAfterMs })
      .from(t)
      .where(and(eq(t.bucket, bucket), eq(t.key, key), gt(t.expiresAt, sql`now()`)));
    return row ?? null;
  }

  async reset(bucket: string, key: string): Promise<void> {
    await this.db.delete(t).where(and(eq(t.bucket, bucket), eq(t.key, key)));
  }

  async sweep(): Promise<number> {
    // A hit that renews a row while this runs wins: PostgreSQL re-checks the condition on the renewed row.
    const result = await this.db.execute(sql`with gone as (delete from ${t} where ${t.expiresAt} <= now() returning 1) select count(*)::int as n from gone`);
    const rows = (result as { rows: { n: number }[] }).rows;
    return Number(rows[0]?.n ?? 0);
  }
}
