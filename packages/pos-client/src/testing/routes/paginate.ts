// One page of a list, with the spec's `pagination` object (page, pageSize, totalItems, totalPages).
import type { Pagination } from '@fin/core/schemas';

export function paginate<T>(items: readonly T[], query: { page: number; pageSize: number }) {
  const start = (query.page - 1) * query.pageSize;
  const pagination: Pagination = {
    page: query.page,
    pageSize: query.pageSize,
    totalItems: items.length,
    totalPages: Math.ceil(items.length / query.pageSize),
  };
  return { items: items.slice(start, start + query.pageSize), pagination };
}
