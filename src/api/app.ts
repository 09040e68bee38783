import { Hono } from 'hono';
import { withAnswerBudget } from './db/answer-budget';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import { ErrorCode } from '../domain/error-codes';
import type { Db } from './db/client';
import type { Config } from './env';
import { unmatchedApiRequest } from './api-fallback';
import { ApiError, bodyTooLarge, serviceUnavailable } from './errors';
import { isDatabaseUnavailable } from './db/errors';
import { healthRoutes } from './health';
import type { AppEnv, Deps } from './http';
import { createClock, type SettableClock } from './jobs/clock';
import { createJobRunner } from './job-handlers';
import { chargeOutcomesFor, refundFollowUp } from './charge-outcomes';
import type { NotificationChannels } from './notifications/channels';
import { createPaymentProvider } from './billing/providers';
import type { PaymentProvider } from './payment-provider';
import type { LicenceProvider } from './licence-provider';
import { createLicenceProvider } from './licences/providers';
import type { TaxInvoiceProvider } from './tax-invoice-provider';
import { createTaxInvoiceProvider } from './invoices/providers';
import type { BusinessStatusProvider } from './business-status-provider';
import { createBusinessStatusProvider } from './companies/status-providers';
import { safeError } from './log-safe';
import { siteSecurityHeaders } from './security-headers';
import { apiHeaders } from './middleware/api-headers';
import type { CatalogueCache } from './catalogue/cache/catalogue-cache';
import { catalogueCacheMiddleware } from './catalogue/cache/catalogue-middleware';
import { noteBookingChange } from './catalogue/inventory';
import { noteCatalogueChange } from './catalogue/catalogue';
import { isUploadRequest, uploadBodyLimit } from './desk/uploads-routes';
import { isDocumentUploadRequest } from './upload-body';
import { apiRoutes } from './routes';
import { createLogger, type LogSink, type Logger } from './observability/logger';
import { metricsRoutes } from './observability/metrics-routes';
import { requestLog } from './observability/request-log';

export interface AppOptions {
  db: Db;
  config: Config;
  onCatalogueChange?: () => void;
  /** Console 발행 and the publish webhook: build the storefront now (`npm start` wires it; default no-op). */
  onPublishRequest?: (trigger: 'publish' | 'webhook') => void;
  /** Catalogue read cache (`npm start` passes one, see cache/catalogue-changes.ts); without it every read queries the database. */
  catalogueCache?: CatalogueCache;
  /** The payment provider, clock and job runner (`npm start` shares them with its job loop); made here when absent. */
  payments?: PaymentProvider;
  clock?: SettableClock;
  /** The 운전자격 확인 adapter; made from the configuration when absent. */
  licences?: LicenceProvider;
  /** The 전자세금계산서 provider; made from the configuration when absent. */
  taxInvoices?: TaxInvoiceProvider;
  /** The 사업자 상태 check; made from the configuration when absent. */
  businessStatus?: BusinessStatusProvider;
  runJobs?: Deps['runJobs'];
  /** Notification channels of the job runner made here (tests pass fakes); default from the configuration. */
  notificationChannels?: NotificationChannels;
  /** Where log lines go (default stdout; tests read them). */
  logSink?: LogSink;
}

