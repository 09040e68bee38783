import { Hono, type Handler, type MiddlewareHandler } from 'hono';
import { unmatchedApiRequest } from '../api/api-fallback';
import { PHOTO_SITE_PREFIX, PHOTO_URL_PREFIX } from '../domain/photos';

/**
 * One app for the site and the API: the API under /api (after `apiMiddleware`, e.g.
 * compression), every other /api request (unknown path, trailing slash, wrong method, OPTIONS)
 * answered by the API's JSON 404/405 (api-fallback.ts), and the built site for the rest; a photo
 * the built site lacks comes from the API.
 */
export function composeSite({ api, site, apiMiddleware = [] }: { api: Hono<any>; site: Handler; apiMiddleware?: MiddlewareHandler[] }): Hono {
  const app = new Hono();
  for (const mw of apiMiddleware) app.use('/api/*', mw);
  app.route('/api', api);
  app.all('/api', (c) => unmatchedApiRequest(api, '/', c));
  app.all('/api/*', (c) => unmatchedApiRequest(api, c.req.path.slice('/api'.length) || '/', c));
  // A photo the served build does not ship yet (a car the API shows before its build is live): the API's copy.
  app.get(`${PHOTO_SITE_PREFIX}*`, async (c, next) => {
    const res: unknown = await site(c, next);
    if (res instanceof Response && res.status !== 404) return res;
    return api.request(`${PHOTO_URL_PREFIX.slice('/api'.length)}${c.req.path.slice(PHOTO_SITE_PREFIX.length)}`, { headers: c.req.raw.headers });
  });
  app.get('*', site);
  return app;
}
