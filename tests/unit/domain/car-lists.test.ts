import { describe, expect, it } from 'vitest';
import { brandSlug, FEATURED_BRAND_SLUGS, OTHERS_SLUG } from '../../../src/domain/car';
import { firstInGarageOrder, showcaseSamples } from '../../../src/domain/car-lists';

const BRANDS = ['Ferrari', 'Lamborghini', 'Mercedes Benz', 'Porsche', 'BMW', 'Aston Martin', 'Bentley'];
/** Cars in id order with flags and brands spread unevenly, as a seeded catalogue has them. */
const catalogue = (n: number, seed = 7) => {
  let x = seed;
  const next = () => (x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  return Array.from({ length: n }, (_, i) => ({ id: i + 1, is_hot: next() < 0.1, is_new: next() < 0.2, model: { id: Math.floor(next() * 40), name: '', brand: { id: 0, name: BRANDS[Math.floor(next() ** 2 * BRANDS.length)], image: null } } }));
};

describe('the garage’s first page', () => {
  it('is the API’s order (hot, then new, then id) of every car, for any mix', () => {
    for (const [n, seed] of [[0, 1], [5, 2], [300, 3], [5000, 4]]) {
      const cars = catalogue(n, seed);
      const sorted = [...cars].sort((a, b) => Number(b.is_hot) - Number(a.is_hot) || Number(b.is_new) - Number(a.is_new) || a.id - b.id);
      expect(firstInGarageOrder(cars, 12).map((c) => c.id)).toEqual(sorted.slice(0, 12).map((c) => c.id));
    }
  });
});

describe('home’s brand showcase', () => {
  it('takes per brand the first cars of different models, as a filter of every car would', () => {
    const cars = catalogue(5000, 9);
    const samples = showcaseSamples(cars, 3);
    for (const slug of [...FEATURED_BRAND_SLUGS, OTHERS_SLUG]) {
      const seen = new Set<number>();
      const of = (c: (typeof cars)[number]) => {
        const s = brandSlug(c.model.brand.name);
        return (FEATURED_BRAND_SLUGS as readonly string[]).includes(s) ? s : OTHERS_SLUG;
      };
      const expected = cars.filter((c) => of(c) === slug && !seen.has(c.model.id) && seen.add(c.model.id)).slice(0, 3);
      expect(samples.get(slug)?.map((c) => c.id), slug).toEqual(expected.map((c) => c.id));
    }
  });

  it('a brand with no car has an empty entry', () => {
    expect(showcaseSamples(catalogue(20).filter((c) => c.model.brand.name === 'Ferrari'), 3).get('bmw')).toEqual([]);
  });
});
