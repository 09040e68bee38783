import type { CatalogueSnapshot } from '../../domain/catalogue';
import type { Db } from '../db/client';
import { allCars, butlerCarList, catalogueVersion, garageList } from './catalogue';
import { faqList, policyList } from './content';

/**
 * Everything the static build pre-renders, with the catalogue version: GET /catalogue answers it
 * and the publisher writes it into each build's snapshot (src/host/publish/rebuild.ts).
 */
export async function catalogueSnapshot(db: Db): Promise<CatalogueSnapshot> {
  const [version, cars, butler_cars, garage_list, faqs, terms, privacy_policies] = await Promise.all([
    catalogueVersion(db),
    allCars(db),
    butlerCarList(db),
    garageList(db),
    faqList(db),
    policyList(db, 'terms'),
    policyList(db, 'privacy'),
  ]);
  return { version, cars, butler_cars, garage_list, faqs, terms, privacy_policies };
}
