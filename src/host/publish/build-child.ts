/**
 * The storefront builder: a child process of the server (see site-builder.ts) that stays up
 * between builds. None of its work runs on the server's event loop, and it ends by itself when
 * the server goes away (stop(), a signal, or kill -9 of the server: the IPC channel closes and
 * the parent pid changes).
 *
 * Two jobs, one at a time:
 *  - `full`: `astro build` into a staging folder. Every page is rendered through a wrapper of
 *    Astro's prerenderer that notes what of the catalogue the page read (build-snapshot.ts) and
 *    hands its HTML to the compression workers while the next page renders. The wrapper keeps
 *    Astro's prerenderer, with the page bundle loaded, after the build: the builder is warm.
 *  - `pages`: after an edit, the builder takes the new catalogue (the change, or all of it) and
 *    renders again, with the prerenderer it kept, exactly the pages that read what changed, into
 *    a folder of their own, with the sitemap when pages came or went. No bundling, no content
 *    sync, no other page: the server puts these files into the served build.
 *    A cold builder (a new process) first warms up: a build of the pages that are not car pages
 *    and one car page, into a folder thrown away, whose hashed assets must be the served build's.
 *
 * Its inputs are files the server wrote (the snapshot, the change): it asks the server for nothing.
 * Run by Node directly (type stripping), so it imports only node: modules, Astro by path and
 * modules that do the same (named with their .ts extension).
 * Usage: node build-child.ts; jobs arrive over IPC and answers go back the same way.
 */
import { readFileSync } from 'node:fs';
import { copyFile, link, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AstroIntegration, AstroPrerenderer, PathWithRoute } from 'astro';
import { compress, compressionsPending, type Levels } from '../../api/compression.ts';
import type { Car } from '../../domain/car.ts';
import type { CatalogueSnapshot } from '../../domain/catalogue.ts';
import { shippedVariantNames } from '../../domain/photos.ts';
import { readBuildSnapshot, snapshotFile, snapshotState, type CatalogueRead } from '../../integrations/build-snapshot.ts';
import { writeSitemap } from '../../integrations/sitemap.ts';

export interface FullJob {
  kind: 'full';
  projectRoot: string;
  /** Absolute path of astro's entry (astro/dist/index.js) as the server resolved it. */
  astroEntry: string;
  /** Where `astro build` writes (the staging folder). */
  outDir: string;
  /** Astro's cache folder of this DIST_DIR. */
  cacheDir: string;
  /** The build snapshot (in the staging folder): catalogue and settings. */
  snapshot: string;
  /** Pages the previous build wrote, for the progress figure (0 when unknown). */
  expectedPages: number;
  /** Forward Astro's log to stdout. */
  verbose: boolean;
  /** The build being served, if any: files with the same bytes take over its compressed twins. */
  previous?: string;
  /** The photo variants the pages show (file names in `dir`), linked into the build's photos/. */
  photos: { dir: string; names: string[] };
}

/** The parts of the catalogue besides the cars, as page reads name them. */
export const CATALOGUE_PARTS = ['butlerCars', 'faqs', 'terms', 'privacy', 'garageBrands'] as const;
export type CataloguePart = (typeof CATALOGUE_PARTS)[number];

/** What an edit changed since the served build. */
export interface CatalogueChanges {
  /** Cars whose data changed, cars that came (new pages) and cars that went (pages removed). */
  changed: number[];
  added: number[];
  removed: number[];
  parts: CataloguePart[];
}

/** The catalogue after an edit: all of it (a cold builder), or the cars of `changed` and `added` with the ids of every live car. */
export type CatalogueUpdate = { full: string } | { delta: string };

/** The file of a delta update. */
export interface CatalogueDelta {
  liveIds: number[];
  cars: Car[];
  rest: Omit<CatalogueSnapshot, 'cars'>;
}

export interface PagesJob {
  kind: 'pages';
  /** Where the pages rendered again are written (an empty folder), with their compressed twins. */
  outDir: string;
  /** The build being served: a cold builder's warm-up must make the same hashed assets. */
  served: string;
  update: CatalogueUpdate;
  changes: CatalogueChanges;
  /** A cold builder's warm-up build (its snapshot: the full catalogue). */
  warmUp?: Omit<FullJob, 'kind' | 'outDir' | 'expectedPages' | 'previous' | 'photos'>;
  /** The photo variants the pages show, linked into the folder (as a full build does). */
  photos: { dir: string; names: string[] };
}

