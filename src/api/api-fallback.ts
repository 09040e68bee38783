import type { Context, Hono } from 'hono';
import { ErrorCode } from '../domain/error-codes';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

// What Hono's routers store per route: [handler, { method, path, … }] (see hono-base addRoute).
type Stored = [unknown, { method: string }];

/** The methods an endpoint of `app` answers at `path` (HEAD with GET); empty when no endpoint has that path. Middleware (app.use) does not count. */
function allowedMethods(app: Hono<any>, path: string): string[] {
  const allowed: string[] = METHODS.filter((method) => {
    const [matches] = app.router.match(method, path) as unknown as [[Stored, unknown][]];
    return matches.some(([stored]) => stored[1].method === method);
  });
  if (allowed.includes('GET')) allowed.splice(1, 0, 'HEAD');
  return allowed;
}

/**
 * The answer to an API request no endpoint took, `path` relative to the API: OPTIONS on a
 * known path is 204 with Allow; another method on a known path the 405 envelope with Allow;
 * anything else (unknown path, trailing slash) the 404 envelope. Never the site's pages.
 */
export function unmatchedApiRequest(app: Hono<any>, path: string, c: Context): Response {
  const allowed = allowedMethods(app, path);
  if (allowed.length) {
    const allow = [...allowed, 'OPTIONS'].join(', ');
    if (c.req.method === 'OPTIONS') return c.body(null, 204, { allow });
    return c.json({ code: ErrorCode.METHOD_NOT_ALLOWED, message: '허용되지 않는 요청 방식입니다.', errors: { _: [`허용: ${allow}`] } }, 405, { allow });
  }
  return c.json({ code: ErrorCode.NOT_FOUND, message: '요청한 주소를 찾을 수 없습니다.', errors: {} }, 404);
}
