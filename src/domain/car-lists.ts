/**
 * The short lists the storefront's pre-rendered pages draw from every live car (the garage's
 * first page, home's brand showcase), each in one pass that stops once it has what it shows:
 * an edit renders these pages again at any catalogue size, and a sort or a filter of 100,000
 * cars per brand was most of such an edit's rendering.
 */
import { brandSlug, FEATURED_BRAND_SLUGS, OTHERS_SLUG, type Car } from './car';

type Flags = Pick<Car, 'id' | 'is_hot' | 'is_new'>;
/** What the showcase reads of a car: its model and the model's brand name. */
type Branded = { model: { id: number; brand: { name: string } } };

/**
 * The first `n` cars in the garage's default order (the API's: hot first, then new, then by id),
 * from cars in id order (as the build's catalogue holds them).
 */
export function firstInGarageOrder<C extends Flags>(carsById: readonly C[], n: number): C[] {
  // Rank 0: hot and new, 1: hot, 2: new, 3: neither; each bucket keeps id order.
  const buckets: C[][] = [[], [], [], []];
  for (const car of carsById) {
    const bucket = buckets[(car.is_hot ? 0 : 2) + (car.is_new ? 0 : 1)];
    if (bucket.length < n) bucket.push(car);
    if (buckets[0].length === n) break;
  }
  return buckets.flat().slice(0, n);
}

/** The showcase's brand of a car: a featured brand's slug, else Others. */
function showcaseSlug(car: Branded): string {
  const slug = brandSlug(car.model.brand.name);
  return (FEATURED_BRAND_SLUGS as readonly string[]).includes(slug) ? slug : OTHERS_SLUG;
}

/** Up to `per` cars of different models for each showcase brand, the first in catalogue order. */
export function showcaseSamples<C extends Branded>(cars: readonly C[], per: number): Map<string, C[]> {
  const slugs = [...FEATURED_BRAND_SLUGS, OTHERS_SLUG];
  const out = new Map<string, C[]>(slugs.map((slug) => [slug, []]));
  const models = new Map<string, Set<number>>(slugs.map((slug) => [slug, new Set()]));
  let full = 0;
  for (const car of cars) {
    const slug = showcaseSlug(car);
    const list = out.get(slug)!;
    const seen = models.get(slug)!;
    if (list.length === per || seen.has(car.model.id)) continue;
    seen.add(car.model.id);
    list.push(car);
    if (list.length === per && ++full === slugs.length) break;
  }
  return out;
}
