/**
 * The build child's two jobs, one at a time, and what it keeps between them (the warm
 * prerenderer of the last full build and the catalogue it holds):
 *  - `full`: `astro build` into a staging folder through the tracking prerenderer
 *    (prerenderer.ts), then the photos and the compressed twins of what is not compressed yet.
 *  - `pages`: the catalogue after an edit (the change, or all of it), and exactly the pages that
 *    read what changed rendered again with the prerenderer kept, into a folder of their own, with
 *    the sitemap when pages came or went. A cold builder (a new process) first warms up: a build
 *    of the pages that are not car pages and one car page, into a folder thrown away, whose hashed
 *    assets must be the served build's.
 */
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { PathWithRoute } from 'astro';
import { shippedVariantNames } from '../../../domain/photos.ts';
import { readBuildSnapshot, snapshotFile, snapshotState } from '../../../integrations/build-snapshot.ts';
import { writeSitemap } from '../../../integrations/sitemap.ts';
import type { BuildJob, CatalogueDelta, ChildMessage, FullJob, PagesJob } from './messages.ts';
import { patchCarPaths } from './car-paths.ts';
import { applyDelta, carOfPage, carPage, carPageLike, pageFile, pagesToRender, pageUrlPath } from './pages.ts';
import { PHOTOS_DIR, shipPhotos } from './photos.ts';
import { isCompressible, precompress, withTwins, writeTwins } from './precompress.ts';
import { responseOf, tracking, type Warm } from './prerenderer.ts';

/** A job's failure that a full catalogue or a full build mends: the server sends all of it, or builds in full. */
const cold = (message: string) => Object.assign(new Error(message), { cold: true });

/** The builder: runs jobs (one at a time: the caller queues them) and answers through `send`. */
export function createWorker(send: (message: ChildMessage) => void): { run: (job: BuildJob) => Promise<void> } {
  let warm: Warm | null = null;
  let pagesSeen = 0;
  let lastProgress = 0;

  /** A page Astro rendered: counted, and the progress told at most every 250 ms. */
  const onPage = () => {
    pagesSeen++;
    if (Date.now() - lastProgress > 250) {
      lastProgress = Date.now();
      send({ type: 'progress', phase: 'pages', done: pagesSeen, total: pagesSeen });
    }
  };

  /** `astro build` into `outDir` with the tracking prerenderer; the builder is warm afterwards. */
  async function astroBuild(job: Omit<FullJob, 'kind' | 'photos'>, only?: (p: PathWithRoute) => boolean): Promise<{ compressed: Set<string> }> {
    const ctx = { outDir: job.outDir, reuseFrom: job.previous, only, compressing: new Set<Promise<void>>(), compressed: new Set<string>(), onPage, onWarm: (w: Warm) => void (warm = w) };
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
      // Astro's log of every page only when it is read (SiteBuilder ignores the child's stdout otherwise).
      logLevel: job.verbose ? 'info' : 'warn',
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
    const { outDir } = job;
    let carPages = 0;
    try {
      await astroBuild({ ...job, expectedPages: 0 }, (p) => carOfPage(p.pathname) === null || carPages++ === 0);
      const servedAssets = new Set(await readdir(path.join(served, '_astro')).catch(() => []));
      // Same sources, same bundles: a page rendered now points at assets the served build has.
      if (!warm || warm.assets.some((name) => !servedAssets.has(name))) throw cold('The warm-up build made other assets than the served build has.');
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
        if (!job.warmUp) throw cold('The builder is cold and was given no warm-up.');
        await warmUp({ ...job.warmUp, snapshot: job.update.full }, job.served);
      } else {
        state.catalogue = readBuildSnapshot(job.update.full).catalogue;
        await rm(job.update.full, { force: true });
      }
    } else {
      const delta = JSON.parse(await readFile(job.update.delta, 'utf8')) as CatalogueDelta;
      const next = warm && state.catalogue ? applyDelta(state.catalogue, delta) : null;
      if (!next) throw cold('The builder holds another catalogue than the edit was made on.');
      state.catalogue = next;
    }
    const w = warm!;
    const { changes } = job;
    const like = carPageLike(w);
    let pathsDerived = false;
    if ((changes.added.length || changes.removed.length) && !patchCarPaths(w, changes.added, changes.removed)) {
      // Pages came or went and Astro's cache of the car paths is not as expected: every page's getStaticPaths answers again from the new catalogue.
      w.prerenderer.app?.routeCache?.clearAll();
      w.paths = new Map((await w.prerenderer.getStaticPaths()).map((p) => [p.pathname, p]));
      pathsDerived = true;
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
      if (isCompressible(file, body.length)) {
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
      // Files with the served build's XML stay as they are (not written, not compressed again).
      const { names, written: changed } = await writeSitemap(job.outDir, sitemap.site, pagePaths.filter(sitemap.inSitemap), job.served);
      for (const name of changed) {
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
    send({ type: 'done', pages: pages.length, result: { written, removed, pages: pages.length, pathsDerived } });
  }

  return {
    async run(job) {
      try {
        await (job.kind === 'full' ? fullBuild(job) : renderPages(job));
      } catch (err) {
        const message = err instanceof Error ? (err.stack ?? err.message) : String(err);
        send({ type: 'failed', error: message, cold: (err as { cold?: boolean } | null)?.cold === true });
        // A builder whose full build failed holds nothing it can trust.
        if (job.kind === 'full') warm = null;
      }
    },
  };
}
