import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { ErrorCode } from '../../domain/error-codes';
import { ApiError } from '../errors';
import type { AppEnv, Ctx, Deps } from '../http';

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

/** The hop a proxy in front of us appended: the last X-Forwarded-For entry. */
const forwardedFor = (c: Context) => c.req.header('x-forwarded-for')?.split(',').at(-1)?.trim() || null;

/**
 * The caller's address: the socket's peer, except that a peer on loopback (a reverse proxy
 * on the same machine, e.g. nginx) is trusted for X-Forwarded-For. In-process requests
 * (tests) have no socket, so X-Forwarded-For stands in.
 */
export function clientIp(c: Context): string {
  let address: string | undefined;
  try {
    address = getConnInfo(c).remote.address;
  } catch {
    /* no socket: app.request() in tests */
  }
  if (address && !LOOPBACK.test(address)) return address;
  return forwardedFor(c) ?? address ?? 'unknown';
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
