import { getConnInfo } from '@hono/node-server/conninfo';
import { createMiddleware } from 'hono/factory';
import { ErrorCode } from '../../domain/error-codes';
import { ApiError } from '../errors';
import type { AppEnv, Ctx, Deps } from '../http';
import { safeError } from '../log-safe';
import { normalizeIp, resolveClientIp } from '../trust-proxy';
import { DbRateLimitStore, type RateLimitStore } from './rate-limit-store';

/** How often a process deletes ended counters (fire and forget, after a hit). */
const SWEEP_EVERY_MS = 60_000;
/** At most one "store failed" log line per process in this time. */
const FAIL_LOG_EVERY_MS = 60_000;
/** Keys remembered as over their limit, at most (then the ended ones are dropped, or all). */
const MAX_DENIED = 10_000;

/**
 * The limits over a RateLimitStore: by default the `rate_limits` table (DbRateLimitStore), so
 * replicas on one DATABASE_URL share one budget per key, and PGlite runs the same code. Windows open
 * at a key's first hit (fixed, not aligned to the clock).
 *
 * Fail open: when the store fails (database unreachable, a timeout) the request passes without
 * being counted, and one log line per minute says so. A limit is a brake on abuse, not a reason to
 * answer 500 to every visitor while the database has a hiccup (the request's own queries will
 * answer for the outage).
 *
 * A key this process has seen over its limit is refused from memory until its window ends, without
 * a query: a flood from one client costs the database nothing and never queues the pool on that
 * key's row lock. Counts only grow within a window (hits past the limit never extend it), so the
 * answer is the one the database would give.
 *
 * Hand-written on purpose. hono-rate-limiter is a middleware with one store object fixed when it is
 * made: our routes are shared by every app (replica) and reach their database through c.var.deps,
 * and the limits are also used outside a middleware (the chat's two windows, the password lock's
 * check → failed → passed, the admin-token guesses). rate-limiter-flexible's SQL stores bring their
 * own table (one `key` column, `points`, `expire`) and count on each process's clock, not the
 * database's; its PostgreSQL store speaks to a pg pool or client, not PGlite; a store over our table
 * would override its undeclared `_upsert`/`_get`; and its per-limiter memory block cannot serve a
 * check and a hit with different limits on one bucket. A hit here is one upsert on rate_limits:
 * p50 0.75 ms on PGlite, 0.94 ms on PostgreSQL, 1.2–1.7 ms each for 64 at once on one key
 * (`npm run bench -- --only limits`).
 */
export class RateLimiter {
  private nextSweep: number;
  private nextFailLog = 0;
  /** `bucket key` → when (this process's clock) its window ends. */
  private denied = new Map<string, number>();
  constructor(
    readonly store: RateLimitStore,
    private log: Deps['log'] = () => {},
    private now: () => number = Date.now,
  ) {
    this.nextSweep = now() + SWEEP_EVERY_MS;
  }

  /** Counts one hit on (bucket, key); throws 429 with a Korean message once more than `max` hits fall in the window. */
  async hit(bucket: string, key: string, max: number, windowMs: number): Promise<void> {
    this.refuseIfDenied(bucket, key);
    const window = await this.safely(() => this.store.hit(bucket, key, windowMs));
    this.maybeSweep();
    if (window && window.count > max) this.deny(bucket, key, window.retryAfterMs);
  }

  /**
   * Throws 429 when (bucket, key) is already at `max` without counting a hit (for failure-only
   * counters); answers whether a window is open (something to reset after a success).
   */
  async check(bucket: string, key: string, max: number): Promise<boolean> {
    this.refuseIfDenied(bucket, key);
    const window = await this.safely(() => this.store.peek(bucket, key));
    if (window && window.count >= max) this.deny(bucket, key, window.retryAfterMs);
    return Boolean(window);
  }

  /** Forgets (bucket, key) (e.g. failed logins after a success). */
  async reset(bucket: string, key: string): Promise<void> {
    this.denied.delete(`${bucket} ${key}`);
    await this.safely(() => this.store.reset(bucket, key));
  }

  private refuseIfDenied(bucket: string, key: string) {
    const id = `${bucket} ${key}`;
    const until = this.denied.get(id);
    if (until === undefined) return;
    const left = until - this.now();
    if (left > 0) throw tooMany(left / 1000);
    this.denied.delete(id);
  }

  private deny(bucket: string, key: string, retryAfterMs: number): never {
    const now = this.now();
    if (this.denied.size >= MAX_DENIED) {
      for (const [id, until] of this.denied) if (until <= now) this.denied.delete(id);
      if (this.denied.size >= MAX_DENIED) this.denied.clear();
    }
    this.denied.set(`${bucket} ${key}`, now + retryAfterMs);
    throw tooMany(retryAfterMs / 1000);
  }

