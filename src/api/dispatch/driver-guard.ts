import { createMiddleware } from 'hono/factory';
import { requireUser } from '../auth/guards';
import type { AppEnv } from '../http';
import { driverIdOf } from './driver-day';

declare module 'hono' {
  interface ContextVariableMap {
    /** The roster driver of the account requireDriver accepted. */
    driverId: number;
  }
}

/**
 * A driver account's route: the token (401), then the role (403 for customers and staff), before
 * any body or parameter is read, so a stranger's malformed body cannot tell whether the route
 * exists for them. Sets `c.var.driverId`.
 */
export const requireDriver = createMiddleware<AppEnv>(async (c, next) =>
  requireUser(c, async () => {
    c.set('driverId', await driverIdOf(c.var.deps.db, c.var.userId));
    await next();
  }),
);
