import type { ButlerCar } from './butler';
import type { Car } from './car';
import type { PaginationInfo } from './schemas/common';

/**
 * Response shapes of the catalogue and content API, shared by the server (which builds them),
 * the static build (src/lib/catalogue.ts) and the islands.
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
  pagination_info: PaginationInfo;
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

/** GET /subscriptions/cars: the home page's new and hot cars. */
export interface HomeCarsAnswer {
  new_cars: Car[];
  hot_cars: Car[];
}

/** GET /subscriptions/cars/{id}. */
export interface CarAnswer {
  car: Car;
}

/** GET /services/faqs. */
export interface FaqListAnswer {
  faqs: Faq[];
}

/** GET /services/terms (every version, newest first). */
export interface TermsAnswer {
  terms: PolicyDocument[];
}

/** GET /services/privacy-policies (every version, newest first). */
export interface PrivacyPolicyListAnswer {
  privacy_policies: PolicyDocument[];
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

/**
 * What one storefront build reads: the host (src/host/publish/build-inputs.ts) writes it into the
 * build's staging folder and the pages read it through one module (src/integrations/storefront.ts).
 */
export interface BuildSnapshot {
  catalogue: CatalogueSnapshot;
  /** The settings the pages bake in (SITE_URL, PUBLIC_*), which the build applies to its own process. */
  settings: Record<string, string>;
}
