import { sql } from 'drizzle-orm';
import type { ButlerLegalModel, LegalBasis } from '../../domain/butler-legal';
import type { DriverPreference } from '../../domain/butler';
import type { CustomerCar } from '../../domain/butler-own-car';
import type { DriverGender } from '../../domain/dispatch';
import type { OrderStatus } from '../../domain/orders';
import { PAYMENT_PROVIDERS, PAYMENT_PURPOSES, PAYMENT_REF_TYPES, type BillingStatus, type PaymentStatus, type RefundStatus } from '../../domain/payments';
import type { DiscountType } from '../../domain/pricing';
import type { CarOptionPrices, StoredOrderOptions } from '../../domain/subscription-price';
import type { GalleryImage } from '../../domain/photos';
import { ODOMETER_SOURCES, type MileageSettlement } from '../../domain/mileage';
import type { HandoverKind, HandoverStatus } from '../../domain/handover';
import type { LocationConsentKind, LocationReaderRole } from '../../domain/location';
import type { DriverNoticeKind, TripChange } from '../../domain/driver-notices';
import type { Damage, SettlementLine } from '../../domain/settlement';
import type { WithdrawalQuote } from '../../domain/withdrawal';
import type { LicenceCheckPurpose, LicenceRole, LicenceStatus, LicenceType } from '../../domain/licence';
import type { TripCharge } from '../../domain/waiting';
import type { TripMessageSender } from '../../domain/trip-thread';
import type { ApprovalStatus, BusinessStatus, CompanyAuthority, CompanyRole } from '../../domain/company';
import type { InvoiceLineKind, InvoiceStatus, ModificationType, TaxDocument, TaxInvoiceStatus } from '../../domain/invoices';
import {
  type AnyPgColumn,
  boolean,
  check,
  customType,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  varchar,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

// ── Catalogue ────────────────────────────────────────────────────────────────

export const brands = pgTable('brands', {
  id: serial('id').primaryKey(),
  name: varchar('name', { length: 80 }).notNull(),
  slug: varchar('slug', { length: 80 }).notNull().unique(),
  image: text('image'),
  sortOrder: integer('sort_order').notNull().default(100),
});

export const models = pgTable(
  'models',
  {
    id: serial('id').primaryKey(),
    brandId: integer('brand_id').notNull().references(() => brands.id),
    name: varchar('name', { length: 120 }).notNull(),
    image: text('image'),
  },
  (t) => [index('models_brand_idx').on(t.brandId)],
);

/** Monthly fee per term in won; null when the term is not offered. */
const feeColumns = {
  fee1: integer('subscription_fee_1'),
  fee3: integer('subscription_fee_3'),
  fee6: integer('subscription_fee_6'),
  fee12: integer('subscription_fee_12'),
  fee24: integer('subscription_fee_24'),
  fee36: integer('subscription_fee_36'),
  fee48: integer('subscription_fee_48'),
  fee60: integer('subscription_fee_60'),
  fee72: integer('subscription_fee_72'),
  fee84: integer('subscription_fee_84'),
  fee96: integer('subscription_fee_96'),
};

export const cars = pgTable(
  'cars',
  {
    id: serial('id').primaryKey(),
    modelId: integer('model_id').notNull().references(() => models.id),
    subModel: varchar('sub_model', { length: 120 }),
    trim: varchar('trim', { length: 120 }),
    images: jsonb('images').$type<GalleryImage[]>().notNull().default(sql`'[]'::jsonb`),
    color: varchar('color', { length: 60 }),
    mileage: integer('mileage'),
    licensePlate: varchar('license_plate', { length: 20 }),
    description: text('description'),
    retailPrice: integer('retail_price'),
    isNew: boolean('is_new').notNull().default(false),
    isHot: boolean('is_hot').notNull().default(false),
    isSubscriptable: boolean('is_subscriptable').notNull().default(true),
    /** Set when staff archive the car: it leaves the public catalogue but orders keep pointing at it. */
    archivedAt: timestamp('archived_at', { withTimezone: true }),
    subscriptionAvailableFrom: date('subscription_available_from', { mode: 'string' }),
    releaseDate: date('release_date', { mode: 'string' }),
    /** Lowest offered monthly fee, kept in step with the fee columns on every write. */
    subscriptionFeeMinimum: integer('subscription_fee_minimum'),
    ...feeColumns,
    /** Option prices staff set (mileage plans, driver age, drivers, 보증금, 선납금, 자기부담금); null = derived from the fee (domain/subscription-price.ts). */
    optionPrices: jsonb('option_prices').$type<CarOptionPrices>(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('cars_model_idx').on(t.modelId),
    index('cars_fee_min_idx').on(t.subscriptionFeeMinimum),
    index('cars_release_idx').on(t.releaseDate),
  ],
);

export const butlerCars = pgTable('butler_cars', {
  id: serial('id').primaryKey(),
  modelId: integer('model_id').notNull().references(() => models.id),
  subModel: varchar('sub_model', { length: 120 }),
  images: jsonb('images').$type<GalleryImage[]>().notNull().default(sql`'[]'::jsonb`),
  color: varchar('color', { length: 60 }),
  mileage: integer('mileage'),
  licensePlate: varchar('license_plate', { length: 20 }),
  description: text('description'),
  retailPrice: integer('retail_price'),
  /** Fee in won for the included 8 hours. */
  butlerFee: integer('butler_fee').notNull(),
  /** Won per started overtime hour; null means 10% of butler_fee. */
  butlerOvertimeFee: integer('butler_overtime_fee'),
  /** Set when staff archive the car: it leaves the fleet but bookings keep pointing at it. */
  archivedAt: timestamp('archived_at', { withTimezone: true }),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const butlerReservedDates = pgTable(
  'butler_reserved_dates',
  {
    id: serial('id').primaryKey(),
    butlerCarId: integer('butler_car_id').notNull().references(() => butlerCars.id, { onDelete: 'cascade' }),
    date: date('date', { mode: 'string' }).notNull(),
    butlerRequestId: integer('butler_request_id'),
  },
  (t) => [uniqueIndex('butler_reserved_car_date_uq').on(t.butlerCarId, t.date)],
);

/** Raw bytes (PGlite answers a Uint8Array, node-postgres a Buffer: both read as a Buffer). */
const bytea = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength)),
});

/**
 * Uploaded photos (src/api/catalogue/photos/): kept in the database, not on one replica's disk, so any
 * replica can serve and publish them. The original stays here privately for re-encoding later.
 */
export const photos = pgTable('photos', {
  /** First 16 hex of the original's SHA-256: the same upload is the same photo. */
  id: varchar('id', { length: 16 }).primaryKey(),
  width: integer('width').notNull(),
  height: integer('height').notNull(),
  placeholder: varchar('placeholder', { length: 7 }).notNull(),
  /** Extension of the original's format (jpg, png, webp, avif, …). */
  originalExt: varchar('original_ext', { length: 8 }).notNull(),
  original: bytea('original').notNull(),
  createdAt: createdAt(),
});

/** The encoded variants of each photo, by file name (`<id>-<width>.<ext>`). */
export const photoVariants = pgTable(
  'photo_variants',
  {
    name: varchar('name', { length: 40 }).primaryKey(),
    photoId: varchar('photo_id', { length: 16 })
      .notNull()
      .references(() => photos.id, { onDelete: 'cascade' }),
    bytes: bytea('bytes').notNull(),
  },
  (t) => [index('photo_variants_photo_idx').on(t.photoId)],
);

/** One row; version bumps on every catalogue write so builds know when they are stale. */
export const catalogueState = pgTable('catalogue_state', {
  id: integer('id').primaryKey().default(1),
  version: integer('version').notNull().default(1),
  /** This database's identity, random once: a build is reused only with the database it was made from. */
  instanceId: varchar('instance_id', { length: 36 }).notNull().default(sql`gen_random_uuid()::text`),
  updatedAt: updatedAt(),
});

// ── Accounts ─────────────────────────────────────────────────────────────────

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    username: varchar('username', { length: 80 }).notNull().unique(),
    name: varchar('name', { length: 80 }),
    email: varchar('email', { length: 254 }),
    mobile: varchar('mobile', { length: 20 }),
    passwordHash: text('password_hash'),
    profileImage: text('profile_image'),
    /** Connecting information of the verified person; one person holds one account. */
    ci: text('ci'),
    ciVerified: boolean('ci_verified').notNull().default(false),
    referralCode: varchar('referral_code', { length: 16 }).notNull().unique(),
    marketingConsent: boolean('marketing_consent').notNull().default(false),
    /** When the marketing consent was last given (정보통신망법 제50조⑧: its 2-yearly reminder counts from here); null when not given. */
    marketingConsentAt: timestamp('marketing_consent_at', { withTimezone: true }),
    /** The separate consent to (광고) messages between 21:00 and 08:00 KST (제50조③); without it they wait until 08:00. */
    marketingNightConsent: boolean('marketing_night_consent').notNull().default(false),
    /**
     * 'user', 'staff' (the console at /admin; `npm run staff -- add EMAIL`) or 'driver' (the
     * driver's phone at /driver; made by accepting a staff invite, linked to `driver_id`).
     */
    role: varchar('role', { length: 20 }).notNull().default('user'),
    /** The roster row of a 'driver' account (one account per driver). */
    driverId: integer('driver_id').references(() => drivers.id),
    socialProvider: varchar('social_provider', { length: 20 }),
    socialId: varchar('social_id', { length: 120 }),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('users_email_uq').on(t.email),
    uniqueIndex('users_ci_uq').on(t.ci),
    uniqueIndex('users_social_uq').on(t.socialProvider, t.socialId),
    uniqueIndex('users_driver_uq').on(t.driverId),
    index('users_mobile_idx').on(t.mobile),
  ],
);

