// Builds the PagedList of one paged Partner POS endpoint (employees, stores, products) on the shared transport.
import { endpoints } from '@fin/core';
import type { Pagination } from '@fin/core/schemas';
import type { QueryValue } from '@fin/core/transport';
import type { z } from 'zod';
import { type ClientContext, callOptions } from '../client-context.js';
import { type ListOptions, PagedList } from '../pagination/paged-list.js';

/** A registry entry whose answer is one page of a list. */
type PagedEndpoint = endpoints.EndpointDefinition & {
  response: { schema: z.ZodType<{ pagination: Pagination }> };
};

export function pagedResource<E extends PagedEndpoint, T>(
  context: ClientContext,
  list: {
    endpoint: E;
    query?: Record<string, QueryValue>;
    items(data: endpoints.EndpointData<E>): T[];
    key(item: T): string;
  },
  options: ListOptions = {},
): PagedList<T> {
  return new PagedList<T>(
    {
      endpoint: endpoints.endpointName(list.endpoint),
      key: list.key,
      async fetchPage({ page, pageSize }) {
        const { data, meta } = await context.http.request({
          ...endpoints.endpointRequest(list.endpoint, { query: { ...list.query, page, pageSize } }),
          ...callOptions(options),
        });
        return { items: list.items(data), pagination: data.pagination, meta };
      },
      report: (inconsistency) => context.log('warn', { event: 'pagination.inconsistent', ...inconsistency }),
    },
    options,
  );
}
