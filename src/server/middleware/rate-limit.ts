import { getConnInfo } from '@hono/node-server/conninfo';
import { createMiddleware } from 'hono/factory';
import { ErrorCode } from '../../domain/error-codes';
import { ApiError } from '../errors';
import type { AppEnv, Ctx, Deps } from '../http';
import { normalizeIp, resolveClientIp } from '../trust-proxy';

interface Bucket {
  count: number;
  resetAt: number;
}

/** Fixed-window counters in memory (one process serves the API); old windows are swept as they pass. */
export class RateLimiter {
  private buckets = new Map<string, Bucket>();
  constructor(private now: () => number = Date.now) {}

  /** Counts one hit on `key`; throws 429 with a Korean message once `max` hits fall in `windowMs`. */
  hit(key: string, max: number, windowMs: number): void {
    const now = this.now();
    if (this.buckets.size > 10_000) this.sweep(now);
    let bucket = this.buckets.get(key);
    if (!bucket || bucket.resetAt <= now) {
      bucket = { count: 0, resetAt: now + windowMs };
      this.buckets.set(key, bucket);
    }
    bucket.count += 1;
    if (bucket.count > max) throw tooMany(Math.ceil((bucket.resetAt - now) / 1000));
  }

  /** Throws 429 when `key` is already at `max` without counting a hit (for failure-only counters). */
  check(key: string, max: number): void {
    const bucket = this.buckets.get(key);
    const now = this.now();
    if (bucket && bucket.resetAt > now && bucket.count >= max) throw tooMany(Math.ceil((bucket.resetAt - now) / 1000));
  }

  /** Forgets `key` (e.g. failed logins after a success). */
  reset(key: string): void {
    this.buckets.delete(key);
  }

  private sweep(now: number) {
    for (const [key, bucket] of this.buckets) if (bucket.resetAt <= now) this.buckets.delete(key);
  }
}

function tooMany(retryAfterSeconds: number): ApiError {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return new ApiError(429, ErrorCode.RATE_LIMITED, `요청이 너무 많습니다. ${minutes}분 후 다시 시도해주세요.`);
}

const limiters = new WeakMap<Deps, RateLimiter>();

/** The limiter of one app instance (tests build many apps; each starts with clean counters). */
export function limiterFor(deps: Deps): RateLimiter {
  let limiter = limiters.get(deps);
  if (!limiter) limiters.set(deps, (limiter = new RateLimiter()));
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
export function limitIp(c: Ctx, scope: string, max: number, windowMs: number): void {
  const deps = c.var.deps;
  const ip = clientIp(c);
  if (deps.config.env === 'test' && LOOPBACK.test(ip)) return;
  limiterFor(deps).hit(`${scope}:ip:${ip}`, max, windowMs);
}

/** limitIp as a middleware, so the count comes before the input is validated (bad input counts too). */
export const ipLimit = (scope: string, max: number, windowMs: number) =>
  createMiddleware<AppEnv>(async (c, next) => {
    limitIp(c, scope, max, windowMs);
    await next();
  });

/** Wrong passwords allowed per account before a lock; login and the password change count together. */
export const LOGIN_FAILURES_PER_ACCOUNT = 5;
/** How long an account stays locked after the last counted failure's window opened. */
export const LOGIN_LOCK_MS = 15 * 60_000;

/**
 * The per-account password lock shared by login and `PUT /accounts` (current_password): once
 * LOGIN_FAILURES_PER_ACCOUNT wrong passwords fall in LOGIN_LOCK_MS, every check of that account
 * is 429 until the window ends, the right password included. `account` is the email (or a
 * user id for accounts without one).
 */
export function passwordLock(deps: Deps, account: string) {
  const limiter = limiterFor(deps);
  const key = `login:account:${account}`;
  return {
    /** 429 while locked; call before the password is compared. */
    check: () => limiter.check(key, LOGIN_FAILURES_PER_ACCOUNT),
    failed: () => {
      try {
        limiter.hit(key, Number.MAX_SAFE_INTEGER, LOGIN_LOCK_MS);
      } catch {
        /* counting only */
      }
    },
    passed: () => limiter.reset(key),
  };
}

export type PasswordLock = ReturnType<typeof passwordLock>;
