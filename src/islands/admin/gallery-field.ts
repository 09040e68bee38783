import { CENTRE, type Focus, type GalleryImage } from '../../domain/photos';
import { UPLOAD_ACCEPT, UPLOAD_MAX_BYTES, UPLOAD_TOO_LARGE, UPLOAD_WRONG_TYPE, uploadTypeOf } from '../../domain/schemas/admin';

/** What the console's gallery field accepts before it uploads (the server checks again). */
export const GALLERY_ACCEPT = UPLOAD_ACCEPT;

/** A file the field will not send, with the Korean reason; null when it may be uploaded (a .heic without a type too). */
export function fileRefusal(file: { type: string; size: number; name?: string }): string | null {
  if (!uploadTypeOf(file)) return UPLOAD_WRONG_TYPE;
  if (file.size > UPLOAD_MAX_BYTES) return UPLOAD_TOO_LARGE;
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

/** What the form sends of a gallery: addresses, alt texts and focuses (the server attaches each photo itself). */
export const galleryInput = (gallery: readonly GalleryImage[]) => gallery.map(({ src, alt, focus }) => ({ src, alt: alt.trim(), ...(focus ? { focus } : {}) }));

const percent = (n: number) => Math.max(0, Math.min(100, Math.round(n)));

/** The focus at a point of a `width`×`height` photo (its own px; a tap beside it counts as its edge), in whole %. */
export function focusAt(x: number, y: number, width: number, height: number): Focus {
  return { x: percent((x / width) * 100), y: percent((y / height) * 100) };
}

/** Arrow keys move the focus 5% (Home: back to the centre); other keys leave it (null). */
export function nudgeFocus(focus: Focus | undefined, key: string): Focus | null {
  const { x, y } = focus ?? CENTRE;
  const step = 5;
  const moves: Record<string, Focus> = {
    ArrowLeft: { x: percent(x - step), y },
    ArrowRight: { x: percent(x + step), y },
    ArrowUp: { x, y: percent(y - step) },
    ArrowDown: { x, y: percent(y + step) },
    Home: CENTRE,
  };
  return moves[key] ?? null;
}

const isFocus = (value: unknown): value is Focus =>
  !!value && typeof value === 'object' && [(value as Focus).x, (value as Focus).y].every((n) => Number.isInteger(n) && n >= 0 && n <= 100);

/** A gallery value from whatever the row held (an older row's plain addresses get an empty alt text to fill in). */
export function galleryOf(value: unknown): GalleryImage[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item: unknown): GalleryImage[] => {
    if (typeof item === 'string') return [{ src: item, alt: '', photo: null }];
    if (item && typeof item === 'object' && 'src' in item && typeof item.src === 'string') {
      const { src, alt, photo, focus } = item as Partial<GalleryImage> & { src: string };
      return [{ src, alt: typeof alt === 'string' ? alt : '', photo: photo ?? null, ...(isFocus(focus) ? { focus: { x: focus.x, y: focus.y } } : {}) }];
    }
    return [];
  });
}
