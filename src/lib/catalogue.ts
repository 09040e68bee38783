import { getCollection } from 'astro:content';
import type { Car } from '../domain/car';
import type { ButlerCar } from '../domain/butler';
import type { Faq, GarageBrand, PolicyDocument } from '../domain/catalogue';

/** Build-time access to the catalogue collections with their API types (ids back to numbers). */
const restore = <T extends { id: number }>(entries: { id: string; data: unknown }[]) =>
  entries.map((e) => ({ ...(e.data as object), id: Number(e.id) }) as T).sort((a, b) => a.id - b.id);

export const getCars = async () => restore<Car>(await getCollection('cars'));
export const getButlerCars = async () => restore<ButlerCar>(await getCollection('butlerCars'));
export const getFaqs = async () => restore<Faq>(await getCollection('faqs'));
export const getTerms = async () => restore<PolicyDocument>(await getCollection('terms'));
export const getPrivacyPolicies = async () => restore<PolicyDocument>(await getCollection('privacyPolicies'));
/** The garage's brands in the API's showcase order (the same order the garage endpoint answers with). */
export const getGarageBrands = async () =>
  (await getCollection('garageBrands'))
    .map((e) => e.data as unknown as GarageBrand & { position: number })
    .sort((a, b) => a.position - b.position)
    .map(({ slug, name, model_list }): GarageBrand => ({ slug, name, model_list }));
export const getCatalogueVersion = async () => ((await getCollection('catalogue'))[0]?.data as { version: number } | undefined)?.version ?? 0;
