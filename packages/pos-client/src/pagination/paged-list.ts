// PagedList: every item of a paged Partner POS list as an async iterable, plus `.pages()` and `.toArray({ limit })`.
import { FinResponseTooLargeError, schemas } from '@fin/core';
import type { Pagination } from '@fin/core/schemas';
import type { CallOptions, ResponseMeta } from '@fin/core/transport';
import {
  type PaginationInconsistency,
  PaginationInconsistencyError,
} from './pagination-inconsistency-error.js';

/** One page as the partner answered it; `items` holds only items not already yielded by this traversal. */
export interface Page<T> {
  items: T[];
  pagination: Pagination;
  meta: ResponseMeta;
}

/** `signal`, `correlationId`, `timeoutMs` and `maxRetries` apply to each page's call. */
export interface ListOptions extends CallOptions {
  /** Items per page, 1 to 200; default 200, the fewest requests under the read limit. */
  pageSize?: number;
  /**
   * When the list changes while it is read (its `totalItems` moves, or the pages do not add up):
   * `'throw'` (default) a PaginationInconsistencyError at once; `'warn'` keeps reading by the latest
   * `pagination`, skips repeats, records the problem in `list.warnings` and logs it.
   */
  onInconsistency?: 'throw' | 'warn';
  /**
   * Most pages one traversal reads; default `DEFAULT_MAX_PAGES` (1 000: 200 000 items at the largest page).
   * A list announcing more (`totalPages`), or still going past it, fails with a FinResponseTooLargeError
   * (`unit: 'pages'`) instead of being read without end.
   */
  maxPages?: number;
}

/** Pages one traversal reads at most unless told otherwise: a partner announcing `totalItems: 1e9` is refused. */
export const DEFAULT_MAX_PAGES = 1000;

/** The largest page a list asks for, the contract's (`schemas.MAX_PAGE_SIZE`). */
export const MAX_PAGE_SIZE = schemas.MAX_PAGE_SIZE;

/** What a resource gives a PagedList: how to read page `n`, and how to tell two items apart. */
export interface PageSource<T> {
  endpoint: string;
  fetchPage(query: { page: number; pageSize: number }): Promise<Page<T>>;
  /** A stable identity of an item (CPF, storeId, SKU), to skip an item a shifted page repeats. */
  key(item: T): string;
  /** Told of every inconsistency met in `'warn'` mode (the client logs it). */
  report(inconsistency: PaginationInconsistency): void;
}

export class PagedList<T> implements AsyncIterable<T> {
  /** Inconsistencies met by the traversals so far, in `'warn'` mode. */
  readonly warnings: PaginationInconsistency[] = [];
  readonly #source: PageSource<T>;
  readonly #pageSize: number;
  readonly #mode: 'throw' | 'warn';
  readonly #maxPages: number;

  constructor(source: PageSource<T>, options: ListOptions = {}) {
    const pageSize = options.pageSize ?? MAX_PAGE_SIZE;
    if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_PAGE_SIZE) {
      throw new RangeError(`pageSize must be an integer from 1 to ${MAX_PAGE_SIZE}`);
    }
    this.#source = source;
    this.#pageSize = pageSize;
    this.#mode = options.onInconsistency ?? 'throw';
    const maxPages = options.maxPages ?? DEFAULT_MAX_PAGES;
    if (!Number.isSafeInteger(maxPages) || maxPages < 1)
      throw new RangeError('maxPages must be a positive integer');
    this.#maxPages = maxPages;
  }

  /**
   * Page after page, until the last one `pagination` names (re-read on every page, so a list that
   * grows or shrinks meanwhile still ends). A hard cap of twice the first page count (at least ten
   * more) ends a server that keeps announcing pages.
   */
  async *pages(): AsyncGenerator<Page<T>, void, undefined> {
    const source = this.#source;
    const seen = new Set<string>();
    let first: Pagination | undefined;
    let total = 0;
    let cap = 1;
    for (let page = 1; ; page++) {
      const answer = await source.fetchPage({ page, pageSize: this.#pageSize });
      const { pagination } = answer;
      if (pagination.totalPages > this.#maxPages || page > this.#maxPages) this.#tooMany(answer.meta);
      if (!first) {
        first = pagination;
        total = pagination.totalItems;
        cap = Math.max(pagination.totalPages * 2, pagination.totalPages + 10);
      }
      if (pagination.page !== page)
        this.#inconsistent(page, first.totalItems, pagination.totalItems, 'page-mismatch');
      if (pagination.totalItems !== total) {
        this.#inconsistent(page, first.totalItems, pagination.totalItems, 'total-changed');
        total = pagination.totalItems;
      }
      const fresh = answer.items.filter((item) => {
        const key = source.key(item);
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
      yield { ...answer, items: fresh };
      if (answer.items.length === 0 || page >= pagination.totalPages || page >= cap) {
        if (seen.size !== total) this.#inconsistent(page, first.totalItems, seen.size, 'count-mismatch');
        return;
      }
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    for await (const page of this.pages()) yield* page.items;
  }

  /** Every item, or the first `limit`; no page past the one that reaches `limit` is requested. */
  async toArray(options: { limit?: number } = {}): Promise<T[]> {
    const limit = options.limit ?? Number.POSITIVE_INFINITY;
    const items: T[] = [];
    if (limit <= 0) return items;
    for await (const item of this) {
      items.push(item);
      if (items.length >= limit) break;
    }
    return items;
  }

  #tooMany(meta: ResponseMeta): never {
    throw new FinResponseTooLargeError({
      endpoint: this.#source.endpoint,
      requestId: meta.requestId,
      correlationId: meta.correlationId,
      limit: this.#maxPages,
      unit: 'pages',
    });
  }

  #inconsistent(
    page: number,
    expectedTotal: number,
    observedTotal: number,
    reason: PaginationInconsistency['reason'],
  ) {
    const inconsistency = { endpoint: this.#source.endpoint, page, expectedTotal, observedTotal, reason };
    if (this.#mode === 'throw') throw new PaginationInconsistencyError(inconsistency);
    this.warnings.push(inconsistency);
    this.#source.report(inconsistency);
  }
}
