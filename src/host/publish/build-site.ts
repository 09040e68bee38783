import type { BuildOptions } from './build-inputs';
import { editBuild } from './edit-build';
import { fullBuild } from './full-build';
import { SiteBuilder } from './site-builder';
import { readStamp, sourceTime, type BuildStamp } from './stamp';

/**
 * Publishes the catalogue. When the served build was made from the same page sources, database
 * and settings, only the pages an edit changed are rendered again, by the warm build child, and
 * put into the served build (edit-build.ts); otherwise, or when told (`full`), the whole site is
 * built into a fresh folder (full-build.ts). A failed build or publish changes nothing served.
 */
export async function buildSite(opts: BuildOptions): Promise<BuildStamp> {
  const builder = opts.builder ?? new SiteBuilder({ projectRoot: opts.projectRoot, quiet: opts.quiet ?? true });
  try {
    const previous = readStamp(opts.distDir);
    const pageSources = sourceTime(opts.projectRoot, { pagesOnly: true });
    const sameInputs = previous?.database === opts.database && previous.settings === opts.settings.digest && previous.pageSourceTime !== undefined && previous.pageSourceTime >= pageSources;
    if (!opts.full && previous?.parts && previous.models && sameInputs) {
      const stamp = await editBuild(opts, builder, previous);
      if (stamp) return stamp;
    }
    return await fullBuild(opts, builder);
  } finally {
    if (!opts.builder) builder.stop();
  }
}
