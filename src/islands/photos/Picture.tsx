import { pictureAttributes, pictureOf, type GalleryImage } from '../../domain/photos';

interface Props {
  image: GalleryImage;
  /** The slot's width at each breakpoint (PHOTO_SIZES). */
  sizes: string;
  /** The page's largest image (LCP): loaded at once, first. Else `eager` loads it at once, and the rest lazily. */
  priority?: boolean;
  eager?: boolean;
  /** A carousel slide out of view: its sources wait until it scrolls in (src/scripts/deferred-pictures.ts). */
  deferred?: boolean;
  className?: string;
  /** Where the variants are read (the console reads the API's before any build ships them). */
  base?: string;
  /** A thumbnail beside the car's name says nothing the name does not: alt="" then. */
  decorative?: boolean;
}

/** React's names for the attributes pictureAttributes gives. */
const react = ({ srcset, ...rest }: { srcset?: string; [name: string]: string | undefined }) => ({ ...rest, srcSet: srcset });

/** The islands' twin of src/components/Picture.astro: the same <picture> from the same rules (src/domain/photos.ts). */
export default function Picture({ image, sizes, priority = false, eager = false, deferred = false, className, base, decorative = false }: Props) {
  const p = pictureOf(image, base);
  const a = pictureAttributes(p, sizes, deferred);
  const img = (
    <img
      {...react(a.img)}
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
    <picture data-deferred={a.deferred ? '' : undefined}>
      {a.sources.map((s) => (
        <source key={s.type} {...react(s)} />
      ))}
      {img}
    </picture>
  );
}
