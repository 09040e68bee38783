import { createHash } from 'node:crypto';
import type { Sharp, SharpOptions } from 'sharp';
import { PHOTO_EXTENSIONS, PHOTO_FORMATS, photoWidths, type PhotoFormat, type PhotoView } from '../../../domain/photos';
import { decodeHeic, looksHeic } from './heic';
import { PhotoRejected, rejectionOf } from './rejections';

export { PhotoRejected };

type SharpFactory = typeof import('sharp').default;
let libvips: Promise<SharpFactory> | undefined;

/**
 * sharp, loaded at the first photo: libvips (its threads, its memory) stays out of every
 * process that never encodes one, and out of the API's start.
 */
function loadSharp(): Promise<SharpFactory> {
  libvips ??= import('sharp').then(({ default: sharp }) => {
    // The API runs on 2 cores next to PostgreSQL and the job loop. libvips would start one thread
    // per core for each image, and sharp runs up to 4 images at once on libuv's pool, which file
    // reads and password hashing share: an upload burst would take every core and stall the API.
    // One libvips thread per image plus the one-at-a-time queue below keep encoding to one core.
    sharp.concurrency(1);
    // Uploads are one-offs: libvips' operation cache would only hold memory for images never seen again.
    sharp.cache(false);
    return sharp;
  });
  return libvips;
}

/** Largest original accepted, in pixels and per side: refused from the header, before any pixel is decoded. */
const MAX_INPUT_PIXELS = 40_000_000;
const MAX_INPUT_SIDE = 12_000;
/** Each sharp pipeline (the decode, each encode) is cut off after this, so a hostile file cannot hold the queue. */
const TIMEOUT_SECONDS = 30;

const INPUT: SharpOptions = {
  limitInputPixels: MAX_INPUT_PIXELS,
  // Abort on decoder errors (truncated or damaged data), not on warnings that cameras' files often carry.
  failOn: 'error',
};

/** Decoders we take originals from (sharp's metadata.format) and the extension the original is kept under (HEVC-coded HEIF: `heic`, openOriginal). */
const SOURCE_EXTENSIONS: Partial<Record<string, string>> = { jpeg: 'jpg', png: 'png', webp: 'webp', heif: 'avif', gif: 'gif', tiff: 'tiff' };

// AVIF effort 1, not the default 4: on one core effort 4 took 5–15 s for a 1600-px photo; effort 1 writes files within 1% of
// effort 2's in half its time (0.65 against 1.4 s at 1600 px for a detailed 12-MP phone photo).
const ENCODERS: Record<PhotoFormat, (image: Sharp) => Sharp> = {
  avif: (image) => image.avif({ quality: 50, effort: 1, chromaSubsampling: '4:2:0' }),
  webp: (image) => image.webp({ quality: 72, effort: 4 }),
  // JPEG has no alpha: transparent areas become white (the site's background) instead of black.
  jpeg: (image) => image.flatten({ background: '#ffffff' }).jpeg({ quality: 78, mozjpeg: true }),
};

interface EncodedVariant {
  width: number;
  height: number;
  format: PhotoFormat;
  bytes: Buffer;
  /** `${id}-${width}.${ext}` */
  name: string;
}

export interface EncodedPhoto {
  /** First 16 hex of the original's SHA-256: the same upload is the same photo. */
  id: string;
  width: number;
  height: number;
  /** The dominant colour, #rrggbb. */
  placeholder: string;
  /** Extension the original is kept under (DATA_DIR/originals/<id>.<ext>). */
  originalExt: string;
  variants: EncodedVariant[];
}

let queue: Promise<unknown> = Promise.resolve();

/** Runs encodes one after another (see sharp.concurrency above); a failed one does not stop the next. */
function oneAtATime<T>(task: () => Promise<T>): Promise<T> {
  const run = queue.then(task, task);
  queue = run.catch(() => undefined);
  return run;
}

/**
 * Encodes an uploaded photo for the site: oriented by its EXIF tag, converted to sRGB, every
 * metadata block dropped (EXIF, GPS, XMP, IPTC, ICC), at each width of photoWidths in AVIF, WebP
 * and JPEG. Input that is not a still image we can decode throws PhotoRejected, never anything else.
 */
export function encodePhoto(bytes: Uint8Array): Promise<EncodedPhoto> {
  const input = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return oneAtATime(() => encode(input).catch((error: unknown) => Promise.reject(rejectionOf(error))));
}

/** An original the checks passed: its upright size, the extension it is kept under, and a new pipeline of its upright pixels. */
interface Original {
  width: number;
  height: number;
  ext: string;
  image: () => Sharp;
}

/**
 * Reads an upload's header (sharp) and refuses what is not a still image we take or is too large,
 * before any pixel is decoded. HEIC (HEVC-coded HEIF, an iPhone's photo) is decoded by libheif
 * (heic.ts): sharp's libvips reads its header but has no HEVC decoder. Its pixels come without
 * any metadata, so EXIF and GPS are gone like everyone else's.
 */
