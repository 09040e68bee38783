import { mkdirSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { localVariants } from '../../api/catalogue/photos/store';
import { readForBuild } from '../../api/catalogue/snapshot';
import { SNAPSHOT_FILE } from '../../integrations/build-snapshot';
import { astroEntry, builderKey, progressOf, writeFullSnapshot, type BuildOptions } from './build-inputs';
import type { FullJob } from './child/messages';
import { move, stagingDirs, swapIn } from './dist-folders';
import { CAR_VERSIONS, partDigests } from './incremental';
import { runPublishCommand } from './publish-command';
import type { SiteBuilder } from './site-builder';
import { readStamp, sourceTime, writeStamp, type BuildStamp } from './stamp';

/**
 * The whole site, built in the build child (astro build and the precompression; see
 * child/worker.ts) into a fresh folder; PUBLISH_COMMAND runs on it, then it is swapped in for
 * distDir, so the site being served is never half written. The catalogue is read here, from the
 * database, and handed to the build in its snapshot.
 */
export async function fullBuild(opts: BuildOptions, builder: SiteBuilder): Promise<BuildStamp> {
  const { projectRoot, distDir, catalogueVersion } = opts;
  const started = Date.now();
  const sources = sourceTime(projectRoot);
  const pageSources = sourceTime(projectRoot, { pagesOnly: true });
  const id = `${process.pid}-${started}`;
  const { astroOut, next } = stagingDirs(projectRoot, distDir, id);
  const progress = opts.onProgress ?? (() => {});
  const previous = readStamp(distDir);
  try {
    // Made now, so a build killed at any point leaves a folder cleanStaleBuilds recognises.
    mkdirSync(astroOut, { recursive: true });
    const read = await readForBuild(opts.db);
    const snapshotPath = path.join(astroOut, SNAPSHOT_FILE);
    const written = await writeFullSnapshot(snapshotPath, read, opts.settings.env);
    opts.onMode?.({ incremental: false, pages: written.cars });
    const photos = { dir: await localVariants(opts.db, opts.dataDir, written.photos), names: written.photos };
    const job: FullJob = { kind: 'full', projectRoot, astroEntry: astroEntry(projectRoot), outDir: astroOut, cacheDir: `${distDir}.cache`, snapshot: snapshotPath, expectedPages: previous?.pages ?? 0, verbose: !opts.quiet, previous: previous ? distDir : undefined, photos };
    const pages = await builder.full(job, builderKey(opts), opts.signal, progressOf(progress));
    if (astroOut !== next) await move(astroOut, next);
    writeFileSync(path.join(next, CAR_VERSIONS), JSON.stringify(read.versions));
    const stamp: BuildStamp = { catalogueVersion, database: opts.database, settings: opts.settings.digest, sourceTime: sources, builtAt: new Date().toISOString(), pages, pageSourceTime: pageSources, parts: partDigests(read.rest), models: read.models };
    writeStamp(next, stamp);
    if (opts.publishCommand) {
      progress(96);
      await runPublishCommand(opts.publishCommand, next, catalogueVersion, opts.signal, { mode: 'full' });
    }
    await swapIn(next, distDir, id);
    builder.served(job, stamp.builtAt);
    progress(100);
    return stamp;
  } finally {
    await Promise.all([rm(astroOut, { recursive: true, force: true }), rm(next, { recursive: true, force: true })]);
  }
}
