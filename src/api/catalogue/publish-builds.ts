import { desc, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { publishBuilds } from '../db/schema';
import { catalogueVersion } from './catalogue';

/**
 * The storefront builds as publish_builds records them: what the console reads. The host's
 * publisher (src/host/publish/publisher.ts) writes the rows.
 */
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

