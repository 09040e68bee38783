import type { BuildOptions } from './build-inputs';
import { editBuild } from './edit-build';
import { fullBuild } from './full-build';
import { SiteBuilder } from './site-builder';
import { readStamp, sourceTime, type BuildStamp } from './stamp';

/** Tries of an edit build before the whole site is built instead. */
export const EDIT_ATTEMPTS = 2;

/** The two builds, as buildSite runs them (tests hand in failing ones). */
export interface BuildSteps {
  edit: typeof editBuild;
  full: typeof fullBuild;
}

/**
 * Publishes the catalogue. When the served build was made from the same page sources, database
 * and settings, only the pages an edit changed are rendered again, by the warm build child, and
 * put into the served build (edit-build.ts); otherwise, or when told (`full`), the whole site is
 * built into a fresh folder (full-build.ts). A failed edit build is tried once more, then the
 * whole site is built: an edit never leaves the pages stale until someone publishes. A failed
 * build or publish changes nothing served.
 */
export async function buildSite(opts: BuildOptions, steps: BuildSteps = { edit: editBuild, full: fullBuild }): Promise<BuildStamp> {
  const builder = opts.builder ?? new SiteBuilder({ projectRoot: opts.projectRoot, quiet: opts.quiet ?? true });
  try {
    const previous = readStamp(opts.distDir);
    const pageSources = sourceTime(opts.projectRoot, { pagesOnly: true });
    const sameInputs = previous?.database === opts.database && previous.settings === opts.settings.digest && previous.pageSourceTime !== undefined && previous.pageSourceTime >= pageSources;
    if (!opts.full && previous?.parts && previous.models && sameInputs) {
      for (let attempt = 1; attempt <= EDIT_ATTEMPTS; attempt++) {
        try {
          const stamp = await steps.edit(opts, builder, previous);
          if (stamp) return stamp;
          break;
        } catch (err) {
          // The server stopping is no failure to mend.
          if (opts.signal?.aborted) throw err;
          opts.onEditFailed?.(err, attempt < EDIT_ATTEMPTS ? 'retry' : 'full');
        }
      }
    }
    return await steps.full(opts, builder);
  } finally {
    if (!opts.builder) builder.stop();
  }
}
