import { currentCatalogue, noteRead } from 'virtual:luxe/build-snapshot';
import type { Car } from '../domain/car';
import type { CatalogueSnapshot } from '../domain/catalogue';

/**
 * Build-time access to the catalogue of the build snapshot (src/integrations/build-snapshot.ts),
 * with the API's types. Each accessor notes what the page being rendered read: an edit renders
 * again exactly the pages that read what it changed (src/host/publish/child/pages.ts pagesToRender).
 */

/** The accessor of one part of the catalogue, which notes it as `read`. */
function part<K extends keyof CatalogueSnapshot>(read: Parameters<typeof noteRead>[0], key: K): () => CatalogueSnapshot[K] {
  return () => {
    noteRead(read);
    return currentCatalogue()[key];
  };
}

/** Every live car, by id. */
export const getCars = part('cars', 'cars');
export const getButlerCars = part('butlerCars', 'butler_cars');
export const getFaqs = part('faqs', 'faqs');
export const getTerms = part('terms', 'terms');
export const getPrivacyPolicies = part('privacy', 'privacy_policies');
/** The garage's brands in the API's showcase order. */
export const getGarageBrands = part('garageBrands', 'garage_list');

/** The ids of the cars with a page (getStaticPaths: outside a render, nothing is noted). */
export const getCarIds = (): number[] => currentCatalogue().cars.map((car) => car.id);

const byId = new WeakMap<CatalogueSnapshot, Map<number, Car>>();

/** One car, for its own page. */
export function getCar(id: number): Car | undefined {
  noteRead(`car:${id}`);
  const catalogue = currentCatalogue();
  let cars = byId.get(catalogue);
  if (!cars) byId.set(catalogue, (cars = new Map(catalogue.cars.map((car) => [car.id, car]))));
  return cars.get(id);
}
