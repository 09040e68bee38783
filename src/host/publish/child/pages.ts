/**
 * Pages by their pathnames and files, and which pages an edit renders again: pure functions of
 * the build child (unit-tested without a build).
 */
import type { Car } from '../../../domain/car.ts';
import type { CatalogueSnapshot } from '../../../domain/catalogue.ts';
import type { CatalogueRead } from '../../../integrations/build-snapshot.ts';
import type { CatalogueChanges, CatalogueDelta } from './messages.ts';

/** The file a page's pathname is written to (Astro's `directory` format): /car/1/ → car/1/index.html, /robots.txt → robots.txt. */
export function pageFile(pathname: string): string {
  const decoded = decodeURI(pathname).replace(/^\/+/, '');
  return decoded === '' || decoded.endsWith('/') ? `${decoded}index.html` : decoded;
}

/** The pathname a page is asked for by (Astro's `directory` format): /car/1 → /car/1/; files (/robots.txt) as they are. */
export const pageUrlPath = (pathname: string): string => (pathname.endsWith('/') || /\.[a-z0-9]+$/i.test(pathname) ? pathname : `${pathname}/`);

/** A car page's id, from its pathname (/car/12/), or null. */
export const carOfPage = (pathname: string): number | null => {
  const m = /^\/car\/(\d+)\/?$/.exec(pathname);
  return m ? Number(m[1]) : null;
};

/** The pathname of a car's page, as the build names it. */
export const carPage = (id: number, like: string) => `/car/${id}${like.endsWith('/') ? '/' : ''}`;

/** A car page's pathname as the warm builder noted it: pages are named by their URL's (/car/1/), Astro's static paths by theirs (/car/1). */
export const carPageLike = (w: { reads: Map<string, unknown> }) => [...w.reads.keys()].find((p) => carOfPage(p) !== null) ?? '/car/0/';

/**
 * The pages an edit renders again: the pages of the cars that changed or came, and every other
 * page that read what changed (the car list, a car, or another part of the catalogue).
 */
export function pagesToRender(reads: ReadonlyMap<string, readonly CatalogueRead[]>, changes: CatalogueChanges): string[] {
  const cars = new Set([...changes.changed, ...changes.added, ...changes.removed]);
  const touched = new Set<CatalogueRead>(changes.parts);
  if (cars.size) touched.add('cars');
  for (const id of cars) touched.add(`car:${id}`);
  const out: string[] = [];
  for (const [pathname, pageReads] of reads) {
    const car = carOfPage(pathname);
    if (car !== null && changes.removed.includes(car)) continue;
    if (pageReads.some((read) => touched.has(read))) out.push(pathname);
  }
  return out;
}

/** A catalogue with an edit's cars: every live car, the changed and new ones from the delta. */
export function applyDelta(before: CatalogueSnapshot, delta: CatalogueDelta): CatalogueSnapshot | null {
  const known = new Map(before.cars.map((car) => [car.id, car]));
  for (const car of delta.cars) known.set(car.id, car);
  const cars: Car[] = [];
  for (const id of [...delta.liveIds].sort((a, b) => a - b)) {
    const car = known.get(id);
    if (!car) return null;
    cars.push(car);
  }
  return { ...delta.rest, cars };
}
