import type { MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import type { Logger } from './logger';
import { observeRequest } from './metrics';
import { requestIdFrom, withRequestId } from './request-context';
import { inRequestSpan } from './tracing';

/**
 * The route a request reached, as its pattern (`/api/subscriptions/:id`): the last matched
 * handler's path; middleware alone (`use`, method ALL) is not a route.
 */
function routeOf(c: Parameters<MiddlewareHandler>[0]): string {
  const handlers = matchedRoutes(c).filter((r) => r.method !== 'ALL');
  return handlers.at(-1)?.path ?? 'unmatched';
}

/**
 * First on every request: its id (the proxy's X-Request-Id, or a new one) for everything it runs
 * and enqueues, answered back in X-Request-Id; then one line and the metrics for it (method,
 * route pattern, status, milliseconds; never the query, body or headers), and its trace span.
 */
export function requestLog(logger: Logger): MiddlewareHandler {
  return async (c, next) => {
    const requestId = requestIdFrom(c.req.header('x-request-id'));
    const started = performance.now();
    await inRequestSpan(c.req.header(), c.req.method, () => withRequestId(requestId, next), () => ({ route: routeOf(c), status: c.res.status }));
    const ms = performance.now() - started;
    const route = routeOf(c);
    c.res.headers.set('x-request-id', requestId);
    observeRequest(c.req.method, route, c.res.status, ms / 1000);
    withRequestId(requestId, () => logger.info({ method: c.req.method, route, status: c.res.status, ms: Math.round(ms * 10) / 10 }, 'request'));
  };
}