export interface PagesResult {
  /** Files written (paths relative to the site), compressed twins and sitemap included. */
  written: string[];
  /** Site files to remove (the pages of cars that went, sitemap files no longer listed). */
  removed: string[];
  /** Pages rendered. */
  pages: number;
}

/** Progress and outcome messages to the server. */
export type ChildMessage =
  | { type: 'progress'; phase: 'bundle' | 'pages' | 'compress'; done: number; total: number }
  | { type: 'done'; pages: number; result?: PagesResult }
  | { type: 'failed'; error: string; cold?: boolean };

/** Where a build ships its photos (PHOTO_SITE_PREFIX without its slashes). */
export const PHOTOS_DIR = 'photos';

/**
 * Links every named variant from `from` into `<outDir>/photos/` (hard links: no bytes copied;
 * copies across file systems). A missing variant fails the build: a page would show a hole.
 */
export async function shipPhotos(from: string, names: readonly string[], outDir: string): Promise<void> {
  if (!names.length) return;
  const into = path.join(outDir, PHOTOS_DIR);
  await mkdir(into, { recursive: true });
  let next = 0;
  const worker = async () => {
    while (next < names.length) {
      const name = names[next++];
      const source = path.join(from, name);
      try {
        await link(source, path.join(into, name));
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'EEXIST') continue;
        if (code === 'ENOENT') throw new Error(`The photo variant ${name} is neither in ${from} nor in the database: the build stops rather than publish a page without it.`, { cause: err });
        await copyFile(source, path.join(into, name));
      }
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
}

/**
 * Ends this process when its parent is gone: the IPC channel closes (the parent exited or was
 * killed) or the parent pid changes (re-parented to init). Returns a function that stops watching.
 */
export function watchParent(opts: { parentPid: number; onOrphan: () => void; intervalMs?: number; currentParent?: () => number; channel?: Pick<NodeJS.EventEmitter, 'once' | 'off'> }): () => void {
  const currentParent = opts.currentParent ?? livePpid;
  let fired = false;
  const orphan = () => {
    if (fired) return;
    fired = true;
    stop();
    opts.onOrphan();
  };
  const timer = setInterval(() => {
    if (currentParent() !== opts.parentPid) orphan();
  }, opts.intervalMs ?? 1000);
  timer.unref();
  opts.channel?.once('disconnect', orphan);
  const stop = () => {
    clearInterval(timer);
    opts.channel?.off('disconnect', orphan);
  };
  return stop;
}

/** The parent pid now (process.ppid is fixed at start): from /proc on Linux; elsewhere 1 once the parent no longer runs. */
function livePpid(): number {
  try {
    // Fields after the command name (which may contain spaces): state, ppid, …
    return Number(readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ')[1]);
  } catch {
    try {
      process.kill(process.ppid, 0);
      return process.ppid;
    } catch {
      return 1;
    }
  }
}

const COMPRESSIBLE = /\.(html|js|css|svg|xml|json|txt|webmanifest)$/;
/** Files at most this large are sent as they are (compression would not pay for itself). */
const COMPRESS_MIN_BYTES = 1024;

/**
 * Hashed bundles (`_astro/`) change only with the code and are compressed once, then taken over
 * by later builds: the smallest output. Pages are many and change with the catalogue: quality 6
 * is about ten times faster than 9 on a car page for 3% more bytes; gzip level 6 likewise.
 */
export function compressionLevels(file: string): Levels {
  return /[/\\]_astro[/\\]/.test(file) ? { brotli: 11, gzip: 9 } : { brotli: 6, gzip: 6 };
}

/** A site file and its compressed twins (paths). */
const withTwins = (rel: string) => [rel, `${rel}.br`, `${rel}.gz`];

/** Writes `file`'s brotli and gzip twins (.br, .gz) from its bytes. */
async function writeTwins(file: string, body: Buffer): Promise<void> {
  const levels = compressionLevels(file);
  const [br, gz] = await Promise.all([compress(body, 'br', levels), compress(body, 'gzip', levels)]);
  await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)]);
}

/** Every compressible file over 1 KB under dir. */
export async function compressibleFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !COMPRESSIBLE.test(entry.name)) continue;
    const file = path.join(entry.parentPath, entry.name);
    if ((await stat(file)).size > COMPRESS_MIN_BYTES) out.push(file);
  }
  return out;
}

