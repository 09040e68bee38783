import type { ReactNode } from 'react';
import { dotDate, koreaDate } from '../../domain/dates';
import { groupByDate } from '../../domain/grouping';

interface Props<T> {
  items: T[];
  /** ISO timestamp or YYYY-MM-DD the item is grouped by (shown as the Korean calendar day). */
  dateOf: (item: T) => string;
  render: (item: T) => ReactNode;
  keyOf: (item: T) => number;
}

const time = (at: string) => Date.parse(at) || 0;
const day = (at: string) => (Number.isNaN(Date.parse(at)) ? '' : koreaDate(at));

/** Items grouped by day, newest first; each group collapsible with its count and a chevron, the first one open. */
export default function DateGroups<T>({ items, dateOf, render, keyOf }: Props<T>) {
  // Newest instant first inside a day, then grouped by the Korean calendar day.
  const sorted = [...items].sort((a, b) => time(dateOf(b)) - time(dateOf(a)));
  const groups = groupByDate(sorted, (i) => day(dateOf(i)));
  return (
    <div className="space-y-4">
      {groups.map((g, index) => (
        <details key={g.date} open={index === 0} className="group border border-line bg-white" data-testid="date-group">
          <summary className="flex cursor-pointer list-none items-center justify-between gap-3 px-4 py-3 font-semibold [&::-webkit-details-marker]:hidden">
            <span>{dotDate(g.date)}</span>
            <span className="flex items-center gap-2">
              <span className="text-sm text-muted">{g.items.length}건</span>
              <svg data-testid="group-chevron" aria-hidden="true" viewBox="0 0 20 20" className="h-5 w-5 text-ink transition-transform group-open:rotate-180">
                <path d="M5 7.5 10 12.5 15 7.5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
              </svg>
            </span>
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
