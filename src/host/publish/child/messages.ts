/**
 * What the server and the build child say to each other over IPC: the two jobs (a full build,
 * the pages of an edit) and the child's answers (progress, done, failed). Both sides import
 * this file; the child runs it by Node directly, so it imports types only.
 */
import type { Car } from '../../../domain/car.ts';
import type { CatalogueSnapshot } from '../../../domain/catalogue.ts';

export interface FullJob {
  kind: 'full';
  projectRoot: string;
  /** Absolute path of astro's entry (astro/dist/index.js) as the server resolved it. */
  astroEntry: string;
  /** Where `astro build` writes (the staging folder): inside the project, where node_modules resolves (dist-folders.ts). */
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
export type CataloguePart = 'butlerCars' | 'faqs' | 'terms' | 'privacy' | 'garageBrands';

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
  /** A cold builder's warm-up build (its snapshot: the full catalogue), into a folder inside the project (`warmUpDir`). */
  warmUp?: Omit<FullJob, 'kind' | 'expectedPages' | 'previous' | 'photos'>;
  /** The photo variants the pages show, linked into the folder (as a full build does). */
  photos: { dir: string; names: string[] };
}

export type BuildJob = FullJob | PagesJob;

export interface PagesResult {
  /** Files written (paths relative to the site), compressed twins and sitemap included. */
  written: string[];
  /** Site files to remove (the pages of cars that went, sitemap files no longer listed). */
  removed: string[];
  /** Pages rendered. */
  pages: number;
  /** Whether every page's static path was derived again (cars came or went and Astro's cache of their paths could not be patched). */
  pathsDerived: boolean;
}

/** Progress and outcome messages to the server. */
export type ChildMessage =
  | { type: 'progress'; phase: 'bundle' | 'pages' | 'compress'; done: number; total: number }
  | { type: 'done'; pages: number; result?: PagesResult }
  | { type: 'failed'; error: string; cold?: boolean };
