import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

/**
 * The request id of the work running now: an API request's, or the id of the request that
 * enqueued the job being run. Log lines read it (logger.ts), so a job's line names its request.
 */
const current = new AsyncLocalStorage<{ requestId: string }>();

export const currentRequestId = (): string | undefined => current.getStore()?.requestId;

export function withRequestId<T>(requestId: string, run: () => T): T {
  return current.run({ requestId }, run);
}

/** A caller's (the proxy's) X-Request-Id when it looks like one, else a new one. */
export function requestIdFrom(header: string | undefined): string {
  return header && /^[\w.:-]{8,64}$/.test(header) ? header : randomUUID();
}
