// Pagination of the paged lists (spec sections 4 and 8): defaults, bounds, totals that add up, and the page after the last.
import { endpoints, schemas } from '@fin/core';
import type { z } from 'zod';
import { answerText, type Check, type CheckContext, errorOf, successData } from '../check.js';
import type { Exchange, PosOperation } from '../probe.js';

/** The contract's defaults (page 1 of 50), read from the registry's query schema rather than restated. */
const DEFAULT_PAGE_SIZE = endpoints.partnerPos.listEmployees.query.parse({}).pageSize;
/** Pages read per list at most, so a big partner's lists stay well inside the read budget. */
const MAX_PAGES = 25;
/** The largest page the contract allows. */
const { MAX_PAGE_SIZE } = schemas;

/** The paged endpoints (query with `page` and `pageSize`): employees, stores, products. */
const pagedOperations = (Object.keys(endpoints.partnerPos) as PosOperation[]).filter((operation) => {
  const query = (endpoints.partnerPos[operation] as endpoints.EndpointDefinition).query;
  return query !== undefined && 'page' in query.shape && 'pageSize' in query.shape;
});

/** The identity of an item of each list, to see an item served twice. */
const keyOf: Record<string, string> = { employees: 'cpf', stores: 'storeId', products: 'sku' };

interface PageRead {
  exchange: Exchange;
  items?: Record<string, unknown>[];
  pagination?: z.infer<typeof schemas.pagination>;
}

async function listPages(context: CheckContext, operation: PosOperation) {
  const endpoint = endpoints.partnerPos[operation] as endpoints.EndpointDefinition;
  const schema = endpoint.response.schema as z.ZodObject;
  const listField = Object.keys(schema.shape).find((name) => name !== 'pagination')!;
  const scope =
    'storeId' in endpoint.query!.shape
      ? { storeId: context.options.storeId, planId: await context.facts.planId() }
      : {};
  const read = async (page?: number, pageSize?: number): Promise<PageRead> => {
    const exchange = await context.probe.send(operation, { query: { ...scope, page, pageSize } });
    const data = successData(exchange) as Record<string, unknown> | undefined;
    const pagination = schemas.pagination.safeParse(data?.pagination);
    const items = data?.[listField];
    return {
      exchange,
      ...(Array.isArray(items) && { items: items as Record<string, unknown>[] }),
      ...(pagination.success && { pagination: pagination.data }),
    };
  };
  return { name: endpoints.endpointName(endpoint), listField, read };
}

/** One paged list under check, with the helpers its checks share. */
interface PagedList {
  name: string;
  listField: string;
  read: (page?: number, pageSize?: number) => Promise<PageRead>;
  violation: CheckContext['violation'];
  /** Reports `page` as unreadable (`what`, `fix`) when it lacks the list or `pagination`. */
  unreadable: (page: PageRead, what: string, fix?: string) => boolean;
}

/** Bounds: refused (400/422) or kept within 1..200. */
async function checkBounds({ name, read, violation }: PagedList): Promise<void> {
  for (const [page, pageSize] of [
    [1, MAX_PAGE_SIZE + 1],
    [1, 0],
    [0, DEFAULT_PAGE_SIZE],
  ] as const) {
    const answer = await read(page, pageSize);
    const refused =
      (answer.exchange.status === 400 || answer.exchange.status === 422) && errorOf(answer.exchange);
    const kept =
      answer.pagination &&
      answer.items &&
      answer.pagination.page >= 1 &&
      answer.pagination.pageSize >= 1 &&
      answer.pagination.pageSize <= MAX_PAGE_SIZE &&
      answer.items.length <= MAX_PAGE_SIZE;
    if (!refused && !kept) {
      violation(
        name,
        `page=${page}&pageSize=${pageSize} (out of bounds): got ${answerText(answer.exchange)}` +
          (answer.pagination
            ? ` announcing page ${answer.pagination.page} of size ${answer.pagination.pageSize}`
            : ''),
        'refuse page < 1 and pageSize outside 1..200 with a 422 (or 400) error envelope, or clamp them into bounds',
      );
    }
  }
}

