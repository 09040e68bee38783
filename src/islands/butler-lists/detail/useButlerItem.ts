import { useCallback, useEffect, useState } from 'react';
import { call, client } from '../../../client/api';
import type { ButlerRequestView } from '../../../domain/butler';

/** Which detail page: /butler/request/{id} or /butler/subscribe/{id}. */
export type DetailKind = 'request' | 'subscription';

export type ItemState =
  | { status: 'loading' }
  | { status: 'no-id' }
  | { status: 'not-found' }
  | { status: 'error'; message: string }
  | { status: 'ok'; request: ButlerRequestView };

const PATHS: Record<DetailKind, RegExp> = {
  request: /^\/butler\/request\/([^/]+)\/?$/,
  subscription: /^\/butler\/subscribe\/([^/]+)\/?$/,
};

/** The id segment of the page's path; null on the bare shell (/butler/request/detail/). */
function idFromPath(kind: DetailKind, pathname: string): string | null {
  const segment = PATHS[kind].exec(pathname)?.[1];
  return segment && segment !== 'detail' ? decodeURIComponent(segment) : null;
}

/** The request a detail page shows, found by id in the whole list (spec §4.3); a subscription shows its request. */
async function load(kind: DetailKind, id: string): Promise<ItemState> {
  const failed = (status: number): ItemState => ({ status: 'error', message: status === 401 ? '로그인이 필요합니다.' : '요청 정보를 불러오는데 실패했습니다.' });
  if (kind === 'request') {
    const res = await call((o) => client.butlers.requests.$get({}, o));
    if (!res.ok) return failed(res.status);
    const request = res.data.butler_requests.find((r) => String(r.id) === id);
    return request ? { status: 'ok', request } : { status: 'not-found' };
  }
  const res = await call((o) => client.butlers.$get({}, o));
  if (!res.ok) return failed(res.status);
  const sub = res.data.butlers.find((s) => String(s.id) === id);
  return sub ? { status: 'ok', request: sub.request } : { status: 'not-found' };
}

/**
 * Loads the page's item; `reload` fetches it again (after a save, or after a refusal that says it
 * changed meanwhile) without showing 로딩 중... in between, and returns what it found.
 */
export function useButlerItem(kind: DetailKind) {
  const [state, setState] = useState<ItemState>({ status: 'loading' });
  const reload = useCallback(async (): Promise<ItemState> => {
    const id = idFromPath(kind, location.pathname);
    const next: ItemState = id ? await load(kind, id) : { status: 'no-id' };
    setState(next);
    return next;
  }, [kind]);
  useEffect(() => void reload(), [reload]);
  return { state, reload };
}
