import { describe, expect, it } from 'vitest';
import { paginationInfo } from '../../../src/api/pagination';
import { pageField, pageNumber } from '../../../src/domain/schemas/common';

describe('pagination', () => {
  it('pagination_info: at least one page, next until the last', () => {
    expect(paginationInfo(1, 0, 20)).toEqual({ current_page: 1, total_pages: 1, count: 0, next: null });
    expect(paginationInfo(1, 41, 20)).toEqual({ current_page: 1, total_pages: 3, count: 41, next: 2 });
    expect(paginationInfo(3, 41, 20)).toEqual({ current_page: 3, total_pages: 3, count: 41, next: null });
    expect(paginationInfo(9, 41, 20).next).toBeNull();
  });

  it('the page query: digits only, 1 by default, within its maximum', () => {
    expect(pageField.parse(undefined)).toBe(1);
    expect(pageField.parse('7')).toBe(7);
    for (const bad of ['0', '-1', '1.5', '1e1', 'abc', '100001']) expect(pageField.safeParse(bad).success, bad).toBe(false);
    const garage = pageNumber(10, '페이지는 10 이하여야 합니다.').safeParse('11');
    expect(garage.error?.issues[0].message).toBe('페이지는 10 이하여야 합니다.');
  });
});
