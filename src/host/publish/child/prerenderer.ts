/**
 * The prerenderer Astro renders every page of a full build with, wrapped: what each page read of
 * the catalogue noted, each page counted and its HTML handed to the compression workers as it
 * comes. At the end of the build it hands over Astro's own prerenderer, with the page bundle
 * loaded, so the build child renders an edit's pages without building again (Warm).
 */
import { mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import type { AstroIntegration, AstroPrerenderer, PathWithRoute } from 'astro';
import { snapshotState, type CatalogueRead } from '../../../integrations/build-snapshot.ts';
import { carOfPage, pageFile } from './pages.ts';
import { isCompressible, twinsOf } from './precompress.ts';

type Render = (request: Request, options: { routeData: PathWithRoute['route']; collectMetadata?: boolean }) => ReturnType<AstroPrerenderer['render']>;

/** What the builder keeps between jobs. */
export interface Warm {
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

/** The response of a render, whichever shape the prerenderer answered in. */
export const responseOf = (result: Awaited<ReturnType<AstroPrerenderer['render']>>): Response => (result instanceof Response ? result : result.response);

export interface TrackingContext {
  outDir: string;
  /** The build being served: a page of the same bytes there lends its twins (no compression). */
  reuseFrom?: string;
  /** Limits the pages (the warm-up). */
  only?: (p: PathWithRoute) => boolean;
  /** Compressions under way (the build waits for them at the end) and the files they wrote twins of. */
  compressing: Set<Promise<void>>;
  compressed: Set<string>;
  /** Told of every page (or endpoint) Astro renders, as it is rendered: the build's page count. */
  onPage: () => void;
  /** Given what the builder keeps for the next edit, when the build ends. */
  onWarm: (warm: Warm) => void;
}

/**
 * The prerenderer Astro renders every page with, wrapped: reads noted per page, HTML handed to
 * the compression workers as it comes (the build waits for them at the end), and the pages of
 * the build kept. `only` limits the pages (the warm-up).
 */
function trackingPrerenderer(base: AstroPrerenderer, ctx: TrackingContext): AstroPrerenderer {
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
      ctx.onPage();
      const response = responseOf(result);
      if (response.status === 200 && response.body) {
        // While too many pages wait for their twins (compressed, or linked from the served build), hold this one back: the queue stays small at 100,000 pages.
        while (ctx.compressing.size > 32) await Promise.race(ctx.compressing);
        const rel = pageFile(new URL(request.url).pathname);
        const file = path.join(ctx.outDir, rel);
        const body = Buffer.from(await response.clone().arrayBuffer());
        if (isCompressible(file, body.length)) {
          const job = mkdir(path.dirname(file), { recursive: true })
            .then(() => twinsOf(file, body, ctx.reuseFrom && path.join(ctx.reuseFrom, rel)))
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
      ctx.onWarm({
        prerenderer: base,
        render,
        paths,
        origin,
        reads,
        carPageReads: carPage ? (reads.get(carPage) ?? []).filter((r) => !r.startsWith('car:')) : [],
        assets: await readdir(path.join(ctx.outDir, '_astro')).catch(() => []),
      });
    },
  };
  if (base.collectStaticImages) wrapped.collectStaticImages = () => base.collectStaticImages!();
  return wrapped;
}

/** The integration that puts the tracking prerenderer in place. */
export function tracking(ctx: TrackingContext): AstroIntegration {
  return { name: 'luxe:tracking', hooks: { 'astro:build:start': ({ setPrerenderer }) => setPrerenderer((base) => trackingPrerenderer(base, ctx)) } };
}
