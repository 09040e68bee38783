import { hostname } from 'node:os';
import { and, eq, like, lt, sql } from 'drizzle-orm';
import pg from 'pg';
import type { Db } from '../../api/db/client';
import { publishBuilds } from '../../api/db/schema';
import { catalogueVersion } from '../../api/catalogue/catalogue';
import { STALE_RUNNING_MS, type BuildTrigger } from '../../api/catalogue/publish-builds';
import { processRuns } from './dist-folders';

export type { BuildTrigger };

/** This process as publish_builds names it: `REPLICA_ID` when set, else `host:pid`. */
export function replicaName(): string {
  return (process.env.REPLICA_ID?.trim() || `${hostname()}:${process.pid}`).slice(0, 120);
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
  return processRuns(Number(m[2]));
}

/** Asks for a build (progress 0–100 through onProgress); the publisher records it in publish_builds. */
export type SiteBuilder = (catalogueVersion: number, onProgress: (progress: number) => void, signal: AbortSignal, trigger: BuildTrigger) => Promise<void>;

export interface PublisherOptions {
  db: Db;
  /** PostgreSQL URL: builds across replicas take the site's advisory lock (one build at a time, one per version). */
  databaseUrl?: string;
  /** Whether this replica's DIST_DIR holds the catalogue version's build for the current sources (stamp check). */
  isFresh: (catalogueVersion: number) => boolean;
  /** Whether this replica has any build to serve. */
  hasSite: () => boolean;
  build: SiteBuilder;
  log?: (level: 'info' | 'error', message: string) => void;
  /** Edits closer together than this are one build (default EDIT_DEBOUNCE_MS). */
  debounceMs?: number;
  replica?: string;
}

export interface Publisher {
  /**
   * A build for `trigger`: edits are debounced, and requests that arrive while a build runs are
   * coalesced into one more build after it. `force` builds even when the version is unchanged.
   * Resolves when the build that covers this request has ended (rejects with its error).
   */
  request(trigger: BuildTrigger, opts?: { force?: boolean }): Promise<void>;
  /** Ends a running build (its child process) and any waiting; the build row is marked failed. */
  stop(): Promise<void>;
}

/**
 * How long an edit waits for the edits that come with it (a form's save: the car, its options,
 * its photos) before its build starts. Short: edits during a build are one more build after it
 * anyway, so a longer wait only delays every edit (it was 500 ms, a third of an edit at 100,000 cars).
 */
const EDIT_DEBOUNCE_MS = 150;

/** The advisory lock key of the storefront build (any 64-bit constant; "luxe" "site"). */
const BUILD_LOCK_KEY = 0x6c757865_73697465n;

/**
 * One publisher per replica. Every build runs under a PostgreSQL advisory lock on the site
 * (session lock on its own connection, released by PostgreSQL if the replica dies), so one
 * build runs at a time across replicas; under the lock a replica builds only when no build of
 * the current catalogue version exists yet: its DIST_DIR is already that version (a shared
 * DIST_DIR another replica just built), or another replica's build of it is done — so each
 * catalogue version is built once. On PGlite there is one process and no lock.
 */
export function createPublisher(opts: PublisherOptions): Publisher {
  const { db } = opts;
  const log = opts.log ?? (() => {});
  const controller = new AbortController();
  let requested = 0;
  let pending: { trigger: BuildTrigger; force: boolean } | null = null;
  let loop: Promise<void> | null = null;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const waiters = new Set<{ n: number; resolve: () => void; reject: (err: unknown) => void }>();

  const runOnce = async (trigger: BuildTrigger, force: boolean): Promise<void> => {
    await withBuildLock(opts.databaseUrl, controller.signal, async () => {
      if (stopped) return;
      const version = await catalogueVersion(db);
      if (!force && opts.isFresh(version)) return;
      if (!force && opts.databaseUrl && opts.hasSite() && (await builtElsewhere(db, version))) {
        log('info', `Catalogue version ${version} was built by another replica; this replica keeps its DIST_DIR (share DIST_DIR or serve the site from the CDN).`);
        return;
      }
      const id = await recordBuildStart(db, { catalogueVersion: version, trigger, replica: opts.replica });
      let writes = Promise.resolve();
      let lastWrite = 0;
      const onProgress = (p: number) => {
        if (Date.now() - lastWrite < 500 || p >= 100) return;
        lastWrite = Date.now();
        writes = writes.then(() => recordBuildProgress(db, id, p)).catch(() => {});
      };
      try {
        await opts.build(version, onProgress, controller.signal, trigger);
        await writes;
        await recordBuildEnd(db, id, {});
      } catch (err) {
        await writes;
        await recordBuildEnd(db, id, { error: err }).catch(() => {});
        throw err;
      }
    });
  };

  /** Builds while requests are pending: requests that arrive during a build are one more build after it. */
  const kick = () => {
    clearTimeout(timer);
    timer = undefined;
    if (loop) return;
    loop = (async () => {
      while (pending && !stopped) {
        const job = pending;
        pending = null;
        const covers = requested;
        let failure: { error: unknown } | null = null;
        try {
          await runOnce(job.trigger, job.force);
        } catch (error) {
          failure = { error };
          if (!stopped) log('error', `storefront build failed: ${error instanceof Error ? error.message : String(error)}`);
        }
        for (const w of [...waiters]) {
          if (w.n > covers) continue;
          waiters.delete(w);
          // A build that stop() ended is no failure of the request.
          if (failure && !stopped) w.reject(failure.error);
          else w.resolve();
        }
      }
    })().finally(() => {
      loop = null;
      if (stopped) for (const w of waiters) w.resolve();
      // A request that arrived after the last check of the loop.
      else if (pending && !timer) kick();
    });
  };

  return {
    request(trigger, { force = false } = {}) {
      if (stopped) return Promise.resolve();
      const n = ++requested;
      pending = { trigger: pending && pending.trigger !== 'edit' ? pending.trigger : trigger, force: force || Boolean(pending?.force) };
      const done = new Promise<void>((resolve, reject) => void waiters.add({ n, resolve, reject }));
      if (trigger === 'edit' && !loop) {
        clearTimeout(timer);
        timer = setTimeout(() => {
          timer = undefined;
          kick();
        }, opts.debounceMs ?? EDIT_DEBOUNCE_MS);
      } else if (trigger !== 'edit') kick();
      return done;
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      controller.abort();
      await loop?.catch(() => {});
      for (const w of waiters) w.resolve();
      waiters.clear();
    },
  };
}

async function builtElsewhere(db: Db, version: number): Promise<boolean> {
  const [row] = await db
    .select({ id: publishBuilds.id })
    .from(publishBuilds)
    .where(and(eq(publishBuilds.status, 'done'), eq(publishBuilds.catalogueVersion, version)))
    .limit(1);
  return Boolean(row);
}

/** Runs `work` holding the site's advisory lock on its own connection (PostgreSQL), or at once (PGlite). */
async function withBuildLock(url: string | undefined, signal: AbortSignal, work: () => Promise<void>): Promise<void> {
  if (!url) return work();
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  const end = () => void client.end().catch(() => {});
  signal.addEventListener('abort', end, { once: true });
  try {
    await client.connect();
    await client.query('SELECT pg_advisory_lock($1)', [BUILD_LOCK_KEY.toString()]);
    if (signal.aborted) return;
    await work();
  } finally {
    signal.removeEventListener('abort', end);
    await client.query('SELECT pg_advisory_unlock($1)', [BUILD_LOCK_KEY.toString()]).catch(() => {});
    await client.end().catch(() => {});
  }
}
