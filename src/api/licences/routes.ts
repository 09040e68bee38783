import { Hono } from 'hono';
import type { LicenceAnswer, LicenceListAnswer } from '../../domain/licence';
import { RegisterLicenceSchema } from '../../domain/schemas/licence';
import { requireUser } from '../auth/guards';
import { ok, validJson, type AppEnv } from '../http';
import { ipLimit } from '../middleware/rate-limit';
import { listLicences, registerLicence } from './licences';

const MINUTE = 60_000;

/** The customer's driver's licences (운전자격 확인, docs/decisions/legal.md §1): masked, checked before the order's charge. */
export const licenceRoutes = new Hono<AppEnv>()
  .get('/', requireUser, async (c) => ok(c, { licences: await listLicences(c.var.deps.db, c.var.userId), new_driver: c.var.deps.config.licence.newDriver } satisfies LicenceListAnswer))
  // Each check asks the 운전자격확인시스템: a budget per address, so nobody probes other people's licences through it.
  .post('/', ipLimit('licence', 20, 10 * MINUTE), requireUser, validJson(RegisterLicenceSchema), async (c) =>
    ok(c, { licence: await registerLicence(c.var.deps, c.var.userId, c.req.valid('json')) } satisfies LicenceAnswer, 201),
  );
