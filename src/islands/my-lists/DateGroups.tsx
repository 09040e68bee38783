import type { ReactNode } from 'react';
import { todayInKorea } from '../../domain/dates';
import { groupByDate } from '../../domain/grouping';

interface Props<T> {
  items: T[];
  /** ISO timestamp the item is grouped by (shown as the Korean calendar day). */
  dateOf: (item: T) => string;
  render: (item: T) => ReactNode;
  keyOf: (item: T) => number;
}

/** Items grouped by day, newest first; each group collapsible with its count, the first one open. */
export default function DateGroups<T>({ items, dateOf, render, keyOf }: Props<T>) {
  const groups = groupByDate(items, (i) => todayInKorea(new Date(dateOf(i))));
  return (
    <div className="space-y-4">
      {groups.map((g, index) => (
        <details key={g.date} open={index === 0} className="border border-line bg-white" data-testid="date-group">
          <summary className="flex cursor-pointer items-center justify-between px-4 py-3 font-semibold">
            <span>{g.date.replace(/-/g, '.')}</span>
            <span className="text-sm text-muted">{g.items.length}건</span>
          </summary>
          <ul className="divide-y divide-line border-t border-line">
            {g.items.map((item) => (
              <li key={keyOf(item)} className="px-4 py-4">{render(item)}</li>
            ))}
          </ul>
        </details>
      ))}
    </div>
  );
}
