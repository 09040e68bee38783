import { createAdaptorServer } from '@hono/node-server';
import { createServer, type Server } from 'node:http';
import { parseArgs } from 'node:util';
import { brotliCompressSync } from 'node:zlib';
import { createApp } from '../src/api/app';
import { openCatalogueCache } from '../src/host/catalogue-changes';
import { fastServe } from '../src/host/fast-path';
import { compressJsonAnswers } from '../src/host/compression';
import { composeSite } from '../src/host/site-app';
import { openDatabase } from '../src/api/db/client';
import { loadConfig } from '../src/api/env';
import { listenWide } from '../src/host/listen';

/**
 * The API half of `npm start` (src/host/main.ts: the same app, catalogue cache and its fast
 * path, compressJsonAnswers() on /api/*, listenWide()'s sockets) on an already seeded database,
 * without the static site build, in its own process so the load generator (scripts/bench.ts)
 * does not share its event loop.
 * Prints one JSON line `{ "url": ... }` when listening. `--no-cache` serves without the
 * catalogue cache, for the before/after comparison.
 */
const { values } = parseArgs({ options: { data: { type: 'string' }, url: { type: 'string' }, 'no-cache': { type: 'boolean', default: false } } });
const config = loadConfig({ ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'error', JWT_SECRET: 'bench-secret-bench-secret-bench', PORT: '0' });
const database = await openDatabase({ url: values.url, dataDir: values.data });
const catalogueCache = values['no-cache'] ? undefined : await openCatalogueCache(database, { url: values.url });
const api = createApp({ db: database.db, config, catalogueCache });
const site = composeSite({ api, site: (c) => c.notFound(), apiMiddleware: [compressJsonAnswers()] });
/**
 * The floor: a bare node:http server in this process answering the garage's first page, brotli
 * compressed once, with no routing, cache lookup or middleware, on the same listening sockets.
 * Nothing written in Node answers faster.
 */
const garage = Buffer.from(await (await api.request('/subscriptions/garages')).arrayBuffer());
const floorBody = brotliCompressSync(garage);
const floor = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json; charset=UTF-8', 'content-encoding': 'br', 'content-length': floorBody.length });
  res.end(floorBody);
});
const floorListening = await listenWide(floor, { port: 0, host: '127.0.0.1' });
const floorUrl = `http://127.0.0.1:${floorListening.port}`;
const server = createAdaptorServer(catalogueCache ? fastServe(catalogueCache, site.fetch) : { fetch: site.fetch }) as Server;
const listening = await listenWide(server, { port: 0, host: '127.0.0.1' });
console.log(JSON.stringify({ url: `http://127.0.0.1:${listening.port}`, floorUrl }));
const stop = async () => {
  const closed = Promise.all([floorListening.close(), listening.close()]);
  floor.closeAllConnections();
  server.closeAllConnections();
  await closed;
  await catalogueCache?.close();
  await database.close();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
