import { formatNumber, won, wonSign } from './money';
import { coverOf, type GalleryImage } from './photos';
import type { CarOptionPrices } from './subscription-price';

/** Monthly subscription terms the shop can price, in months. */
export const FEE_TERMS = [1, 3, 6, 12, 24, 36, 48, 60, 72, 84, 96] as const;
export type FeeTerm = (typeof FEE_TERMS)[number];

/** Terms offered as garage filter options, in months. */
export const MONTH_FILTER_OPTIONS = [1, 3, 6, 12, 24, 36] as const;

/** Fields the garage list can be sorted by. */
export const GARAGE_SORT_FIELDS = [
  'subscription_fee_minimum',
  'mileage',
  'release_date',
  'subscription_available_from',
] as const;
export type GarageSortField = (typeof GARAGE_SORT_FIELDS)[number];

/** Cars per garage page. */
export const GARAGE_PAGE_SIZE = 12;

type FeeKey = `subscription_fee_${FeeTerm}`;
export type FeeFields = { [K in FeeKey]: number | null };

export interface Brand {
  id: number;
  name: string;
  image: string | null;
}

interface CarModel {
  id: number;
  name: string;
  image: string | null;
  brand: Brand;
}

/** A subscription car as the API returns it (money in won, mileage in km, dates YYYY-MM-DD). */
export interface Car extends FeeFields {
  id: number;
  model: CarModel;
  sub_model: string | null;
  trim: string | null;
  /** Image addresses in gallery order (the spec's list); `gallery` has each with its alt text and encoded photo. */
  images: string[];
  gallery: GalleryImage[];
  color: string | null;
  mileage: number | null;
  license_plate: string | null;
  description: string | null;
  retail_price: number | null;
  is_new: boolean;
  is_hot: boolean;
  is_subscriptable: boolean;
  subscription_available_from: string | null;
  release_date: string | null;
  subscription_fee_minimum: number | null;
  /** Option prices staff set; null = derived from the fee (subscription-price.ts carOptionPrices). */
  option_prices: CarOptionPrices | null;
}

/** Name of the fee field for a term. */
function feeKey(term: FeeTerm): FeeKey {
  return `subscription_fee_${term}`;
}

/** True when `n` is one of the priced terms. */
export function isFeeTerm(n: number): n is FeeTerm {
  return (FEE_TERMS as readonly number[]).includes(n);
}

/** Monthly fee in won for a term, or null when the car does not offer it. */
export function feeForTerm(car: Partial<FeeFields>, term: number): number | null {
  if (!isFeeTerm(term)) return null;
  const fee = car[feeKey(term)];
  return typeof fee === 'number' ? fee : null;
}

/** Terms with a fee, ascending: the steps of the detail page's month slider. */
export function availableDurations(car: Partial<FeeFields>): FeeTerm[] {
  return FEE_TERMS.filter((term) => feeForTerm(car, term) !== null);
}

/** The slider's default: the longest offered term, or null when none is offered. */
export function defaultDuration(car: Partial<FeeFields>): FeeTerm | null {
  const terms = availableDurations(car);
  return terms.length ? terms[terms.length - 1] : null;
}

/** Lowest monthly fee over all offered terms (what the garage sorts "price" by). */
export function minimumFee(car: Partial<FeeFields>): number | null {
  const fees = FEE_TERMS.map((t) => feeForTerm(car, t)).filter((f): f is number => f !== null);
  return fees.length ? Math.min(...fees) : null;
}

/**
 * A garage card's "from" price under a months filter: the lowest fee among the filtered terms the
 * car offers (a 12-month filter shows the 12-month fee, never the 96-month minimum); null when it
 * offers none of them.
 */
export function fromFee(car: Partial<FeeFields>, months: readonly number[]): number | null {
  const fees = months.map((t) => feeForTerm(car, t)).filter((f): f is number => f !== null);
  return fees.length ? Math.min(...fees) : null;
}

/**
 * Home card price: '₩{fee}/월' from the 6, else 12, else 24-month fee, else the shortest offered
 * term (the spec's exact text: the one place ₩ stays). A car with no fee at all shows its purchase
 * price as such ('차량가 ₩…'), never as a monthly fee (issue 38).
 */
export function homePriceText(car: Partial<FeeFields> & { retail_price?: number | null }): string {
  const fee = feeForTerm(car, 6) ?? feeForTerm(car, 12) ?? feeForTerm(car, 24) ?? availableDurations(car).map((t) => feeForTerm(car, t)).find((f) => f !== null) ?? null;
  if (fee !== null) return `${wonSign(fee)}/월`;
  return car.retail_price != null ? `${RETAIL_PREFIX}${wonSign(car.retail_price)}` : '문의 필요';
}

/** How a purchase price starts on a card, so the card never adds the monthly "~" to it. */
export const RETAIL_PREFIX = '차량가 ';

/** The fee text for a chosen term on the detail and order pages, e.g. 8,200,000원/월. */
export function termPriceText(car: Partial<FeeFields>, term: number): string {
  const fee = feeForTerm(car, term);
  return fee === null ? '문의 필요' : `${won(fee)}/월`;
}

export type HomeTag = 'NEW' | 'HOT' | 'PROMOTED';

