import { describe, expect, it } from 'vitest';
import { groupByDate } from '../../../src/domain/grouping';

describe('groupByDate', () => {
  it('groups by day, newest day first, newest item first', () => {
    const items = [
      { id: 1, at: '2026-01-01T10:00:00Z' },
      { id: 2, at: '2026-01-03T09:00:00Z' },
      { id: 3, at: '2026-01-01T12:00:00Z' },
      { id: 4, at: '2026-01-03T11:00:00Z' },
    ];
    const groups = groupByDate(items, (i) => i.at);
    expect(groups.map((g) => g.date)).toEqual(['2026-01-03', '2026-01-01']);
    expect(groups[0].items.map((i) => i.id)).toEqual([4, 2]);
    expect(groups[1].items.map((i) => i.id)).toEqual([3, 1]);
  });
  it('empty in, empty out', () => {
    expect(groupByDate([], () => '')).toEqual([]);
  });
});
