import { DrizzleQueryError } from 'drizzle-orm';
import { NOT_SENT_MESSAGE } from './answer-budget';

/** The fields of a driver error this module reads (node-postgres and PGlite both set them). */
interface PgErrorFields {
  code?: unknown;
  constraint?: string;
  message?: string;
  cause?: unknown;
}

/** A PostgreSQL unique violation (23505), optionally of one named index; drivers may wrap it in `cause`. */
export function isUniqueViolation(err: unknown, index?: string): boolean {
  for (let e = err as PgErrorFields | null | undefined; e; e = e.cause as PgErrorFields | null | undefined) {
    if (e.code === '23505' && (!index || String(e.constraint ?? e.message ?? '').includes(index))) return true;
  }
  return false;
}

/** Node socket errors of a database that cannot be reached. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/** SQLSTATEs of a server that is going away or not taking work: admin/crash shutdown, starting up, too many connections. */
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '53300']);
/** node-postgres and pg-pool errors without a code: a connection lost, never opened, or given up on (the pool's timeouts). */
const DRIVER_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Query read timeout',
  'is not queryable',
  NOT_SENT_MESSAGE,
];

/** Walks an error and its causes (drizzle wraps the driver's error; a connect to several addresses throws an AggregateError). */
function* chain(err: unknown): Generator<PgErrorFields & { errors?: unknown[] }> {
  for (let e = err as (PgErrorFields & { errors?: unknown[] }) | null | undefined, i = 0; e && typeof e === 'object' && i < 8; e = e.cause as typeof e, i++) {
    yield e;
    if (Array.isArray(e.errors)) for (const inner of e.errors) if (inner && typeof inner === 'object') yield inner;
  }
}

/**
 * The database cannot be reached or stopped answering — refused, reset, shutting down, or
 * given up on by the pool's connect and read timeouts (src/api/db/client.ts). Nothing about
 * the request is wrong: it may be tried again once the database is back (the job queue retries
 * such a run at once without counting an attempt; the API answers 503).
 */
export function isConnectionFault(err: unknown): boolean {
  // Socket codes and driver messages count only for an error that came from the database: a payment
  // or mail provider that cannot be reached (ECONNREFUSED, nodemailer's ETIMEDOUT) is not the
  // database, and its job keeps its backoff and attempts. SQLSTATEs only PostgreSQL sends.
  const database = fromDatabase(err);
  for (const e of chain(err)) {
    const code = typeof e.code === 'string' ? e.code : '';
    if (UNAVAILABLE_STATES.has(code) || /^08[0-9A-Z]{3}$/.test(code)) return true;
    if (database && (SOCKET_CODES.has(code) || DRIVER_MESSAGES.some((m) => String(e.message ?? '').includes(m)))) return true;
  }
  return false;
}

const FROM_DATABASE = Symbol.for('luxe.database-error');

/** Marks an error the database driver threw outside a drizzle query (drizzle wraps its own in DrizzleQueryError). */
export function markDatabaseError<T>(err: T): T {
  if (err && typeof err === 'object') Object.defineProperty(err, FROM_DATABASE, { value: true });
  return err;
}

function fromDatabase(err: unknown): boolean {
  for (const e of chain(err)) if (e instanceof DrizzleQueryError || (e as Record<symbol, unknown>)[FROM_DATABASE]) return true;
  return false;
}

/** A connection fault, or a statement PostgreSQL cancelled at statement_timeout (57014): the API answers 503 with Retry-After. */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (isConnectionFault(err)) return true;
  for (const e of chain(err)) if (e.code === '57014') return true;
  return false;
}
