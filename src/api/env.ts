import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { businessInfoFrom, businessInfoProblems, type BusinessInfo } from '../domain/business';
import type { ButlerRefundPolicy } from '../domain/payments';
import type { WaitingPolicy } from '../domain/waiting';
import { CARD_TAX_DOCUMENTS, type CardTaxDocument } from '../domain/invoices';
import { DEV_PARTNER, type ButlerLegalModel } from '../domain/butler-legal';
import { DEFAULT_OWN_CAR_HOURLY_RATE } from '../domain/butler-own-car';
import { NEW_DRIVER_POLICIES, type NewDriverPolicy } from '../domain/licence';
import { parseCorsOrigins } from './middleware/api-headers';
import { parseTrustProxy } from './trust-proxy';

/** Outside production, licence numbers are sealed under a fixed development key (production sets LICENCE_KEY). */
export const DEV_LICENCE_KEY = createHash('sha256').update('luxe-development-licence-key').digest();

const optional = z
  .string()
  .optional()
  .transform((v) => (v && v.trim() ? v.trim() : undefined));

const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(4321),
  /** Unset: loopback (127.0.0.1) outside production, like other development servers; every interface (0.0.0.0) in production. */
  HOST: optional,
  DATA_DIR: z.string().default('.data'),
  DIST_DIR: z.string().default('dist'),
  DATABASE_URL: optional,
  /** PostgreSQL: how long opening a connection, or waiting for a free one, may take before the request answers 503 (0 = no limit). */
  DB_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(0).max(120_000).default(3_000),
  /** PostgreSQL: one statement's limit (statement_timeout; a frozen server is given up on 1 s later); 0 = no limit. */
  DB_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(0).max(600_000).default(5_000),
  PUBLIC_SITE_URL: optional,
  /** The public origin (canonical, Open Graph, sitemap, robots); PUBLIC_SITE_URL is an alias. */
  SITE_URL: optional,
  /** Shell command run on each finished build folder before it goes live ($1 and PUBLISH_DIR), e.g. an object-store sync. */
  PUBLISH_COMMAND: optional,
  /** `changes`: PUBLISH_COMMAND is given an edit's changed files only (PUBLISH_MODE=changes); `full` (default): always a whole folder. */
  PUBLISH_EDITS: z.enum(['full', 'changes']).default('full'),
  JWT_SECRET: optional,
  ADMIN_TOKEN: optional,
  PUBLIC_PORTONE_STORE_ID: optional,
  PUBLIC_PORTONE_BILLING_CHANNEL_KEY: optional,
  PUBLIC_PORTONE_IDENTITY_CHANNEL_KEY: optional,
  PORTONE_API_SECRET: optional,
  PORTONE_API_BASE_URL: z.string().default('https://api.portone.io'),
  /** PortOne V2 webhook secret (whsec_…): POST /api/payments/webhook verifies signatures with it. */
  PORTONE_WEBHOOK_SECRET: optional,
  /** How long a charge may take before its outcome counts as unknown (the reconcile job then asks the provider). */
  PAYMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  /** The sandbox's slow test card answers after this long (longer than PAYMENT_TIMEOUT_MS, to test timeouts). */
  SANDBOX_SLOW_MS: z.coerce.number().int().min(0).max(600_000).default(15_000),
  /** Latency the sandbox adds to every charge (the billing bench uses 50 ms). */
  SANDBOX_LATENCY_MS: z.coerce.number().int().min(0).max(60_000).default(0),
  /** Butler cancellation refunds (src/domain/payments.ts): everything back until this many hours before the start… */
  PUBLIC_BUTLER_FULL_REFUND_HOURS: z.coerce.number().int().min(0).max(720).default(24),
  /** …then this percent until the start, nothing after. */
  PUBLIC_BUTLER_LATE_REFUND_PERCENT: z.coerce.number().int().min(0).max(100).default(50),
  /** Butler waiting (src/domain/waiting.ts): free minutes at an airport pickup, elsewhere, and the charged step after them. */
  PUBLIC_BUTLER_WAITING_FREE_AIRPORT_MINUTES: z.coerce.number().int().min(0).max(240).default(60),
  PUBLIC_BUTLER_WAITING_FREE_MINUTES: z.coerce.number().int().min(0).max(240).default(15),
  PUBLIC_BUTLER_WAITING_STEP_MINUTES: z.coerce.number().int().min(1).max(120).default(30),
  /**
   * The butler service's legal basis (src/domain/butler-legal.ts, docs/decisions/legal.md §2):
   * `exemptions` (시행령 제18조 cases only, with proof), `partner` (a licensed transport partner
   * carries the trip; the default: it keeps every existing flow and asks customers nothing), `own-car`.
   */
  BUTLER_LEGAL_MODEL: z.enum(['exemptions', 'partner', 'own-car']).default('partner'),
  /** With `partner`: the carrier's name and licence (고급택시 / 플랫폼운송사업 면허번호); required in production. */
  BUTLER_PARTNER_NAME: optional.refine((v) => !v || v.length <= 60, { error: 'BUTLER_PARTNER_NAME must be at most 60 characters.' }),
  BUTLER_PARTNER_LICENCE: optional.refine((v) => !v || v.length <= 60, { error: 'BUTLER_PARTNER_LICENCE must be at most 60 characters.' }),
  /** With `own-car`: won per hour of a driver for the customer's car (8 hours at least, as the fleet's rule; src/domain/butler-own-car.ts). */
  BUTLER_OWN_CAR_HOURLY_RATE: z.coerce.number().int().min(1_000).max(1_000_000).default(DEFAULT_OWN_CAR_HOURLY_RATE),
  /** The least time, in minutes, between two trips of one driver (src/api/dispatch/dispatch.ts). */
  DISPATCH_BUFFER_MINUTES: z.coerce.number().int().min(0).max(240).default(60),
  /** Days a paid first month holds the car for the requested term until staff confirm (src/domain/availability.ts). */
  SUBSCRIPTION_HOLD_DAYS: z.coerce.number().int().min(1).max(60).default(7),
  /** 청약철회: days after the car's handover a subscription may still be withdrawn (src/domain/withdrawal.ts). */
  WITHDRAWAL_DAYS: z.coerce.number().int().min(7).max(90).default(7),
  /**
   * 운전자격 확인 (docs/decisions/legal.md §1): `sandbox` (the stand-in; refused in production) or
   * `http`, a relay to the 도로교통공단 운전자격확인시스템 at LICENCE_API_URL (bearer LICENCE_API_KEY).
   */
  LICENCE_PROVIDER: z.enum(['sandbox', 'http']).default('sandbox'),
  LICENCE_API_URL: optional,
  LICENCE_API_KEY: optional,
  /** Seals licence numbers at rest (AES-256-GCM): 32 bytes as base64 (`openssl rand -base64 32`); required in production. */
  LICENCE_KEY: optional.refine((v) => !v || Buffer.from(v, 'base64').length === 32, { error: 'LICENCE_KEY must be 32 bytes as base64 (openssl rand -base64 32).' }),
  /** A licence held for less than a year: `refuse` it, or rent at the 만 21~25세 rate (`young-rate`). */
  LICENCE_NEW_DRIVER: z.enum(NEW_DRIVER_POLICIES).default('refuse'),
  /** Delivery changes by the customer (address, window, start) close this many days before the start. */
  SUBSCRIPTION_CHANGE_CUTOFF_DAYS: z.coerce.number().int().min(0).max(30).default(2),
  /** 후불 company statements (docs/decisions/business-invoices.md): the day of the month after the billed month they are due on. */
  INVOICE_DUE_DAY: z.coerce.number().int().min(1).max(28).default(25),
  /** 전자세금계산서: `portone` (PortOne B2B, needs the store's B2B contract and PORTONE_API_SECRET) or `sandbox` (the stand-in; never in production). */
  TAX_INVOICE_PROVIDER: z.enum(['sandbox', 'portone']).default('sandbox'),
  /**
   * A company's card payment is documented by the card slip (`card_slip`: 부가가치세법 제33조제2항, no 세금계산서) or by a
   * 전자세금계산서 per payment instead (`tax_invoice`); never both (docs/decisions/business-invoices.md; counsel to confirm).
   */
  CARD_TAX_DOCUMENT: z.enum(CARD_TAX_DOCUMENTS).default('card_slip'),
  /** The supplier's 업태 and 종목 as our tax invoices print them. */
  TAX_INVOICE_BUSINESS_TYPE: z.string().max(100).default('서비스'),
  TAX_INVOICE_BUSINESS_ITEM: z.string().max(100).default('자동차 대여·운전 용역'),
  KAKAO_REST_API_KEY: optional,
  KAKAO_CLIENT_SECRET: optional,
  KAKAO_AUTH_BASE_URL: z.string().default('https://kauth.kakao.com'),
  KAKAO_API_BASE_URL: z.string().default('https://kapi.kakao.com'),
  GOOGLE_CLIENT_ID: optional,
  GOOGLE_CLIENT_SECRET: optional,
  GOOGLE_AUTH_BASE_URL: z.string().default('https://oauth2.googleapis.com'),
  GOOGLE_API_BASE_URL: z.string().default('https://openidconnect.googleapis.com'),
  NAVER_CLIENT_ID: optional,
  NAVER_CLIENT_SECRET: optional,
  NAVER_AUTH_BASE_URL: z.string().default('https://nid.naver.com'),
  NAVER_API_BASE_URL: z.string().default('https://openapi.naver.com'),
  SMTP_URL: optional,
  MAIL_FROM: z.string().default('no-reply@luxe-subscribe.kr'),
  /** Staff who hear of new requests, chat hand-offs and overdue subscriptions (comma-separated emails; unset: the staff accounts). */
  STAFF_NOTIFY_EMAILS: optional,
  /** Staff mobile numbers that get the same by KakaoTalk 알림톡 (comma-separated; optional). */
  STAFF_NOTIFY_PHONES: optional,
  /** SOLAPI (KakaoTalk 알림톡 with SMS fallback): all four turn it on; otherwise the sandbox outbox stands in. */
  SOLAPI_API_KEY: optional,
  SOLAPI_API_SECRET: optional,
  /** The KakaoTalk channel's pfId and the registered sender number (SMS fallback). */
  SOLAPI_PFID: optional,
  SOLAPI_SENDER: optional,
  /** Approved 알림톡 template ids per event, `event=templateId` comma-separated; an event without one goes as SMS/LMS. */
  SOLAPI_TEMPLATES: optional,
  /** The customer centre's number, shown in every message's footer (the site's footer reads it too). */
  PUBLIC_CONTACT_PHONE: z.string().default('02-6952-0808'),
  /** The company's contact details as the footer shows them (src/config/site.ts reads the same): the contract's party. */
  PUBLIC_CONTACT_EMAIL: z.string().default('concierge@luxe-subscribe.kr'),
  PUBLIC_LOUNGE_ADDRESS: z.string().default('서울특별시 강남구 도산대로 442'),
  /** The seller's identity (전자상거래법 제10조·제13조; src/domain/business.ts, docs/decisions/legal.md §3): the footer, contracts and receipts show it; production refuses to start without it. */
  PUBLIC_COMPANY_NAME: optional,
  /** The old name of PUBLIC_COMPANY_NAME (still read when PUBLIC_COMPANY_NAME is unset). */
  COMPANY_NAME: optional,
  PUBLIC_COMPANY_CEO: optional,
  PUBLIC_BUSINESS_NUMBER: optional,
  PUBLIC_MAIL_ORDER_NUMBER: optional,
  PUBLIC_HOSTING_PROVIDER: optional,
  PUBLIC_PRIVACY_OFFICER_NAME: optional,
  PUBLIC_PRIVACY_OFFICER_EMAIL: optional,
  /** 위치정보관리책임자 named in the driver's 위치정보 consent texts (위치정보법; docs/decisions/legal.md §5): unset, the customer centre (PUBLIC_CONTACT_EMAIL). */
  LOCATION_OFFICER_NAME: optional.refine((v) => !v || v.length <= 40, { error: 'LOCATION_OFFICER_NAME must be at most 40 characters (a name, e.g. 홍길동).' }),
  LOCATION_OFFICER_EMAIL: optional.refine((v) => !v || /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v), { error: 'LOCATION_OFFICER_EMAIL must be an email address.' }),
  LLM_BASE_URL: optional,
  LLM_API_KEY: optional,
  LLM_MODEL: z.string().default('gpt-4o-mini'),
  LOG_LEVEL: z.enum(['silent', 'error', 'info']).default('info'),
  /** A Prometheus scraper's bearer token for GET /api/metrics (staff and ADMIN_TOKEN may read it too); at least 24 characters. */
  METRICS_TOKEN: optional.refine((v) => !v || v.length >= 24, { error: 'METRICS_TOKEN must be at least 24 characters.' }),
  /** OpenTelemetry: traces go over OTLP/HTTP to the traces endpoint, or to the base endpoint's /v1/traces; neither: nothing is traced. */
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: optional.refine((v) => !v || /^https?:\/\/\S+$/.test(v), { error: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT must be an http(s) URL.' }),
  OTEL_EXPORTER_OTLP_ENDPOINT: optional.refine((v) => !v || /^https?:\/\/\S+$/.test(v), { error: 'OTEL_EXPORTER_OTLP_ENDPOINT must be an http(s) URL.' }),
  OTEL_SERVICE_NAME: z.string().trim().min(1).default('luxe-subscribe'),
  /** How often each replica runs its due jobs (monthly charges, retries, reconciliation, messages). */
  JOB_INTERVAL_MS: z.coerce.number().int().min(100).max(3_600_000).default(5_000),
  /**
   * The payment and identity sandbox: `off` turns it off; it runs (unset or `on`) while PortOne is not
   * configured, never in production, for this machine's clients and staff only; `shared` also lets
   * other machines use its card and identity pages (a staging demo; src/api/sandbox-mode.ts).
   */
  SANDBOX: z.enum(['on', 'off', 'shared']).optional(),
  /** Test fixtures (/api/admin/test-*: made-up customers and staff, the test clock, billing runs): only when `on`, never in production. */
  TEST_FIXTURES: z.enum(['on', 'off']).default('off'),
  /** How many subscription cars the first start seeds into an empty database (the e2e run seeds more: each order holds a plate). */
  SEED_CARS: z.coerce.number().int().min(1).max(20_000).default(64),
  /** Origins whose pages may call the API (CORS), comma-separated; unset = same-origin only. */
  CORS_ORIGINS: optional,
  TRUST_PROXY: optional,
});

