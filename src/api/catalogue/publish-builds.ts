import { desc, eq, gt, min } from 'drizzle-orm';
import { publishLag, type PublishLag } from '../../domain/publish-lag';
import type { Db } from '../db/client';
import { catalogueState, publishBuilds } from '../db/schema';
import { catalogueVersion } from './catalogue';
import { wallMs } from '../jobs/clock';

/**
 * The storefront builds as publish_builds records them: what the console reads. The host's
 * publisher (src/host/publish/publisher.ts) writes the rows.
 */
/** What asked for a build: a catalogue edit, the console's 발행, a machine webhook, or the server starting. */
export type BuildTrigger = 'edit' | 'publish' | 'webhook' | 'start';
type BuildStatus = 'running' | 'done' | 'failed';

/** One row of publish_builds as the console reads it (dates as ISO strings). */
interface BuildRow {
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
  /** The pages behind the catalogue for longer than a minute (src/domain/publish-lag.ts), else null. */
  lag: PublishLag | null;
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

/**
 * When the catalogue first moved past the published version, as near as the tables tell: the
 * first build asked for a newer version (an edit asks within a second, unless the build lock
 * keeps it waiting) or the catalogue's last change, whichever is earlier.
 */
async function behindSince(db: Db, published: number | null): Promise<Date | null> {
  const [[build], [state]] = await Promise.all([
    db.select({ at: min(publishBuilds.startedAt) }).from(publishBuilds).where(published === null ? undefined : gt(publishBuilds.catalogueVersion, published)),
    db.select({ at: catalogueState.updatedAt }).from(catalogueState).limit(1),
  ]);
  const times = [build?.at, state?.at].filter((t): t is Date => t !== null && t !== undefined).map((t) => new Date(t));
  return times.length ? new Date(Math.min(...times.map((t) => t.getTime()))) : null;
}

/** What the console shows: the build in progress, the last published and the last failed build, and the pages' lag at `now`. */
export async function publishStatus(db: Db, now = new Date(wallMs())): Promise<PublishStatus> {
  const [version, running, lastDone, lastFailed] = await Promise.all([catalogueVersion(db), newest(db, 'running'), newest(db, 'done'), newest(db, 'failed')]);
  const live = running && now.getTime() - Date.parse(running.startedAt) < STALE_RUNNING_MS ? running : null;
  const publishedVersion = lastDone?.catalogueVersion ?? null;
  const behind = publishedVersion === null || publishedVersion < version;
  const lag = behind ? publishLag({ catalogueVersion: version, publishedVersion, behindSince: await behindSince(db, publishedVersion) }, now) : null;
  return { catalogueVersion: version, publishedVersion, running: live, lastDone, lastFailed, lag };
}