/**
 * Writes .br and .gz beside every compressible file over 1 KB that `done` does not name, as a CDN
 * would serve them, in the compression workers. With `reuseFrom` (the build being served), a
 * file whose bytes are the same there takes over its twins as hard links: the unchanged bundles
 * are not compressed again.
 */
export async function precompress(dir: string, opts: { done?: ReadonlySet<string>; reuseFrom?: string; onProgress?: (done: number, total: number) => void } = {}): Promise<void> {
  const files = (await compressibleFiles(dir)).filter((file) => !opts.done?.has(file));
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < files.length) {
      const file = files[next++];
      const body = await readFile(file);
      if (!(opts.reuseFrom && (await reuseTwins(body, path.join(opts.reuseFrom, path.relative(dir, file)), file)))) await writeTwins(file, body);
      if (++done % 50 === 0 || done === files.length) opts.onProgress?.(done, files.length);
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
}

/** Links `previous`'s .br/.gz beside `file` when `previous` holds the same bytes; false when it does not (or has no twins). */
async function reuseTwins(body: Buffer, previous: string, file: string): Promise<boolean> {
  try {
    if (!body.equals(await readFile(previous))) return false;
    await Promise.all(['.br', '.gz'].map((ext) => link(`${previous}${ext}`, `${file}${ext}`)));
    return true;
  } catch {
    // Missing in the previous build, or a twin absent: compress this one.
    await Promise.all(['.br', '.gz'].map((ext) => rm(`${file}${ext}`, { force: true })));
    return false;
  }
}

/** The file a page's pathname is written to (Astro's `directory` format): /car/1/ → car/1/index.html, /robots.txt → robots.txt. */
export function pageFile(pathname: string): string {
  const decoded = decodeURI(pathname).replace(/^\/+/, '');
  return decoded === '' || decoded.endsWith('/') ? `${decoded}index.html` : decoded;
}

/** The pathname a page is asked for by (Astro's `directory` format): /car/1 → /car/1/; files (/robots.txt) as they are. */
export const pageUrlPath = (pathname: string): string => (pathname.endsWith('/') || /\.[a-z0-9]+$/i.test(pathname) ? pathname : `${pathname}/`);

/** A car page's id, from its pathname (/car/12/), or null. */
export const carOfPage = (pathname: string): number | null => {
  const m = /^\/car\/(\d+)\/?$/.exec(pathname);
  return m ? Number(m[1]) : null;
};

/** The pathname of a car's page, as the build names it. */
const carPage = (id: number, like: string) => `/car/${id}${like.endsWith('/') ? '/' : ''}`;

/** A car page's pathname as the warm builder noted it: pages are named by their URL's (/car/1/), Astro's static paths by theirs (/car/1). */
const carPageLike = (w: { reads: Map<string, unknown> }) => [...w.reads.keys()].find((p) => carOfPage(p) !== null) ?? '/car/0/';

/**
 * The pages an edit renders again: the pages of the cars that changed or came, and every other
 * page that read what changed (the car list, a car, or another part of the catalogue).
 */
export function pagesToRender(reads: ReadonlyMap<string, readonly CatalogueRead[]>, changes: CatalogueChanges): string[] {
  const cars = new Set([...changes.changed, ...changes.added, ...changes.removed]);
  const touched = new Set<CatalogueRead>(changes.parts);
  if (cars.size) touched.add('cars');
  for (const id of cars) touched.add(`car:${id}`);
  const out: string[] = [];
  for (const [pathname, pageReads] of reads) {
    const car = carOfPage(pathname);
    if (car !== null && changes.removed.includes(car)) continue;
    if (pageReads.some((read) => touched.has(read))) out.push(pathname);
  }
  return out;
}

/** A catalogue with an edit's cars: every live car, the changed and new ones from the delta. */
export function applyDelta(before: CatalogueSnapshot, delta: CatalogueDelta): CatalogueSnapshot | null {
  const known = new Map(before.cars.map((car) => [car.id, car]));
  for (const car of delta.cars) known.set(car.id, car);
  const cars: Car[] = [];
  for (const id of [...delta.liveIds].sort((a, b) => a - b)) {
    const car = known.get(id);
    if (!car) return null;
    cars.push(car);
  }
  return { ...delta.rest, cars };
}

// ── The builder process ──────────────────────────────────────────────────────

