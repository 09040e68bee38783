import type { ReactNode } from 'react';
import Alert from '../common/Alert';

interface Props<T> {
  /** null while loading. */
  items: T[] | null;
  error: string | null;
  /** Text shown when the list is empty. */
  empty: string;
  children: (items: T[]) => ReactNode;
}

/** The states every my-page list shares: 로딩 중..., an error, the empty text, or the items. */
export default function ListState<T>({ items, error, empty, children }: Props<T>) {
  if (error) return <Alert tone="page">{error}</Alert>;
  // The same box, and a new line rather than the loading line changed: a centred text that changes
  // moves, and Chromium counts that as a layout shift (issue 37: CLS 0).
  if (!items) return <p key="loading" role="status" className="py-16 text-center text-muted">로딩 중...</p>;
  if (!items.length) return <p key="empty" className="py-16 text-center text-muted">{empty}</p>;
  return <>{children(items)}</>;
}
