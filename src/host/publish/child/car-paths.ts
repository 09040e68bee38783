/**
 * The static paths of car pages that came or went, put into what the warm prerenderer keeps
 * (its paths, and Astro's route cache of the car route's getStaticPaths) instead of deriving
 * every page's path again: at 100,000 cars that took 0.3 s of each edit that adds a car.
 *
 * Astro's route cache is internal (astro 7: `app.routeCache`, an entry per route whose
 * `staticPaths` array has a `keyed` map by the route's path for the params): when it is not
 * there in that shape, this answers false and the caller derives every path as before.
 */
import type { PathWithRoute } from 'astro';
import { carOfPage } from './pages.ts';
import type { Warm } from './prerenderer.ts';

type StaticPath = { params: Record<string, string | undefined> };
type CachedPaths = StaticPath[] & { keyed?: Map<string, StaticPath> };
type RouteCache = { get?: (route: PathWithRoute['route']) => { staticPaths?: CachedPaths } | undefined };

export function patchCarPaths(w: Pick<Warm, 'paths' | 'prerenderer'>, added: readonly number[], removed: readonly number[]): boolean {
  let template: PathWithRoute | undefined;
  for (const p of w.paths.values()) if (carOfPage(p.pathname) !== null && (template = p)) break;
  if (!template) return false;
  const routeCache = (w.prerenderer as { app?: { routeCache?: RouteCache } }).app?.routeCache;
  const cached = routeCache?.get?.(template.route)?.staticPaths;
  const templateId = String(carOfPage(template.pathname));
  const keyed = cached?.keyed;
  const templateKey = keyed && [`/car/${templateId}`, `/car/${templateId}/`].find((key) => keyed.has(key));
  if (!cached || !keyed || !templateKey) return false;
  const keyOf = (id: number) => templateKey.replace(`/car/${templateId}`, `/car/${id}`);
  const pathnameOf = (id: number) => template.pathname.replace(`/car/${templateId}`, `/car/${id}`);
  for (const id of added) {
    const entry: StaticPath = { params: { id: String(id) } };
    cached.push(entry);
    keyed.set(keyOf(id), entry);
    w.paths.set(pathnameOf(id), { pathname: pathnameOf(id), route: template.route });
  }
  if (removed.length) {
    const gone = new Set(removed.map(String));
    for (const id of removed) {
      keyed.delete(keyOf(id));
      w.paths.delete(pathnameOf(id));
    }
    let kept = 0;
    for (const entry of cached) if (!gone.has(String(entry.params.id))) cached[kept++] = entry;
    cached.length = kept;
  }
  return true;
}
