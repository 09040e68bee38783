import type { GalleryImage } from '../../domain/photos';
import { UPLOAD_MAX_BYTES, UPLOAD_TYPES } from '../../domain/schemas/admin';

/** What the console's gallery field accepts before it uploads (the server checks again). */
export const GALLERY_ACCEPT = Object.keys(UPLOAD_TYPES).join(',');

/** A file the field will not send, with the Korean reason; null when it may be uploaded. */
export function fileRefusal(file: { type: string; size: number }): string | null {
  if (!Object.hasOwn(UPLOAD_TYPES, file.type)) return 'JPEG, PNG, WebP, AVIF 이미지만 올릴 수 있습니다.';
  if (file.size > UPLOAD_MAX_BYTES) return '이미지는 5MB 이하만 올릴 수 있습니다.';
  return null;
}

/** The list with the item at `from` moved to `to` (both clamped to the list). */
export function moveItem<T>(list: readonly T[], from: number, to: number): T[] {
  const next = [...list];
  if (from < 0 || from >= next.length) return next;
  const [item] = next.splice(from, 1);
  next.splice(Math.max(0, Math.min(to, next.length)), 0, item);
  return next;
}

/** What the form sends of a gallery: addresses and alt texts (the server attaches each photo itself). */
export const galleryInput = (gallery: readonly GalleryImage[]) => gallery.map(({ src, alt }) => ({ src, alt: alt.trim() }));

/** A gallery value from whatever the row held (an older row's plain addresses get an empty alt text to fill in). */
export function galleryOf(value: unknown): GalleryImage[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item: unknown): GalleryImage[] => {
    if (typeof item === 'string') return [{ src: item, alt: '', photo: null }];
    if (item && typeof item === 'object' && 'src' in item && typeof item.src === 'string') {
      const { src, alt, photo } = item as Partial<GalleryImage> & { src: string };
      return [{ src, alt: typeof alt === 'string' ? alt : '', photo: photo ?? null }];
    }
    return [];
  });
}
