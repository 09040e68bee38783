import pg from 'pg';
import { afterAll, afterEach } from 'vitest';

/**
 * Setup of the api-pg project (vitest.config.ts): a test fails when a query is sent to a
 * node-postgres client still running one, as a `Promise.all` of queries on a transaction (one
 * client) does. pg 8 queues such a query, pg 9 will refuse it.
 *
 * pg itself warns ("…when the client is already executing a query…", util.deprecate, so once per
 * process: each test file runs in one of its own) only from the third query at once, when one is
 * already waiting behind the running one; the check on `query` below catches the second too.
 */
const PG_WARNING = 'when the client is already executing a query';

const seen: Error[] = [];

process.on('warning', (warning) => {
  if (warning.message.includes(PG_WARNING)) seen.push(warning);
});

interface ClientState {
  _queryable: boolean;
  _ending: boolean;
  _activeQuery: unknown;
  _queryQueue: unknown[];
}

// eslint-disable-next-line @typescript-eslint/unbound-method -- called below with its own client (apply)
const send = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  const state = this as unknown as ClientState;
  // A client that broke or is closing fails the query at once (a ROLLBACK after a read timeout): nothing runs in parallel.
  if (state._queryable && !state._ending && (state._activeQuery || state._queryQueue.length)) {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 40;
    seen.push(new Error('a query was sent to a client still running one'));
    Error.stackTraceLimit = limit;
  }
  return (send as (...a: unknown[]) => unknown).apply(this, args);
} as typeof send;

function failOnConcurrentQuery() {
  const found = seen.splice(0);
  if (!found.length) return;
  const messages = [...new Set(found.map((e) => `- ${e.message}`))].join('\n');
  throw new Error(`queries in parallel on one PostgreSQL client (a Promise.all on a transaction?):\n${messages}\n${found[0].stack}`);
}

afterEach(failOnConcurrentQuery);
afterAll(failOnConcurrentQuery);
