export interface DateGroup<T> {
  /** YYYY-MM-DD. */
  date: string;
  items: T[];
}

/** Groups items by the calendar day of a date string (YYYY-MM-DD or ISO), newest day first, newest item first. */
export function groupByDate<T>(items: T[], dateOf: (item: T) => string | null | undefined): DateGroup<T>[] {
  const groups = new Map<string, T[]>();
  const sorted = [...items].sort((a, b) => (dateOf(b) ?? '').localeCompare(dateOf(a) ?? ''));
  for (const item of sorted) {
    const day = (dateOf(item) ?? '').slice(0, 10) || '날짜 없음';
    const list = groups.get(day) ?? [];
    list.push(item);
    groups.set(day, list);
  }
  return [...groups.entries()].map(([date, list]) => ({ date, items: list }));
}
