import { count } from 'drizzle-orm';
import { FEE_TERMS, type FeeFields, type FeeTerm } from '../../domain/car';
import { addDays, todayInKorea } from '../../domain/dates';
import type { GalleryImage } from '../../domain/photos';
import type { Db } from '../db/client';
import { BRANDS, BUTLER_FLEET, COLORS, DESCRIPTIONS, type ModelSeed } from './catalogue-data';
import { insertButlerCar, insertModel, upsertBrand } from './factories';
import { butlerReservedDates, cars, coupons, faqs, pointCoupons, policyDocuments } from '../db/schema';
import { bumpCatalogueVersion, feeColumns } from '../catalogue/catalogue';
import { FAQ_SEED, PRIVACY_EFFECTIVE_DATE, TERMS_SEED, privacySeed, type PrivacyOfficer } from './content-data';
import { seededRandom } from './random';
import { wallMs } from '../jobs/clock';

const rng = seededRandom;

/** Share of the list price charged per month, by term: longer terms cost less a month. */
const MONTHLY_RATE: Record<FeeTerm, number> = {
  1: 0.048, 3: 0.041, 6: 0.034, 12: 0.028, 24: 0.025, 36: 0.023, 48: 0.0215, 60: 0.0205, 72: 0.0198, 84: 0.0192, 96: 0.0187,
};

const roundTo10k = (won: number) => Math.round(won / 10_000) * 10_000;

function feesFor(price: number, r: ReturnType<typeof rng>, style: 'full' | 'short' | 'long' | 'none'): Partial<FeeFields> {
  const offered: FeeTerm[] =
    style === 'none' ? [] : style === 'short' ? [1, 3] : style === 'long' ? [36, 48, 60, 72, 84, 96] : FEE_TERMS.filter((t) => t <= 36 || r.chance(0.35));
  if (style === 'full' && r.chance(0.3)) offered.splice(offered.indexOf(1), 1);
  const fees: Partial<FeeFields> = {};
  for (const t of FEE_TERMS) fees[`subscription_fee_${t}`] = offered.includes(t) ? roundTo10k(price * MONTHLY_RATE[t]) : null;
  return fees;
}

function plate(r: ReturnType<typeof rng>): string {
  // Rental and subscription cars carry 하, 허 or 호 plates in Korea.
  return `${r.int(100, 699)}${r.pick(['하', '허', '호'])} ${r.int(1000, 9999)}`;
}

export interface SeedOptions {
  /** How many subscription cars to create (at least one per model). */
  cars?: number;
  today?: string;
  /** The 위치정보관리책임자 the privacy policy names (config.locationOfficer; default the customer centre). */
  locationOfficer?: PrivacyOfficer;
}

