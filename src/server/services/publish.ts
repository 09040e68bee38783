import { hostname } from 'node:os';
import { and, desc, eq, like, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { publishBuilds } from '../db/schema';
import { catalogueVersion } from './catalogue';

/** What asked for a build: a catalogue edit, the console's 발행, a machine webhook, or the server starting. */
export type BuildTrigger = 'edit' | 'publish' | 'webhook' | 'start';
export type BuildStatus = 'running' | 'done' | 'failed';

/** One row of publish_builds as the console reads it (dates as ISO strings). */
export interface BuildRow {
  id: number;
  catalogueVersion: number;
  status: BuildStatus;
  trigger: BuildTrigger;
  progress: number;
  replica: string | null;
  error: string | null;
  startedAt: string;
  finishedAt: string | null;
  durationMs: number | null;
}

export interface PublishStatus {
  /** The catalogue's version now (bumped by every catalogue write). */
  catalogueVersion: number;
  /** The catalogue version of the newest successful build; null before the first one. */
  publishedVersion: number | null;
  running: BuildRow | null;
  lastDone: BuildRow | null;
  lastFailed: BuildRow | null;
}

/** A `running` row older than this is a build whose replica died without saying so. */
export const STALE_RUNNING_MS = 60 * 60 * 1000;

/** This process as publish_builds names it: `REPLICA_ID` when set, else `host:pid`. */
export function replicaName(): string {
  return (process.env.REPLICA_ID?.trim() || `${hostname()}:${process.pid}`).slice(0, 120);
}

function toRow(r: typeof publishBuilds.$inferSelect): BuildRow {
  return {
    id: r.id,
    catalogueVersion: r.catalogueVersion,
    status: r.status as BuildStatus,
    trigger: r.trigger as BuildTrigger,
    progress: r.progress,
    replica: r.replica,
    error: r.error,
    startedAt: new Date(r.startedAt).toISOString(),
    finishedAt: r.finishedAt ? new Date(r.finishedAt).toISOString() : null,
    durationMs: r.durationMs,
  };
}

async function newest(db: Db, status: BuildStatus): Promise<BuildRow | null> {
  const [row] = await db.select().from(publishBuilds).where(eq(publishBuilds.status, status)).orderBy(desc(publishBuilds.startedAt), desc(publishBuilds.id)).limit(1);
  return row ? toRow(row) : null;
}

/** What the console shows: the build in progress, the last published and the last failed build. */
export async function publishStatus(db: Db): Promise<PublishStatus> {
  const [version, running, lastDone, lastFailed] = await Promise.all([catalogueVersion(db), newest(db, 'running'), newest(db, 'done'), newest(db, 'failed')]);
  const live = running && Date.now() - Date.parse(running.startedAt) < STALE_RUNNING_MS ? running : null;
  return { catalogueVersion: version, publishedVersion: lastDone?.catalogueVersion ?? null, running: live, lastDone, lastFailed };
}

/** Records a build that starts now; returns its id. */
export async function recordBuildStart(db: Db, opts: { catalogueVersion: number; trigger: BuildTrigger; replica?: string }): Promise<number> {
  const [row] = await db
    .insert(publishBuilds)
    .values({ catalogueVersion: opts.catalogueVersion, status: 'running', trigger: opts.trigger, progress: 0, replica: opts.replica ?? replicaName() })
    .returning({ id: publishBuilds.id });
  return row.id;
}

/** Progress 0–100 of a running build (never moves a finished row). */
export async function recordBuildProgress(db: Db, id: number, progress: number): Promise<void> {
  const p = Math.max(0, Math.min(100, Math.round(progress)));
  await db.update(publishBuilds).set({ progress: p }).where(and(eq(publishBuilds.id, id), eq(publishBuilds.status, 'running')));
}

/** Ends a build: done (progress 100) or failed with its error. */
export async function recordBuildEnd(db: Db, id: number, outcome: { error?: unknown }): Promise<void> {
  const failed = outcome.error !== undefined && outcome.error !== null;
  const message = failed ? (outcome.error instanceof Error ? outcome.error.message : String(outcome.error)).slice(-8000) : null;
  await db
    .update(publishBuilds)
    .set({
      status: failed ? 'failed' : 'done',
      progress: failed ? sql`${publishBuilds.progress}` : 100,
      error: message,
      finishedAt: new Date(),
      durationMs: sql`GREATEST(0, (EXTRACT(EPOCH FROM (now() - ${publishBuilds.startedAt})) * 1000)::int)`,
    })
    .where(eq(publishBuilds.id, id));
}

/**
 * Builds this replica left `running` when it died (kill -9, power loss): the same replica name,
 * or the same host with a process id that no longer runs. Marked failed at start so the console
 * does not show a build in progress forever.
 */
export async function failAbandonedBuilds(db: Db, replica = replicaName()): Promise<number> {
  const rows = await db
    .select({ id: publishBuilds.id, replica: publishBuilds.replica })
    .from(publishBuilds)
    .where(and(eq(publishBuilds.status, 'running'), like(publishBuilds.replica, `${replica.split(':')[0]}%`)));
  const dead = rows.filter((r) => r.replica === replica || !processAlive(r.replica));
  for (const r of dead) await recordBuildEnd(db, r.id, { error: new Error('The replica running this build stopped before it finished.') });
  // Whatever replica wrote them, rows older than the stale limit are not running any more.
  await db
    .update(publishBuilds)
    .set({ status: 'failed', error: 'The build did not finish in time.', finishedAt: new Date() })
    .where(and(eq(publishBuilds.status, 'running'), lt(publishBuilds.startedAt, new Date(Date.now() - STALE_RUNNING_MS))));
  return dead.length;
}

function processAlive(replica: string | null): boolean {
  const m = replica?.match(/^(.*):(\d+)$/);
  if (!m || m[1] !== hostname()) return true;
  const pid = Number(m[2]);
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
