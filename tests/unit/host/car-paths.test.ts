import { describe, expect, it } from 'vitest';
import type { PathWithRoute } from 'astro';
import { patchCarPaths } from '../../../src/host/publish/child/car-paths';

/** A warm prerenderer's paths and Astro's route cache of the car route, in the shape astro 7 keeps them. */
function warm(ids: number[]) {
  const carRoute = { route: '/car/[id]', component: 'src/pages/car/[id].astro' } as unknown as PathWithRoute['route'];
  const home = { route: '/', component: 'src/pages/index.astro' } as unknown as PathWithRoute['route'];
  const staticPaths = Object.assign(ids.map((id) => ({ params: { id: String(id) } })), { keyed: new Map<string, { params: Record<string, string> }>() });
  for (const sp of staticPaths) staticPaths.keyed.set(`/car/${sp.params.id}`, sp);
  const paths = new Map<string, PathWithRoute>([['/', { pathname: '/', route: home }], ...ids.map((id) => [`/car/${id}`, { pathname: `/car/${id}`, route: carRoute }] as [string, PathWithRoute])]);
  const cache = new Map([[carRoute, { staticPaths }]]);
  return { w: { paths, prerenderer: { app: { routeCache: { get: (route: unknown) => cache.get(route as typeof carRoute) } } } } as never, staticPaths, carRoute };
}

describe('the car pages an edit adds or removes, in the warm prerenderer', () => {
  it('go into its paths and Astro’s cache of the car route, keyed as Astro keys them', () => {
    const { w, staticPaths, carRoute } = warm([1, 2, 3]);
    expect(patchCarPaths(w, [10], [2])).toBe(true);
    expect([...staticPaths.keyed.keys()]).toEqual(['/car/1', '/car/3', '/car/10']);
    expect(staticPaths.map((sp) => sp.params.id)).toEqual(['1', '3', '10']);
    const paths = (w as { paths: Map<string, PathWithRoute> }).paths;
    expect([...paths.keys()]).toEqual(['/', '/car/1', '/car/3', '/car/10']);
    expect(paths.get('/car/10')).toEqual({ pathname: '/car/10', route: carRoute });
  });

  it('answer false, touching nothing, when the cache is not there in that shape (every path is derived again)', () => {
    const { w } = warm([1]);
    const bare = { paths: (w as { paths: Map<string, PathWithRoute> }).paths, prerenderer: {} } as never;
    expect(patchCarPaths(bare, [5], [])).toBe(false);
    expect([...(w as { paths: Map<string, PathWithRoute> }).paths.keys()]).toEqual(['/', '/car/1']);
  });
});
