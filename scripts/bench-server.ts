import { serve } from '@hono/node-server';
import { parseArgs } from 'node:util';
import { createApp } from '../src/server/app';
import { openCatalogueCache } from '../src/server/cache/catalogue-changes';
import { fastServe } from '../src/server/cache/fast-path';
import { compressJsonAnswers } from '../src/server/compression';
import { composeSite } from '../src/server/site-app';
import { openDatabase } from '../src/server/db/client';
import { loadConfig } from '../src/server/env';

/**
 * The API half of `npm start` (src/server/main.ts: the same app, catalogue cache and its fast
 * path, and compressJsonAnswers() on /api/*) on an already seeded database, without the static site build, in its
 * own process so the load generator (scripts/bench.ts) does not share its event loop.
 * Prints one JSON line `{ "url": ... }` when listening. `--no-cache` serves without the
 * catalogue cache, for the before/after comparison.
 */
const { values } = parseArgs({ options: { data: { type: 'string' }, url: { type: 'string' }, 'no-cache': { type: 'boolean', default: false } } });
const config = loadConfig({ ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'error', JWT_SECRET: 'bench-secret-bench-secret-bench', PORT: '0' });
const database = await openDatabase({ url: values.url, dataDir: values.data });
const catalogueCache = values['no-cache'] ? undefined : await openCatalogueCache(database, { url: values.url });
const api = createApp({ db: database.db, config, catalogueCache });
const site = composeSite({ api, site: (c) => c.notFound(), apiMiddleware: [compressJsonAnswers()] });
const server = serve({ ...(catalogueCache ? fastServe(catalogueCache, site.fetch) : { fetch: site.fetch }), port: 0, hostname: '127.0.0.1' }, (info) => {
  console.log(JSON.stringify({ url: `http://127.0.0.1:${info.port}` }));
});
const stop = async () => {
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    if ('closeAllConnections' in server) server.closeAllConnections();
  });
  await catalogueCache?.close();
  await database.close();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
