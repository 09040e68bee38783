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
import { closeSync, openSync, readSync } from 'node:fs';
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
    // One car a line (JSON.stringify escapes every newline in a string): the file is JSON, and readBuildSnapshot reads it a line at a time.
    await out.write(`{"settings":${JSON.stringify(head.settings)},"catalogue":${rest.slice(0, -1)}${rest === '{}' ? '' : ','}"cars":[`);
    let first = true;
    for await (const chunk of cars) {
      if (!chunk.length) continue;
      await out.write(`${first ? '\n' : ',\n'}${chunk.map((car) => JSON.stringify(car)).join(',\n')}`);
      first = false;
    }
    await out.write('\n]}}');
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
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (err) {
    throw new Error(`No build snapshot at ${file} (${(err as Error).message}). \`npm run build\` and \`npm start\` write one before they build.`, { cause: err });
  }
  let snapshot: BuildSnapshot;
  try {
    snapshot = parseSnapshot(lines(fd));
  } finally {
    closeSync(fd);
  }
  if (!snapshot.catalogue?.cars?.length) {
    throw new Error(`The build snapshot at ${file} has no cars. The build stops rather than publish an empty shop: seed the database (npm run seed) first.`);
  }
  return snapshot;
}

/**
 * A snapshot from its lines: the head (settings and the catalogue's other parts) and then a car
 * a line, as streamBuildSnapshot writes them. 100,000 cars are never one string of the whole
 * file (some 240 MB in V8's two-byte form beside the objects parsed from it). A snapshot of
 * another layout is parsed whole.
 */
function parseSnapshot(source: Iterator<string>): BuildSnapshot {
  const head = source.next();
  const text = head.done ? '' : head.value;
  if (!text.endsWith('"cars":[')) {
    let whole = text;
    for (let line = source.next(); !line.done; line = source.next()) whole += `\n${line.value}`;
    return JSON.parse(whole) as BuildSnapshot;
  }
  const snapshot = JSON.parse(`${text}]}}`) as BuildSnapshot;
  const cars = snapshot.catalogue.cars;
  const share = sharedValues();
  for (let line = source.next(); !line.done; line = source.next()) {
    if (line.value === ']}}') break;
    cars.push(share(JSON.parse(line.value.endsWith(',') ? line.value.slice(0, -1) : line.value) as Car));
  }
  return snapshot;
}

/**
 * The cars as the build holds them: a string many cars repeat (a colour, a trim, an artwork's
 * path, a date) is one string for all of them, and so is a model with its brand, where JSON.parse
 * makes one of each a car. At 100,000 cars the parsed catalogue was most of the build child's
 * live heap. Pages only read the cars; nothing may change them.
 */
function sharedValues(): (car: Car) => Car {
  const strings = new Map<string, string>();
  const models = new Map<string, Car['model']>();
  const shared = (value: unknown): unknown => {
    if (typeof value === 'string') {
      const known = strings.get(value);
      if (known !== undefined) return known;
      strings.set(value, value);
      return value;
    }
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) value[i] = shared(value[i]);
    } else if (value && typeof value === 'object') {
      const object = value as Record<string, unknown>;
      for (const key of Object.keys(object)) object[key] = shared(object[key]);
    }
    return value;
  };
  return (car) => {
    const key = JSON.stringify(car.model);
    const model = models.get(key);
    if (model) car.model = model;
    else models.set(key, shared(car.model) as Car['model']);
    for (const key of Object.keys(car) as (keyof Car)[]) if (key !== 'model') (car as unknown as Record<string, unknown>)[key] = shared(car[key]);
    return car;
  };
}

/** The lines of an open file, read 1 MB at a time (a newline byte is never part of a longer UTF-8 character). */
function* lines(fd: number): Generator<string> {
  const chunk = Buffer.allocUnsafe(1 << 20);
  let pending: Buffer[] = [];
  for (let read = readSync(fd, chunk); read > 0; read = readSync(fd, chunk)) {
    let start = 0;
    for (let nl = chunk.indexOf(10, start); nl >= 0 && nl < read; nl = chunk.indexOf(10, start)) {
      pending.push(chunk.subarray(start, nl));
      yield Buffer.concat(pending).toString('utf8');
      pending = [];
      start = nl + 1;
    }
    // Copied: the next read reuses the chunk.
    if (start < read) pending.push(Buffer.from(chunk.subarray(start, read)));
  }
  if (pending.length) yield Buffer.concat(pending).toString('utf8');
}