/** Tags on home and detail: NEW if new, HOT if hot, PROMOTED if a 6, 12 or 24-month fee exists. */
export function homeTags(car: Pick<Car, 'is_new' | 'is_hot'> & Partial<FeeFields>): HomeTag[] {
  const tags: HomeTag[] = [];
  if (car.is_new) tags.push('NEW');
  if (car.is_hot) tags.push('HOT');
  if ([6, 12, 24].some((t) => feeForTerm(car, t) !== null)) tags.push('PROMOTED');
  return tags;
}

export type GarageLabel = 'Promoted' | 'Sale';

/** What a tag or label reads on the page: the spec's Latin names in Korean (docs/decisions/korean-messages.md). */
export const TAG_TEXT: Record<HomeTag | GarageLabel, string> = { NEW: '신규', HOT: '인기', PROMOTED: '프로모션', Promoted: '프로모션', Sale: '세일' };

/** Garage card labels: Promoted when hot, Sale when new. */
export function garageLabels(car: Pick<Car, 'is_new' | 'is_hot'>): GarageLabel[] {
  const labels: GarageLabel[] = [];
  if (car.is_hot) labels.push('Promoted');
  if (car.is_new) labels.push('Sale');
  return labels;
}

/** A car is available by date when it has no start date or the start date is not in the future. */
export function isAvailableByDate(
  car: Pick<Car, 'subscription_available_from'>,
  today: string,
): boolean {
  const from = car.subscription_available_from;
  return !from || from.slice(0, 10) <= today;
}

/** Whether the garage shows the card at full opacity: subscriptable and available by date. */
export function isGarageActive(car: Pick<Car, 'is_subscriptable' | 'subscription_available_from'>, today: string): boolean {
  return car.is_subscriptable && isAvailableByDate(car, today);
}

/**
 * Why a car cannot be ordered now, in the words the order page, the car page and the API use;
 * null when it can. Checked before the card window opens, and again by the API.
 */
export function orderRefusal(car: Pick<Car, 'is_subscriptable' | 'subscription_available_from'>, today: string): string | null {
  if (!car.is_subscriptable) return '현재 구독 신청을 받지 않는 차량입니다.';
  if (!isAvailableByDate(car, today)) return `${car.subscription_available_from!.slice(0, 10)}부터 구독할 수 있는 차량입니다.`;
  return null;
}

/** Display name: the model name plus the sub model, or else the trim. */
export function carDisplayName(car: Pick<Car, 'model' | 'sub_model' | 'trim'>): string {
  const extra = car.sub_model || car.trim;
  return extra ? `${car.model.name} ${extra}` : car.model.name;
}

/** A car's card image: its first gallery image, else its model's art under its name. */
export function carCover(car: Pick<Car, 'gallery' | 'model' | 'sub_model' | 'trim'>): GalleryImage {
  return coverOf(car.gallery, { src: car.model.image, alt: carDisplayName(car) });
}

/** Link target of a home card: /car/{id}, or the name as a slug when there is no id. */
export function carHref(card: { id?: number | null; name: string }): string {
  if (card.id) return `/car/${card.id}`;
  return `/car/${card.name.toLowerCase().replace(/\s+/g, '-')}`;
}

/** Brand slug used in /garage?brand=: lowercased name, Mercedes Benz as mercedes. */
export function brandSlug(name: string): string {
  const lower = name.trim().toLowerCase();
  if (lower === 'mercedes benz' || lower === 'mercedes-benz') return 'mercedes';
  return lower.replace(/\s+/g, '-');
}

/** Brands with their own showcase entry on home and in the garage list; the rest are Others. */
export const FEATURED_BRAND_SLUGS = ['ferrari', 'lamborghini', 'mercedes', 'porsche', 'bmw'] as const;
export const OTHERS_SLUG = 'others';
/** What the Others entry reads on home and in the garage (the spec's Others). */
export const OTHERS_NAME = '기타 브랜드';

export interface CarSpecs {
  engine: string;
  fuel: string;
  transmission: string;
  drivetrain: string;
  seats: number;
}

/** Specifications: all fixed defaults except the engine, which is the sub model (the spec's Gasoline, Automatic in Korean). */
export function carSpecs(car: Pick<Car, 'sub_model'>): CarSpecs {
  return { engine: car.sub_model || '-', fuel: '가솔린', transmission: '자동', drivetrain: 'AWD', seats: 5 };
}

/** The specifications as label/value rows: 엔진, 연료, 변속기, 구동 방식, 좌석. */
export function carSpecRows(car: Pick<Car, 'sub_model'>): { label: string; value: string }[] {
  const s = carSpecs(car);
  return [
    { label: '엔진', value: s.engine },
    { label: '연료', value: s.fuel },
    { label: '변속기', value: s.transmission },
    { label: '구동 방식', value: s.drivetrain },
    { label: '좌석', value: `${s.seats}인승` },
  ];
}

/** Features: trim (or 기본 사양, the spec's Standard Package), colour, mileage in km, licence plate. */
export function carFeatures(car: Pick<Car, 'trim' | 'color' | 'mileage' | 'license_plate'>): { label: string; value: string }[] {
  return [
    { label: '트림', value: car.trim || '기본 사양' },
    { label: '색상', value: car.color || '-' },
    { label: '주행거리', value: car.mileage === null || car.mileage === undefined ? '-' : `${formatNumber(car.mileage)} km` },
    { label: '차량 번호', value: car.license_plate || '-' },
  ];
}