/** Builds the API (mounted by the caller, e.g. under /api); tests call `app.request()` on it. */
export function createApp({ db, config, onCatalogueChange = () => {}, onPublishRequest = () => {}, catalogueCache, ...opts }: AppOptions) {
  const logger = productLogger(config, opts.logSink);
  const log = logFunction(logger);
  const clock = opts.clock ?? createClock();
  const payments = opts.payments ?? createPaymentProvider(db, config, clock);
  const taxInvoices = opts.taxInvoices ?? createTaxInvoiceProvider(db, config, clock);
  const deps: Deps = {
    db, config, log, payments, clock, outcomes: chargeOutcomesFor(config), refunded: refundFollowUp, licences: opts.licences ?? createLicenceProvider(config), taxInvoices,
    businessStatus: opts.businessStatus ?? createBusinessStatusProvider(config),
    runJobs: opts.runJobs ?? createJobRunner({ db, payments, clock, log, logger, config, channels: opts.notificationChannels, taxInvoices }, `api-${process.pid}`),
    onCatalogueChange: () => {
      // After the write committed: the garage index's next version read sees it (with or without the cache).
      noteCatalogueChange();
      catalogueCache?.changed('catalogue');
      onCatalogueChange();
    },
    onReservationChange: () => {
      noteBookingChange();
      catalogueCache?.changed('reservations');
    },
    requestPublish: onPublishRequest,
  };
  const app = new Hono<AppEnv>();

  // First: the request's id, its log line and metrics (src/api/observability).
  app.use(requestLog(logger));
  // Then: nosniff on every answer, CORS for CORS_ORIGINS only (preflights answered here).
  app.use(apiHeaders(config.corsOrigins));
  app.use(async (c, next) => {
    c.set('deps', deps);
    // One statement timeout per request at most, however many statements it has left (answer-budget.ts).
    await withAnswerBudget(next);
  });
  const apiBodyLimit = bodyLimit({
    maxSize: 1024 * 1024,
    onError: () => {
      throw bodyTooLarge('요청 본문이 너무 큽니다. (최대 1MB)', { _: ['요청 본문은 1MB 이하여야 합니다.'] });
    },
  });
  // GET and HEAD carry no body (the adapter drops one): asking for it would build the whole fetch Request for nothing.
  const uploadLimit = uploadBodyLimit(apiBodyLimit);
  // A company's proof document (up to 10 MB, a PDF too) is counted by its route after the admin check.
  app.use((c, next) =>
    c.req.method === 'GET' || c.req.method === 'HEAD' || (c.req.method === 'POST' && isDocumentUploadRequest(c.req.path)) ? next() : isUploadRequest(c.req.path) ? uploadLimit(c, next) : apiBodyLimit(c, next),
  );

  app.use(catalogueCacheMiddleware(catalogueCache));
  // The sandbox's pages are pages of the site: the same CSP and frame protection (src/api/security-headers.ts).
  app.use('/sandbox/*', async (c, next) => {
    await next();
    if (c.res.headers.get('content-type')?.startsWith('text/html')) {
      for (const [name, value] of Object.entries(siteSecurityHeaders({ apiBaseUrl: process.env.PUBLIC_API_BASE_URL }))) c.res.headers.set(name, value);
    }
  });
  app.route('/health', healthRoutes(db));
  app.route('/metrics', metricsRoutes());
  // Every router, in the order they are matched (src/api/routes.ts; the islands' typed client is made from its type).
  app.route('/', apiRoutes);

  app.notFound((c) => unmatchedApiRequest(app, c.req.path, c));
  app.onError((err, c) => {
    if (err instanceof ApiError) {
      return c.json({ code: err.code, message: err.message, errors: err.fields ?? {}, ...(err.data === undefined ? {} : { data: err.data }) }, err.status, err.headers);
    }
    // Backstop: a NUL byte (22021) or an untranslatable character (22P05) is bad input that slipped past validation.
    if (['22021', '22P05'].includes(pgErrorCode(err) ?? '')) {
      log('error', `${c.req.method} ${c.req.path} reached the database with a character PostgreSQL refuses`);
      return c.json({ code: ErrorCode.VALIDATION, message: '입력값에 사용할 수 없는 문자가 포함되어 있습니다.', errors: {} }, 400);
    }
    // A database that is down, restarting or frozen: 503 with Retry-After, not 500 (the request was fine; the pool heals by itself).
    if (isDatabaseUnavailable(err)) {
      log('error', `${c.req.method} ${c.req.path}: the database is unavailable`, safeError(err));
      const unavailable = serviceUnavailable();
      return c.json({ code: unavailable.code, message: unavailable.message, errors: {} }, unavailable.status, unavailable.headers);
    }
    if (err instanceof HTTPException && err.status < 500) {
      return c.json({ code: ErrorCode.VALIDATION, message: '요청을 처리할 수 없습니다.', errors: {} }, err.status);
    }
    // Method and path only (no query, body, headers or tokens); the error without query parameters (log-safe.ts).
    log('error', `${c.req.method} ${c.req.path} failed`, safeError(err));
    return c.json({ code: ErrorCode.INTERNAL, message: '일시적인 오류가 발생했습니다. 잠시 후 다시 시도해주세요.', errors: {} }, 500);
  });
  return app;
}

/** The product's logger at LOG_LEVEL: JSON lines, readable ones in development (observability/logger.ts). */
export function productLogger(config: Config, sink?: LogSink): Logger {
  return createLogger({ level: config.logLevel, pretty: config.env === 'development', sink });
}

/** The API's log calls (a message and what goes with it) on that logger. */
export function logFunction(logger: Logger): Deps['log'] {
  return (level, message, extra) => logger[level](extra === undefined ? {} : { detail: extra }, message);
}

/** The API's log, at the configured level. */
export function apiLogger(config: Config, sink?: LogSink): Deps['log'] {
  return logFunction(productLogger(config, sink));
}

/** The PostgreSQL SQLSTATE of an error or of its causes (drizzle wraps the driver's error). */
function pgErrorCode(err: unknown): string | undefined {
  for (let e = err, i = 0; e && typeof e === 'object' && i < 5; e = (e as { cause?: unknown }).cause, i++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}