  private async safely<T>(op: () => Promise<T>): Promise<T | null> {
    try {
      return await op();
    } catch (err) {
      const now = this.now();
      if (now >= this.nextFailLog) {
        this.nextFailLog = now + FAIL_LOG_EVERY_MS;
        this.log('error', 'rate limit store failed: requests pass uncounted (fail open) until it answers', safeError(err));
      }
      return null;
    }
  }

  private maybeSweep() {
    const now = this.now();
    if (now < this.nextSweep) return;
    this.nextSweep = now + SWEEP_EVERY_MS;
    this.store.sweep().catch(() => {
      /* the next sweep tries again; ended rows are also reused by their key's next hit */
    });
  }
}

function tooMany(retryAfterSeconds: number): ApiError {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return new ApiError(429, ErrorCode.RATE_LIMITED, `요청이 너무 많습니다. ${minutes}분 후 다시 시도해주세요.`);
}

const limiters = new WeakMap<Deps, RateLimiter>();

/** The limiter of one app instance: counters in its database, shared with every app (replica) on that database. */
export function limiterFor(deps: Deps): RateLimiter {
  let limiter = limiters.get(deps);
  if (!limiter) limiters.set(deps, (limiter = new RateLimiter(new DbRateLimitStore(deps.db), deps.log)));
  return limiter;
}

const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;

/**
 * The caller's address, the one key of every per-IP limit: the socket's peer, or, when the
 * peer is a proxy named in TRUST_PROXY, the client that proxy put in X-Forwarded-For (see
 * resolveClientIp). Without TRUST_PROXY a client cannot choose its address by sending the
 * header. In-process requests (app.request() in tests) have no socket: the test environment
 * takes X-Forwarded-For as the client there, anything else counts them as one 'in-process'.
 */
export function clientIp(c: Ctx): string {
  let peer: string | undefined;
  try {
    peer = getConnInfo(c).remote.address;
  } catch {
    /* no socket: an in-process request */
  }
  const forwarded = c.req.header('x-forwarded-for');
  const config = c.var.deps.config;
  if (peer) return resolveClientIp(peer, forwarded, config.trustProxy);
  if (config.env === 'test') return normalizeIp(forwarded?.split(',').at(-1)) ?? 'in-process';
  return 'in-process';
}

/**
 * Counts one hit for the caller's IP under `scope`. The end-to-end suite drives the whole
 * product from one loopback address, so loopback is exempt in the test environment only.
 */
export async function limitIp(c: Ctx, scope: string, max: number, windowMs: number): Promise<void> {
  const deps = c.var.deps;
  const ip = clientIp(c);
  if (deps.config.env === 'test' && LOOPBACK.test(ip)) return;
  await limiterFor(deps).hit(scope, `ip:${ip}`, max, windowMs);
}

/** limitIp as a middleware, so the count comes before the input is validated (bad input counts too). */
export const ipLimit = (scope: string, max: number, windowMs: number) =>
  createMiddleware<AppEnv>(async (c, next) => {
    await limitIp(c, scope, max, windowMs);
    await next();
  });

/** Wrong passwords allowed per account before a lock; login and the password change count together. */
export const LOGIN_FAILURES_PER_ACCOUNT = 5;
/** How long an account stays locked after the last counted failure's window opened. */
const LOGIN_LOCK_MS = 15 * 60_000;

/**
 * The per-account password lock shared by login and `PUT /accounts` (current_password): once
 * LOGIN_FAILURES_PER_ACCOUNT wrong passwords fall in LOGIN_LOCK_MS, every check of that account
 * is 429 until the window ends, the right password included. `account` is the email (or a
 * user id for accounts without one).
 */
export function passwordLock(deps: Deps, account: string) {
  const limiter = limiterFor(deps);
  const bucket = 'login:account';
  let seen = true;
  return {
    /** 429 while locked; call before the password is compared. */
    check: async () => {
      seen = await limiter.check(bucket, account, LOGIN_FAILURES_PER_ACCOUNT);
    },
    failed: async () => {
      try {
        await limiter.hit(bucket, account, Number.MAX_SAFE_INTEGER, LOGIN_LOCK_MS);
      } catch {
        /* counting only */
      }
    },
    /** Forgets the failures; no query when check() saw none. */
    passed: async () => {
      if (seen) await limiter.reset(bucket, account);
    },
  };
}

export type PasswordLock = ReturnType<typeof passwordLock>;
