import { mkdirSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { localVariants } from '../../api/catalogue/photos/store';
import { liveCarChunks } from '../../api/catalogue/catalogue';
import { readForBuild, readForEdit } from '../../api/catalogue/snapshot';
import { shippedVariantNames } from '../../domain/photos';
import { SNAPSHOT_FILE } from '../../integrations/build-snapshot';
import { astroEntry, builderKey, progressOf, readJson, writeFullSnapshot, type BuildOptions } from './build-inputs';
import type { CatalogueChanges, CatalogueDelta, CatalogueUpdate, PagesJob, PagesResult } from './child/messages';
import { PHOTOS_DIR } from './child/photos';
import { copyWithChanges, currentLive, putInPlace, readdirSafe, swapIn, warmUpDir } from './dist-folders';
import { CAR_VERSIONS, changedParts, partDigests, planChanges } from './incremental';
import { runPublishCommand } from './publish-command';
import { ColdBuilder, type SiteBuilder } from './site-builder';
import { readStamp, sourceTime, STAMP, writeStamp, type BuildStamp } from './stamp';

/**
 * An edit: the changes since the served build (incremental.ts) rendered again by the warm build
 * child into a folder of their own, PUBLISH_COMMAND run on them (PUBLISH_MODE=changes) or on a
 * whole folder, and then put into the served build file by file, each a rename (a reader gets
 * the old file or the new one, never half of one), the stamp last. Null when only a full build
 * will do (the brands or models changed, too many cars changed, or the child cannot render
 * with the same assets as the served build).
 */
export async function editBuild(opts: BuildOptions, builder: SiteBuilder, previous: BuildStamp): Promise<BuildStamp | null> {
  const { projectRoot, distDir } = opts;
  const served = currentLive(distDir);
  const servedVersions = readJson<Record<string, string>>(path.join(served, CAR_VERSIONS));
  if (!servedVersions || !previous.parts || !previous.models) return null;
  const servedCatalogue = { versions: servedVersions, parts: previous.parts, models: previous.models };
  let planned: ReturnType<typeof planChanges> = null;
  const read = await readForEdit(opts.db, (versions, models) => {
    planned = planChanges(servedCatalogue, { versions, models });
    return planned && [...planned.changed, ...planned.added];
  });
  const plan = planned as ReturnType<typeof planChanges>;
  if (!plan || !read.data) return null;
  const { rest, cars } = read.data;
  const parts = partDigests(rest);
  const changes: CatalogueChanges = { ...plan, parts: changedParts(previous.parts, parts) };
  const id = `${process.pid}-${Date.now()}`;
  const stage = `${distDir}.next-${id}`;
  const warmDir = warmUpDir(projectRoot, distDir, id);
  const progress = opts.onProgress ?? (() => {});
  try {
    mkdirSync(stage, { recursive: true });
    // The child applies the change to the catalogue it holds when that is the served build's; else it is given all of it.
    let update: CatalogueUpdate;
    let shown: string[];
    if (builder.holds === previous.builtAt) {
      update = { delta: path.join(stage, '.delta.json') };
      const delta: CatalogueDelta = { liveIds: Object.keys(read.versions).map(Number), cars, rest };
      writeFileSync(update.delta, JSON.stringify(delta));
      shown = shippedVariantNames(cars, rest.butler_cars);
    } else {
      update = { full: path.join(stage, SNAPSHOT_FILE) };
      // Read after the versions: any car newer than they say is rendered again by the next edit.
      shown = (await writeFullSnapshot(update.full, { ...read, rest, cars: () => liveCarChunks(opts.db) }, opts.settings.env)).photos;
    }
    const have = new Set(readdirSafe(path.join(served, PHOTOS_DIR)));
    const names = shown.filter((name) => !have.has(name));
    const photos = { dir: await localVariants(opts.db, opts.dataDir, names), names };
    const warmUp = { projectRoot, astroEntry: astroEntry(projectRoot), outDir: warmDir, cacheDir: `${distDir}.cache`, snapshot: 'full' in update ? update.full : '', verbose: !opts.quiet };
    const job: PagesJob = { kind: 'pages', outDir: path.join(stage, 'site'), served, update, changes, warmUp, photos };
    let result: PagesResult;
    try {
      result = await builder.pages(job, builderKey(opts), opts.signal, progressOf(progress));
    } catch (err) {
      if (err instanceof ColdBuilder) return null;
      throw err;
    }
    opts.onMode?.({ incremental: true, pages: result.pages, pathsDerived: result.pathsDerived });
    const stamp: BuildStamp = { ...previous, catalogueVersion: opts.catalogueVersion, builtAt: new Date().toISOString(), parts, sourceTime: Math.max(previous.sourceTime, sourceTime(projectRoot)) };
    const site = path.join(stage, 'site');
    // An edit build that finds nothing changed (asked for again just after the edit's own) renders no page: the new stamp still goes in.
    mkdirSync(site, { recursive: true });
    writeFileSync(path.join(site, CAR_VERSIONS), JSON.stringify(read.versions));
    writeStamp(site, stamp);
    const written = [...result.written, ...photos.names.map((name) => path.join(PHOTOS_DIR, name)), CAR_VERSIONS, STAMP];
    if (opts.publishCommand && !opts.publishChanges) {
      // A PUBLISH_COMMAND that takes whole folders: the served build with these files, as hard links, is one.
      const whole = `${distDir}.next-whole-${id}`;
      await copyWithChanges(served, site, whole, written, result.removed);
      try {
        progress(96);
        await runPublishCommand(opts.publishCommand, whole, opts.catalogueVersion, opts.signal, { mode: 'full' });
        await swapIn(whole, distDir, id);
      } finally {
        await rm(whole, { recursive: true, force: true });
      }
    } else {
      if (opts.publishCommand) {
        progress(96);
        const removedList = path.join(stage, 'removed.txt');
        writeFileSync(removedList, result.removed.map((rel) => `${rel}\n`).join(''));
        await runPublishCommand(opts.publishCommand, site, opts.catalogueVersion, opts.signal, { mode: 'changes', removed: removedList });
      }
      await putInPlace(site, served, written, result.removed);
    }
    // The child holds this edit's catalogue, served now that it is in place.
    builder.served(job, stamp.builtAt);
    progress(100);
    return stamp;
  } finally {
    // The child removes its warm-up folder; one it died in goes here.
    await Promise.all([rm(stage, { recursive: true, force: true }), rm(warmDir, { recursive: true, force: true })]);
  }
}

/**
 * Warms the build child for the next edit when the server starts with a build it reuses (a
 * restart): the child is given the catalogue as it is now and builds the pages that are not car
 * pages and one car page into a folder thrown away. Without it the first edit after a restart
 * pays for that. Resolves whether or not it worked (a cold child is warmed by the edit instead).
 */
export async function warmBuilder(opts: Pick<BuildOptions, 'projectRoot' | 'distDir' | 'db' | 'dataDir' | 'quiet' | 'settings' | 'database' | 'signal'> & { builder: SiteBuilder }): Promise<boolean> {
  const served = readStamp(opts.distDir);
  if (!served) return false;
  const id = `${process.pid}-${Date.now()}`;
  const stage = `${opts.distDir}.next-${id}`;
  const warmDir = warmUpDir(opts.projectRoot, opts.distDir, id);
  try {
    mkdirSync(stage, { recursive: true });
    const update = { full: path.join(stage, SNAPSHOT_FILE) };
    // Read after the served build was made: the child's catalogue is never older than the served one.
    await writeFullSnapshot(update.full, await readForBuild(opts.db), opts.settings.env);
    const warmUp = { projectRoot: opts.projectRoot, astroEntry: astroEntry(opts.projectRoot), outDir: warmDir, cacheDir: `${opts.distDir}.cache`, snapshot: update.full, verbose: !opts.quiet };
    const none: CatalogueChanges = { changed: [], added: [], removed: [], parts: [] };
    const job: PagesJob = { kind: 'pages', outDir: path.join(stage, 'site'), served: currentLive(opts.distDir), update, changes: none, warmUp, photos: { dir: stage, names: [] } };
    await opts.builder.pages(job, builderKey(opts), opts.signal);
    opts.builder.served(job, served.builtAt);
    return true;
  } catch {
    return false;
  } finally {
    await Promise.all([rm(stage, { recursive: true, force: true }), rm(warmDir, { recursive: true, force: true })]);
  }
}
