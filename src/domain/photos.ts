/**
 * Photographs as the site serves them: each upload is encoded once into a few widths, each in
 * AVIF, WebP and JPEG (src/api/images/pipeline.ts), named `<id>-<width>.<ext>`. The API serves
 * them at /api/images/<name> (the console, a car newer than the build); every build ships the
 * ones its pages show under /photos/<name>, so a page view never asks the API for an image.
 * Nothing here imports the API.
 */

/** Widths the pipeline encodes (px); an original narrower than the largest adds its own width instead of being enlarged. */
const PHOTO_WIDTHS = [480, 800, 1200, 1600] as const;

/** Output formats, best first (the order of <source> elements), and their file extensions. */
export const PHOTO_FORMATS = ['avif', 'webp', 'jpeg'] as const;
export type PhotoFormat = (typeof PHOTO_FORMATS)[number];
export const PHOTO_EXTENSIONS = { avif: 'avif', webp: 'webp', jpeg: 'jpg' } as const satisfies Record<PhotoFormat, string>;
export const PHOTO_CONTENT_TYPES = { avif: 'image/avif', webp: 'image/webp', jpg: 'image/jpeg' } as const;

/** Where the API serves a variant (any time, also before a build ships it). */
export const PHOTO_URL_PREFIX = '/api/images/';
/** Where a build ships the variants its pages show (immutable names: the content hash). */
export const PHOTO_SITE_PREFIX = '/photos/';

/** A variant's file name: the photo id (16 hex of the original's SHA-256), its width, its extension. */
export const PHOTO_NAME_PATTERN = /^[a-f0-9]{16}-[1-9][0-9]{0,4}\.(avif|webp|jpg)$/;

/** One encoded photo as the API answers an upload: no bytes, only what a page needs for <picture>. */
export interface PhotoView {
  id: string;
  /** Of the original after its EXIF orientation (what a viewer sees). */
  width: number;
  height: number;
  /** The dominant colour (#rrggbb), shown while the image loads. */
  placeholder: string;
  variants: { width: number; height: number; format: PhotoFormat; name: string }[];
}

/** What a gallery entry keeps of an encoded photo: every variant's name follows from it (photoVariantNames). */
export type PhotoRef = Pick<PhotoView, 'id' | 'width' | 'height' | 'placeholder'>;

/**
 * The point of a photo its crops keep in view, in % of its width and height (0–100, whole
 * numbers): staff tap it in the console. Pages apply it as `object-position: x% y%`, which puts
 * that point of the photo at the same point of every slot, so it is never cropped away.
 */
export interface Focus {
  x: number;
  y: number;
}

/** A photo without a focus is cropped around its centre. */
export const CENTRE: Focus = { x: 50, y: 50 };

/**
 * One image of a car or butler car, in the order staff set: its address (an uploaded photo's
 * /api/images JPEG, or bundled art such as /cars/x.svg), the Korean alt text every page shows
 * with it, the encoded photo when it is one (the server fills it in from its own records) and,
 * when staff set one, its focus (absent: the centre).
 */
export interface GalleryImage {
  src: string;
  alt: string;
  photo: PhotoRef | null;
  focus?: Focus;
}

/** The widths encoded for an original `width` px wide: the sizes below it, plus its own when it is narrower than the largest. */
export function photoWidths(width: number): number[] {
  const largest = PHOTO_WIDTHS[PHOTO_WIDTHS.length - 1];
  const below = PHOTO_WIDTHS.filter((w) => w < width);
  return width < largest ? [...below, width] : [...PHOTO_WIDTHS];
}

const variantName = (id: string, width: number, format: PhotoFormat) => `${id}-${width}.${PHOTO_EXTENSIONS[format]}`;

/** Every variant file of a photo (widths × formats). */
export function photoVariantNames(photo: Pick<PhotoRef, 'id' | 'width'>): string[] {
  return photoWidths(photo.width).flatMap((w) => PHOTO_FORMATS.map((f) => variantName(photo.id, w, f)));
}

/** The address a gallery keeps for an uploaded photo: its largest JPEG at the API, a real image for any client of `images`. */
export function photoSrc(photo: Pick<PhotoRef, 'id' | 'width'>): string {
  const widths = photoWidths(photo.width);
  return `${PHOTO_URL_PREFIX}${variantName(photo.id, widths[widths.length - 1], 'jpeg')}`;
}

