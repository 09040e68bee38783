import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { DEFAULT_SNAPSHOT, readBuildSnapshot, SNAPSHOT_HOOK } from './build-snapshot';

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
}

/**
 * The storefront's build integration. It exposes the build snapshot as `virtual:luxe/build-snapshot`
 * (the car ids to render, and the catalogue for the content loaders) and writes the static-host
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
      },
      'astro:build:done': async ({ dir }) => {
        for (const [name, body] of Object.entries(opts.hostFiles?.() ?? {})) await writeFile(new URL(name, dir), body);
      },
    },
  };
}

/**
 * The virtual module: `onlyCars` inline (read once, when first imported) and `readCatalogue()`,
 * which reads the file when a content loader asks, so the whole catalogue is held only there.
 */
export function snapshotModule(file: string) {
  let code: string | undefined;
  return {
    name: 'luxe:build-snapshot',
    resolveId: (id: string) => (id === SNAPSHOT_MODULE ? RESOLVED : undefined),
    load(id: string) {
      if (id !== RESOLVED) return undefined;
      code ??= [
        `import { readBuildSnapshot } from ${JSON.stringify(READER)};`,
        `export const snapshotPath = ${JSON.stringify(file)};`,
        `export const onlyCars = ${JSON.stringify(readBuildSnapshot(file).onlyCars)};`,
        `export const readCatalogue = async () => readBuildSnapshot(snapshotPath).catalogue;`,
      ].join('\n');
      return code;
    },
  };
}
