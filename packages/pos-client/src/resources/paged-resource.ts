// Builds the PagedList of one paged Partner POS endpoint (employees, stores, products) on the shared transport.
import type { Pagination } from '@fin/core';
import type { QueryValue } from '@fin/core/transport';
import type { z } from 'zod';
import type { ClientContext } from '../client-context.js';
import { type ListOptions, PagedList } from '../pagination/paged-list.js';

export function pagedResource<S extends z.ZodType<{ pagination: Pagination }>, T>(
  context: ClientContext,
  endpoint: {
    path: string;
    query?: Record<string, QueryValue>;
    schema: S;
    items(data: z.output<S>): T[];
    key(item: T): string;
  },
  options: ListOptions = {},
): PagedList<T> {
  const name = `GET ${endpoint.path}`;
  return new PagedList<T>(
    {
      endpoint: name,
      key: endpoint.key,
      async fetchPage({ page, pageSize }) {
        const { data, meta } = await context.http.request({
          method: 'GET',
          path: endpoint.path,
          query: { ...endpoint.query, page, pageSize },
          kind: 'read',
          schema: endpoint.schema,
          signal: options.signal,
          correlationId: options.correlationId,
        });
        return { items: endpoint.items(data), pagination: data.pagination, meta };
      },
      report: (inconsistency) => context.log('warn', { event: 'pagination.inconsistent', ...inconsistency }),
    },
    options,
  );
}
