import { pictureAttributes, pictureOf, pictureStyle, type PictureProps } from '../../domain/photos';

interface Props extends PictureProps {
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
      style={p.placeholder || p.position ? pictureStyle(p) : undefined}
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
