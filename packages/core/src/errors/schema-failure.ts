// A zod failure as the catalog code and per-field `details` the server answers and the clients throw before sending.
import type * as z from 'zod';
import { STORE_CONTEXT_REQUIRED } from '../schemas/primitives.js';
import type { ErrorDetail } from './fin-api-error.js';

export interface SchemaFailure {
  code: 'store_context_required' | 'unsupported_currency' | 'validation_error';
  details: ErrorDetail[];
}

/** The money schema's currency literal reports this message (schemas.money). */
const UNSUPPORTED_CURRENCY = 'unsupported_currency';

/**
 * R-01 first (a missing, empty or blank `storeId` is `store_context_required`), then a currency other
 * than BRL (`unsupported_currency`), else `validation_error` naming every field. `prefix` is prepended
 * to each field path.
 */
export function schemaFailure(error: z.ZodError, prefix = ''): SchemaFailure {
  const details = error.issues.map((issue) => ({
    field: [prefix, ...issue.path.map(String)].filter(Boolean).join('.') || 'body',
    issue: issue.message,
  }));
  const storeContext = details.filter((detail) => detail.issue === STORE_CONTEXT_REQUIRED);
  if (storeContext.length > 0) {
    return {
      code: 'store_context_required',
      details: storeContext.map((d) => ({
        field: d.field,
        issue: 'required: the storeId of the seller session',
      })),
    };
  }
  const currency = details.filter((detail) => detail.issue === UNSUPPORTED_CURRENCY);
  if (currency.length > 0) {
    return {
      code: 'unsupported_currency',
      details: currency.map((d) => ({ field: d.field, issue: 'currency must be BRL' })),
    };
  }
  return { code: 'validation_error', details };
}