/** Where a page links an image as a whole (Open Graph, structured data): a photo's largest JPEG as the build ships it, else its address. */
export function shippedSrc(image: GalleryImage): string {
  return image.photo ? photoSrc(image.photo).replace(PHOTO_URL_PREFIX, PHOTO_SITE_PREFIX) : image.src;
}

/** The photo id of an uploaded photo's address (any of its variants at the API or on the site), or null for anything else. */
export function photoIdOf(src: string): string | null {
  const prefix = [PHOTO_URL_PREFIX, PHOTO_SITE_PREFIX].find((p) => src.startsWith(p));
  if (!prefix) return null;
  const name = src.slice(prefix.length);
  return PHOTO_NAME_PATTERN.test(name) ? name.slice(0, 16) : null;
}

/** Photos of a list of galleries, each once (what a build ships). */
export function photosOf(galleries: Iterable<readonly GalleryImage[]>): PhotoRef[] {
  const seen = new Map<string, PhotoRef>();
  for (const gallery of galleries) for (const { photo } of gallery) if (photo && !seen.has(photo.id)) seen.set(photo.id, photo);
  return [...seen.values()];
}

/** The variants of every photo these cars' galleries show: what a build ships (photos/), so no page view asks the API for an image. */
export function shippedVariantNames(...cars: readonly { gallery: readonly GalleryImage[] }[][]): string[] {
  return photosOf(cars.flat().map((car) => car.gallery)).flatMap(photoVariantNames);
}

/** What <picture> needs of one image; bundled art has no sources and its own size. */
export interface PictureData {
  /** <source type srcset> in order of preference (AVIF, WebP); empty for bundled art. */
  sources: { type: string; srcset: string }[];
  /** The <img>: the JPEG fallback at its middle width and all JPEG widths, or the art's address. */
  src: string;
  srcset: string | undefined;
  width: number;
  height: number;
  alt: string;
  /** Background while the image loads (the photo's dominant colour), or null. */
  placeholder: string | null;
  /** `object-position` of its crops (the focus staff set); absent for the centre. */
  position?: string;
}

/** A focus as `object-position`; null for none or the centre (the browser's default). */
export function objectPosition(focus: Focus | null | undefined): string | null {
  return focus && (focus.x !== CENTRE.x || focus.y !== CENTRE.y) ? `${focus.x}% ${focus.y}%` : null;
}

/** The inline style of a picture's <img> (the page's and the island's): its colour while it loads, the point its crops keep. */
export function pictureStyle(p: Pick<PictureData, 'placeholder' | 'position'>): { backgroundColor?: string; objectPosition?: string } {
  return { ...(p.placeholder ? { backgroundColor: p.placeholder } : {}), ...(p.position ? { objectPosition: p.position } : {}) };
}

/** pictureStyle as a style attribute (Astro), or undefined when there is nothing to set. */
export function pictureStyleText(p: Pick<PictureData, 'placeholder' | 'position'>): string | undefined {
  const style = pictureStyle(p);
  const text = [style.backgroundColor && `background-color:${style.backgroundColor}`, style.objectPosition && `object-position:${style.objectPosition}`].filter(Boolean).join(';');
  return text || undefined;
}

/**
 * The part of a `width`×`height` photo a slot of `aspect` (width / height) shows when it is
 * cropped to cover it at `focus` (object-fit: cover; object-position: x% y%), in the photo's px.
 * The console draws it over the photo, so staff see the crop before any page does.
 */
export function cropOf(width: number, height: number, aspect: number, focus: Focus = CENTRE) {
  if (width / height > aspect) {
    const w = height * aspect;
    return { x: ((width - w) * focus.x) / 100, y: 0, width: w, height };
  }
  const h = width / aspect;
  return { x: 0, y: ((height - h) * focus.y) / 100, width, height: h };
}

/**
 * A deferred picture's image before its sources are set (a transparent pixel: the placeholder
 * colour shows through). Carousels defer every slide but the first: browsers load lazy images
 * that sit beside the view in a scroller at once, so a phone would fetch a whole gallery of
 * large photos for the one it shows (src/page-scripts/deferred-pictures.ts sets them when in view).
 */