export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    /** SHA-256 of the token; the token itself is never stored. */
    tokenHash: varchar('token_hash', { length: 64 }).notNull().unique(),
    /** Tokens rotated from one login share a family; reuse of a spent one revokes it all. */
    familyId: varchar('family_id', { length: 36 }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('refresh_tokens_family_idx').on(t.familyId)],
);

export const identityVerifications = pgTable('identity_verifications', {
  id: serial('id').primaryKey(),
  /** The provider's identityVerificationId. */
  verificationId: varchar('verification_id', { length: 120 }).notNull().unique(),
  provider: varchar('provider', { length: 20 }).notNull(),
  status: varchar('status', { length: 20 }).notNull(),
  name: varchar('name', { length: 80 }),
  phone: varchar('phone', { length: 20 }),
  birthDate: date('birth_date', { mode: 'string' }),
  ci: text('ci'),
  /** Set once the verification has been used for a signup or a recovery. */
  consumedAt: timestamp('consumed_at', { withTimezone: true }),
  createdAt: createdAt(),
});

export const verificationCodes = pgTable(
  'verification_codes',
  {
    id: serial('id').primaryKey(),
    target: varchar('target', { length: 254 }).notNull(),
    purpose: varchar('purpose', { length: 30 }).notNull(),
    codeHash: varchar('code_hash', { length: 64 }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('verification_codes_target_idx').on(t.target, t.purpose)],
);

export const referrals = pgTable(
  'referrals',
  {
    id: serial('id').primaryKey(),
    referrerId: integer('referrer_id').notNull().references(() => users.id),
    /** Each account is referred at most once. */
    refereeId: integer('referee_id').notNull().references(() => users.id).unique(),
    createdAt: createdAt(),
  },
  (t) => [index('referrals_referrer_idx').on(t.referrerId)],
);

// ── Wallet ───────────────────────────────────────────────────────────────────

export const coupons = pgTable('coupons', {
  id: serial('id').primaryKey(),
  name: varchar('name', { length: 120 }).notNull(),
  code: varchar('code', { length: 40 }).notNull().unique(),
  description: text('description'),
  /** SUBSCRIBE or BUTLER: which service the coupon applies to. */
  service: varchar('service', { length: 20 }).notNull().default('SUBSCRIBE'),
  discountType: varchar('discount_type', { length: 20 }).$type<DiscountType>().notNull(),
  discountRate: integer('discount_rate'),
  discount: integer('discount'),
  validFrom: date('valid_from', { mode: 'string' }),
  validTo: date('valid_to', { mode: 'string' }),
  minPrice: integer('min_price'),
  maxPrice: integer('max_price'),
  isActive: boolean('is_active').notNull().default(true),
  createdAt: createdAt(),
});

export const userCoupons = pgTable(
  'user_coupons',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').notNull().references(() => users.id),
    couponId: integer('coupon_id').notNull().references(() => coupons.id),
    isUsed: boolean('is_used').notNull().default(false),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('user_coupons_user_coupon_uq').on(t.userId, t.couponId)],
);

export const pointCoupons = pgTable('point_coupons', {
  id: serial('id').primaryKey(),
  code: varchar('code', { length: 40 }).notNull().unique(),
  name: varchar('name', { length: 120 }).notNull(),
  /** Won credited to the ledger on redemption. */
  amount: integer('amount').notNull(),
  validFrom: date('valid_from', { mode: 'string' }),
  validTo: date('valid_to', { mode: 'string' }),
  createdAt: createdAt(),
});

/** The points ledger: every credit (+) and spend (−) is a row; the balance is their sum. */
export const pointTransactions = pgTable(
  'point_transactions',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').notNull().references(() => users.id),
    amount: integer('amount').notNull(),
    /** e.g. REFERRAL, POINT_COUPON, SUBSCRIPTION_SPEND, SUBSCRIPTION_REFUND, BUTLER_SPEND, BUTLER_REFUND, ADMIN. */
    reason: varchar('reason', { length: 40 }).notNull(),
    description: text('description'),
    refType: varchar('ref_type', { length: 40 }),
    refId: integer('ref_id'),
    createdAt: createdAt(),
  },
  (t) => [
    index('point_tx_user_idx').on(t.userId),
    // A ledger event tied to a record (a redemption, a refund) happens once.
    uniqueIndex('point_tx_once_uq').on(t.userId, t.reason, t.refType, t.refId),
  ],
);

// ── Checkout (both services) ─────────────────────────────────────────────────

/**
 * Every billing key that backed an order, of either service: the primary key makes a key
 * back at most one order, and a repeat with the same key finds its first order here.
 */
export const billingKeyUses = pgTable('billing_key_uses', {
  billingKey: varchar('billing_key', { length: 200 }).primaryKey(),
  /** SUBSCRIBE or BUTLER. */
  service: varchar('service', { length: 20 }).notNull(),
  userId: integer('user_id').notNull().references(() => users.id),
  /** The subscription or butler request the key backs. */
  orderId: integer('order_id').notNull(),
  createdAt: createdAt(),
});

// ── Subscription ordering ────────────────────────────────────────────────────

export const subscriptionRequests = pgTable(
  'subscription_requests',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').notNull().references(() => users.id),
    carId: integer('car_id').notNull().references(() => cars.id),
    month: integer('month').notNull(),
    userCouponId: integer('user_coupon_id').references(() => userCoupons.id),
    pointUsed: integer('point_used').notNull().default(0),
    /** Unique: a repeat submission with the same billing key returns the first request. */
    billingKey: varchar('billing_key', { length: 200 }).notNull().unique(),
    billingProvider: varchar('billing_provider', { length: 20, enum: PAYMENT_PROVIDERS }).notNull(),
    /** The card as the provider's billing-key info names it (현대카드, 1234): what pages show instead of the key. */
    cardIssuer: varchar('card_issuer', { length: 40 }),
    cardLast4: varchar('card_last4', { length: 4 }),
    /**
     * Won: the monthly fee with the options (what months 2… are charged), the coupon discount, and
     * the first payment (first month after coupon and points, plus 탁송비, 보증금 and 선납금).
     */
    fee: integer('fee').notNull(),
    couponDiscount: integer('coupon_discount').notNull().default(0),
    finalFee: integer('final_fee').notNull(),
    /** PENDING → CONFIRMED (staff) or CANCELLED (user). */
    status: varchar('status', { length: 20 }).$type<OrderStatus>().notNull().default('PENDING'),
    startDate: date('start_date', { mode: 'string' }),
    endDate: date('end_date', { mode: 'string' }),
    /** The start the customer asked for: with `month`, the days the car is held for them (src/domain/availability.ts). */
    requestedStart: date('requested_start', { mode: 'string' }),
    /** The chosen options with the car's option prices and the quote at the time of the order (null on requests from before options). */
    options: jsonb('options').$type<StoredOrderOptions>(),
    /** The optional 위치정보 이용약관 consent at order time (docs/decisions/legal.md §6); null on orders from when it was required (given). */
    locationConsent: boolean('location_consent'),
    /** The hold on the car lapses here unless staff confirm first (SUBSCRIPTION_HOLD_DAYS after the order). */
    holdUntil: timestamp('hold_until', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    /** Ordered in a company's name (법인): the company is the contract's party and pays; null for a private order. */
    companyId: integer('company_id').references(() => companies.id),
    /** A company order: the admin who placed it (user_id is the named driver); null for a private order. */
    orderedByUserId: integer('ordered_by_user_id').references(() => users.id),
    /** A company order on 후불: every month goes on the company's monthly statement, no card is charged. */
    invoiceBilled: boolean('invoice_billed').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('sub_requests_user_idx').on(t.userId), index('sub_requests_car_idx').on(t.carId, t.status), index('sub_requests_company_idx').on(t.companyId)],
);

export const subscriptions = pgTable(
  'subscriptions',
  {
    id: serial('id').primaryKey(),
    requestId: integer('request_id').notNull().references(() => subscriptionRequests.id).unique(),
    userId: integer('user_id').notNull().references(() => users.id),
    startDate: date('start_date', { mode: 'string' }).notNull(),
    endDate: date('end_date', { mode: 'string' }).notNull(),
    isActive: boolean('is_active').notNull().default(true),
    /** The card charged every month: the request's, until the customer changes it. */
    billingKey: varchar('billing_key', { length: 200 }),
    /** The card as the provider's billing-key info names it (현대카드, 1234): what pages show instead of the key. */
    cardIssuer: varchar('card_issuer', { length: 40 }),
    cardLast4: varchar('card_last4', { length: 4 }),
    billingStatus: varchar('billing_status', { length: 20 }).$type<BillingStatus>().notNull().default('ACTIVE'),
    /** Months paid so far (1 once the first month, charged with the request, is paid). */
    paidMonths: integer('paid_months').notNull().default(1),
    /** 중도 해지: the return day asked for with the early-exit charge (set while it is charged; the end date once paid). */
    exitDate: date('exit_date', { mode: 'string' }),
    /** 구독 연장: billing months added by extensions (the term is the request's months + these; docs/decisions/extension.md). */
    extendedMonths: integer('extended_months').notNull().default(0),
    /** The company (법인) that holds the subscription and pays for it; the user is its driver. Null for a private one. */
    companyId: integer('company_id').references(() => companies.id),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('subscriptions_user_idx').on(t.userId), index('subscriptions_billing_idx').on(t.billingStatus),
    index('subscriptions_company_idx').on(t.companyId),
  ],
);

