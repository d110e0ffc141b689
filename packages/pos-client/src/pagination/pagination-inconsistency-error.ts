// PaginationInconsistencyError: a list changed while it was being read, so its pages no longer add up.
import { FinError } from '@fin/core';

/** What was seen: the first page's `totalItems`, the page where it changed, and what it said there. */
export interface PaginationInconsistency {
  /** `METHOD /path` of the list. */
  endpoint: string;
  /** The page being read when the inconsistency showed. */
  page: number;
  /** `totalItems` of the first page. */
  expectedTotal: number;
  /** `totalItems` now, or the number of distinct items read when the traversal ended short or long. */
  observedTotal: number;
  reason: 'total-changed' | 'count-mismatch' | 'page-mismatch';
}

/**
 * A paged list changed between two page calls (items added or removed on the partner side), so the
 * items read may miss or repeat some. Never a silent gap: `syncCatalog` re-reads the list when this
 * happens and fails with this error only if the list keeps changing.
 */
export class PaginationInconsistencyError extends FinError<'pagination_inconsistency'> {
  override readonly name = 'PaginationInconsistencyError';
  readonly inconsistency: PaginationInconsistency;

  constructor(inconsistency: PaginationInconsistency) {
    super(
      `${inconsistency.endpoint} changed while it was being read (page ${inconsistency.page}: ` +
        `${inconsistency.reason}, expected ${inconsistency.expectedTotal} items, saw ${inconsistency.observedTotal})`,
      { code: 'pagination_inconsistency', endpoint: inconsistency.endpoint },
    );
    this.inconsistency = inconsistency;
  }

  override toJSON() {
    return { ...super.toJSON(), inconsistency: this.inconsistency };
  }
}