const DEFERRED_SRC = 'data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7';

/** What a page says of one picture (src/components/Picture.astro and its island twin take these). */
export interface PictureProps {
  image: GalleryImage;
  /** The slot's width at each breakpoint (PHOTO_SIZES). */
  sizes: string;
  /** The page's largest image (LCP): loaded at once, first. Else `eager` loads it at once, and the rest lazily. */
  priority?: boolean;
  eager?: boolean;
  /** A carousel slide out of view: its sources wait until it scrolls in (src/page-scripts/deferred-pictures.ts). */
  deferred?: boolean;
}

/** The attributes of a picture's <source>s and <img> (srcset, sizes, src), set now or kept in data-* until it is revealed. */
export function pictureAttributes(p: PictureData, sizes: string, deferred: boolean) {
  const defer = deferred && p.sources.length > 0;
  const set = (srcset: string) => (defer ? { 'data-srcset': srcset } : { srcset });
  return {
    deferred: defer,
    sources: p.sources.map((s) => ({ type: s.type, sizes, ...set(s.srcset) })),
    // sizes and srcset before src: a browser that sees src first may fetch it before knowing it needs another.
    img: {
      sizes: p.srcset ? sizes : undefined,
      ...(p.srcset ? set(p.srcset) : {}),
      src: defer ? DEFERRED_SRC : p.src,
      ...(defer ? { 'data-src': p.src } : {}),
    },
  };
}

/** The intrinsic size bundled art is drawn at (public/cars, 16:9). */
const ART_SIZE = { width: 800, height: 450 } as const;

/**
 * <picture> data of a gallery image. `base` is where the variants are read: PHOTO_SITE_PREFIX on
 * pages (the build ships them), PHOTO_URL_PREFIX in the console (before any build has them).
 */
export function pictureOf(image: GalleryImage, base: string = PHOTO_SITE_PREFIX): PictureData {
  const { photo, alt } = image;
  const at = objectPosition(image.focus);
  const position = at ? { position: at } : {};
  if (!photo) return { sources: [], src: image.src, srcset: undefined, ...ART_SIZE, alt, placeholder: null, ...position };
  const widths = photoWidths(photo.width);
  const set = (format: PhotoFormat) => widths.map((w) => `${base}${variantName(photo.id, w, format)} ${w}w`).join(', ');
  return {
    sources: (['avif', 'webp'] as const).map((format) => ({ type: `image/${format}`, srcset: set(format) })),
    src: `${base}${variantName(photo.id, widths[Math.min(1, widths.length - 1)], 'jpeg')}`,
    srcset: set('jpeg'),
    width: photo.width,
    height: photo.height,
    alt,
    placeholder: photo.placeholder,
    ...position,
  };
}

/** The first image of a gallery, or the model's art when there is none (every card shows one). */
export function coverOf(gallery: readonly GalleryImage[], fallback: { src: string | null; alt: string }): GalleryImage {
  return gallery[0] ?? { src: fallback.src ?? '/favicon.svg', alt: fallback.alt, photo: null };
}

/**
 * `sizes` of the site's image slots, in CSS px of the layouts (max-w-7xl = 1280 px, px-6 at md):
 * the browser picks the narrowest variant that fills the slot at the screen's density.
 */
export const PHOTO_SIZES = {
  /** The car page's gallery: full width on phones, the column beside the 400-px panel on desktop. */
  carGallery: '(min-width: 1280px) 784px, (min-width: 768px) calc(100vw - 496px), 100vw',
  /** A car card in home's carousels and the garage grid (one, two, three or four across). */
  card: '(min-width: 1280px) 300px, (min-width: 1024px) 25vw, (min-width: 640px) 50vw, 90vw',
  /** A fleet card (two across from 768 px). */
  fleet: '(min-width: 1280px) 616px, (min-width: 768px) 50vw, 100vw',
  /** Home's brand showcase tiles. */
  showcase: '(min-width: 768px) 400px, 100vw',
  /** The butler landing's banner car. */
  banner: '(min-width: 768px) 50vw, 440px',
} as const;
