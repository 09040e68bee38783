import type { ApiResult } from '../../client/api';

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
