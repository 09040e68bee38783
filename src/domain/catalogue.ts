import type { ButlerCar } from './butler';
import type { Car } from './car';

/**
 * Response shapes of the catalogue and content API, shared by the server (which builds them),
 * the static build (src/content.config.ts, src/lib/catalogue.ts) and the islands.
 */

/** A garage brand with its models and how many subscription cars each has. */
export interface GarageBrand {
  slug: string;
  name: string;
  model_list: { id: number; name: string; car_count: number }[];
}

/** One page of GET /subscriptions/garages. */
export interface GaragePage {
  garage_list: GarageBrand[];
  cars: Car[];
  pagination_info: { next: number | null; current_page: number; total_pages: number; count: number };
}

export interface Faq {
  id: number;
  question: string;
  answer: string;
  category: string | null;
}

export type PolicyKind = 'terms' | 'privacy';

/** One version of the terms or the privacy policy. */
export interface PolicyDocument {
  id: number;
  title: string;
  content: string;
  version: string;
  effective_date: string;
}

/** GET /catalogue: everything the static build pre-renders, with the catalogue version. */
export interface CatalogueSnapshot {
  version: number;
  cars: Car[];
  butler_cars: ButlerCar[];
  garage_list: GarageBrand[];
  faqs: Faq[];
  terms: PolicyDocument[];
  privacy_policies: PolicyDocument[];
}