/**
 * 주행거리 기록 (docs/decisions/mileage.md): odometer readings of a subscription, never changed or
 * deleted; they never go down (src/domain/mileage.ts readingRefusal, checked under the
 * subscription's row lock). One HANDOVER and one RETURN per subscription, one SELF report per
 * billing month (partial unique indexes).
 */
export const odometerReadings = pgTable(
  'odometer_readings',
  {
    id: serial('id').primaryKey(),
    subscriptionId: integer('subscription_id').notNull().references(() => subscriptions.id),
    km: integer('km').notNull(),
    source: varchar('source', { length: 20, enum: ODOMETER_SOURCES }).notNull(),
    /** The Korean day the odometer was read. */
    readOn: date('read_on', { mode: 'string' }).notNull(),
    /** The subscription's billing month that day falls in (1 = the first). */
    billingMonth: integer('billing_month').notNull(),
    /** The car read (null on rows from before swaps: the order's car). A swap's readings name their swap. */
    carId: integer('car_id').references(() => cars.id),
    swapId: integer('swap_id'),
    /** The customer or staff account that recorded it (null: the machine token, a handover record). */
    recordedByUserId: integer('recorded_by_user_id').references(() => users.id),
    /** Who recorded it, as the audit log names them (email, 'customer:12', 'machine-token'). */
    recordedBy: varchar('recorded_by', { length: 200 }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('odometer_readings_sub_idx').on(t.subscriptionId, t.readOn),
    uniqueIndex('odometer_readings_single_idx').on(t.subscriptionId, t.source).where(sql`${t.source} in ('HANDOVER', 'RETURN')`),
    uniqueIndex('odometer_readings_swap_idx').on(t.swapId, t.source).where(sql`${t.swapId} is not null`),
    uniqueIndex('odometer_readings_self_month_idx').on(t.subscriptionId, t.billingMonth).where(sql`${t.source} = 'SELF'`),
  ],
);

/**
 * 구독 연장: one row per confirmed extension of a subscription. Billing months first_month…last_month
 * are charged monthly_fee; the subscription ran to from_date − 1 before and to to_date after. One per
 * (subscription, from_date): an extension is made once from a given end date (docs/decisions/extension.md).
 */
export const subscriptionExtensions = pgTable(
  'subscription_extensions',
  {
    id: serial('id').primaryKey(),
    subscriptionId: integer('subscription_id').notNull().references(() => subscriptions.id),
    userId: integer('user_id').notNull().references(() => users.id),
    months: integer('months').notNull(),
    /** Won: each added month's fee (the car's fee for the term then + the order's monthly option extras). */
    monthlyFee: integer('monthly_fee').notNull(),
    /** The car's fee for the term and the option extras it was made of (the annex shows them). */
    baseFee: integer('base_fee').notNull(),
    optionExtras: integer('option_extras').notNull().default(0),
    firstMonth: integer('first_month').notNull(),
    lastMonth: integer('last_month').notNull(),
    fromDate: date('from_date', { mode: 'string' }).notNull(),
    toDate: date('to_date', { mode: 'string' }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('subscription_extensions_from_idx').on(t.subscriptionId, t.fromDate)],
);

/** The 부속 계약서 (annex) of an extension: its PDF and SHA-256, issued once, never changed (a trigger refuses it). */
export const subscriptionExtensionAnnexes = pgTable('subscription_extension_annexes', {
  id: serial('id').primaryKey(),
  extensionId: integer('extension_id').notNull().references(() => subscriptionExtensions.id).unique(),
  userId: integer('user_id').notNull().references(() => users.id),
  sha256: varchar('sha256', { length: 64 }).notNull(),
  pdf: bytea('pdf').notNull(),
  byteSize: integer('byte_size').notNull(),
  createdAt: createdAt(),
});

/**
 * 차량 교체 (swap, docs/decisions/swap.md): one row per swap of a subscription's car. On swap_date the
 * customer hands back from_car and receives to_car (the old car's last day, the new car's first).
 * The billing month the day falls in is prorated (adjustment: + charged once, − refunded once from
 * that month's payment); billing months from first_new_month on are charged new_fee. PENDING while
 * the adjustment's charge runs, CONFIRMED once applied, CANCELLED when it was declined or withdrawn.
 * One live swap per (subscription, swap_date).
 */
export const subscriptionSwaps = pgTable(
  'subscription_swaps',
  {
    id: serial('id').primaryKey(),
    subscriptionId: integer('subscription_id').notNull().references(() => subscriptions.id),
    userId: integer('user_id').notNull().references(() => users.id),
    fromCarId: integer('from_car_id').notNull().references(() => cars.id),
    toCarId: integer('to_car_id').notNull().references(() => cars.id),
    swapDate: date('swap_date', { mode: 'string' }).notNull(),
    /** The billing month swap_date falls in (prorated), and the first month charged new_fee. */
    billingMonth: integer('billing_month').notNull(),
    firstNewMonth: integer('first_new_month').notNull(),
    /** Won a month: that billing month's fee before, and the new fee (the new car's fee for the term + the order's option extras). */
    oldFee: integer('old_fee').notNull(),
    newFee: integer('new_fee').notNull(),
    baseFee: integer('base_fee').notNull(),
    optionExtras: integer('option_extras').notNull().default(0),
    /** The order's 선납금 credit taken off newFee (won a month) through the order's last month; 0: none (src/domain/swap.ts swapFeeChanges). */
    prepaymentCredit: integer('prepayment_credit').notNull().default(0),
    /** Days of the billing month on the new car, of the month's days; the signed adjustment in won. */
    prorateDays: integer('prorate_days').notNull(),
    monthDays: integer('month_days').notNull(),
    adjustment: integer('adjustment').notNull(),
    status: varchar('status', { length: 12 }).$type<'PENDING' | 'CONFIRMED' | 'CANCELLED'>().notNull().default('PENDING'),
    /** The adjustment's payment (a charge) or the refunded payment (a refund); null when 0. */
    paymentId: varchar('payment_id', { length: 64 }),
    /**
     * A CONFIRMED swap the customer called off before its day (docs/decisions/swap.md): when it was
     * cancelled, and the charge that took back a refunded difference (a charged one is refunded
     * under swapCancelRefundKey). Null for swaps that were never confirmed.
     */
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    cancelPaymentId: varchar('cancel_payment_id', { length: 64 }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('subscription_swaps_live_uq').on(t.subscriptionId, t.swapDate).where(sql`${t.status} <> 'CANCELLED'`),
    index('subscription_swaps_to_car_idx').on(t.toCarId),
    index('subscription_swaps_from_car_idx').on(t.fromCarId),
  ],
);

/** The 부속 계약서 (annex) of a swap: its PDF and SHA-256, issued once, never changed (a trigger refuses it). */
export const subscriptionSwapAnnexes = pgTable('subscription_swap_annexes', {
  id: serial('id').primaryKey(),
  swapId: integer('swap_id').notNull().references(() => subscriptionSwaps.id).unique(),
  userId: integer('user_id').notNull().references(() => users.id),
  sha256: varchar('sha256', { length: 64 }).notNull(),
  pdf: bytea('pdf').notNull(),
  byteSize: integer('byte_size').notNull(),
  createdAt: createdAt(),
});

/** The 중도 해지 확인서 of a subscription ended early: its PDF and SHA-256, issued once, never changed (a trigger refuses it). */
export const subscriptionExitDocuments = pgTable('subscription_exit_documents', {
  id: serial('id').primaryKey(),
  subscriptionId: integer('subscription_id').notNull().references(() => subscriptions.id).unique(),
  userId: integer('user_id').notNull().references(() => users.id),
  sha256: varchar('sha256', { length: 64 }).notNull(),
  pdf: bytea('pdf').notNull(),
  byteSize: integer('byte_size').notNull(),
  createdAt: createdAt(),
});

/**
 * 반납 정산 (docs/decisions/settlement.md): one per subscription (unique), written under the
 * subscription's row lock with what staff entered and the rule's result. PENDING until the card
 * charge (sub-{id}-settle) is paid or the deposit refund (key settle:deposit:{id}) succeeded.
 */
export const subscriptionSettlements = pgTable('subscription_settlements', {
  id: serial('id').primaryKey(),
  subscriptionId: integer('subscription_id').notNull().references(() => subscriptions.id).unique(),
  userId: integer('user_id').notNull().references(() => users.id),
  damages: jsonb('damages').$type<Damage[]>().notNull(),
  fuelShortfallPercent: integer('fuel_shortfall_percent').notNull(),
  deductible: integer('deductible').notNull(),
  /** The mileage rule on the RETURN reading, with its arithmetic. */
  mileage: jsonb('mileage').$type<MileageSettlement & { arithmetic: string }>().notNull(),
  overagePaid: integer('overage_paid').notNull(),
  lines: jsonb('lines').$type<SettlementLine[]>().notNull(),
  total: integer('total').notNull(),
  deposit: integer('deposit').notNull(),
  fromDeposit: integer('from_deposit').notNull(),
  toCharge: integer('to_charge').notNull(),
  toRefund: integer('to_refund').notNull(),
  summary: text('summary').notNull(),
  /** The first payment the deposit was paid with (refunded from), when there is a refund. */
  depositPaymentId: varchar('deposit_payment_id', { length: 64 }),
  status: varchar('status', { length: 20 }).$type<'PENDING' | 'DONE'>().notNull().default('PENDING'),
  settledByUserId: integer('settled_by_user_id').references(() => users.id),
  settledBy: varchar('settled_by', { length: 200 }).notNull(),
  createdAt: createdAt(),
  completedAt: timestamp('completed_at', { withTimezone: true }),
});

/**
 * The contract (계약서) of a subscription request: its PDF as issued after the first month was paid
 * (or the order received with nothing to pay), and the PDF's SHA-256. One per request; never
 * updated or deleted (a trigger refuses both, migration 0012): docs/decisions/contract.md.
 */
export const subscriptionContracts = pgTable('subscription_contracts', {
  id: serial('id').primaryKey(),
  requestId: integer('request_id').notNull().references(() => subscriptionRequests.id).unique(),
  userId: integer('user_id').notNull().references(() => users.id),
  /** SHA-256 of `pdf`, hex. */
  sha256: varchar('sha256', { length: 64 }).notNull(),
  pdf: bytea('pdf').notNull(),
  byteSize: integer('byte_size').notNull(),
  createdAt: createdAt(),
});

/** Billing keys deleted at the sandbox provider (a card change deletes the old key, as at PortOne); a deleted key no longer charges. */
export const sandboxDeletedBillingKeys = pgTable('sandbox_deleted_billing_keys', {
  billingKey: varchar('billing_key', { length: 200 }).primaryKey(),
  reason: text('reason').notNull(),
  deletedAt: timestamp('deleted_at', { withTimezone: true }).notNull().defaultNow(),
});

// ── Butler ───────────────────────────────────────────────────────────────────

/** The shop's chauffeurs; staff deactivate rather than delete them, so past trips keep their driver. */
export const drivers = pgTable('drivers', {
  id: serial('id').primaryKey(),
  name: varchar('name', { length: 40 }).notNull(),
  phone: varchar('phone', { length: 20 }).notNull(),
  gender: varchar('gender', { length: 10 }).$type<DriverGender>().notNull(),
  licenceClasses: jsonb('licence_classes').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
  active: boolean('active').notNull().default(true),
  /** Korean days (YYYY-MM-DD) the driver does not work. */
  daysOff: jsonb('days_off').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
  memo: text('memo'),
  createdAt: createdAt(),
  modifiedAt: timestamp('modified_at', { withTimezone: true }).notNull().defaultNow(),
});

export const butlerRequests = pgTable(
  'butler_requests',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').notNull().references(() => users.id),
    /** The fleet car rented with the driver; null for a driver-only booking (own-car: customerCar). */
    butlerCarId: integer('butler_car_id').references(() => butlerCars.id),
    /** BUTLER_LEGAL_MODEL=own-car: the customer's car the driver drives (their subscription car, or one they bring). */
    customerCar: jsonb('customer_car').$type<CustomerCar>(),
    startAt: timestamp('start_at', { withTimezone: true }).notNull(),
    endAt: timestamp('end_at', { withTimezone: true }),
    startLocation: text('start_location').notNull(),
    endLocation: text('end_location').notNull(),
    passengerCount: integer('passenger_count').notNull().default(1),
    purpose: text('purpose'),
    memo: text('memo'),
    description: text('description'),
    driverPreference: varchar('driver_preference', { length: 10 }).$type<Exclude<DriverPreference, ''>>(),
    /** The flight of an airport pickup (KE123), shown to the driver and staff; null when none. */
    flightNumber: varchar('flight_number', { length: 8 }),
    userCouponId: integer('user_coupon_id').references(() => userCoupons.id),
    pointUsed: integer('point_used').notNull().default(0),
    billingKey: varchar('billing_key', { length: 200 }).notNull().unique(),
    billingProvider: varchar('billing_provider', { length: 20, enum: PAYMENT_PROVIDERS }).notNull(),
    /** The card as the provider's billing-key info names it (현대카드, 1234): what pages show instead of the key. */
    cardIssuer: varchar('card_issuer', { length: 40 }),
    cardLast4: varchar('card_last4', { length: 4 }),
    /** Won: base fee for 8 hours, overtime, coupon discount, and the final price. */
    baseFee: integer('base_fee').notNull(),
    overtimeFee: integer('overtime_fee').notNull().default(0),
    couponDiscount: integer('coupon_discount').notNull().default(0),
    finalPrice: integer('final_price').notNull(),
    status: varchar('status', { length: 20 }).$type<OrderStatus>().notNull().default('PENDING'),
    /** The driver's 출발 (left for the pickup) and 도착 (at the pickup), tapped on /driver or corrected by staff. */
    departedAt: timestamp('departed_at', { withTimezone: true }),
    arrivedAt: timestamp('arrived_at', { withTimezone: true }),
    /** 탑승 and 운행 종료 (the driver's taps, or staff's record); overtime beyond the quote is charged from these. */
    actualStartAt: timestamp('actual_start_at', { withTimezone: true }),
    actualEndAt: timestamp('actual_end_at', { withTimezone: true }),
    /** What the charge after the trip was made of (overtime, waiting, prepaid: src/domain/waiting.ts), written with 운행 종료; null before. */
    tripCharge: jsonb('trip_charge').$type<TripCharge>(),
    /** The chauffeur staff dispatched, and when (null while unassigned). */
    driverId: integer('driver_id').references(() => drivers.id),
    dispatchedAt: timestamp('dispatched_at', { withTimezone: true }),
    /** BUTLER_LEGAL_MODEL when booked (null: booked before the setting existed). */
    legalModel: varchar('legal_model', { length: 12 }).$type<ButlerLegalModel>(),
    /** What the booking rests on: the partner named (`partner`), or the 시행령 제18조 case and its masked proof (`exemptions`), and staff's refusal. */
    legalBasis: jsonb('legal_basis').$type<LegalBasis>(),
    /** Booked for a company (법인): billed to it, visible to its admins and bookers; null for a private booking. */
    companyId: integer('company_id').references(() => companies.id),
    /** The company's cost centre or memo for this trip, printed on its statement. */
    costCentre: varchar('cost_centre', { length: 60 }),
    /** The passenger a company booker booked for (name, phone): they get the trip messages; null when the booker rides. */
    guestName: varchar('guest_name', { length: 80 }),
    guestPhone: varchar('guest_phone', { length: 20 }),
    /** The trip's price and every charge after it go on the company's monthly invoice (후불) instead of a card. */
    invoiceBilled: boolean('invoice_billed').notNull().default(false),
    /** A booker's trip above the company's approval threshold: WAITING (not charged, not dispatched) until an admin decides; null when none was needed. */
    approvalStatus: varchar('approval_status', { length: 10 }).$type<ApprovalStatus>(),
    approvalByUserId: integer('approval_by_user_id').references(() => users.id),
    approvalAt: timestamp('approval_at', { withTimezone: true }),
    approvalReason: varchar('approval_reason', { length: 200 }),
    createdAt: createdAt(),
    modifiedAt: timestamp('modified_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('butler_requests_user_idx').on(t.userId), index('butler_requests_driver_idx').on(t.driverId),
    index('butler_requests_company_idx').on(t.companyId),
    check('butler_requests_car_or_customer_car', sql`${t.butlerCarId} IS NOT NULL OR ${t.customerCar} IS NOT NULL`),
    check('butler_requests_approval_status_check', sql`${t.approvalStatus} IS NULL OR ${t.approvalStatus} IN ('WAITING', 'APPROVED', 'DECLINED')`),
  ],
);

/**
 * 탁송(인도) and 반납 of a subscription's car: the driver and window staff scheduled (on the same
 * board as butler trips; a driver is never on both at once) and what was recorded at the handover,
 * which the customer acknowledges with their typed name. One live (not cancelled) DELIVERY and one
 * live RETURN per subscription; rescheduling updates the row. docs/decisions/handover.md.
 */
export const subscriptionHandovers = pgTable(
  'subscription_handovers',
  {
    id: serial('id').primaryKey(),
    subscriptionId: integer('subscription_id').notNull().references(() => subscriptions.id),
    kind: varchar('kind', { length: 10 }).$type<HandoverKind>().notNull(),
    status: varchar('status', { length: 10 }).$type<HandoverStatus>().notNull().default('SCHEDULED'),
    driverId: integer('driver_id').notNull().references(() => drivers.id),
    /** The Korean day and HH:MM window staff booked; startsAt/endsAt are the same window as instants (overlap checks). */
    scheduledDate: date('scheduled_date', { mode: 'string' }).notNull(),
    windowStart: varchar('window_start', { length: 5 }).notNull(),
    windowEnd: varchar('window_end', { length: 5 }).notNull(),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
    address: text('address'),
    /** A swap's pair (the old car's RETURN and the new car's DELIVERY on the swap day); null: the subscription's own. */
    swapId: integer('swap_id').references(() => subscriptionSwaps.id),
    /** The record made at the handover. */
    odometerKm: integer('odometer_km'),
    fuelPercent: integer('fuel_percent'),
    notes: text('notes'),
    recordedAt: timestamp('recorded_at', { withTimezone: true }),
    recordedBy: varchar('recorded_by', { length: 254 }),
    /** The Korean day the handover was recorded on (the subscription's first day follows a delivery's). */
    actualDate: date('actual_date', { mode: 'string' }),
    /** The customer's acknowledgement of the record (my subscriptions): when, and the name they typed. */
    acknowledgedAt: timestamp('acknowledged_at', { withTimezone: true }),
    acknowledgedName: varchar('acknowledged_name', { length: 40 }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('subscription_handovers_live_uq').on(t.subscriptionId, t.kind, sql`coalesce(${t.swapId}, 0)`).where(sql`${t.status} <> 'CANCELLED'`),
    index('subscription_handovers_driver_idx').on(t.driverId, t.startsAt),
    index('subscription_handovers_starts_idx').on(t.startsAt),
  ],
);

/**
 * 상태 사진: condition photos of a handover (docs/decisions/handover.md). Private to the customer, staff
 * and the assigned driver, so kept in the database (bytea), never in DATA_DIR's published files or the
 * static build: any replica serves them through the authenticated route, and backups carry them. Only
 * the re-encoded WebP is kept (no EXIF/GPS); the same upload again is the same row (sha256).
 */
export const handoverPhotos = pgTable(
  'handover_photos',
  {
    id: serial('id').primaryKey(),
    handoverId: integer('handover_id').notNull().references(() => subscriptionHandovers.id),
    subscriptionId: integer('subscription_id').notNull().references(() => subscriptions.id),
    /** The staff account's email or `driver:<name>` (the audit's actor name). */
    uploadedBy: varchar('uploaded_by', { length: 254 }).notNull(),
    contentType: varchar('content_type', { length: 32 }).notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    /** SHA-256 (hex) of the stored bytes: the strong ETag, and one row per image per handover. */
    sha256: varchar('sha256', { length: 64 }).notNull(),
    bytes: bytea('bytes').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('handover_photos_sha_uq').on(t.handoverId, t.sha256), index('handover_photos_handover_idx').on(t.handoverId)],
);

/**
 * Staff's invitations of a roster driver to sign up on /driver: a random code (stored as its
 * SHA-256) sent by 알림톡 or email, used once before it expires.
 */
export const driverInvites = pgTable(
  'driver_invites',
  {
    id: serial('id').primaryKey(),
    driverId: integer('driver_id').notNull().references(() => drivers.id),
    channel: varchar('channel', { length: 10 }).$type<'phone' | 'email'>().notNull(),
    /** The mobile digits or the lowercased email the invite went to. */
    address: varchar('address', { length: 254 }).notNull(),
    codeHash: varchar('code_hash', { length: 64 }).notNull().unique(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    userId: integer('user_id').references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [index('driver_invites_driver_idx').on(t.driverId)],
);

/**
 * The driver's last shared position on an active trip (one row per trip, replaced by each post);
 * deleted a set time after the trip ends (the trip-positions.purge job).
 */
export const tripPositions = pgTable('trip_positions', {
  butlerRequestId: integer('butler_request_id').primaryKey().references(() => butlerRequests.id, { onDelete: 'cascade' }),
  driverId: integer('driver_id').notNull().references(() => drivers.id),
  lat: doublePrecision('lat').notNull(),
  lng: doublePrecision('lng').notNull(),
  accuracy: doublePrecision('accuracy'),
  recordedAt: timestamp('recorded_at', { withTimezone: true }).notNull(),
});

/**
 * The driver's 위치정보 consents (docs/decisions/legal.md §5): one row per consent given, with the
 * text's version and time; withdrawing sets `withdrawn_at`. The live one is the newest not withdrawn.
 */
export const driverLocationConsents = pgTable(
  'driver_location_consents',
  {
    id: serial('id').primaryKey(),
    driverId: integer('driver_id').notNull().references(() => drivers.id),
    userId: integer('user_id').references(() => users.id),
    /** 'terms' (위치기반서비스 이용약관) or 'third_party' (개인위치정보 제3자 제공: the trip's customer). */
    kind: varchar('kind', { length: 20 }).$type<LocationConsentKind>().notNull(),
    version: varchar('version', { length: 20 }).notNull(),
    agreedAt: timestamp('agreed_at', { withTimezone: true }).notNull(),
    withdrawnAt: timestamp('withdrawn_at', { withTimezone: true }),
  },
  (t) => [index('driver_location_consents_driver_idx').on(t.driverId, t.kind)],
);

/**
 * 위치정보 이용·제공사실 확인자료 (위치정보법 제16조제2항): who read whose position, of which trip,
 * for what, when. One row per read session (same reader and trip, reads within 30 minutes of the
 * last), kept 6 months after its last read, then purged by the location.daily job.
 */
export const locationAccessLog = pgTable(
  'location_access_log',
  {
    id: serial('id').primaryKey(),
    /** Whose position (the 개인위치정보주체). */
    driverId: integer('driver_id').notNull().references(() => drivers.id),
    /** The trip; no foreign key, so the record outlives a deleted booking. */
    butlerRequestId: integer('butler_request_id').notNull(),
    /** The reading account (null: the machine token). */
    readerUserId: integer('reader_user_id').references(() => users.id),
    readerRole: varchar('reader_role', { length: 20 }).$type<LocationReaderRole>().notNull(),
    /** What the driver is shown: 예약 고객 or the staff account's email. */
    readerLabel: varchar('reader_label', { length: 254 }).notNull(),
    purpose: varchar('purpose', { length: 200 }).notNull(),
    firstReadAt: timestamp('first_read_at', { withTimezone: true }).notNull(),
    lastReadAt: timestamp('last_read_at', { withTimezone: true }).notNull(),
    reads: integer('reads').notNull().default(1),
    /** When the batch notice told the driver of this row (null: not yet). */
    noticedAt: timestamp('noticed_at', { withTimezone: true }),
  },
  (t) => [
    index('location_access_log_driver_idx').on(t.driverId, t.lastReadAt),
    index('location_access_log_session_idx').on(t.butlerRequestId, t.readerRole, t.readerUserId, t.lastReadAt),
    index('location_access_log_last_idx').on(t.lastReadAt),
  ],
);

/**
 * What a driver was told about a trip of theirs (an assignment, a change, a reassignment away, a
 * cancellation): one row per change, keyed like its message (the unique key makes a retried
 * change one notice and one message), listed on /driver and marked read there.
 */
export const driverNotices = pgTable(
  'driver_notices',
  {
    id: serial('id').primaryKey(),
    driverId: integer('driver_id').notNull().references(() => drivers.id),
    butlerRequestId: integer('butler_request_id').notNull().references(() => butlerRequests.id, { onDelete: 'cascade' }),
    kind: varchar('kind', { length: 20 }).$type<DriverNoticeKind>().notNull(),
    changes: jsonb('changes').$type<TripChange[]>().notNull().default(sql`'[]'::jsonb`),
    key: varchar('key', { length: 200 }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    readAt: timestamp('read_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('driver_notices_key_uq').on(t.key), index('driver_notices_driver_idx').on(t.driverId, t.createdAt)],
);

export const butlerWaypoints = pgTable(
  'butler_waypoints',
  {
    id: serial('id').primaryKey(),
    butlerRequestId: integer('butler_request_id').notNull().references(() => butlerRequests.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    address: text('address').notNull(),
    scheduledTime: timestamp('scheduled_time', { withTimezone: true }),
  },
  (t) => [index('butler_waypoints_request_idx').on(t.butlerRequestId)],
);

/**
 * The customer's rating of a finished trip (1–5, optional comment): one per booking (the unique
 * request id makes a second one fail even when two arrive at once), credited to the driver who
 * drove it, whose average staff read on the roster.
 */
export const tripRatings = pgTable(
  'trip_ratings',
  {
    id: serial('id').primaryKey(),
    butlerRequestId: integer('butler_request_id').notNull().references(() => butlerRequests.id).unique(),
    userId: integer('user_id').notNull().references(() => users.id),
    driverId: integer('driver_id').references(() => drivers.id),
    score: integer('score').notNull(),
    comment: text('comment'),
    createdAt: createdAt(),
  },
  (t) => [index('trip_ratings_driver_idx').on(t.driverId)],
);

export const butlerSubscriptions = pgTable('butler_subscriptions', {
  id: serial('id').primaryKey(),
  requestId: integer('request_id').notNull().references(() => butlerRequests.id).unique(),
  userId: integer('user_id').notNull().references(() => users.id),
  createdAt: createdAt(),
  modifiedAt: timestamp('modified_at', { withTimezone: true }).notNull().defaultNow(),
});

// ── Services ─────────────────────────────────────────────────────────────────

export const faqs = pgTable('faqs', {
  id: serial('id').primaryKey(),
  question: text('question').notNull(),
  answer: text('answer').notNull(),
  category: varchar('category', { length: 40 }),
  sortOrder: integer('sort_order').notNull().default(100),
  createdAt: createdAt(),
});

/** Terms of service and privacy policy, versioned; the newest effective one is current. */
export const policyDocuments = pgTable(
  'policy_documents',
  {
    id: serial('id').primaryKey(),
    kind: varchar('kind', { length: 20 }).notNull(),
    title: text('title').notNull(),
    content: text('content').notNull(),
    version: varchar('version', { length: 20 }).notNull(),
    effectiveDate: date('effective_date', { mode: 'string' }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('policy_documents_kind_idx').on(t.kind)],
);

export const contactMessages = pgTable('contact_messages', {
  id: serial('id').primaryKey(),
  name: varchar('name', { length: 80 }).notNull(),
  email: varchar('email', { length: 254 }).notNull(),
  subject: varchar('subject', { length: 200 }).notNull(),
  message: text('message').notNull(),
  createdAt: createdAt(),
});

export const chatSessions = pgTable('chat_sessions', {
  id: serial('id').primaryKey(),
  userId: integer('user_id').references(() => users.id),
  sessionKey: varchar('session_key', { length: 64 }).notNull().unique(),
  state: jsonb('state').$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
  messages: jsonb('messages').$type<unknown[]>().notNull().default(sql`'[]'::jsonb`),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

// ── Staff ────────────────────────────────────────────────────────────────────

/** Who changed what in the console, with the row before and after. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: serial('id').primaryKey(),
    /** Null for machine callers (the webhook token). */
    actorUserId: integer('actor_user_id').references(() => users.id),
    actor: varchar('actor', { length: 254 }).notNull(),
    action: varchar('action', { length: 40 }).notNull(),
    entity: varchar('entity', { length: 40 }).notNull(),
    entityId: varchar('entity_id', { length: 40 }),
    before: jsonb('before'),
    after: jsonb('after'),
    createdAt: createdAt(),
  },
  (t) => [index('audit_log_entity_idx').on(t.entity, t.entityId), index('audit_log_created_idx').on(t.createdAt)],
);

/** One row per storefront build on any replica: the console's publish status. */
export const publishBuilds = pgTable(
  'publish_builds',
  {
    id: serial('id').primaryKey(),
    catalogueVersion: integer('catalogue_version').notNull(),
    /** running | done | failed */
    status: varchar('status', { length: 20 }).notNull(),
    /** What asked for it: edit | publish | webhook | start */
    trigger: varchar('trigger', { length: 20 }).notNull(),
    /** 0–100 while running. */
    progress: integer('progress').notNull().default(0),
    replica: varchar('replica', { length: 120 }),
    error: text('error'),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    durationMs: integer('duration_ms'),
  },
  (t) => [index('publish_builds_started_idx').on(t.startedAt)],
);

// ── Jobs ─────────────────────────────────────────────────────────────────────

/** queued → running → done, or back to queued (a retry or a later run), or failed once it gave up. */
export type JobStatus = 'queued' | 'running' | 'done' | 'failed';

/**
 * The durable job queue (src/api/jobs/): work that happens later (monthly charges, retries,
 * reconciliation, notifications) is a row, written in the transaction of the event that causes
 * it, and claimed with FOR UPDATE SKIP LOCKED so one replica runs it at a time.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: serial('id').primaryKey(),
    /** Which handler runs it (src/api/job-handlers.ts). */
    kind: varchar('kind', { length: 40 }).notNull(),
    /** One job per effect: enqueueing a key that exists is a no-op (idempotent producers). */
    key: varchar('key', { length: 200 }).notNull().unique(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    status: varchar('status', { length: 20 }).$type<JobStatus>().notNull().default('queued'),
    /** Due time on the business clock (a test clock can move it). */
    runAt: timestamp('run_at', { withTimezone: true }).notNull(),
    /** Runs started (a crashed run counts); reset when a handler asks to run again later. */
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(5),
    /** While running: the worker holding it and the end of its lease (wall time); an expired lease is a crashed run. */
    lockedBy: varchar('locked_by', { length: 120 }),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lastError: text('last_error'),
    /** The API request that enqueued it (X-Request-Id): its run logs under the same id. */
    requestId: varchar('request_id', { length: 64 }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('jobs_due_idx').on(t.status, t.runAt), index('jobs_kind_idx').on(t.kind, t.status)],
);

// ── Payments ─────────────────────────────────────────────────────────────────

/**
 * The ledger: one row per charge attempt, written (PENDING) and committed before the provider
 * is called. The id is ours, deterministic per purpose (src/domain/payments.ts paymentIds) and
 * sent to the provider as its payment id, so a retry after a crash can never charge twice.
 */
export const payments = pgTable(
  'payments',
  {
    id: varchar('id', { length: 80 }).primaryKey(),
    userId: integer('user_id').notNull().references(() => users.id),
    purpose: varchar('purpose', { length: 30, enum: PAYMENT_PURPOSES }).notNull(),
    /** What the money is for, and its id (src/domain/payments.ts ORDER_KINDS, PURPOSE_REF_TYPE). */
    refType: varchar('ref_type', { length: 30, enum: PAYMENT_REF_TYPES }).notNull(),
    refId: integer('ref_id').notNull(),
    /** The subscription month (1 = the first) a subscription charge pays for. */
    month: integer('month'),
    /** 1 for the first try of a purpose, 2… for tries after a known failure. */
    attempt: integer('attempt').notNull().default(1),
    orderName: varchar('order_name', { length: 200 }).notNull(),
    /** Won. */
    amount: integer('amount').notNull(),
    cancelledAmount: integer('cancelled_amount').notNull().default(0),
    status: varchar('status', { length: 20 }).$type<PaymentStatus>().notNull().default('PENDING'),
    provider: varchar('provider', { length: 20, enum: PAYMENT_PROVIDERS }).notNull(),
    /** The billing key charged (a credential: never answered unmasked). */
    billingKey: varchar('billing_key', { length: 200 }).notNull(),
    pgTxId: varchar('pg_tx_id', { length: 200 }),
    receiptUrl: text('receipt_url'),
    failureCode: varchar('failure_code', { length: 80 }),
    failureReason: text('failure_reason'),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    failedAt: timestamp('failed_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('payments_user_idx').on(t.userId, t.requestedAt),
    index('payments_ref_idx').on(t.refType, t.refId),
    index('payments_status_idx').on(t.status, t.requestedAt),
  ],
);

/** Every refund (a provider cancel, full or part), once per key: a retried cancel never refunds twice. */
export const paymentRefunds = pgTable(
  'payment_refunds',
  {
    id: serial('id').primaryKey(),
    /** What the refund is for, e.g. refund:subreq:12, refund:butler:7, refund:staff:<audit id>. */
    key: varchar('key', { length: 120 }).notNull().unique(),
    paymentId: varchar('payment_id', { length: 80 }).notNull().references(() => payments.id),
    userId: integer('user_id').notNull().references(() => users.id),
    amount: integer('amount').notNull(),
    reason: text('reason').notNull(),
    /** customer | staff:<email> | system | provider (cancelled in the provider's console) */
    actor: varchar('actor', { length: 254 }).notNull(),
    status: varchar('status', { length: 20 }).$type<RefundStatus>().notNull().default('REQUESTED'),
    failureReason: text('failure_reason'),
    createdAt: createdAt(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [index('payment_refunds_payment_idx').on(t.paymentId), index('payment_refunds_user_idx').on(t.userId)],
);

/** Webhooks already handled, by their webhook-id: a replay changes nothing. */
export const webhookReceipts = pgTable('webhook_receipts', {
  id: varchar('id', { length: 200 }).primaryKey(),
  type: varchar('type', { length: 80 }),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The sandbox provider's own books (what PortOne keeps on its side): one row per payment id,
 * so the same id twice is charged once, and cancels and receipts read from here.
 */
export const sandboxPayments = pgTable('sandbox_payments', {
  paymentId: varchar('payment_id', { length: 80 }).primaryKey(),
  billingKey: varchar('billing_key', { length: 200 }).notNull(),
  orderName: varchar('order_name', { length: 200 }).notNull(),
  amount: integer('amount').notNull(),
  cancelledAmount: integer('cancelled_amount').notNull().default(0),
  status: varchar('status', { length: 20 }).$type<PaymentStatus>().notNull(),
  failureCode: varchar('failure_code', { length: 80 }),
  failureMessage: text('failure_message'),
  pgTxId: varchar('pg_tx_id', { length: 80 }).notNull(),
  customerName: varchar('customer_name', { length: 80 }),
  /** [{ id, amount, reason, at }] */
  cancellations: jsonb('cancellations').$type<{ id: string; amount: number; reason: string; at: string }[]>().notNull().default(sql`'[]'::jsonb`),
  paidAt: timestamp('paid_at', { withTimezone: true }),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/**
 * Rate-limit counters shared by every replica (src/api/middleware/rate-limit.ts): one row per
 * (bucket, key), e.g. ('contact', 'ip:198.51.100.7'). A window opens at the first hit and lasts
 * until `expires_at`; one upsert counts a hit atomically. Expired rows are reused by the next
 * hit or swept.
 */
export const rateLimits = pgTable(
  'rate_limits',
  {
    bucket: varchar('bucket', { length: 40 }).notNull(),
    key: text('key').notNull(),
    count: integer('count').notNull(),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.bucket, t.key] }), index('rate_limits_expires_idx').on(t.expiresAt)],
);

// ── Notifications ────────────────────────────────────────────────────────────

/** PENDING until its channel took it; SKIPPED when it no longer applies (a reminder of a cancelled trip); FAILED once retries ran out. */
export type NotificationStatus = 'PENDING' | 'SENT' | 'SKIPPED' | 'FAILED';

/**
 * The outbox of messages (src/api/notifications/): one row per event, channel and recipient,
 * written before anything is sent, each sent by its own `notify.send` job; the unique key makes a
 * repeated run write nothing new. With no provider configured the rows are the sandbox outbox.
 */
export const notificationMessages = pgTable(
  'notification_messages',
  {
    id: serial('id').primaryKey(),
    /** The event's occurrence (the key it was emitted with), e.g. payment.succeeded:subreq-12. */
    key: varchar('key', { length: 200 }).notNull(),
    /** The event type, e.g. subscription.requested. */
    event: varchar('event', { length: 60 }).notNull(),
    /** email | kakao */
    channel: varchar('channel', { length: 20 }).notNull(),
    /** An email address or a mobile number (digits). */
    to: varchar('to', { length: 254 }).notNull(),
    /** The customer it is about (null for staff messages). */
    userId: integer('user_id').references(() => users.id),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html'),
    /** What sending needs besides the text: the event, the 알림톡 template key and variables, mail headers. */
    meta: jsonb('meta').$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    status: varchar('status', { length: 20 }).$type<NotificationStatus>().notNull().default('PENDING'),
    /** smtp | solapi | sandbox: what took it. */
    provider: varchar('provider', { length: 20 }),
    providerMessageId: varchar('provider_message_id', { length: 200 }),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('notification_messages_key_uq').on(t.key, t.channel, t.to),
    index('notification_messages_to_idx').on(t.to, t.createdAt),
    index('notification_messages_created_idx').on(t.createdAt),
  ],
);

/**
 * 청약철회 of a subscription (docs/decisions/legal.md §4): one per subscription. The quote
 * and the refund plan (which payment gives back how much) are fixed when it is asked for, so a
 * retry refunds the same amounts under the same keys; DONE once every refund is made and the
 * subscription is ended.
 */
export const subscriptionWithdrawals = pgTable('subscription_withdrawals', {
  id: serial('id').primaryKey(),
  subscriptionId: integer('subscription_id').notNull().references(() => subscriptions.id).unique(),
  userId: integer('user_id').notNull().references(() => users.id),
  quote: jsonb('quote').$type<WithdrawalQuote>().notNull(),
  plan: jsonb('plan').$type<{ payment_id: string; amount: number }[]>().notNull(),
  /** REFUNDING → DONE. */
  status: varchar('status', { length: 20 }).$type<'REFUNDING' | 'DONE'>().notNull().default('REFUNDING'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  completedAt: timestamp('completed_at', { withTimezone: true }),
});

/**
 * 운전자격 확인 (docs/decisions/legal.md §1): a driver's licence as the 운전자격확인시스템 last
 * answered for it. The number is kept sealed (AES-256-GCM under LICENCE_KEY) for the checks before
 * each handover and masked for every view; its HMAC makes a second registration the same row.
 */
export const driverLicences = pgTable(
  'driver_licences',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').notNull().references(() => users.id),
    role: varchar('role', { length: 10 }).$type<LicenceRole>().notNull(),
    holderName: varchar('holder_name', { length: 80 }).notNull(),
    birthDate: date('birth_date', { mode: 'string' }).notNull(),
    licenceType: varchar('licence_type', { length: 20 }).$type<LicenceType>().notNull(),
    numberMasked: varchar('number_masked', { length: 20 }).notNull(),
    numberSealed: text('number_sealed').notNull(),
    numberDigest: varchar('number_digest', { length: 64 }).notNull(),
    status: varchar('status', { length: 20 }).$type<LicenceStatus>().notNull(),
    firstIssuedOn: date('first_issued_on', { mode: 'string' }),
    expiresOn: date('expires_on', { mode: 'string' }),
    checkedAt: timestamp('checked_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('driver_licences_user_number_uq').on(t.userId, t.numberDigest)],
);

/** Every answer of the 운전자격확인시스템, kept with its purpose (registration, order, delivery, swap delivery) and time. */
export const licenceChecks = pgTable(
  'licence_checks',
  {
    id: serial('id').primaryKey(),
    licenceId: integer('licence_id').notNull().references(() => driverLicences.id),
    purpose: varchar('purpose', { length: 20 }).$type<LicenceCheckPurpose>().notNull(),
    /** The order or handover checked for (subscription_request / subscription_handover), when any. */
    refType: varchar('ref_type', { length: 30 }),
    refId: integer('ref_id'),
    status: varchar('status', { length: 20 }).$type<LicenceStatus>().notNull(),
    provider: varchar('provider', { length: 20 }).notNull(),
    reference: varchar('reference', { length: 80 }).notNull(),
    checkedAt: timestamp('checked_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('licence_checks_licence_idx').on(t.licenceId, t.checkedAt)],
);

/** The drivers named in a subscription's contract: the customer's licence and each additional driver's. */
export const requestDrivers = pgTable(
  'request_drivers',
  {
    requestId: integer('request_id').notNull().references(() => subscriptionRequests.id),
    licenceId: integer('licence_id').notNull().references(() => driverLicences.id),
  },
  (t) => [uniqueIndex('request_drivers_uq').on(t.requestId, t.licenceId)],
);

/** 기사님과 메시지 (src/domain/trip-thread.ts): the trip's thread between customer, driver and staff; each side's read time. */
export const tripMessages = pgTable(
  'trip_messages',
  {
    id: serial('id').primaryKey(),
    butlerRequestId: integer('butler_request_id').notNull().references(() => butlerRequests.id, { onDelete: 'cascade' }),
    sender: varchar('sender', { length: 10 }).$type<TripMessageSender>().notNull(),
    /** The account that wrote it; null for the machine token and for a guest (no account). */
    senderUserId: integer('sender_user_id').references(() => users.id),
    body: text('body').notNull(),
    /** The poster's id of the message (a retried POST with it is the same message). */
    clientId: uuid('client_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    readByCustomerAt: timestamp('read_by_customer_at', { withTimezone: true }),
    readByDriverAt: timestamp('read_by_driver_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('trip_messages_client_uq').on(t.butlerRequestId, t.clientId), index('trip_messages_request_idx').on(t.butlerRequestId, t.id),
    check('trip_messages_sender_check', sql`${t.sender} IN ('customer', 'driver', 'staff', 'guest')`),
    check('trip_messages_body_check', sql`char_length(${t.body}) BETWEEN 1 AND 500`),
  ],
);

// ── Business customers (법인) ────────────────────────────────────────────────

/** A company account (docs/decisions/business-accounts.md); its 사업자등록번호 is unique among open companies. */
export const companies = pgTable(
  'companies',
  {
    id: serial('id').primaryKey(),
    /** 상호. */
    name: varchar('name', { length: 100 }).notNull(),
    /** 사업자등록번호, 10 digits (checksum: src/domain/business.ts). */
    businessNumber: varchar('business_number', { length: 10 }).notNull(),
    /** 대표자. */
    ceo: varchar('ceo', { length: 80 }).notNull(),
    /** 업태 and 종목, as the 세금계산서 prints them. */
    businessType: varchar('business_type', { length: 60 }).notNull(),
    businessItem: varchar('business_item', { length: 60 }).notNull(),
    /** 사업장 주소. */
    address: text('address').notNull(),
    /** 세금계산서 수신 이메일. */
    invoiceEmail: varchar('invoice_email', { length: 254 }).notNull(),
    /** The last status check's answer (계속 / 휴업 / 폐업) and when it was asked. */
    businessStatus: varchar('business_status', { length: 10 }).$type<BusinessStatus>().notNull(),
    statusCheckedAt: timestamp('status_checked_at', { withTimezone: true }).notNull(),
    /** 개업일자, as the 국세청 진위확인 matched it with the number and the 대표자; null on companies made before that check. */
    openedOn: date('opened_on', { mode: 'string' }),
    /**
     * Whether the creator may act for the company (src/domain/company.ts CompanyAuthority): CEO (their
     * 본인인증 name is the 대표자 the 국세청 matched), PENDING (staff must confirm a 재직/위임 proof),
     * CONFIRMED (staff did). Nothing is booked or billed before CEO or CONFIRMED.
     */
    authority: varchar('authority', { length: 10 }).$type<CompanyAuthority>().notNull().default('PENDING'),
    /** Staff's note of the proof they checked (재직증명서, 위임장…) and when they decided. */
    authorityNote: varchar('authority_note', { length: 300 }),
    authorityDecidedAt: timestamp('authority_decided_at', { withTimezone: true }),
    /** Staff's last refusal of the uploaded proof (the company stays PENDING; the admin is told why and may upload again). */
    authorityRefusal: varchar('authority_refusal', { length: 300 }),
    authorityRefusedAt: timestamp('authority_refused_at', { withTimezone: true }),
    /** Staff enabled 후불 (one monthly invoice) for this company; otherwise its card is charged. */
    invoiceBilling: boolean('invoice_billing').notNull().default(false),
    /** Won: trips above this need the company admin's approval; null when none do. */
    approvalThreshold: integer('approval_threshold'),
    /** The company's card (법인카드), charged when it does not pay by invoice. */
    billingKey: varchar('billing_key', { length: 200 }),
    billingProvider: varchar('billing_provider', { length: 20, enum: PAYMENT_PROVIDERS }),
    cardIssuer: varchar('card_issuer', { length: 40 }),
    cardLast4: varchar('card_last4', { length: 4 }),
    createdByUserId: integer('created_by_user_id').notNull().references(() => users.id),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('companies_business_number_uq').on(t.businessNumber).where(sql`${t.closedAt} IS NULL`),
    check('companies_authority_check', sql`${t.authority} IN ('CEO', 'PENDING', 'CONFIRMED')`),
  ],
);

/**
 * 재직·위임 증빙 (src/domain/company-proof.ts): a PENDING company's admin's documents for staff to
 * check (위임장, 재직증명서, 법인인감증명서), kept as sent in the database, private: only the
 * company's admins and staff read them, through the API (staff's reads audited). Removed by the
 * admin while PENDING (the row goes; the audit keeps its name and hash).
 */
export const companyAuthorityDocuments = pgTable(
  'company_authority_documents',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').notNull().references(() => companies.id),
    uploadedByUserId: integer('uploaded_by_user_id').notNull().references(() => users.id),
    /** The file's name as the admin's computer had it (proofFileName). */
    name: varchar('name', { length: 120 }).notNull(),
    contentType: varchar('content_type', { length: 32 }).notNull(),
    size: integer('size').notNull(),
    /** SHA-256 (hex) of the bytes: the same file twice is one row, and the download's ETag. */
    sha256: varchar('sha256', { length: 64 }).notNull(),
    bytes: bytea('bytes').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('company_authority_documents_sha_uq').on(t.companyId, t.sha256), index('company_authority_documents_company_idx').on(t.companyId)],
);

/** Who belongs to a company and as what; a removed member keeps the row (removed_at) for the audit. */
export const companyMembers = pgTable(
  'company_members',
  {
    companyId: integer('company_id').notNull().references(() => companies.id),
    userId: integer('user_id').notNull().references(() => users.id),
    role: varchar('role', { length: 10 }).$type<CompanyRole>().notNull(),
    createdAt: createdAt(),
    removedAt: timestamp('removed_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ name: 'company_members_pk', columns: [t.companyId, t.userId] }), index('company_members_user_idx').on(t.userId)],
);

/** A single-use invitation to join a company with a role (only the code's hash is kept, as driver invites). */
export const companyInvites = pgTable(
  'company_invites',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').notNull().references(() => companies.id),
    role: varchar('role', { length: 10 }).$type<CompanyRole>().notNull(),
    channel: varchar('channel', { length: 10 }).$type<'phone' | 'email'>().notNull(),
    /** The mobile digits or the lowercased email the invite went to. */
    address: varchar('address', { length: 254 }).notNull(),
    codeHash: varchar('code_hash', { length: 64 }).notNull().unique(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    userId: integer('user_id').references(() => users.id),
    createdByUserId: integer('created_by_user_id').notNull().references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [index('company_invites_company_idx').on(t.companyId)],
);

// ── Company invoices (후불) and 전자세금계산서 ─────────────────────────────────

/**
 * One monthly statement per company and month (the unique index: a retried or doubled statement
 * job makes one). Its amounts are the sums of its lines, kept equal in the transaction that writes
 * a line. docs/decisions/business-invoices.md.
 */
export const companyInvoices = pgTable(
  'company_invoices',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').notNull().references(() => companies.id),
    /** The Korean month billed, YYYY-MM. */
    month: varchar('month', { length: 7 }).notNull(),
    /** Won: 공급가액, 부가세, 합계 (credits included). */
    supplyAmount: integer('supply_amount').notNull(),
    vatAmount: integer('vat_amount').notNull(),
    totalAmount: integer('total_amount').notNull(),
    /** INVOICE_DUE_DAY of the next month. */
    dueDate: date('due_date', { mode: 'string' }).notNull(),
    status: varchar('status', { length: 10 }).$type<InvoiceStatus>().notNull().default('ISSUED'),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    issuedAt: timestamp('issued_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('company_invoices_company_month_uq').on(t.companyId, t.month)],
);

/** What a statement is made of: one row per billed thing, its source_key unique (a trip's price is billed once, ever). */
export const companyInvoiceLines = pgTable(
  'company_invoice_lines',
  {
    id: serial('id').primaryKey(),
    invoiceId: integer('invoice_id').notNull().references(() => companyInvoices.id),
    /** trip:{id}, trip:{id}:after, credit:{line id}: what the line bills, once. */
    sourceKey: varchar('source_key', { length: 80 }).notNull().unique(),
    butlerRequestId: integer('butler_request_id').references(() => butlerRequests.id),
    /** A company subscription's month (source_key sub:{id}:m{month}). */
    subscriptionId: integer('subscription_id').references(() => subscriptions.id),
    kind: varchar('kind', { length: 12 }).$type<InvoiceLineKind>().notNull(),
    label: text('label').notNull(),
    costCentre: varchar('cost_centre', { length: 60 }),
    /** The Korean day of the supply (the trip's day, the day the charge after it was recorded, the refund's day). */
    serviceDate: date('service_date', { mode: 'string' }).notNull(),
    supplyAmount: integer('supply_amount').notNull(),
    vatAmount: integer('vat_amount').notNull(),
    totalAmount: integer('total_amount').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('company_invoice_lines_invoice_idx').on(t.invoiceId)],
);

/**
 * The months of a company subscription on 후불 that are due (billed, not charged): the first at
 * confirmation, each later one on its charge day. One row per subscription and month (unique), so
 * a retried job or a second replica bills a month once; the statement job turns each into a line.
 */
export const companySubscriptionMonths = pgTable(
  'company_subscription_months',
  {
    id: serial('id').primaryKey(),
    subscriptionId: integer('subscription_id').notNull().references(() => subscriptions.id),
    companyId: integer('company_id').notNull().references(() => companies.id),
    month: integer('month').notNull(),
    /** Won, VAT included: the month's fee (the first month: the first payment as quoted). */
    amount: integer('amount').notNull(),
    /** The Korean day the month fell due (the supply's day on the statement). */
    serviceDate: date('service_date', { mode: 'string' }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('company_subscription_months_uq').on(t.subscriptionId, t.month), index('company_subscription_months_company_idx').on(t.companyId)],
);

/**
 * The other amounts of a company subscription on 후불 (issue 52), billed to the company's next
 * statement instead of a card: the 반납 정산's rest (SETTLEMENT), the deposit it returns
 * (SETTLEMENT_REFUND, negative: a CREDIT line), an overage charged on its own (MILEAGE). source_key
 * is the statement line's (sub:{id}:settle, sub:{id}:settle:refund, sub:{id}:mileage), unique: a
 * retry or a second replica bills each once.
 */
export const companySubscriptionCharges = pgTable(
  'company_subscription_charges',
  {
    id: serial('id').primaryKey(),
    subscriptionId: integer('subscription_id').notNull().references(() => subscriptions.id),
    companyId: integer('company_id').notNull().references(() => companies.id),
    sourceKey: varchar('source_key', { length: 80 }).notNull().unique(),
    kind: varchar('kind', { length: 20 }).$type<'SETTLEMENT' | 'SETTLEMENT_REFUND' | 'MILEAGE'>().notNull(),
    label: text('label').notNull(),
    /** Won, VAT included; negative for what is returned. */
    amount: integer('amount').notNull(),
    serviceDate: date('service_date', { mode: 'string' }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('company_subscription_charges_company_idx').on(t.companyId),
    index('company_subscription_charges_subscription_idx').on(t.subscriptionId),
    check('company_subscription_charges_kind_check', sql`${t.kind} IN ('SETTLEMENT', 'SETTLEMENT_REFUND', 'MILEAGE')`),
    check('company_subscription_charges_amount_check', sql`${t.amount} <> 0`),
  ],
);

/**
 * Every 전자세금계산서 of a statement: the original, and each 수정세금계산서 (a refund's negative one,
 * a reissue's pair). issue_key is the provider's idempotency key: a retry asks for the same document.
 */
export const taxInvoices = pgTable(
  'tax_invoices',
  {
    id: serial('id').primaryKey(),
    /** The statement it is issued for; null for one issued for a company card payment (payment_id, company_id). */
    companyInvoiceId: integer('company_invoice_id').references(() => companyInvoices.id),
    /** CARD_TAX_DOCUMENT=tax_invoice: the company card payment it is issued for instead of the card slip, and its company. */
    paymentId: varchar('payment_id', { length: 80 }).references(() => payments.id),
    companyId: integer('company_id').references(() => companies.id),
    issueKey: varchar('issue_key', { length: 80 }).notNull().unique(),
    kind: varchar('kind', { length: 10 }).$type<'ORIGINAL' | 'AMENDED'>().notNull(),
    modificationType: varchar('modification_type', { length: 40 }).$type<ModificationType>(),
    amendsId: integer('amends_id').references((): AnyPgColumn => taxInvoices.id),
    reason: text('reason'),
    /** 작성일자. */
    writeDate: date('write_date', { mode: 'string' }).notNull(),
    supplyAmount: integer('supply_amount').notNull(),
    vatAmount: integer('vat_amount').notNull(),
    totalAmount: integer('total_amount').notNull(),
    status: varchar('status', { length: 10 }).$type<TaxInvoiceStatus>().notNull().default('PENDING'),
    provider: varchar('provider', { length: 20 }).notNull(),
    providerId: varchar('provider_id', { length: 100 }),
    /** 국세청 승인번호 (20261130-41000000-00000001). */
    approvalNumber: varchar('approval_number', { length: 26 }).unique(),
    documentUrl: text('document_url'),
    failureReason: text('failure_reason'),
    sentCount: integer('sent_count').notNull().default(0),
    lastSentAt: timestamp('last_sent_at', { withTimezone: true }),
    issuedAt: timestamp('issued_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('tax_invoices_invoice_idx').on(t.companyInvoiceId), index('tax_invoices_payment_idx').on(t.paymentId)],
);

/** The tax-invoice sandbox's own books (what PortOne keeps): one document per supplier key, so the same key twice is one document. */
export const sandboxTaxInvoices = pgTable('sandbox_tax_invoices', {
  id: varchar('id', { length: 40 }).primaryKey(),
  supplierKey: varchar('supplier_key', { length: 80 }).notNull().unique(),
  approvalNumber: varchar('approval_number', { length: 26 }).notNull().unique(),
  document: jsonb('document').$type<TaxDocument>().notNull(),
  /** [{ email, at }]: each sending of the document. */
  sentTo: jsonb('sent_to').$type<{ email: string; at: string }[]>().notNull().default(sql`'[]'::jsonb`),
  issuedAt: timestamp('issued_at', { withTimezone: true }).notNull(),
});
