/**
 * What an edit changed since the build being served, from what each build keeps beside its
 * pages: every live car's row version (`.build-cars.json`), a digest of each other part of the
 * catalogue and of the brands and models (the stamp). The build child renders again exactly the
 * pages that read what changed (child/pages.ts pagesToRender).
 */
import { createHash } from 'node:crypto';
import type { CatalogueSnapshot } from '../../domain/catalogue';
import type { CatalogueChanges, CataloguePart } from './child/messages';

/** car id → row version, beside a build's pages. */
export const CAR_VERSIONS = '.build-cars.json';

/** More changed cars than this share of all (at least MIN_CHANGES) is a full build: rendering them all is as fast then. */
const FULL_SHARE = 0.25;
const MIN_CHANGES = 1000;

const digest = (value: unknown) => createHash('sha256').update(JSON.stringify(value)).digest('base64url').slice(0, 22);

/** A digest of each part of the catalogue besides the cars, by the name page reads give it. */
export function partDigests(rest: Omit<CatalogueSnapshot, 'cars'>): Record<CataloguePart, string> {
  return {
    butlerCars: digest(rest.butler_cars),
    faqs: digest(rest.faqs),
    terms: digest(rest.terms),
    privacy: digest(rest.privacy_policies),
    garageBrands: digest(rest.garage_list),
  };
}

/** What the build being served was made from. */
export interface ServedCatalogue {
  versions: Record<string, string>;
  parts: Record<string, string>;
  models: string;
}

/**
 * The changes from the served build to now, or null when only a full build will do: the brands
 * or models changed (every car page shows them), or too many cars changed.
 */
export function planChanges(served: ServedCatalogue, now: { versions: Record<string, string>; models: string }): Omit<CatalogueChanges, 'parts'> | null {
  if (served.models !== now.models) return null;
  const changed: number[] = [];
  const added: number[] = [];
  for (const [id, version] of Object.entries(now.versions)) {
    const before = served.versions[id];
    if (before === undefined) added.push(Number(id));
    else if (before !== version) changed.push(Number(id));
  }
  const removed = Object.keys(served.versions).filter((id) => !(id in now.versions)).map(Number);
  const count = changed.length + added.length + removed.length;
  if (count > Math.max(MIN_CHANGES, FULL_SHARE * Object.keys(now.versions).length)) return null;
  return { changed, added, removed };
}

/** The parts whose digest differs from the served build's. */
export const changedParts = (served: Record<string, string>, now: Record<CataloguePart, string>): CataloguePart[] =>
  (Object.keys(now) as CataloguePart[]).filter((part) => served[part] !== now[part]);
