/**
 * Which car pages a build renders again. The publisher compares the catalogue's per-car hashes
 * with the served build's and puts the changed ids into the build snapshot.
 *
 * Loaded by Node directly in the build child (type stripping): node: modules only.
 */
import { createHash } from 'node:crypto';

/** Per-car content hashes of a build (car id → hash), beside its pages. */
export const CAR_HASHES = '.build-cars.json';
/** More changed cars than this is a full build (rendering them all is as fast then). */
export const INCREMENTAL_LIMIT = 200;

/** car id → hash of the car's API data: a car page changes exactly when its hash does. */
export function carHashes(cars: readonly { id: number }[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const car of cars) out[String(car.id)] = createHash('sha256').update(JSON.stringify(car)).digest('base64url').slice(0, 22);
  return out;
}

/**
 * The car ids whose page must be rendered again, or null when only a full build will do (cars
 * added or removed: lists, sitemap and every page's links change; or too many changed).
 */
export function changedCars(before: Record<string, string> | null, now: Record<string, string>, limit = INCREMENTAL_LIMIT): number[] | null {
  if (!before) return null;
  const ids = Object.keys(now);
  if (ids.length !== Object.keys(before).length || ids.some((id) => !(id in before))) return null;
  const changed = ids.filter((id) => before[id] !== now[id]).map(Number);
  return changed.length > limit ? null : changed.sort((a, b) => a - b);
}
