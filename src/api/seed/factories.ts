import { randomInt } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FeeFields } from '../../domain/car';
import type { Db } from '../db/client';
import { brands, butlerCars, cars, coupons, models, users } from '../db/schema';
import { newReferralCode } from '../wallet/referrals';
import { bumpCatalogueVersion, feeColumns } from '../catalogue/catalogue';

/** Builders shared by the seed script and the tests. */

export async function upsertBrand(db: Db, b: { name: string; slug: string; image?: string | null; sortOrder?: number }) {
  const [existing] = await db.select().from(brands).where(eq(brands.slug, b.slug));
  if (existing) return existing;
  const [row] = await db.insert(brands).values({ name: b.name, slug: b.slug, image: b.image ?? `/brands/${b.slug}.svg`, sortOrder: b.sortOrder ?? 100 }).returning();
  return row;
}

export async function insertModel(db: Db, m: { brandId: number; name: string; image?: string | null }) {
  const [row] = await db.insert(models).values({ brandId: m.brandId, name: m.name, image: m.image ?? null }).returning();
  return row;
}

export type CarOverrides = Partial<Omit<typeof cars.$inferInsert, 'id'>> & { fees?: Partial<FeeFields> };

/** Inserts a car; fees are given API-style and the minimum fee is derived. */
export async function insertCar(db: Db, modelId: number, overrides: CarOverrides = {}) {
  const { fees = { subscription_fee_12: 3_000_000, subscription_fee_24: 2_700_000 }, ...rest } = overrides;
  const [row] = await db
    .insert(cars)
    .values({ modelId, subModel: 'Test', images: [], retailPrice: 100_000_000, ...feeColumns(fees), ...rest })
    .returning();
  return row;
}

/** A brand, a model and one car in one call, for tests. */
export async function insertTestCar(db: Db, overrides: CarOverrides & { brand?: string; brandSlug?: string; model?: string } = {}) {
  const { brand = 'Ferrari', brandSlug, model = 'Roma', ...carOverrides } = overrides;
  const b = await upsertBrand(db, { name: brand, slug: brandSlug ?? brand.toLowerCase().replace(/\s+/g, '-') });
  const m = await insertModel(db, { brandId: b.id, name: model });
  const car = await insertCar(db, m.id, carOverrides);
  await bumpCatalogueVersion(db);
  return { brand: b, model: m, car };
}

export async function insertButlerCar(db: Db, modelId: number, overrides: Partial<typeof butlerCars.$inferInsert> = {}) {
  const [row] = await db.insert(butlerCars).values({ modelId, butlerFee: 700_000, images: [], ...overrides }).returning();
  return row;
}

let userSeq = 0;
/** A user row; pass passwordHash from the accounts service to make it able to log in. */
export async function insertUser(db: Db, overrides: Partial<typeof users.$inferInsert> = {}) {
  userSeq += 1;
  const tag = `${Date.now().toString(36)}${userSeq}`;
  const [row] = await db
    .insert(users)
    // Verified, as after a signup (ordering needs it); pass ciVerified: false for a social account that has not verified yet.
    .values({ username: `user_${tag}`, name: '홍길동', email: `user_${tag}@example.com`, mobile: `010${String(10000000 + randomInt(89999999))}`, referralCode: newReferralCode(), ciVerified: true, ...overrides })
    .returning();
  return row;
}

export async function insertCoupon(db: Db, overrides: Partial<typeof coupons.$inferInsert> = {}) {
  const [row] = await db
    .insert(coupons)
    .values({ name: '테스트 쿠폰', code: `TEST${randomInt(1e9)}`, discountType: 'FIXED', discount: 100_000, ...overrides })
    .returning();
  return row;
}
