import { copyFile, link, mkdir } from 'node:fs/promises';
import path from 'node:path';
import pMap from 'p-map';

/** Where a build ships its photos (PHOTO_SITE_PREFIX without its slashes). */
export const PHOTOS_DIR = 'photos';

/**
 * Links every named variant from `from` into `<outDir>/photos/` (hard links: no bytes copied;
 * copies across file systems). A missing variant fails the build: a page would show a hole.
 */
export async function shipPhotos(from: string, names: readonly string[], outDir: string): Promise<void> {
  if (!names.length) return;
  const into = path.join(outDir, PHOTOS_DIR);
  await mkdir(into, { recursive: true });
  // Eight at a time: file-system calls, not CPU.
  await pMap(
    names,
    async (name) => {
      const source = path.join(from, name);
      try {
        await link(source, path.join(into, name));
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'EEXIST') return;
        if (code === 'ENOENT') throw new Error(`The photo variant ${name} is neither in ${from} nor in the database: the build stops rather than publish a page without it.`, { cause: err });
        await copyFile(source, path.join(into, name));
      }
    },
    { concurrency: 8 },
  );
}
