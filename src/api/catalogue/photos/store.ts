import { randomBytes } from 'node:crypto';
import { access, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { eq, inArray } from 'drizzle-orm';
import { PHOTO_CONTENT_TYPES, type PhotoRef } from '../../../domain/photos';
import { inTransaction, type Db } from '../../db/client';
import { photos, photoVariants } from '../../db/schema';
import type { EncodedPhoto } from './pipeline';

/**
 * Photos live in the database (any replica serves and publishes them); DATA_DIR/images is this
 * replica's copy of the variants it has served or shipped, so each is read from the database once.
 */
export const imagesDir = (dataDir: string) => path.join(path.resolve(dataDir), 'images');

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
 * Stores an encoded photo: its size, placeholder and original (kept privately: no route serves
 * it) and its variants, in one transaction; the variants also in this replica's DATA_DIR/images.
 * Ids are content hashes, so the same upload again writes nothing.
 */
export async function saveEncoded(db: Db, dataDir: string, encoded: EncodedPhoto, original: Uint8Array): Promise<void> {
  await inTransaction(db, async (tx) => {
    const [created] = await tx
      .insert(photos)
      .values({ id: encoded.id, width: encoded.width, height: encoded.height, placeholder: encoded.placeholder, originalExt: encoded.originalExt, original: Buffer.from(original) })
      .onConflictDoNothing()
      .returning({ id: photos.id });
    if (created) await tx.insert(photoVariants).values(encoded.variants.map((v) => ({ name: v.name, photoId: encoded.id, bytes: v.bytes })));
  });
  await mkdir(imagesDir(dataDir), { recursive: true });
  for (const variant of encoded.variants) await writeOnce(path.join(imagesDir(dataDir), variant.name), variant.bytes);
}

/** The photos of these ids that exist, by id. */
export async function photoRefs(db: Db, ids: readonly string[]): Promise<Map<string, PhotoRef>> {
  if (!ids.length) return new Map();
  const rows = await db
    .select({ id: photos.id, width: photos.width, height: photos.height, placeholder: photos.placeholder })
    .from(photos)
    .where(inArray(photos.id, [...new Set(ids)]));
  return new Map(rows.map((r) => [r.id, r]));
}

const contentType = (name: string) => PHOTO_CONTENT_TYPES[name.slice(name.lastIndexOf('.') + 1) as keyof typeof PHOTO_CONTENT_TYPES];

/** A variant's bytes and type from DATA_DIR/images, else from the database (and kept locally then), or null. `name` is already validated (PHOTO_NAME_PATTERN). */
export async function readPhotoVariant(db: Db, dataDir: string, name: string): Promise<{ bytes: Buffer; type: string } | null> {
  const file = path.join(imagesDir(dataDir), name);
  const local = await readFile(file).catch(() => null);
  if (local) return { bytes: local, type: contentType(name) };
  const [row] = await db.select({ bytes: photoVariants.bytes }).from(photoVariants).where(eq(photoVariants.name, name));
  if (!row) return null;
  await mkdir(imagesDir(dataDir), { recursive: true });
  await writeOnce(file, row.bytes);
  return { bytes: row.bytes, type: contentType(name) };
}

/**
 * Makes sure DATA_DIR/images holds every named variant, reading the missing ones from the
 * database (a photo another replica took in). Returns the folder, for the build to link from.
 * A name the database does not have either is left out; the build fails on it.
 */
export async function localVariants(db: Db, dataDir: string, names: readonly string[]): Promise<string> {
  const dir = imagesDir(dataDir);
  await mkdir(dir, { recursive: true });
  const have = new Set(await readdir(dir));
  const missing = names.filter((n) => !have.has(n));
  for (let i = 0; i < missing.length; i += 100) {
    const rows = await db.select({ name: photoVariants.name, bytes: photoVariants.bytes }).from(photoVariants).where(inArray(photoVariants.name, missing.slice(i, i + 100)));
    for (const row of rows) await writeOnce(path.join(dir, row.name), row.bytes);
  }
  return dir;
}