type Render = (request: Request, options: { routeData: PathWithRoute['route']; collectMetadata?: boolean }) => ReturnType<AstroPrerenderer['render']>;

/** What the builder keeps between jobs. */
interface Warm {
  prerenderer: AstroPrerenderer & { app?: { routeCache?: { clearAll: () => void } } };
  render: Render;
  /** Every page Astro knows by its static path (/car/1), with its route. */
  paths: Map<string, PathWithRoute>;
  /** The origin of the requests Astro rendered pages with. */
  origin: string;
  /** What each page read, by the pathname it is asked for (/car/1/). */
  reads: Map<string, CatalogueRead[]>;
  /** What a car page reads besides its own car (every car page reads the same). */
  carPageReads: CatalogueRead[];
  /** The `_astro` files of the build it was warmed with. */
  assets: string[];
}

let warm: Warm | null = null;

/** The response of a render, whichever shape the prerenderer answered in. */
const responseOf = (result: Awaited<ReturnType<AstroPrerenderer['render']>>): Response => (result instanceof Response ? result : result.response);

/**
 * The prerenderer Astro renders every page with, wrapped: reads noted per page, HTML handed to
 * the compression workers as it comes (the build waits for them at the end), and the pages of
 * the build kept. `only` limits the pages (the warm-up).
 */
function trackingPrerenderer(base: AstroPrerenderer, ctx: { outDir: string; only?: (p: PathWithRoute) => boolean; compressing: Set<Promise<void>>; compressed: Set<string> }): AstroPrerenderer {
  const paths = new Map<string, PathWithRoute>();
  const reads = new Map<string, CatalogueRead[]>();
  let origin = '';
  const render: Render = async (request, options) => {
    const state = snapshotState();
    const pageReads = new Set<CatalogueRead>();
    state.reads = pageReads;
    let result;
    try {
      result = await base.render(request, options);
    } finally {
      state.reads = undefined;
    }
    const url = new URL(request.url);
    origin ||= url.origin;
    reads.set(url.pathname, [...pageReads]);
    return result;
  };
  const wrapped: AstroPrerenderer = {
    name: 'luxe:tracking',
    setup: () => base.setup?.() ?? Promise.resolve(),
    getStaticPaths: async () => {
      const all = await base.getStaticPaths();
      for (const p of all) paths.set(p.pathname, p);
      return ctx.only ? all.filter(ctx.only) : all;
    },
    render: async (request, options) => {
      const result = await render(request, options);
      const response = responseOf(result);
      if (response.status === 200 && response.body) {
        // While too much waits for the workers, hold this page back: the queue stays small at 100,000 pages.
        while (compressionsPending() > 64) await Promise.race(ctx.compressing);
        const file = path.join(ctx.outDir, pageFile(new URL(request.url).pathname));
        const body = Buffer.from(await response.clone().arrayBuffer());
        if (body.length > COMPRESS_MIN_BYTES && COMPRESSIBLE.test(file)) {
          const job = mkdir(path.dirname(file), { recursive: true })
            .then(() => writeTwins(file, body))
            .then(() => void ctx.compressed.add(file));
          ctx.compressing.add(job);
          void job.finally(() => ctx.compressing.delete(job)).catch(() => {});
        }
      }
      return result;
    },
    teardown: async () => {
      // Kept for the next edit: Astro's prerenderer holds the page bundle, already loaded.
      const carPage = [...reads.keys()].find((p) => carOfPage(p) !== null);
      warm = {
        prerenderer: base,
        render,
        paths,
        origin,
        reads,
        carPageReads: carPage ? (reads.get(carPage) ?? []).filter((r) => !r.startsWith('car:')) : [],
        assets: await readdir(path.join(ctx.outDir, '_astro')).catch(() => []),
      };
    },
  };
  if (base.collectStaticImages) wrapped.collectStaticImages = () => base.collectStaticImages!();
  return wrapped;
}

/** The integration that puts the tracking prerenderer in place. */
function tracking(ctx: Parameters<typeof trackingPrerenderer>[1]): AstroIntegration {
  return { name: 'luxe:tracking', hooks: { 'astro:build:start': ({ setPrerenderer }) => setPrerenderer((base) => trackingPrerenderer(base, ctx)) } };
}

