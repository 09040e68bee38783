import path from 'node:path';
import { createAdaptorServer, type ServerType } from '@hono/node-server';
import type { Server } from 'node:http';
import { createApp, logFunction, productLogger } from '../api/app';
import { createClock } from '../api/jobs/clock';
import { createJobRunner } from '../api/job-handlers';
import { scheduleStatements } from '../api/invoices/statements';
import { startJobLoop } from './job-loop';
import { createPaymentProvider } from '../api/billing/providers';
import { openCatalogueCache } from './catalogue-changes';
import { fastServe } from './fast-path';
import { compressJsonAnswers } from './compression';
import { openDatabase, type Db } from '../api/db/client';
import { startTracing } from '../api/observability/tracing-setup';
import { isDatabaseUnavailable } from '../api/db/errors';
import { isEmpty, seedDatabase } from '../api/seed/seed';
import { listenWide } from './listen';
import { loadConfig, type Config } from '../api/env';
import { catalogueVersion, databaseIdentity } from '../api/catalogue/catalogue';
import { alertPublishLag } from '../api/catalogue/publish-lag-alert';
import { createPublisher, failAbandonedBuilds, replicaName, type BuildTrigger } from './publish/publisher';
import { buildSite } from './publish/build-site';
import type { BuildMode } from './publish/build-inputs';
import { cleanStaleBuilds } from './publish/dist-folders';
import { warmBuilder } from './publish/edit-build';
import { buildSettings, needsBuild, readStamp, sourceTime } from './publish/stamp';
import { SiteBuilder } from './publish/site-builder';
import { sandboxAllowed } from '../api/sandbox-mode';
import { serveSite } from './static';
import { composeSite } from './site-app';

/** How often each replica checks whether the pages lag the catalogue (the alert's limit is a minute). */
const LAG_CHECK_MS = 15_000;

export interface RunningProduct {
  url: string;
  config: Config;
  server: ServerType;
  /** The product's database (tests and the bench read publish_builds or edit the catalogue through it). */
  db: Db;
  /** Builds and publishes now, even when the catalogue version is unchanged; resolves when that build ends. */
  publish: (trigger?: BuildTrigger) => Promise<void>;
  /** What the last build did (tests count an edit's pages and derived paths). */
  lastBuild: () => BuildMode | null;
  stop: () => Promise<void>;
}

/**
 * The whole product in one process: open (migrate, seed when empty) the database, serve the
 * API under /api and the static site on one port, and (re)build the site whenever it is
 * missing or older than the catalogue or the sources.
 */
