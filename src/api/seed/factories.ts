import { randomInt } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FeeFields } from '../../domain/car';
import type { Db } from '../db/client';
import { brands, butlerCars, cars, coupons, driverLicences, identityVerifications, models, users } from '../db/schema';
import { maskLicenceNumber, type LicenceRole } from '../../domain/licence';
import { DEV_LICENCE_KEY } from '../env';
import { numberDigest, sealNumber } from '../licences/seal';
import { newReferralCode } from '../wallet/referrals';
import { bumpCatalogueVersion, feeColumns } from '../catalogue/catalogue';
import { wallMs } from '../jobs/clock';

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
/**
 * A user row; pass passwordHash from the accounts service to make it able to log in. A verified
 * user holds a checked licence (born `birthDate`, default 1990-03-15) unless `licence: false`, as
 * a customer who passed 운전자격 확인 before ordering.
 */
export async function insertUser(db: Db, overrides: Partial<typeof users.$inferInsert> = {}, opts: { licence?: boolean; birthDate?: string } = {}) {
  userSeq += 1;
  const tag = `${wallMs().toString(36)}${userSeq}`;
  const [row] = await db
    .insert(users)
    // Verified, as after a signup (ordering needs it); pass ciVerified: false for a social account that has not verified yet.
    .values({ username: `user_${tag}`, name: '홍길동', email: `user_${tag}@example.com`, mobile: `010${String(10000000 + randomInt(89999999))}`, referralCode: newReferralCode(), ciVerified: true, ...overrides })
    .returning();
  if (row.ciVerified && opts.licence !== false) await insertLicence(db, row.id, { name: row.name ?? '홍길동', birthDate: opts.birthDate ?? '1990-03-15' });
  return row;
}

/**
 * A licence as the sandbox 운전자격확인시스템 answered it (valid 1종 보통, first issued in 2010, to
 * the sandbox's ten years), for tests and the seed; `number` picks a sandbox case (src/api/licences/providers.ts).
 */
export async function insertLicence(db: Db, userId: number, l: { name: string; birthDate: string; role?: LicenceRole; number?: string; expiresOn?: string }) {
  const number = l.number ?? `1110${String(randomInt(1_000_000)).padStart(6, '0')}01`;
  const now = new Date(wallMs());
  const [row] = await db
    .insert(driverLicences)
    .values({
      userId, role: l.role ?? 'HOLDER', holderName: l.name, birthDate: l.birthDate, licenceType: 'CLASS1_ORDINARY', numberMasked: maskLicenceNumber(number),
      numberSealed: sealNumber(number, DEV_LICENCE_KEY), numberDigest: numberDigest(number, DEV_LICENCE_KEY), status: 'VALID', firstIssuedOn: '2010-03-01',
      expiresOn: l.expiresOn ?? '2099-12-31', checkedAt: now,
    })
    .returning();
  return row;
}

/** A 본인인증 record for a test user (its CI set on the user), as a signup through the identity sandbox leaves. */
export async function insertTestIdentity(db: Db, user: typeof users.$inferSelect, birthDate: string) {
  const ci = `test-ci-${user.id}-${randomInt(1e9)}`;
  await db.insert(identityVerifications).values({ verificationId: `test-${ci}`, provider: 'sandbox', status: 'VERIFIED', name: user.name, phone: user.mobile, birthDate, ci, consumedAt: new Date(wallMs()) });
  await db.update(users).set({ ci }).where(eq(users.id, user.id));
}

export async function insertCoupon(db: Db, overrides: Partial<typeof coupons.$inferInsert> = {}) {
  const [row] = await db
    .insert(coupons)
    .values({ name: '테스트 쿠폰', code: `TEST${randomInt(1e9)}`, discountType: 'FIXED', discount: 100_000, ...overrides })
    .returning();
  return row;
}