/** Counts the pages Astro logs as it writes them (lines like `├─ /car/1/index.html (+3ms)`). */
function countPages(onPage: () => void, forward: () => boolean): void {
  const write = process.stdout.write.bind(process.stdout);
  let pending = '';
  process.stdout.write = (chunk: string | Uint8Array, ...rest: unknown[]) => {
    pending += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) if (/\(\+\d+(\.\d+)?m?s\)/.test(line) && /[─└├]/.test(line)) onPage();
    return forward() ? write(chunk, ...(rest as [])) : true;
  };
}

const send = (message: ChildMessage) => process.send?.(message);
let pagesSeen = 0;
let verbose = false;
let lastProgress = 0;

/** `astro build` into `outDir` with the tracking prerenderer; the builder is warm afterwards. */
async function astroBuild(job: Omit<FullJob, 'kind' | 'photos' | 'previous'>, only?: (p: PathWithRoute) => boolean): Promise<{ compressed: Set<string> }> {
  const ctx = { outDir: job.outDir, only, compressing: new Set<Promise<void>>(), compressed: new Set<string>() };
  verbose = job.verbose;
  pagesSeen = 0;
  send({ type: 'progress', phase: 'bundle', done: 0, total: 1 });
  // Astro loads (about a second) while the snapshot is read.
  const loading = import(pathToFileURL(job.astroEntry).href) as Promise<{ build: (config: Record<string, unknown>) => Promise<void> }>;
  loading.catch(() => {}); // awaited below; a failed read first must not leave it unhandled
  // Fails on a missing or empty snapshot, before anything is built: an empty shop is never published.
  const { settings, catalogue } = readBuildSnapshot(job.snapshot);
  // The build's own settings (SITE_URL, PUBLIC_*), read by astro.config.mjs and the pages.
  Object.assign(process.env, settings);
  Object.assign(snapshotState(job.snapshot), { file: job.snapshot, catalogue });
  const astro = await loading;
  warm = null;
  await astro.build({
    root: job.projectRoot,
    outDir: job.outDir,
    cacheDir: job.cacheDir,
    logLevel: 'info',
    // The staging folder is new and holds the snapshot: Astro must not empty it.
    vite: { build: { emptyOutDir: false } },
    // The storefront integration (astro.config.mjs) reads the snapshot this names.
    integrations: [snapshotFile(job.snapshot), tracking(ctx)],
  });
  await Promise.all(ctx.compressing);
  // Read: it is no part of the site.
  await rm(job.snapshot, { force: true });
  return { compressed: ctx.compressed };
}

async function fullBuild(job: FullJob): Promise<void> {
  const { compressed } = await astroBuild(job);
  send({ type: 'progress', phase: 'compress', done: 0, total: 1 });
  await shipPhotos(job.photos.dir, job.photos.names, job.outDir);
  await precompress(job.outDir, { done: compressed, reuseFrom: job.previous, onProgress: (done, total) => send({ type: 'progress', phase: 'compress', done, total }) });
  send({ type: 'done', pages: pagesSeen });
}

