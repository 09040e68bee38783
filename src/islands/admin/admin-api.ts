import { api, type ApiResult } from '../../client/api';

/** Console calls: the shared API client (bearer token, Korean envelope) with PATCH and DELETE. */
export const adminGet = <T>(path: string) => api<T>('GET', `/admin${path}`);
export const adminSend = <T>(method: 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown) => api<T>(method, `/admin${path}`, method === 'DELETE' ? undefined : (body ?? {}));

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
