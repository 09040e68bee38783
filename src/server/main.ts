import path from 'node:path';
import { serve, type ServerType } from '@hono/node-server';
import { createApp } from './app';
import { openCatalogueCache } from './cache/catalogue-changes';
import { fastServe } from './cache/fast-path';
import { compressJsonAnswers } from './compression';
import { openDatabase } from './db/client';
import { isEmpty, seedDatabase } from './db/seed';
import { loadConfig, type Config } from './env';
import { catalogueVersion } from './services/catalogue';
import { buildSite, needsBuild, sourceTime } from './services/rebuild';
import { serveSite } from './static';
import { composeSite } from './site-app';

export interface RunningProduct {
  url: string;
  config: Config;
  server: ServerType;
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
  const database = await openDatabase({ url: config.databaseUrl, dataDir: path.join(dataDir, 'pglite') });
  const { db } = database;
  if (await isEmpty(db)) {
    const seeded = await seedDatabase(db);
    console.log(`Seeded the catalogue: ${seeded.cars} cars, ${seeded.butlerCars} butler cars.`);
  }

  let siteReady = false;
  let building: Promise<void> | null = null;
  let again = false;
  const rebuild = async (): Promise<void> => {
    if (building) {
      again = true;
      return building;
    }
    building = (async () => {
      do {
        again = false;
        const version = await catalogueVersion(db);
        if (!needsBuild(distDir, version, sourceTime(root))) break;
        const started = Date.now();
        console.log('Building the storefront from the catalogue…');
        await buildSite({ projectRoot: root, distDir, apiBaseUrl: `http://127.0.0.1:${port}/api`, catalogueVersion: version, quiet: config.logLevel !== 'info' });
        console.log(`Storefront built in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
      } while (again);
    })().finally(() => {
      building = null;
    });
    return building;
  };
  let timer: NodeJS.Timeout | undefined;
  const onCatalogueChange = () => {
    clearTimeout(timer);
    timer = setTimeout(() => rebuild().catch((err) => console.error('[rebuild]', err)), 1500);
  };

  const catalogueCache = await openCatalogueCache(database, { url: config.databaseUrl, log: (_, message, extra) => console.error(`[catalogue-cache] ${message}`, extra ?? '') });
  const api = createApp({ db, config, onCatalogueChange, catalogueCache });
  const site = composeSite({ api, site: serveSite(() => (siteReady ? distDir : null)), apiMiddleware: [compressJsonAnswers()] });

  let port = config.port;
  const server = await new Promise<ServerType>((resolve) => {
    const s = serve({ ...fastServe(catalogueCache, site.fetch), port: config.port, hostname: config.host }, (info) => {
      port = info.port;
      resolve(s);
    });
  });
  const version = await catalogueVersion(db);
  if (needsBuild(distDir, version, sourceTime(root))) await rebuild();
  else console.log('The storefront build is up to date; reusing it.');
  siteReady = true;
  const url = `http://localhost:${port}`;
  return {
    url,
    config,
    server,
    stop: async () => {
      clearTimeout(timer);
      await building?.catch(() => {});
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await catalogueCache.close();
      await database.close();
    },
  };
}