export interface Config {
  env: 'development' | 'production' | 'test';
  port: number;
  /** HOST: the address the server listens on (loopback unless set, every interface in production). */
  host: string;
  dataDir: string;
  distDir: string;
  databaseUrl?: string;
  /** DB_CONNECT_TIMEOUT_MS, DB_STATEMENT_TIMEOUT_MS (src/api/db/client.ts). */
  dbTimeouts: { connectMs: number; statementMs: number };
  siteUrl?: string;
  /** The company as the footer names it (전자상거래법 신원정보): a party of every contract (docs/decisions/contract.md, legal.md §3). */
  company: BusinessInfo;
  /** PUBLISH_COMMAND (src/host/publish/publish-command.ts). */
  publishCommand?: string;
  /** PUBLISH_EDITS=changes: PUBLISH_COMMAND takes an edit's changed files only. */
  publishChanges: boolean;
  jwtSecret: string;
  /** SHA-256 (hex) of ADMIN_TOKEN, the machine token for webhooks and automation; the token itself is not kept. */
  adminTokenHash?: string;
  /** SHA-256 of METRICS_TOKEN (GET /api/metrics for a scraper). */
  metricsTokenHash?: string;
  portone: {
    storeId?: string;
    billingChannelKey?: string;
    identityChannelKey?: string;
    apiSecret?: string;
    apiBaseUrl: string;
    /** True when PortOne is fully configured; sandbox keys are refused then. */
    configured: boolean;
    webhookSecret?: string;
  };
  payments: {
    timeoutMs: number;
    sandboxSlowMs: number;
    sandboxLatencyMs: number;
    butlerRefund: ButlerRefundPolicy;
    /** PUBLIC_BUTLER_WAITING_*: the free waiting and its charged step. */
    butlerWaiting: WaitingPolicy;
  };
  /** Butler dispatch: the gap a driver keeps around each trip. */
  dispatch: { bufferMinutes: number };
  /** BUTLER_LEGAL_MODEL and, with `partner`, the carrier named on bookings (BUTLER_PARTNER_NAME/LICENCE). */
  butlerLegal: { model: ButlerLegalModel; partner: { name: string; licence: string }; ownCarHourlyRate: number };
  /** Subscription holds: how long a paid, unconfirmed request keeps the car. */
  holds: { days: number };
  /** 청약철회: days after the handover. */
  withdrawal: { days: number };
  /** 운전자격 확인: the provider, the key sealing numbers at rest, the rule for new drivers. */
  licence: { provider: 'sandbox' | 'http'; apiUrl?: string; apiKey?: string; key: Buffer; newDriver: NewDriverPolicy };
  /** Company statements and 전자세금계산서: INVOICE_DUE_DAY, TAX_INVOICE_PROVIDER, the supplier's 업태·종목. */
  invoices: { dueDay: number; taxProvider: 'sandbox' | 'portone'; businessType: string; businessItem: string; cardDocument: CardTaxDocument };
  /** Customer delivery changes: the last one this many days before the start. */
  deliveryChange: { cutoffDays: number };
  oauth: Record<
    'kakao' | 'google' | 'naver',
    { clientId?: string; clientSecret?: string; authBaseUrl: string; apiBaseUrl: string }
  >;
  smtpUrl?: string;
  mailFrom: string;
  /** Notifications (src/api/notifications): staff recipients and the KakaoTalk provider. */
  notifications: {
    staffEmails: string[];
    staffPhones: string[];
    contactPhone: string;
    solapi?: { apiKey: string; apiSecret: string; pfId: string; sender: string; templates: Record<string, string> };
  };
  llm: { baseUrl?: string; apiKey?: string; model: string };
  logLevel: 'silent' | 'error' | 'info';
  /** OpenTelemetry traces (observability/tracing-setup.ts): no endpoint, none. */
  tracing: { endpoint?: string; serviceName: string };
  jobIntervalMs: number;
  /** The 위치정보관리책임자 the driver's consent texts name (LOCATION_OFFICER_NAME/EMAIL). */
  locationOfficer: { name: string; email: string };
  /** TEST_FIXTURES=on: the /api/admin/test-* routes exist (the test runner sets it). */
  testFixtures: boolean;
  /** Cars the first start seeds into an empty database. */
  seedCars: number;
  /** TRUST_PROXY: proxies (IPs/CIDR ranges) whose X-Forwarded-For is believed; empty trusts nobody. */
  trustProxy: readonly string[];
  /** Whether the payment and identity sandbox may run: not SANDBOX=off, not production (src/api/sandbox-mode.ts adds: PortOne not configured). */
  sandbox: boolean;
  /** SANDBOX=shared: other machines may use the sandbox's card and identity pages (never its outbox, console or others' receipts). */
  sandboxShared: boolean;
  /** CORS_ORIGINS, parsed (src/api/middleware/api-headers.ts). */
  corsOrigins: string[];
}

