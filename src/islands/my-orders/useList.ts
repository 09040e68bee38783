import { useCallback, useEffect, useState } from 'react';
import { get } from '../../client/api';

/**
 * Loads a whole list (GET path, answer keyed by `field`) for a my-page list; `failed` is the
 * Korean text shown when the call fails (a refused login says 로그인이 필요합니다.).
 */
export function useList<T>(path: string, field: string, failed: string) {
  const [items, setItems] = useState<T[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const reload = useCallback(async () => {
    const res = await get<Record<string, T[]>>(path);
    if (res.ok && Array.isArray(res.data?.[field])) {
      setError(null);
      setItems(res.data[field]);
    } else setError(!res.ok && res.status === 401 ? '로그인이 필요합니다.' : failed);
  }, [path, field, failed]);
  useEffect(() => void reload(), [reload]);
  return { items, error, reload };
}
