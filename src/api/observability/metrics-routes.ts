import { timingSafeEqual } from 'node:crypto';
import { Hono } from 'hono';
import { requireAdmin } from '../auth/guards';
import { sha256Hex } from '../env';
import type { AppEnv } from '../http';
import { metricsText } from './metrics';

/**
 * `GET /metrics`: Prometheus text for a scraper holding METRICS_TOKEN, for staff and for the
 * ADMIN_TOKEN; anyone else is refused as on the console's routes.
 */
export function metricsRoutes() {
  return new Hono<AppEnv>().get(
    '/',
    async (c, next) => {
      const expected = c.var.deps.config.metricsTokenHash;
      const token = /^Bearer\s+(\S+)$/i.exec(c.req.header('authorization') ?? '')?.[1];
      if (expected && token && timingSafeEqual(Buffer.from(sha256Hex(token), 'hex'), Buffer.from(expected, 'hex'))) return next();
      return requireAdmin(c, next);
    },
    async (c) => {
      const { contentType, body } = await metricsText(c.var.deps.db, c.var.deps.clock.now());
      return c.body(body, 200, { 'content-type': contentType, 'cache-control': 'no-store' });
    },
  );
}