/** Fills an empty database with the opening shop; returns what it created. */
export async function seedDatabase(db: Db, { cars: carCount = 64, today = todayInKorea(new Date(wallMs())), locationOfficer }: SeedOptions = {}) {
  const r = rng(20261121);
  const modelIds = new Map<string, { id: number; seed: ModelSeed }>();
  let sort = 0;
  for (const brand of BRANDS) {
    const b = await upsertBrand(db, { name: brand.name, slug: brand.slug, sortOrder: sort++ });
    for (const m of brand.models) {
      const row = await insertModel(db, { brandId: b.id, name: m.name, image: `/cars/${m.slug}-1.svg` });
      modelIds.set(m.slug, { id: row.id, seed: m });
    }
  }
  const allModels = [...modelIds.values()];
  const rows: (typeof cars.$inferInsert)[] = [];
  for (let i = 0; i < carCount; i++) {
    const { id: modelId, seed: m } = allModels[i % allModels.length];
    const price = roundTo10k(m.price * (0.92 + r.next() * 0.16));
    // A few cars show every edge of the storefront: no fee at all, short or long terms only.
    const style = i % 29 === 7 ? 'none' : i % 17 === 5 ? 'short' : i % 19 === 11 ? 'long' : 'full';
    const future = i % 9 === 4;
    const subModel = r.pick(m.subModels);
    const trim = r.chance(0.25) ? null : r.pick(m.trims);
    rows.push({
      modelId,
      subModel,
      trim,
      images: artGallery(m.slug, `${m.name} ${subModel || trim}`.trim()),
      color: r.pick(COLORS),
      mileage: r.int(8, 250) * 100,
      licensePlate: plate(r),
      description: r.pick(DESCRIPTIONS),
      retailPrice: price,
      isNew: i % 5 === 0 || i % 7 === 3,
      isHot: i % 4 === 1,
      isSubscriptable: style !== 'none' && i % 13 !== 6,
      subscriptionAvailableFrom: future ? addDays(today, r.int(7, 60)) : r.chance(0.4) ? addDays(today, -r.int(1, 200)) : null,
      releaseDate: addDays(today, -r.int(30, 1100)),
      ...feeColumns(feesFor(price, r, style)),
    });
  }
  for (let i = 0; i < rows.length; i += 500) await db.insert(cars).values(rows.slice(i, i + 500));

  for (const [i, b] of BUTLER_FLEET.entries()) {
    const brandSlug = b.brand === 'Mercedes Benz' ? 'mercedes' : b.brand.toLowerCase().replace(/\s+/g, '-');
    const brand = await upsertBrand(db, { name: b.brand, slug: brandSlug });
    const model = modelIds.get(b.modelSlug)?.id ?? (await insertModel(db, { brandId: brand.id, name: b.model, image: `/cars/${b.modelSlug}-1.svg` })).id;
    const car = await insertButlerCar(db, model, {
      subModel: b.subModel,
      butlerFee: b.fee,
      butlerOvertimeFee: b.overtime,
      retailPrice: b.price,
      description: b.description,
      images: artGallery(b.modelSlug, `${b.brand} ${b.model}`),
      mileage: r.int(20, 400) * 100,
      licensePlate: plate(r),
      color: 'Black',
    });
    const days = new Set(Array.from({ length: 4 + (i % 4) }, () => r.int(1, 40)));
    await db.insert(butlerReservedDates).values([...days].map((d) => ({ butlerCarId: car.id, date: addDays(today, d) })));
  }

  await db.insert(faqs).values(FAQ_SEED.map((f, i) => ({ ...f, sortOrder: i })));
  await db.insert(policyDocuments).values([
    { kind: 'terms', ...TERMS_SEED, effectiveDate: '2026-01-01' },
    { kind: 'privacy', ...privacySeed(locationOfficer), effectiveDate: PRIVACY_EFFECTIVE_DATE },
  ]);
  const from = addDays(today, -30);
  const to = addDays(today, 365);
  await db.insert(coupons).values([
    { name: '웰컴 10% 할인', code: 'WELCOME10', description: '첫 구독 월 구독료 10% 할인', discountType: 'PERCENTAGE', discountRate: 10, minPrice: 1_000_000, validFrom: from, validTo: to },
    { name: '30만원 할인', code: 'LUXE300', description: '월 구독료 300,000원 할인', discountType: 'FIXED', discount: 300_000, minPrice: 3_000_000, validFrom: from, validTo: to },
    { name: '첫 달 무료', code: 'FIRSTFREE', description: '월 구독료 500만원 이하 차량 첫 달 무료', discountType: 'FREE', maxPrice: 5_000_000, validFrom: from, validTo: to },
    { name: '의전 5만원 할인', code: 'BUTLER50', description: '의전 서비스 50,000원 할인', service: 'BUTLER', discountType: 'FIXED', discount: 50_000, validFrom: from, validTo: to },
    { name: '의전 10% 할인', code: 'BUTLER10', description: '기본 요금 50만원 이상 의전 차량 10% 할인 (초과 요금 포함)', service: 'BUTLER', discountType: 'PERCENTAGE', discountRate: 10, minPrice: 500_000, validFrom: from, validTo: to },
    { name: '의전 첫 이용 무료', code: 'BUTLERFREE', description: '기본 요금 60만원 이하 의전 차량 1회 무료', service: 'BUTLER', discountType: 'FREE', maxPrice: 600_000, validFrom: from, validTo: to },
    { name: '프리미엄 의전 20만원 할인', code: 'BUTLERVIP', description: '기본 요금 100만원 이상 의전 차량 200,000원 할인', service: 'BUTLER', discountType: 'FIXED', discount: 200_000, minPrice: 1_000_000, maxPrice: 2_000_000, validFrom: from, validTo: to },
    { name: '지난 시즌 쿠폰', code: 'EXPIRED20', description: '기간이 지난 쿠폰', discountType: 'PERCENTAGE', discountRate: 20, validFrom: addDays(today, -120), validTo: addDays(today, -1) },
  ]);
  await db.insert(pointCoupons).values([
    { code: 'POINT50K', name: '웰컴 포인트 50,000P', amount: 50_000, validFrom: from, validTo: to },
    { code: 'POINT100K', name: 'VIP 포인트 100,000P', amount: 100_000, validFrom: from, validTo: to },
  ]);
  await bumpCatalogueVersion(db);
  return { cars: rows.length, butlerCars: BUTLER_FLEET.length };
}

/** True when the catalogue has no cars yet. */
export async function isEmpty(db: Db): Promise<boolean> {
  const [{ n }] = await db.select({ n: count() }).from(cars);
  return Number(n) === 0;
}

/** The three bundled studio views of a model (public/cars), with the alt text pages show for them. */
function artGallery(modelSlug: string, name: string): GalleryImage[] {
  return [1, 2, 3].map((n) => ({ src: `/cars/${modelSlug}-${n}.svg`, alt: `${name} 이미지 ${n}`, photo: null }));
}
