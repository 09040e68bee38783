import { pictureOf, type GalleryImage } from '../../domain/photos';

interface Props {
  image: GalleryImage;
  /** The slot's width at each breakpoint (PHOTO_SIZES). */
  sizes: string;
  /** The page's largest image (LCP): loaded at once, first. Else `eager` loads it at once, and the rest lazily. */
  priority?: boolean;
  eager?: boolean;
  className?: string;
  /** Where the variants are read (the console reads the API's before any build ships them). */
  base?: string;
  /** A thumbnail beside the car's name says nothing the name does not: alt="" then. */
  decorative?: boolean;
}

/** The islands' twin of src/components/Picture.astro: the same <picture> from the same rules (src/domain/photos.ts). */
export default function Picture({ image, sizes, priority = false, eager = false, className, base, decorative = false }: Props) {
  const p = pictureOf(image, base);
  const img = (
    <img
      // sizes and srcset before src: a browser that sees src first may fetch it before knowing it needs another.
      sizes={p.srcset ? sizes : undefined}
      srcSet={p.srcset}
      src={p.src}
      alt={decorative ? '' : p.alt}
      width={p.width}
      height={p.height}
      loading={priority || eager ? 'eager' : 'lazy'}
      fetchPriority={priority ? 'high' : undefined}
      decoding="async"
      style={p.placeholder ? { backgroundColor: p.placeholder } : undefined}
      className={className}
    />
  );
  if (!p.sources.length) return img;
  return (
    <picture>
      {p.sources.map((s) => (
        <source key={s.type} type={s.type} srcSet={s.srcset} sizes={sizes} />
      ))}
      {img}
    </picture>
  );
}
