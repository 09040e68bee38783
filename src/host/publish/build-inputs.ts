/**
 * What a build is given (BuildOptions) and what the full and edit builds both hand the build
 * child: the catalogue's snapshot, the key a warm child must have been started with, Astro's
 * entry, and the child's progress on the build's 0–100 scale.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Db } from '../../api/db/client';
import type { readForBuild } from '../../api/catalogue/snapshot';
import { shippedVariantNames } from '../../domain/photos';
import { streamBuildSnapshot } from '../../integrations/build-snapshot';
import type { ChildMessage } from './child/messages';
import type { SiteBuilder } from './site-builder';
import { sourceTime } from './stamp';

export interface BuildOptions {
  projectRoot: string;
  distDir: string;
  /** The database the catalogue is read from (the same read as GET /catalogue). */
  db: Db;
  /** DATA_DIR: the photos the pages show are linked into the build from its catalogue/photos/ copy (read from the database when missing). */
  dataDir: string;
  catalogueVersion: number;
  /** Shell command run on the finished folder before it goes live (PUBLISH_COMMAND). */
  publishCommand?: string;
  /** PUBLISH_COMMAND takes an edit's changed files only (PUBLISH_MODE=changes); else it is given a whole folder every time. */
  publishChanges?: boolean;
  quiet?: boolean;
  /** 0–100 as the build goes. */
  onProgress?: (progress: number) => void;
  /** Aborting ends the build child (and the publish command) at once. */
  signal?: AbortSignal;
  /** Render every page (publish now, webhook); otherwise only the pages an edit changed when the sources are unchanged. */
  full?: boolean;
  /** Told of an edit build that failed, and what comes next: another try, or the whole site. */
  onEditFailed?: (error: unknown, next: 'retry' | 'full') => void;
  /** Told whether the build rendered only the pages an edit changed, how many, and whether it derived every page's path again. */
  onMode?: (mode: BuildMode) => void;
  /** The build settings (buildSettings): they go into the snapshot, their digest into the stamp. */
  settings: { env: Record<string, string>; digest: string };
  /** The database's identity (catalogue_state.instance_id), kept in the stamp. */
  database: string;
  /** The replica's build child (kept warm between builds); without it, one for this build alone. */
  builder?: SiteBuilder;
}

/** What a build did (onMode): an edit's pages, or the whole site's. */
export interface BuildMode {
  incremental: boolean;
  pages: number;
  /** An edit that added or removed cars derived every page's static path again (PagesResult.pathsDerived). */
  pathsDerived?: boolean;
}

export function readJson<T>(file: string): T | null {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  } catch {
    return null;
  }
}

/**
 * Writes the whole catalogue's snapshot from a full read (readForBuild), the cars chunk by chunk;
 * answers how many cars it has and the photo variants they and the butler fleet show.
 */
export async function writeFullSnapshot(file: string, read: Awaited<ReturnType<typeof readForBuild>>, settings: Record<string, string>): Promise<{ cars: number; photos: string[] }> {
  const photos = new Set(shippedVariantNames(read.rest.butler_cars));
  let cars = 0;
  async function* counted() {
    for await (const chunk of read.cars()) {
      cars += chunk.length;
      for (const name of shippedVariantNames(chunk)) photos.add(name);
      yield chunk;
    }
  }
  await streamBuildSnapshot(file, { settings, rest: read.rest }, counted());
  return { cars, photos: [...photos] };
}

/** What the build child was warmed with: the page sources and settings (a child warmed with others is replaced). */
export const builderKey = (opts: Pick<BuildOptions, 'settings' | 'projectRoot' | 'database'>) => `${opts.settings.digest}:${sourceTime(opts.projectRoot, { pagesOnly: true })}:${opts.database}`;

export const astroEntry = (projectRoot: string) => createRequire(path.join(projectRoot, 'package.json')).resolve('astro');

/** Progress of the child's messages on the build's 0–100 scale. */
export function progressOf(progress: (p: number) => void) {
  return (m: ChildMessage) => {
    if (m.type !== 'progress') return;
    if (m.phase === 'bundle') progress(5);
    else if (m.phase === 'pages') progress(10 + 70 * Math.min(1, m.done / Math.max(1, m.total)));
    else progress(80 + 15 * (m.done / Math.max(1, m.total)));
  };
}
