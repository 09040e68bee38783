import { objectPosition, photoIdOf, photoSrc, type GalleryImage } from '../../../domain/photos';
import type { GalleryInput } from '../../../domain/schemas/admin';
import type { Db } from '../../db/client';
import { badRequest } from '../../errors';
import { photoRefs } from './store';

const UNKNOWN_PHOTO = '등록되지 않은 사진입니다. 사진을 다시 올려주세요.';

/**
 * A gallery as it is stored: each uploaded photo's address (any of its variants) is looked up in
 * the photos the server encoded and kept with its size and placeholder, under its canonical
 * address; other addresses (bundled art) stay as sent; a focus other than the centre is kept with
 * it. A photo address the server never encoded
 * is refused (400 on `gallery.N.src`), so no page ever points at variants that do not exist.
 */
export async function resolveGallery(db: Db, input: GalleryInput): Promise<GalleryImage[]> {
  const refs = await photoRefs(db, input.map((image) => photoIdOf(image.src)).filter((id) => id !== null));
  return input.map(({ src, alt, focus }, i) => {
    // A focus is kept only where it moves the crop: the centre is what every page does without one.
    const at = focus && objectPosition(focus) ? { focus: { x: focus.x, y: focus.y } } : {};
    const id = photoIdOf(src);
    if (id === null) return { src, alt, photo: null, ...at };
    const photo = refs.get(id);
    if (!photo) throw badRequest(UNKNOWN_PHOTO, { [`gallery.${i}.src`]: [UNKNOWN_PHOTO] });
    return { src: photoSrc(photo), alt, photo, ...at };
  });
}
