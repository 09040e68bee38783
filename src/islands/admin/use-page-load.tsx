import { useCallback, useEffect, useRef, useState, type DependencyList } from 'react';
import type { ApiResult } from '../../client/api';
import Alert from '../common/Alert';

/** One console list page: on its way, failed (with the server's Korean message), or here. */
export type PageLoad<T> = { state: 'loading' } | { state: 'failed'; message: string } | { state: 'ready'; data: T };

/**
 * Loads a console list page whenever `deps` change, and again on `reload` (다시 시도, or after an
 * action). An older answer is dropped when a newer load started (filters or the page changed while
 * it was on its way), and a failed answer is a state of its own: the list never waits forever.
 */
export function usePageLoad<T>(fetchPage: () => Promise<ApiResult<T>>, deps: DependencyList): { load: PageLoad<T>; last: T | null; reload: () => Promise<void> } {
  const [load, setLoad] = useState<PageLoad<T>>({ state: 'loading' });
  // The last page that arrived stays known while the next one loads (its page count, say).
  const [last, setLast] = useState<T | null>(null);
  const latest = useRef(0);
  const reload = useCallback(async () => {
    const seq = ++latest.current;
    setLoad({ state: 'loading' });
    const res = await fetchPage();
    if (seq !== latest.current) return;
    setLoad(res.ok ? { state: 'ready', data: res.data } : { state: 'failed', message: res.error.message });
    if (res.ok) setLast(res.data);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the caller's `deps` name what fetchPage reads
  }, deps);
  useEffect(() => void reload(), [reload]);
  return { load, last, reload };
}

/** 불러오는 중…, or the failure with 다시 시도; nothing once the page is here. */
export function PageLoadState({ load, onRetry }: { load: PageLoad<unknown>; onRetry: () => void }) {
  if (load.state === 'loading') return <p className="text-sm text-muted">불러오는 중…</p>;
  if (load.state === 'ready') return null;
  return (
    <Alert testId="page-load-failed">
      <span>목록을 불러오지 못했습니다. {load.message} </span>
      <button type="button" className="min-h-11 border border-line px-4 py-1.5 font-semibold" onClick={onRetry}>다시 시도</button>
    </Alert>
  );
}
