import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { currentCatalogue, DEFAULT_SNAPSHOT, SNAPSHOT_HOOK, snapshotState } from './build-snapshot';
import { writeSitemap } from './sitemap';

/** The module through which pages and content loaders read the build snapshot (types: ./virtual.d.ts). */
export const SNAPSHOT_MODULE = 'virtual:luxe/build-snapshot';
const RESOLVED = `\0${SNAPSHOT_MODULE}`;
const READER = fileURLToPath(new URL('./build-snapshot.ts', import.meta.url));

export interface StorefrontOptions {
  /**
   * Files for static hosts written into the finished build (name → content), e.g. `_redirects`
   * and `_headers`. Called when the build is done, so it sees the build's own settings.
   */
  hostFiles?: () => Record<string, string>;
  /** Whether a page (its pathname, `/car/1/`) belongs in the sitemap; without it no sitemap is written. */
  inSitemap?: (pathname: string) => boolean;
}

/**
 * The storefront's build integration. It exposes the build snapshot's catalogue as
 * `virtual:luxe/build-snapshot`, writes the sitemap (./sitemap.ts) and writes the static-host
 * files into the output. The snapshot is the one a `luxe:snapshot-file` hook names (the build
 * child passes one in its inline config, see ./build-snapshot.ts); else DEFAULT_SNAPSHOT.
 */
export function storefront(opts: StorefrontOptions = {}): AstroIntegration {
  return {
    name: 'luxe:storefront',
    hooks: {
      'astro:config:setup': ({ config, updateConfig }) => {
        // The last one wins: the inline config's integrations come after the config file's.
        const named = config.integrations.findLast((i) => typeof i.hooks[SNAPSHOT_HOOK] === 'function');
        const file = named?.hooks[SNAPSHOT_HOOK]?.() ?? path.join(fileURLToPath(config.root), DEFAULT_SNAPSHOT);
        updateConfig({ vite: { plugins: [snapshotModule(file)] } });
        // The build child writes the sitemap again after an edit that adds or removes pages: with these.
        const inSitemap = opts.inSitemap;
        if (config.site && inSitemap) snapshotState(file).sitemap = { site: config.site, inSitemap };
      },
      'astro:build:done': async ({ dir, pages }) => {
        for (const [name, body] of Object.entries(opts.hostFiles?.() ?? {})) await writeFile(new URL(name, dir), body);
        const sitemap = snapshotState().sitemap;
        if (sitemap) await writeSitemap(fileURLToPath(dir), sitemap.site, pages.map((p) => `/${p.pathname}`).filter(sitemap.inSitemap));
      },
    },
  };
}

/**
 * The virtual module: the catalogue of this process's snapshot state (build-snapshot.ts). The
 * bundle Astro renders the pages with runs in this same process, so the state is pointed at this
 * build's snapshot here and its catalogue read once, when the build starts: a missing or empty
 * snapshot stops the build before anything is bundled.
 */
function snapshotModule(file: string) {
  return {
    name: 'luxe:build-snapshot',
    resolveId: (id: string) => (id === SNAPSHOT_MODULE ? RESOLVED : undefined),
    load(id: string) {
      if (id !== RESOLVED) return undefined;
      const state = snapshotState(file);
      if (state.file !== file) Object.assign(state, { file, catalogue: undefined });
      currentCatalogue();
      return `export { currentCatalogue, noteRead } from ${JSON.stringify(READER)};`;
    },
  };
}
