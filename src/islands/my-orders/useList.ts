import { useCallback, useEffect, useState } from 'react';
import type { ApiResult } from '../../client/api';

/**
 * Loads a whole list (`load`: a typed call at module level, e.g. `() => call((o) => client.butlers.$get({}, o))`,
 * whose answer keys the list by `field`) for a my-page list; `failed` is the Korean text shown when the
 * call fails (a refused login says 로그인이 필요합니다.).
 */
export function useList<K extends string, T>(load: () => Promise<ApiResult<Record<K, T[]>>>, field: K, failed: string) {
  const [items, setItems] = useState<T[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const reload = useCallback(async () => {
    const res = await load();
    const list = res.ok ? res.data?.[field] : undefined;
    if (res.ok && Array.isArray(list)) {
      setError(null);
      setItems(list);
    } else setError(!res.ok && res.status === 401 ? '로그인이 필요합니다.' : failed);
  }, [load, field, failed]);
  useEffect(() => void reload(), [reload]);
  return { items, error, reload };
}