/** Warms a cold builder: the pages that are not car pages and one car page, into a folder thrown away. */
async function warmUp(job: NonNullable<PagesJob['warmUp']>, served: string): Promise<void> {
  const outDir = `${job.snapshot}.warm`;
  let carPages = 0;
  try {
    await astroBuild({ ...job, outDir, expectedPages: 0 }, (p) => carOfPage(p.pathname) === null || carPages++ === 0);
    const servedAssets = new Set(await readdir(path.join(served, '_astro')).catch(() => []));
    // Same sources, same bundles: a page rendered now points at assets the served build has.
    if (!warm || warm.assets.some((name) => !servedAssets.has(name))) throw Object.assign(new Error('The warm-up build made other assets than the served build has.'), { cold: true });
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
  // Every car page reads its car and the same other parts (noted from the one rendered).
  const w = warm;
  const like = carPageLike(w);
  for (const car of snapshotState().catalogue?.cars ?? []) w.reads.set(carPage(car.id, like), [`car:${car.id}`, ...w.carPageReads]);
}

/** Renders again the pages an edit touched, into job.outDir. */
async function renderPages(job: PagesJob): Promise<void> {
  const state = snapshotState();
  if ('full' in job.update) {
    if (!warm) {
      if (!job.warmUp) throw Object.assign(new Error('The builder is cold and was given no warm-up.'), { cold: true });
      await warmUp({ ...job.warmUp, snapshot: job.update.full }, job.served);
    } else {
      state.catalogue = readBuildSnapshot(job.update.full).catalogue;
      await rm(job.update.full, { force: true });
    }
  } else {
    const delta = JSON.parse(await readFile(job.update.delta, 'utf8')) as CatalogueDelta;
    const next = warm && state.catalogue ? applyDelta(state.catalogue, delta) : null;
    if (!next) throw Object.assign(new Error('The builder holds another catalogue than the edit was made on.'), { cold: true });
    state.catalogue = next;
  }
  const w = warm!;
  const { changes } = job;
  const like = carPageLike(w);
  if (changes.added.length || changes.removed.length) {
    // Pages came or went: Astro's getStaticPaths of the car page answers again from the new catalogue.
    w.prerenderer.app?.routeCache?.clearAll();
    w.paths = new Map((await w.prerenderer.getStaticPaths()).map((p) => [p.pathname, p]));
  }
  for (const id of changes.added) w.reads.set(carPage(id, like), [`car:${id}`, ...w.carPageReads]);
  for (const id of changes.removed) w.reads.delete(carPage(id, like));
  const pages = pagesToRender(w.reads, changes);
  const written: string[] = [];
  let done = 0;
  for (const pathname of pages) {
    const route = w.paths.get(pathname) ?? w.paths.get(pathname.replace(/\/$/, ''));
    if (!route) throw new Error(`No route renders ${pathname}.`);
    const response = responseOf(await w.render(new Request(new URL(pathname, w.origin)), { routeData: route.route }));
    if (response.status !== 200) throw new Error(`${pathname} rendered with status ${response.status}.`);
    const rel = pageFile(pathname);
    const file = path.join(job.outDir, rel);
    await mkdir(path.dirname(file), { recursive: true });
    const body = Buffer.from(await response.arrayBuffer());
    await writeFile(file, body);
    if (body.length > COMPRESS_MIN_BYTES && COMPRESSIBLE.test(file)) {
      await writeTwins(file, body);
      written.push(...withTwins(rel));
    } else written.push(rel);
    send({ type: 'progress', phase: 'pages', done: ++done, total: pages.length });
  }
  const removed = changes.removed.flatMap((id) => withTwins(pageFile(carPage(id, like))));
  const sitemap = state.sitemap;
  if ((changes.added.length || changes.removed.length) && sitemap) {
    // Pages only, as Astro lists them for a full build's sitemap (not endpoints such as robots.txt).
    const pagePaths = [...w.paths.values()].filter((p) => p.route.type === 'page').map((p) => pageUrlPath(p.pathname));
    const names = await writeSitemap(job.outDir, sitemap.site, pagePaths.filter(sitemap.inSitemap));
    for (const name of names) {
      await writeTwins(path.join(job.outDir, name), await readFile(path.join(job.outDir, name)));
      written.push(...withTwins(name));
    }
    // Sitemap files the shorter list no longer has.
    for (const name of await readdir(job.served)) if (/^sitemap-\d+\.xml$/.test(name) && !names.includes(name)) removed.push(...withTwins(name));
  }
  await shipPhotos(job.photos.dir, job.photos.names, job.outDir);
  // Photos no gallery shows any more leave with this edit.
  const catalogue = state.catalogue!;
  const shown = new Set(shippedVariantNames(catalogue.cars, catalogue.butler_cars));
  for (const name of await readdir(path.join(job.served, PHOTOS_DIR)).catch(() => [])) if (!shown.has(name)) removed.push(path.join(PHOTOS_DIR, name));
  send({ type: 'done', pages: pages.length, result: { written, removed, pages: pages.length } });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  watchParent({ parentPid: process.ppid, channel: process, onOrphan: () => process.exit(3) });
  countPages(
    () => {
      pagesSeen++;
      if (Date.now() - lastProgress > 250) {
        lastProgress = Date.now();
        send({ type: 'progress', phase: 'pages', done: pagesSeen, total: pagesSeen });
      }
    },
    () => verbose,
  );
  let queue = Promise.resolve();
  process.on('message', (job: FullJob | PagesJob) => {
    queue = queue.then(() =>
      (job.kind === 'full' ? fullBuild(job) : renderPages(job)).catch((err: unknown) => {
        const message = err instanceof Error ? (err.stack ?? err.message) : String(err);
        send({ type: 'failed', error: message, cold: (err as { cold?: boolean } | null)?.cold === true });
        // A builder whose full build failed holds nothing it can trust.
        if (job.kind === 'full') warm = null;
      }),
    );
  });
}
