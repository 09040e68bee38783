/**
 * The storefront build's one input: a JSON file (BuildSnapshot) with the catalogue and the build
 * settings. The publisher writes it into the build's staging folder; `npm run build` /
 * `npm run check` write one from the seed catalogue (scripts/with-snapshot.ts).
 *
 * The pages read the catalogue through `snapshotState()`: one object per process (on globalThis,
 * so the build child and the bundle Astro renders the pages with share it), which the build
 * child points at a newer catalogue before it renders changed pages again (src/host/publish/child/worker.ts).
 * While a page renders, the parts of the catalogue it reads are noted (`reads`): what an edit
 * renders again follows from them.
 *
 * Loaded by Node directly in the build child (type stripping): node: modules and types only.
 */
import { readFileSync } from 'node:fs';
import { mkdir, open, rename } from 'node:fs/promises';
import path from 'node:path';
import type { AstroIntegration } from 'astro';
import type { Car } from '../domain/car';
import type { BuildSnapshot, CatalogueSnapshot } from '../domain/catalogue';

/** The snapshot's name in a build's staging folder. */
export const SNAPSHOT_FILE = 'build-snapshot.json';

/** Where a build without a snapshot integration (astro build, astro check, astro dev) reads it, from the project root. */
export const DEFAULT_SNAPSHOT = path.join('node_modules', '.cache', 'luxe-snapshot', SNAPSHOT_FILE);

/** The custom hook through which a build names its snapshot (see snapshotFile). */
export const SNAPSHOT_HOOK = 'luxe:snapshot-file';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Astro {
    interface IntegrationHooks {
      /** The absolute path of the snapshot this build reads (src/integrations/storefront.ts asks for it). */
      'luxe:snapshot-file': () => string;
    }
  }
}

/**
 * Names the snapshot of one build, passed in the inline config of `astro.build()` (the build
 * child does): the storefront integration of astro.config.mjs reads it from there instead of
 * DEFAULT_SNAPSHOT.
 */
export function snapshotFile(file: string): AstroIntegration {
  const absolute = path.resolve(file);
  return { name: 'luxe:snapshot-file', hooks: { [SNAPSHOT_HOOK]: () => absolute } };
}

/**
 * What a page reads of the catalogue: a whole part (`cars`: the list, `butlerCars`, `faqs`,
 * `terms`, `privacy`, `garageBrands`) or one car (`car:<id>`, the car page).
 */
export type CatalogueRead = 'cars' | 'butlerCars' | 'faqs' | 'terms' | 'privacy' | 'garageBrands' | `car:${number}`;

export interface SnapshotState {
  /** The snapshot file read when no catalogue is set. */
  file: string;
  catalogue?: CatalogueSnapshot;
  /** The reads of the page being rendered (set by the build child around each render). */
  reads?: Set<CatalogueRead>;
  /** The build's origin and sitemap rule (the storefront integration's), for a sitemap written after an edit. */
  sitemap?: { site: string; inSitemap: (pathname: string) => boolean };
}

const STATE = Symbol.for('luxe:build-snapshot');

/** This process's snapshot state, made with `file` on first use. */
export function snapshotState(file?: string): SnapshotState {
  const holder = globalThis as { [STATE]?: SnapshotState };
  holder[STATE] ??= { file: file ?? '' };
  return holder[STATE];
}

/** The catalogue the pages render from: the state's, else its file's (read once). */
export function currentCatalogue(): CatalogueSnapshot {
  const state = snapshotState();
  return (state.catalogue ??= readBuildSnapshot(state.file).catalogue);
}

/** Notes a read of the page being rendered (nothing outside a render, e.g. in getStaticPaths). */
export function noteRead(read: CatalogueRead): void {
  snapshotState().reads?.add(read);
}

/** Writes a snapshot (a temporary file renamed over it: a reader never sees half of one). */
export async function writeBuildSnapshot(file: string, snapshot: BuildSnapshot): Promise<void> {
  const { cars, ...rest } = snapshot.catalogue;
  await streamBuildSnapshot(file, { settings: snapshot.settings, rest }, [cars]);
}

/**
 * Writes a snapshot whose cars arrive in chunks (a catalogue of 100,000 cars is never one string
 * or one array in the server), one chunk at a time, so the server answers between them.
 */
export async function streamBuildSnapshot(file: string, head: { settings: BuildSnapshot['settings']; rest: Omit<CatalogueSnapshot, 'cars'> }, cars: AsyncIterable<readonly Car[]> | Iterable<readonly Car[]>): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const partial = `${file}.${process.pid}.part`;
  const out = await open(partial, 'w');
  try {
    const rest = JSON.stringify(head.rest);
    await out.write(`{"settings":${JSON.stringify(head.settings)},"catalogue":${rest.slice(0, -1)}${rest === '{}' ? '' : ','}"cars":[`);
    let first = true;
    for await (const chunk of cars) {
      if (!chunk.length) continue;
      await out.write(`${first ? '' : ','}${chunk.map((car) => JSON.stringify(car)).join(',')}`);
      first = false;
    }
    await out.write(']}}');
  } finally {
    await out.close();
  }
  await rename(partial, file);
}

/**
 * Reads a snapshot. A missing one, or one without cars, fails the build with a clear message:
 * an empty shop is never published.
 */
export function readBuildSnapshot(file: string): BuildSnapshot {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new Error(`No build snapshot at ${file} (${(err as Error).message}). \`npm run build\` and \`npm start\` write one before they build.`, { cause: err });
  }
  const snapshot = JSON.parse(text) as BuildSnapshot;
  if (!snapshot.catalogue?.cars?.length) {
    throw new Error(`The build snapshot at ${file} has no cars. The build stops rather than publish an empty shop: seed the database (npm run seed) first.`);
  }
  return snapshot;
}
