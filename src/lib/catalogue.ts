import { currentCatalogue, noteRead } from 'virtual:luxe/build-snapshot';
import type { Car } from '../domain/car';
import type { CatalogueSnapshot } from '../domain/catalogue';

/**
 * Build-time access to the catalogue of the build snapshot (src/integrations/build-snapshot.ts),
 * with the API's types. Each accessor notes what the page being rendered read: an edit renders
 * again exactly the pages that read what it changed (src/host/publish/build-child.ts).
 */

/** Every live car, by id. */
export function getCars(): Car[] {
  noteRead('cars');
  return currentCatalogue().cars;
}

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

export function getButlerCars() {
  noteRead('butlerCars');
  return currentCatalogue().butler_cars;
}
export function getFaqs() {
  noteRead('faqs');
  return currentCatalogue().faqs;
}
export function getTerms() {
  noteRead('terms');
  return currentCatalogue().terms;
}
export function getPrivacyPolicies() {
  noteRead('privacy');
  return currentCatalogue().privacy_policies;
}
/** The garage's brands in the API's showcase order. */
export function getGarageBrands() {
  noteRead('garageBrands');
  return currentCatalogue().garage_list;
}
