import { defineCollection } from 'astro:content';
import { readCatalogue } from 'virtual:luxe/build-snapshot';
import type { CatalogueSnapshot as Snapshot } from './domain/catalogue';

/**
 * Build-time loaders: the whole catalogue comes from the build snapshot (src/integrations/storefront.ts),
 * read once. A missing snapshot, or one without cars, fails the build: an empty shop is never published.
 */
let snapshot: Promise<Snapshot> | undefined;
const loadSnapshot = () => (snapshot ??= readCatalogue());

const byId = <T extends { id: number }>(list: T[]) => list.map((item) => ({ ...item, id: String(item.id) }));

export const collections = {
  cars: defineCollection({ loader: async () => byId((await loadSnapshot()).cars) }),
  butlerCars: defineCollection({ loader: async () => byId((await loadSnapshot()).butler_cars) }),
  faqs: defineCollection({ loader: async () => byId((await loadSnapshot()).faqs) }),
  terms: defineCollection({ loader: async () => byId((await loadSnapshot()).terms) }),
  privacyPolicies: defineCollection({ loader: async () => byId((await loadSnapshot()).privacy_policies) }),
  // The store hands entries back by id; position keeps the API's showcase order.
  garageBrands: defineCollection({ loader: async () => (await loadSnapshot()).garage_list.map((b, position) => ({ ...b, id: b.slug, position })) }),
  catalogue: defineCollection({ loader: async () => [{ id: 'version', version: (await loadSnapshot()).version }] }),
};
