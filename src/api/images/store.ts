import { randomBytes } from 'node:crypto';
import { access, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PHOTO_CONTENT_TYPES } from '../../domain/photos';
import type { EncodedPhoto } from './pipeline';

/** Encoded variants, served at /api/images/<name>. */
export const imagesDir = (dataDir: string) => path.join(path.resolve(dataDir), 'images');
/** Originals as staff sent them (EXIF and GPS included): kept for re-encoding later, served by no route. */
export const originalsDir = (dataDir: string) => path.join(path.resolve(dataDir), 'originals');

const exists = (file: string) => access(file).then(() => true, () => false);

/** Writes a file unless it is there: under a temporary name first, so a crash never leaves half a file under the real one. */
async function writeOnce(file: string, bytes: Uint8Array): Promise<void> {
  if (await exists(file)) return;
  const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(temporary, bytes);
    await rename(temporary, file);
  } finally {
    await rm(temporary, { force: true });
  }
}

/**
 * Stores an encoded photo: its variants in DATA_DIR/images, the original in DATA_DIR/originals.
 * Names come from the content hash, so the same upload again finds its files and writes nothing.
 */
export async function saveEncoded(dataDir: string, encoded: EncodedPhoto, original: Uint8Array): Promise<void> {
  await Promise.all([mkdir(imagesDir(dataDir), { recursive: true }), mkdir(originalsDir(dataDir), { recursive: true })]);
  for (const variant of encoded.variants) await writeOnce(path.join(imagesDir(dataDir), variant.name), variant.bytes);
  await writeOnce(path.join(originalsDir(dataDir), `${encoded.id}.${encoded.originalExt}`), original);
}

/** A variant's bytes and type, or null. `name` is already validated (PHOTO_NAME_PATTERN). */
export async function readPhotoVariant(dataDir: string, name: string): Promise<{ bytes: Buffer; type: string } | null> {
  const ext = name.slice(name.lastIndexOf('.') + 1);
  if (!Object.hasOwn(PHOTO_CONTENT_TYPES, ext)) return null;
  try {
    return { bytes: await readFile(path.join(imagesDir(dataDir), name)), type: PHOTO_CONTENT_TYPES[ext as keyof typeof PHOTO_CONTENT_TYPES] };
  } catch {
    return null;
  }
}
