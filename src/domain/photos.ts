/**
 * Photographs as the site serves them: each upload is encoded once into a few widths, each in
 * AVIF, WebP and JPEG (src/api/images/pipeline.ts), named `<id>-<width>.<ext>` and served at
 * /api/images/<name>. Pages build `srcset` from a PhotoView; nothing here imports the API.
 */

/** Widths the pipeline encodes (px); an original narrower than the largest adds its own width instead of being enlarged. */
export const PHOTO_WIDTHS = [480, 960, 1600] as const;

/** Output formats, best first (the order of <source> elements), and their file extensions. */
export const PHOTO_FORMATS = ['avif', 'webp', 'jpeg'] as const;
export type PhotoFormat = (typeof PHOTO_FORMATS)[number];
export const PHOTO_EXTENSIONS = { avif: 'avif', webp: 'webp', jpeg: 'jpg' } as const satisfies Record<PhotoFormat, string>;
export const PHOTO_CONTENT_TYPES = { avif: 'image/avif', webp: 'image/webp', jpg: 'image/jpeg' } as const;

/** Where a variant is served. */
export const PHOTO_URL_PREFIX = '/api/images/';

/** A variant's file name: the photo id (16 hex of the original's SHA-256), its width, its extension. */
export const PHOTO_NAME_PATTERN = /^[a-f0-9]{16}-[1-9][0-9]{0,4}\.(avif|webp|jpg)$/;

/** One encoded photo as the API answers it: no bytes, only what a page needs for <picture>. */
export interface PhotoView {
  id: string;
  /** Of the original after its EXIF orientation (what a viewer sees). */
  width: number;
  height: number;
  /** The dominant colour (#rrggbb), shown while the image loads. */
  placeholder: string;
  variants: { width: number; height: number; format: PhotoFormat; name: string }[];
}

/** The widths encoded for an original `width` px wide: the sizes below it, plus its own when it is narrower than the largest. */
export function photoWidths(width: number): number[] {
  const largest = PHOTO_WIDTHS[PHOTO_WIDTHS.length - 1];
  const below = PHOTO_WIDTHS.filter((w) => w < width);
  return width < largest ? [...below, width] : [...PHOTO_WIDTHS];
}
