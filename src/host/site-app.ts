import { Hono, type Handler, type MiddlewareHandler } from 'hono';
import { unmatchedApiRequest } from '../api/api-fallback';

/**
 * One app for the site and the API: the API under /api (after `apiMiddleware`, e.g.
 * compression), every other /api request (unknown path, trailing slash, wrong method, OPTIONS)
 * answered by the API's JSON 404/405 (api-fallback.ts), and the built site for the rest.
 */
export function composeSite({ api, site, apiMiddleware = [] }: { api: Hono<any>; site: Handler; apiMiddleware?: MiddlewareHandler[] }): Hono {
  const app = new Hono();
  for (const mw of apiMiddleware) app.use('/api/*', mw);
  app.route('/api', api);
  app.all('/api', (c) => unmatchedApiRequest(api, '/', c));
  app.all('/api/*', (c) => unmatchedApiRequest(api, c.req.path.slice('/api'.length) || '/', c));
  app.get('*', site);
  return app;
}