/** A comma-separated setting as its trimmed, non-empty items. */
const commaList = (value: string | undefined) => (value ?? '').split(',').map((v) => v.trim()).filter(Boolean);

/** The machine token (ADMIN_TOKEN) is refused at start when shorter than this. */
const ADMIN_TOKEN_MIN_LENGTH = 32;

export const sha256Hex = (value: string) => createHash('sha256').update(value).digest('hex');

/** Parses the environment once; fails loudly with every bad variable named. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const parsed = EnvSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
    throw new Error(`Invalid environment:\n${lines}`);
  }
  const e = parsed.data;
  let trustProxy: string[];
  try {
    trustProxy = parseTrustProxy(e.TRUST_PROXY);
  } catch (err) {
    throw new Error(`Invalid environment:\n  ${(err as Error).message}`, { cause: err });
  }
  const portoneConfigured = Boolean(e.PUBLIC_PORTONE_STORE_ID && e.PORTONE_API_SECRET);
  if (e.NODE_ENV === 'production' && !portoneConfigured) {
    throw new Error('NODE_ENV=production needs PUBLIC_PORTONE_STORE_ID and PORTONE_API_SECRET: the payment sandbox is refused in production.');
  }
  if (e.ADMIN_TOKEN && e.ADMIN_TOKEN.length < ADMIN_TOKEN_MIN_LENGTH) {
    throw new Error(`ADMIN_TOKEN must be at least ${ADMIN_TOKEN_MIN_LENGTH} characters (e.g. \`openssl rand -base64 32\`); a short token can be guessed.`);
  }
  if (e.NODE_ENV === 'production' && (e.SANDBOX === 'on' || e.SANDBOX === 'shared')) {
    throw new Error(`SANDBOX=${e.SANDBOX} is refused with NODE_ENV=production: the sandbox lets anyone who knows a name, phone and birth date take over that account.`);
  }
  if (e.NODE_ENV === 'production' && e.TEST_FIXTURES === 'on') {
    throw new Error('TEST_FIXTURES=on is refused with NODE_ENV=production: the fixtures mint customers, points and staff.');
  }
  if (e.NODE_ENV === 'production' && e.BUTLER_LEGAL_MODEL === 'partner' && !(e.BUTLER_PARTNER_NAME && e.BUTLER_PARTNER_LICENCE)) {
    throw new Error('BUTLER_LEGAL_MODEL=partner needs BUTLER_PARTNER_NAME and BUTLER_PARTNER_LICENCE in production: every butler booking names the licensed carrier (docs/decisions/legal.md §2).');
  }
  if (e.NODE_ENV === 'production' && !e.JWT_SECRET) {
    throw new Error('NODE_ENV=production needs JWT_SECRET.');
  }
  // The seller's identity (전자상거래법 제10조·제13조): malformed values are refused always; production
  // also refuses to start without each (a development start shows the samples: src/domain/business.ts).
  const businessEnv = {
    PUBLIC_COMPANY_NAME: e.PUBLIC_COMPANY_NAME ?? e.COMPANY_NAME,
    PUBLIC_COMPANY_CEO: e.PUBLIC_COMPANY_CEO,
    PUBLIC_BUSINESS_NUMBER: e.PUBLIC_BUSINESS_NUMBER,
    PUBLIC_MAIL_ORDER_NUMBER: e.PUBLIC_MAIL_ORDER_NUMBER,
    PUBLIC_HOSTING_PROVIDER: e.PUBLIC_HOSTING_PROVIDER,
    PUBLIC_PRIVACY_OFFICER_NAME: e.PUBLIC_PRIVACY_OFFICER_NAME,
    PUBLIC_PRIVACY_OFFICER_EMAIL: e.PUBLIC_PRIVACY_OFFICER_EMAIL,
    PUBLIC_LOUNGE_ADDRESS: e.PUBLIC_LOUNGE_ADDRESS,
    PUBLIC_CONTACT_PHONE: e.PUBLIC_CONTACT_PHONE,
    PUBLIC_CONTACT_EMAIL: e.PUBLIC_CONTACT_EMAIL,
  };
  const business = businessInfoProblems(businessEnv);
  if (business.invalid.length) throw new Error(`Invalid environment:\n${business.invalid.map((l) => `  ${l}`).join('\n')}`);
  if (e.NODE_ENV === 'production' && business.missing.length) {
    throw new Error(`NODE_ENV=production needs the seller's identity the footer, contracts and receipts show (전자상거래법 제10조·제13조): set ${business.missing.join(', ')}.`);
  }
  if (e.TAX_INVOICE_PROVIDER === 'portone' && !e.PORTONE_API_SECRET) {
    throw new Error("TAX_INVOICE_PROVIDER=portone needs PORTONE_API_SECRET (and the store's PortOne B2B contract).");
  }
  if (e.LICENCE_PROVIDER === 'http' && !(e.LICENCE_API_URL && e.LICENCE_API_KEY)) {
    throw new Error('LICENCE_PROVIDER=http needs LICENCE_API_URL and LICENCE_API_KEY (docs/decisions/legal.md §1).');
  }
  if (e.NODE_ENV === 'production' && (e.LICENCE_PROVIDER === 'sandbox' || !e.LICENCE_KEY)) {
    throw new Error("NODE_ENV=production needs LICENCE_PROVIDER=http and LICENCE_KEY: every driver's licence is checked with the 운전자격확인시스템 (여객자동차 운수사업법 제34조의2) and its number sealed at rest.");
  }
  const config: Config = {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST ?? (e.NODE_ENV === 'production' ? '0.0.0.0' : '127.0.0.1'),
    dataDir: e.DATA_DIR,
    distDir: e.DIST_DIR,
    databaseUrl: e.DATABASE_URL,
    dbTimeouts: { connectMs: e.DB_CONNECT_TIMEOUT_MS, statementMs: e.DB_STATEMENT_TIMEOUT_MS },
    siteUrl: e.SITE_URL ?? e.PUBLIC_SITE_URL,
    company: businessInfoFrom(businessEnv),
    publishCommand: e.PUBLISH_COMMAND,
    publishChanges: e.PUBLISH_EDITS === 'changes',
    jwtSecret: e.JWT_SECRET ?? '',
    adminTokenHash: e.ADMIN_TOKEN ? sha256Hex(e.ADMIN_TOKEN) : undefined,
    metricsTokenHash: e.METRICS_TOKEN ? sha256Hex(e.METRICS_TOKEN) : undefined,
    portone: {
      storeId: e.PUBLIC_PORTONE_STORE_ID,
      billingChannelKey: e.PUBLIC_PORTONE_BILLING_CHANNEL_KEY,
      identityChannelKey: e.PUBLIC_PORTONE_IDENTITY_CHANNEL_KEY,
      apiSecret: e.PORTONE_API_SECRET,
      apiBaseUrl: e.PORTONE_API_BASE_URL,
      configured: portoneConfigured,
      webhookSecret: e.PORTONE_WEBHOOK_SECRET,
    },
    payments: {
      timeoutMs: e.PAYMENT_TIMEOUT_MS,
      sandboxSlowMs: e.SANDBOX_SLOW_MS,
      sandboxLatencyMs: e.SANDBOX_LATENCY_MS,
      butlerRefund: { fullRefundHours: e.PUBLIC_BUTLER_FULL_REFUND_HOURS, latePercent: e.PUBLIC_BUTLER_LATE_REFUND_PERCENT },
      butlerWaiting: { airportFreeMinutes: e.PUBLIC_BUTLER_WAITING_FREE_AIRPORT_MINUTES, freeMinutes: e.PUBLIC_BUTLER_WAITING_FREE_MINUTES, stepMinutes: e.PUBLIC_BUTLER_WAITING_STEP_MINUTES },
    },
    dispatch: { bufferMinutes: e.DISPATCH_BUFFER_MINUTES },
    butlerLegal: { model: e.BUTLER_LEGAL_MODEL, partner: { name: e.BUTLER_PARTNER_NAME ?? DEV_PARTNER.name, licence: e.BUTLER_PARTNER_LICENCE ?? DEV_PARTNER.licence }, ownCarHourlyRate: e.BUTLER_OWN_CAR_HOURLY_RATE },
    holds: { days: e.SUBSCRIPTION_HOLD_DAYS },
    withdrawal: { days: e.WITHDRAWAL_DAYS },
    deliveryChange: { cutoffDays: e.SUBSCRIPTION_CHANGE_CUTOFF_DAYS },
    invoices: { dueDay: e.INVOICE_DUE_DAY, taxProvider: e.TAX_INVOICE_PROVIDER, businessType: e.TAX_INVOICE_BUSINESS_TYPE, businessItem: e.TAX_INVOICE_BUSINESS_ITEM, cardDocument: e.CARD_TAX_DOCUMENT },
    licence: { provider: e.LICENCE_PROVIDER, apiUrl: e.LICENCE_API_URL, apiKey: e.LICENCE_API_KEY, key: e.LICENCE_KEY ? Buffer.from(e.LICENCE_KEY, 'base64') : DEV_LICENCE_KEY, newDriver: e.LICENCE_NEW_DRIVER },
    oauth: {
      kakao: { clientId: e.KAKAO_REST_API_KEY, clientSecret: e.KAKAO_CLIENT_SECRET, authBaseUrl: e.KAKAO_AUTH_BASE_URL, apiBaseUrl: e.KAKAO_API_BASE_URL },
      google: { clientId: e.GOOGLE_CLIENT_ID, clientSecret: e.GOOGLE_CLIENT_SECRET, authBaseUrl: e.GOOGLE_AUTH_BASE_URL, apiBaseUrl: e.GOOGLE_API_BASE_URL },
      naver: { clientId: e.NAVER_CLIENT_ID, clientSecret: e.NAVER_CLIENT_SECRET, authBaseUrl: e.NAVER_AUTH_BASE_URL, apiBaseUrl: e.NAVER_API_BASE_URL },
    },
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    notifications: {
      staffEmails: commaList(e.STAFF_NOTIFY_EMAILS),
      staffPhones: commaList(e.STAFF_NOTIFY_PHONES).map((p) => p.replace(/\D/g, '')).filter(Boolean),
      contactPhone: e.PUBLIC_CONTACT_PHONE.trim() || '02-6952-0808',
      solapi:
        e.SOLAPI_API_KEY && e.SOLAPI_API_SECRET && e.SOLAPI_PFID && e.SOLAPI_SENDER
          ? { apiKey: e.SOLAPI_API_KEY, apiSecret: e.SOLAPI_API_SECRET, pfId: e.SOLAPI_PFID, sender: e.SOLAPI_SENDER.replace(/\D/g, ''), templates: Object.fromEntries(commaList(e.SOLAPI_TEMPLATES).map((pair) => pair.split('=').map((v) => v.trim())).filter((kv): kv is [string, string] => kv.length === 2 && Boolean(kv[0] && kv[1]))) }
          : undefined,
    },
    llm: { baseUrl: e.LLM_BASE_URL, apiKey: e.LLM_API_KEY, model: e.LLM_MODEL },
    logLevel: e.LOG_LEVEL,
    tracing: { endpoint: e.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || (e.OTEL_EXPORTER_OTLP_ENDPOINT ? `${e.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, '')}/v1/traces` : undefined), serviceName: e.OTEL_SERVICE_NAME },
    jobIntervalMs: e.JOB_INTERVAL_MS,
    locationOfficer: { name: e.LOCATION_OFFICER_NAME || '고객센터', email: e.LOCATION_OFFICER_EMAIL ?? (e.PUBLIC_CONTACT_EMAIL.trim() || 'concierge@luxe-subscribe.kr') },
    testFixtures: e.TEST_FIXTURES === 'on',
    seedCars: e.SEED_CARS,
    trustProxy,
    sandbox: e.NODE_ENV !== 'production' && e.SANDBOX !== 'off',
    sandboxShared: e.NODE_ENV !== 'production' && e.SANDBOX === 'shared',
    corsOrigins: parseCorsOrigins(e.CORS_ORIGINS),
    ...overrides,
  };
  if (!config.jwtSecret) config.jwtSecret = persistentSecret(config.dataDir);
  return config;
}

/** A development signing secret kept under the data dir, so logins survive restarts. */
function persistentSecret(dataDir: string): string {
  const file = path.join(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(32).toString('base64url');
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

/** The machine token of testConfig (at least ADMIN_TOKEN_MIN_LENGTH characters). */
export const TEST_ADMIN_TOKEN = 'test-admin-token-test-admin-token-0123';

/** A config for tests: in-memory everything, a fixed secret, quiet logs, the sandbox on. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return loadConfig({ NODE_ENV: 'test', JWT_SECRET: 'test-secret-test-secret-test-secret', LOG_LEVEL: 'silent', SANDBOX: 'on', ADMIN_TOKEN: TEST_ADMIN_TOKEN, TEST_FIXTURES: 'on' }, overrides);
}