export async function startProduct(opts: { projectRoot: string; config?: Config }): Promise<RunningProduct> {
  const config = opts.config ?? loadConfig();
  const root = path.resolve(opts.projectRoot);
  const dataDir = path.resolve(root, config.dataDir);
  const distDir = path.resolve(root, config.distDir);
  // Before the database opens, so its connections are traced too (nothing when no OTLP endpoint is set).
  const tracing = startTracing({ ...config.tracing, instance: replicaName() });
  const database = await openDatabase({ url: config.databaseUrl, dataDir: path.join(dataDir, 'pglite'), timeouts: config.dbTimeouts });
  const { db } = database;
  if (await isEmpty(db)) {
    const seeded = await seedDatabase(db, { cars: config.seedCars, locationOfficer: config.locationOfficer });
    console.log(`Seeded the catalogue: ${seeded.cars} cars, ${seeded.butlerCars} butler cars.`);
  }

  let siteReady = false;
  let lastBuild: BuildMode | null = null;
  // Builds that a kill -9 interrupted: their folders, and their rows in publish_builds.
  for (const folder of cleanStaleBuilds(root, distDir)) console.log(`Removed the unfinished build ${folder}.`);
  await failAbandonedBuilds(db).catch((err) => console.error('[publish]', err));
  // What the pages are built from besides the catalogue: this database, and the settings they bake in.
  const databaseId = await databaseIdentity(db);
  const settings = buildSettings(process.env, { SITE_URL: config.siteUrl, PUBLIC_SANDBOX: sandboxAllowed(config) ? 'on' : 'off', PUBLIC_COMPANY_NAME: config.company.name,
    PUBLIC_BUTLER_LEGAL_MODEL: config.butlerLegal.model, PUBLIC_BUTLER_PARTNER_NAME: config.butlerLegal.partner.name, PUBLIC_BUTLER_PARTNER_LICENCE: config.butlerLegal.partner.licence, PUBLIC_BUTLER_OWN_CAR_HOURLY_RATE: String(config.butlerLegal.ownCarHourlyRate), PUBLIC_LICENCE_NEW_DRIVER: config.licence.newDriver });
  const inputs = (catalogueVersion: number) => ({ catalogueVersion, sources: sourceTime(root), database: databaseId, settings: settings.digest });
  // This replica's build child, kept warm between builds: an edit renders only the pages it changed.
  const builder = new SiteBuilder({ projectRoot: root, quiet: config.logLevel !== 'info' });
  const publisher = createPublisher({
    db,
    databaseUrl: config.databaseUrl,
    isFresh: (version) => !needsBuild(distDir, inputs(version)),
    hasSite: () => readStamp(distDir) !== null,
    log: (level, message) => (level === 'error' ? console.error(`[publish] ${message}`) : config.logLevel === 'info' && console.log(message)),
    build: async (version, onProgress, signal, trigger) => {
      const started = Date.now();
      if (config.logLevel === 'info') console.log('Building the storefront from the catalogue…');
      await buildSite({ projectRoot: root, distDir, db, dataDir, catalogueVersion: version, publishCommand: config.publishCommand, publishChanges: config.publishChanges, quiet: config.logLevel !== 'info', onProgress, signal, builder,
        // 발행 and the webhook render every page; an edit only the pages that read what it changed (when the sources did not).
        full: trigger === 'publish' || trigger === 'webhook',
        onEditFailed: (err, next) => console.error(`[publish] edit build failed (${next === 'retry' ? 'trying again' : 'building the whole site'}): ${err instanceof Error ? err.message : String(err)}`),
        onMode: (mode) => {
          lastBuild = mode;
          if (config.logLevel === 'info' && mode.incremental) console.log(`Rendered the ${mode.pages} page(s) this edit changed into the served build.`);
        },
        settings, database: databaseId });
      if (config.logLevel === 'info') console.log(`Storefront built in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
    },
  });
  const onCatalogueChange = () => void publisher.request('edit').catch(() => {});
  const onPublishRequest = (trigger: 'publish' | 'webhook') => void publisher.request(trigger, { force: true }).catch(() => {});

  const catalogueCache = await openCatalogueCache(database, {
    url: config.databaseUrl,
    log: (_, message, extra) => console.error(`[catalogue-cache] ${message}`, extra ?? ''),
    // Another replica's catalogue write rebuilds here too (under the build lock: once per version).
    onRemoteChange: (kind) => kind === 'catalogue' && onCatalogueChange(),
  });
  // One provider, clock and job runner for the API and this replica's job loop.
  const clock = createClock();
  const payments = createPaymentProvider(db, config, clock);
  const logger = productLogger(config);
  const runJobs = createJobRunner({ db, payments, clock, log: logFunction(logger), logger, config }, replicaName());
  // The monthly statements' chain (one job per month: every replica may queue it, one runs it).
  await scheduleStatements(db, clock.now());
  const api = createApp({ db, config, onCatalogueChange, onPublishRequest, catalogueCache, payments, clock, runJobs });
  const site = composeSite({ api, site: serveSite(() => (siteReady ? distDir : null), { trustProxy: config.trustProxy }), apiMiddleware: [compressJsonAnswers()] });

  const server = createAdaptorServer(fastServe(catalogueCache, site.fetch)) as Server;
  // Idle keep-alive sockets outlive the proxy's (nginx and load balancers keep 60 s): with Node's
  // 5 s, a client reusing a socket just as the server closes it gets ECONNRESET.
  Object.assign(server, { keepAliveTimeout: 65_000, headersTimeout: 66_000 });
  const listening = await listenWide(server, { port: config.port, host: config.host }).catch(async (err) => {
    await catalogueCache.close();
    await database.close();
    throw err;
  });
  const { port } = listening;
  // Due charges, retries and reconciliation, every few seconds (SKIP LOCKED claims: replicas never run one job twice).
  const jobLoop = startJobLoop({ run: () => runJobs(), intervalMs: config.jobIntervalMs, onError: (err) => console.error('[jobs]', isDatabaseUnavailable(err) ? `the database is unavailable (${(err as Error).message.split('\n')[0]}); claimed jobs are settled on the next run` : err) });
  // Staff hear when the pages lag the catalogue by more than a minute (one message per stale spell, whichever replica sees it).
  const lagCheck = startJobLoop({ run: () => alertPublishLag(db, new Date(), clock.now()), intervalMs: LAG_CHECK_MS, onError: (err) => console.error('[publish] lag check:', err instanceof Error ? err.message : err) });
  const version = await catalogueVersion(db);
  if (needsBuild(distDir, inputs(version))) {
    try {
      await publisher.request('start');
    } catch (err) {
      // A failed build (or PUBLISH_COMMAND) at start: the previous build keeps serving, if any.
      if (!readStamp(distDir)) {
        await lagCheck.stop();
        await publisher.stop();
        builder.stop();
        await listening.close();
        await catalogueCache.close();
        await database.close();
        throw err;
      }
    }
  } else {
    if (config.logLevel === 'info') console.log('The storefront build is up to date; reusing it.');
    // The build child, warmed now in the background, renders the first edit at once.
    void warmBuilder({ projectRoot: root, distDir, db, dataDir, quiet: config.logLevel !== 'info', settings, database: databaseId, builder });
  }
  siteReady = true;
  const url = `http://localhost:${port}`;
  return {
    url,
    config,
    server,
    db,
    publish: (trigger = 'publish') => publisher.request(trigger, { force: true }),
    lastBuild: () => lastBuild,
    stop: async () => {
      // Ends a running build child at once (its row is marked failed); a later start builds again.
      await jobLoop.stop();
      await lagCheck.stop();
      await publisher.stop();
      builder.stop();
      await listening.close();
      await catalogueCache.close();
      await database.close();
      await tracing.shutdown();
    },
  };
}