/**
 * Totals: every page at the largest size, numbers that add up, no item twice. `consistent` when they do;
 * `pages` at that size.
 */
async function checkTotals(
  { name, listField, read, violation, unreadable }: PagedList,
  total: number,
): Promise<{ consistent: boolean; pages: number }> {
  const seen = new Set<string>();
  const pages = Math.ceil(total / MAX_PAGE_SIZE);
  let consistent = true;
  for (let page = 1; page <= Math.min(pages, MAX_PAGES) && consistent; page++) {
    const answer = await read(page, MAX_PAGE_SIZE);
    if (unreadable(answer, `page ${page}`)) break;
    const p = answer.pagination!;
    const expectedItems = page < pages ? MAX_PAGE_SIZE : total - (pages - 1) * MAX_PAGE_SIZE;
    const duplicates = answer.items!.filter((item) => {
      const key = String(item[keyOf[listField] ?? ''] ?? '');
      const again = seen.has(key);
      seen.add(key);
      return again;
    }).length;
    const wrong = [
      p.page !== page && `page ${p.page} instead of ${page}`,
      p.pageSize !== MAX_PAGE_SIZE && `pageSize ${p.pageSize} instead of ${MAX_PAGE_SIZE}`,
      p.totalItems !== total && `totalItems ${p.totalItems}, but ${total} on the default page`,
      p.totalPages !== pages &&
        `totalPages ${p.totalPages} for ${total} items of ${MAX_PAGE_SIZE} (${pages})`,
      answer.items!.length !== expectedItems &&
        `${answer.items!.length} items where ${expectedItems} were due`,
      duplicates > 0 && `${duplicates} items already served on an earlier page`,
    ].filter(Boolean);
    if (wrong.length > 0) {
      consistent = false;
      violation(
        name,
        `page ${page} of size ${MAX_PAGE_SIZE}: ${wrong.join('; ')}`,
        'make pagination add up: totalPages = ceil(totalItems / pageSize), full pages but the last, each item once, in a stable order',
      );
    }
  }
  return { consistent, pages };
}

export const pagination: Check = {
  id: 'pagination',
  title: 'Pagination: defaults, bounds, consistent totals, the page after the last',
  async run(context) {
    const { violation } = context;
    for (const operation of pagedOperations) {
      const { name, listField, read } = await listPages(context, operation);
      const unreadable = (
        page: PageRead,
        what: string,
        fix = 'answer every page with the list and `pagination` { page, pageSize, totalItems, totalPages }',
      ) => {
        if (page.items && page.pagination) return false;
        violation(
          name,
          `${what}; expected HTTP 200 with data.${listField} and data.pagination, got ${answerText(page.exchange)}`,
          fix,
        );
        return true;
      };

      // Defaults: page 1 of 50.
      const first = await read();
      if (unreadable(first, 'no page or pageSize')) continue;
      if (first.pagination!.page !== 1 || first.pagination!.pageSize !== DEFAULT_PAGE_SIZE) {
        violation(
          name,
          `without page and pageSize the answer is page ${first.pagination!.page} of size ${first.pagination!.pageSize}`,
          `default page to 1 and pageSize to ${DEFAULT_PAGE_SIZE} (spec section 8)`,
        );
      }

      const list = { name, listField, read, violation, unreadable };
      await checkBounds(list);
      const total = first.pagination!.totalItems;
      const { consistent, pages } = await checkTotals(list, total);

      // The page after the last: an empty list with the same totals, not an error or a repeat.
      if (!consistent || pages > MAX_PAGES) continue;
      const after = await read(pages + 1, MAX_PAGE_SIZE);
      const pastTheEnd =
        'answer a page past the end with HTTP 200, an empty list and the same totalItems and totalPages';
      if (unreadable(after, `the page after the last (${pages + 1})`, pastTheEnd)) continue;
      if (after.items!.length !== 0 || after.pagination!.totalItems !== total) {
        violation(
          name,
          `the page after the last (${pages + 1}) holds ${after.items!.length} items and totalItems ${after.pagination!.totalItems}`,
          pastTheEnd,
        );
      }
    }
  },
};
