import type { ApiResult } from '../../client/api';
import { api } from '../../client/untyped-calls';

/**
 * The table-driven catalogue sections (EntitySection: cars, brands, FAQ, policies) by path under
 * /admin, the answer untyped: each section's config reads it (entityConfig). Every other console
 * call goes through the typed client (`call` and `client` of src/client/api.ts).
 */
export const adminGet = (path: string) => api('GET', `/admin${path}`);
export const adminSend = (method: 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown) => api(method, `/admin${path}`, method === 'DELETE' ? undefined : (body ?? {}));

/** Other panels (publish status) listen for this after every successful write. */
export const CHANGED_EVENT = 'admin:changed';
export function announceChange(): void {
  window.dispatchEvent(new Event(CHANGED_EVENT));
}

/** Field errors of a failed call, keyed by field ('_' for the whole form). */
export function fieldErrorsOf(res: ApiResult<unknown>): Record<string, string[]> {
  if (res.ok) return {};
  return { ...res.error.errors, _: [res.error.message, ...(res.error.errors?._ ?? [])] };
}

export const formatDateTime = (iso: string | null | undefined) =>
  iso ? new Intl.DateTimeFormat('ko-KR', { timeZone: 'Asia/Seoul', dateStyle: 'short', timeStyle: 'short' }).format(new Date(iso)) : '-';
