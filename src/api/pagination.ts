import { sql } from 'drizzle-orm';
import type { PgSelect } from 'drizzle-orm/pg-core';
import type { PaginationInfo } from '../domain/schemas/common';

/**
 * Page-numbered lists (GET /subscriptions/garages, the console's lists): the page comes from
 * the query through pageField (src/domain/schemas/common.ts), the rows through onPage, the
 * total through a totalRows column of the same query, the answer's pagination_info from paginationInfo.
 */

/** Rows per page of the console's lists. */
export const ADMIN_PAGE_SIZE = 20;

/** A select column with the number of rows the query matches before LIMIT (a window count: the page and the total in one query). */
export const totalRows = () => sql<number>`count(*) over ()`.mapWith(Number);

/** Page `page` (1-based) of `size` rows of a dynamic select (`.$dynamic()`). */
export function onPage<T extends PgSelect>(query: T, page: number, size: number) {
  return query.limit(size).offset((page - 1) * size);
}

/** The pagination_info of page `page` of a list of `total` rows, `size` a page (one page at least, even when empty). */
export function paginationInfo(page: number, total: number, size: number): PaginationInfo {
  const total_pages = Math.max(1, Math.ceil(total / size));
  return { current_page: page, total_pages, count: total, next: page < total_pages ? page + 1 : null };
}
