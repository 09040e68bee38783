import { Hono } from 'hono';
import type { CatalogueSnapshot } from '../../domain/catalogue';
import { ok, type AppEnv } from '../http';
import { allCars, butlerCarList, catalogueVersion, garageList } from '../services/catalogue';
import { faqList, policyList } from '../services/content';

/**
 * GET /catalogue: everything the static build pre-renders, in one response, with the
 * catalogue version the build records so `npm start` knows when it is stale.
 */
export const catalogueRoutes = new Hono<AppEnv>().get('/', async (c) => {
  const { db } = c.var.deps;
  const [version, cars, butler_cars, garage_list, faqs, terms, privacy_policies] = await Promise.all([
    catalogueVersion(db),
    allCars(db),
    butlerCarList(db),
    garageList(db),
    faqList(db),
    policyList(db, 'terms'),
    policyList(db, 'privacy'),
  ]);
  const snapshot: CatalogueSnapshot = { version, cars, butler_cars, garage_list, faqs, terms, privacy_policies };
  return ok(c, snapshot);
});
