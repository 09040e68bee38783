import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { setPriority, totalmem } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BuildJob, ChildMessage, FullJob, PagesJob, PagesResult } from './child/messages';

const CHILD = fileURLToPath(new URL('./child/build-child.ts', import.meta.url));

/**
 * The build child's heap limit: half the machine's memory, never below V8's own default of about
 * 4 GB. The headroom is for catalogues larger than the 100,000 cars measured.
 */
export function buildHeapMb(total = totalmem()): number {
  return Math.max(4096, Math.floor(total / 2 / 1024 / 1024));
}

/** The server's environment for the build child, less what the snapshot and the job say (the build reads those only). */
function childEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(env)) if (!k.startsWith('PUBLIC_') && !['SITE_URL', 'DIST_DIR', 'ASTRO_CACHE_DIR', 'API_BASE_URL'].includes(k)) out[k] = v;
  // Always a production bundle, even when the server itself runs with NODE_ENV=test.
  return { ...out, NODE_ENV: 'production', ASTRO_TELEMETRY_DISABLED: '1' };
}

/** BUILD_CHILD_FLAGS: more Node flags for the child (`--cpu-prof --heap-prof`: scripts/profile-publish.ts). */
const childFlags = (env: NodeJS.ProcessEnv): string[] => (env.BUILD_CHILD_FLAGS ?? '').split(/\s+/).filter(Boolean);

/** Builds share the machine with the server: their children run at a lower CPU priority, so the server's requests go first. */
export function lowerPriority(child: ChildProcess): void {
  if (!child.pid) return;
  try {
    setPriority(child.pid, 10);
  } catch {
    /* not permitted here: run at normal priority */
  }
}

/** Ends a child: SIGTERM, and SIGKILL if it is still there 3 s later. */
export function endChild(child: ChildProcess): void {
  child.kill('SIGTERM');
  setTimeout(() => child.kill('SIGKILL'), 3000).unref();
}

/** A job the builder could not do because it holds no catalogue or bundle it can use: the server sends the whole catalogue, or builds in full. */
export class ColdBuilder extends Error {}

/**
 * The server's side of the build child (child/build-child.ts): one child per replica, started for the
 * first build and kept, warm, for the next edit. A child warmed with other sources or settings
 * (`key`) is replaced; one that dies is started again at the next job. Builds share the machine
 * with the server, so the child runs at a lower CPU priority.
 *
 * It alone records which served build's catalogue the child holds (`holds`): every job sent
 * changes the child's catalogue, so sending one forgets it, and the builds tell it (`served`)
 * once the catalogue a job gave the child is live.
 */
export class SiteBuilder {
  private child: ChildProcess | null = null;
  private key: string | null = null;
  /** Output of the child, the last 8,000 characters (for the error of a child that died). */
  private output = '';
  /** The last job sent to the child (its catalogue is the one the child holds), or null. */
  private given: BuildJob | null = null;
  /** The served build that job's catalogue is (its stamp's builtAt), once a build said so. */
  private servedAs: string | null = null;
  /** Jobs go to the child one at a time (a warm-up and an edit may ask together). */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly opts: { projectRoot: string; quiet: boolean; /** Starts the child (tests give a fake one). */ spawnChild?: () => ChildProcess }) {}

  /** The served build whose catalogue the child holds (its stamp's builtAt), or null: cold, another catalogue, or not known. */
  get holds(): string | null {
    return this.servedAs;
  }

  /**
   * Records that the catalogue `job` gave the child is the one of the served build `builtAt`
   * (called once that build is live). Ignored when the child was given another job since, or
   * was replaced: it holds another catalogue then.
   */
  served(job: BuildJob, builtAt: string): void {
    if (this.child && this.given === job) this.servedAs = builtAt;
  }

  /** A full build (FullJob); the child keeps its prerenderer afterwards. */
  full(job: FullJob, key: string, signal?: AbortSignal, onMessage?: (m: ChildMessage) => void): Promise<number> {
    return this.run(job, key, signal, onMessage).then((m) => m.pages);
  }

  /** The pages an edit changed (PagesJob); rejects with ColdBuilder when the child cannot do it with what it holds. */
  pages(job: PagesJob, key: string, signal?: AbortSignal, onMessage?: (m: ChildMessage) => void): Promise<PagesResult> {
    return this.run(job, key, signal, onMessage).then((m) => m.result!);
  }

  /** Ends the child (a running job fails). */
  stop(): void {
    if (this.child) endChild(this.child);
    this.child = null;
    this.key = null;
    this.forget();
  }

  /** The child holds no catalogue the server knows. */
  private forget(): void {
    this.given = null;
    this.servedAs = null;
  }

  private start(key: string): ChildProcess {
    // The pinned Node 24 from the `node` devDependency, even when started by an older system node.
    const pinnedNode = path.join(this.opts.projectRoot, 'node_modules', '.bin', 'node');
    const child =
      this.opts.spawnChild?.() ??
      spawn(existsSync(pinnedNode) ? pinnedNode : process.execPath, [`--max-old-space-size=${buildHeapMb()}`, ...childFlags(process.env), CHILD], {
        cwd: this.opts.projectRoot,
        env: childEnv(process.env),
        stdio: ['ignore', this.opts.quiet ? 'ignore' : 'inherit', 'pipe', 'ipc'],
      });
    lowerPriority(child);
    this.output = '';
    child.stderr?.on('data', (d: Buffer) => (this.output = (this.output + d.toString('utf8')).slice(-8000)));
    child.once('exit', () => {
      if (this.child !== child) return;
      this.child = null;
      this.key = null;
      this.forget();
    });
    this.child = child;
    this.key = key;
    return child;
  }

  private run(job: FullJob | PagesJob, key: string, signal?: AbortSignal, onMessage?: (m: ChildMessage) => void): Promise<Extract<ChildMessage, { type: 'done' }>> {
    const turn = this.queue.then(() => this.runNow(job, key, signal, onMessage));
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  private runNow(job: FullJob | PagesJob, key: string, signal?: AbortSignal, onMessage?: (m: ChildMessage) => void): Promise<Extract<ChildMessage, { type: 'done' }>> {
    if (this.child && this.key !== key) this.stop();
    const child = this.child ?? this.start(key);
    return new Promise((resolve, reject) => {
      const done = () => {
        child.off('message', message);
        child.off('exit', exit);
        signal?.removeEventListener('abort', abort);
      };
      const message = (m: ChildMessage) => {
        if (m.type === 'progress') return onMessage?.(m);
        done();
        if (m.type === 'done') return resolve(m);
        // A failed job leaves the child holding nothing the server knows (a full build: nothing it can use).
        if (this.given === job) this.forget();
        reject(m.cold ? new ColdBuilder(m.error) : new Error(`astro build failed: ${m.error.trim().slice(-4000)}`));
      };
      const exit = (code: number | null, sig: NodeJS.Signals | null) => {
        done();
        if (signal?.aborted) reject(new Error('astro build stopped: the server is shutting down'));
        else reject(new Error(`astro build failed (${sig ? `signal ${sig}` : `exit ${code}`})${this.output.trim() ? `:\n${this.output.trim().slice(-4000)}` : ''}`));
      };
      const abort = () => this.stop();
      child.on('message', message);
      child.once('exit', exit);
      if (signal?.aborted) abort();
      signal?.addEventListener('abort', abort, { once: true });
      // From now on the child holds this job's catalogue, which is no served build's until a build says so.
      this.given = job;
      this.servedAs = null;
      child.send(job);
    });
  }
}