async function openOriginal(input: Buffer): Promise<Original> {
  const sharp = await loadSharp();
  const meta = await sharp(input, INPUT)
    .metadata()
    .catch((error: unknown) => {
      const rejected = rejectionOf(error);
      // A HEIC whose boxes are cut short or broken: said as such, not as "not an image".
      throw looksHeic(input) && (rejected.reason === 'not-image' || rejected.reason === 'corrupt') ? new PhotoRejected('heic-corrupt') : rejected;
    });
  const hevc = meta.format === 'heif' && meta.compression === 'hevc';
  const ext = hevc ? 'heic' : SOURCE_EXTENSIONS[meta.format];
  if (!ext || !meta.width || !meta.height) throw new PhotoRejected('not-image');
  // A HEIC may hold more top-level images (a burst, an edit's original): its primary image is the photo.
  if (!hevc && (meta.pages ?? 1) > 1) throw new PhotoRejected('animated');
  if (meta.width > MAX_INPUT_SIDE || meta.height > MAX_INPUT_SIDE || meta.width * meta.height > MAX_INPUT_PIXELS) throw new PhotoRejected('too-large');
  if (!hevc) return { width: meta.autoOrient.width, height: meta.autoOrient.height, ext, image: () => sharp(input, INPUT).autoOrient() };

  const pixels = await decodeHeic(input, { maxPixels: MAX_INPUT_PIXELS, maxSide: MAX_INPUT_SIDE }, TIMEOUT_SECONDS * 1000);
  const raw = { width: pixels.width, height: pixels.height, channels: pixels.channels };
  return { width: pixels.width, height: pixels.height, ext, image: () => sharp(pixels.data, { raw }) };
}

async function encode(input: Buffer): Promise<EncodedPhoto> {
  const sharp = await loadSharp();
  const { width, height, ext: originalExt, image } = await openOriginal(input);
  const widths = photoWidths(width);
  // Decoded once, at the largest width (JPEG shrinks while decoding), as 8-bit sRGB pixels without any metadata;
  // every variant is made from these pixels.
  const { data, info } = await image()
    .resize({ width: widths[widths.length - 1] })
    .toColourspace('srgb')
    .raw({ depth: 'uchar' })
    .timeout({ seconds: TIMEOUT_SECONDS })
    .toBuffer({ resolveWithObject: true });
  const pixels = () => sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });

  const id = createHash('sha256').update(input).digest('hex').slice(0, 16);
  const variants: EncodedVariant[] = [];
  for (const w of widths) {
    for (const format of PHOTO_FORMATS) {
      const image = w === info.width ? pixels() : pixels().resize({ width: w });
      const out = await ENCODERS[format](image).timeout({ seconds: TIMEOUT_SECONDS }).toBuffer({ resolveWithObject: true });
      variants.push({ width: w, height: out.info.height, format, bytes: out.data, name: `${id}-${w}.${PHOTO_EXTENSIONS[format]}` });
    }
  }
  return { id, width, height, placeholder: await dominantColour(pixels()), originalExt, variants };
}

/** The most common colour (sharp's 4096-bin histogram) of a small copy, transparent areas as white like the JPEGs. */
async function dominantColour(image: Sharp): Promise<string> {
  const sharp = await loadSharp();
  const small = await image.resize({ width: 64, withoutEnlargement: true }).flatten({ background: '#ffffff' }).raw().toBuffer({ resolveWithObject: true });
  const { dominant } = await sharp(small.data, { raw: { width: small.info.width, height: small.info.height, channels: small.info.channels } }).stats();
  return `#${[dominant.r, dominant.g, dominant.b].map((c) => c.toString(16).padStart(2, '0')).join('')}`;
}

/** What the API answers about an encoded photo (no bytes). */
export function photoView({ id, width, height, placeholder, variants }: EncodedPhoto): PhotoView {
  return { id, width, height, placeholder, variants: variants.map(({ width: w, height: h, format, name }) => ({ width: w, height: h, format, name })) };
}

/** A private photo re-encoded once (handover condition photos): WebP, no metadata. */
export interface EncodedPrivatePhoto {
  width: number;
  height: number;
  contentType: 'image/webp';
  bytes: Buffer;
}

/**
 * Encodes a private photo (the handover's condition photos): the same checks and decoding as
 * encodePhoto (the header read first, the pixel bomb guard, oriented, sRGB, every metadata block
 * dropped — EXIF, GPS, XMP, ICC), one WebP at most `maxSide` px on its longer side, never enlarged.
 * Nothing is written anywhere: the caller keeps the bytes. Throws PhotoRejected only.
 */
export function encodePrivatePhoto(bytes: Uint8Array, maxSide: number): Promise<EncodedPrivatePhoto> {
  const input = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return oneAtATime(async () => {
    const { image } = await openOriginal(input);
    const out = await ENCODERS.webp(image().resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true }).toColourspace('srgb'))
      .timeout({ seconds: TIMEOUT_SECONDS })
      .toBuffer({ resolveWithObject: true });
    return { width: out.info.width, height: out.info.height, contentType: 'image/webp' as const, bytes: out.data };
  }).catch((error: unknown) => Promise.reject(rejectionOf(error)));
}
