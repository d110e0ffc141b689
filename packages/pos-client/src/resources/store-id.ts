// R-01 in code: a store-scoped call cannot leave without a usable storeId, so the check runs before any request.
import { FinInputError } from '@fin/core';

/**
 * Returns `storeId` when it is a non-empty string of at most 64 characters (spec section 8); throws
 * synchronously otherwise: `store_context_required` when it is missing, `validation_error` when too long.
 */
export function requireStoreId(storeId: unknown): string {
  if (typeof storeId !== 'string' || storeId.trim() === '') {
    throw new FinInputError({
      code: 'store_context_required',
      details: [{ field: 'storeId', issue: 'required: use the storeId returned by the seller session' }],
    });
  }
  if (storeId.length > 64) {
    throw new FinInputError({
      code: 'validation_error',
      details: [{ field: 'storeId', issue: 'at most 64 characters' }],
    });
  }
  return storeId;
}
