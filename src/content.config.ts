import { defineCollection } from 'astro:content';
import type { CatalogueSnapshot as Snapshot } from './domain/catalogue';

/**
 * Build-time loaders: the whole catalogue comes from the API in one call (GET /catalogue).
 * API_BASE_URL names the API; an unreachable API fails the build, so an empty shop is never published.
 */
const apiBase = () => (process.env.API_BASE_URL ?? 'http://127.0.0.1:4321/api').replace(/\/$/, '');

let snapshot: Promise<Snapshot> | undefined;
function loadSnapshot(): Promise<Snapshot> {
  // The storefront build child (src/host/publish/build-child.ts) fetched it already, in this process.
  const fetched = (globalThis as { luxeCatalogue?: Snapshot }).luxeCatalogue;
  if (fetched?.cars?.length) snapshot ??= Promise.resolve(fetched);
  snapshot ??= (async () => {
    const url = `${apiBase()}/catalogue`;
    let res: Response;
    try {
      res = await fetch(url, { signal: AbortSignal.timeout(60_000) });
    } catch (err) {
      throw new Error(`The catalogue API at ${url} cannot be reached (${(err as Error).message}). Start it (npm start builds with it running) or set API_BASE_URL. The build stops rather than publish an empty shop.`, { cause: err });
    }
    if (!res.ok) throw new Error(`The catalogue API at ${url} answered ${res.status}. The build stops rather than publish an empty shop.`);
    const body = (await res.json()) as { data: Snapshot };
    if (!body.data?.cars?.length) throw new Error(`The catalogue API at ${url} returned no cars. Seed the database (npm run seed) before building.`);
    return body.data;
  })();
  return snapshot;
}

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
