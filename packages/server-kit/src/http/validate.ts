// Schema validation of a parsed body: zod issues become `details` per field; a non-BRL currency is `unsupported_currency`.
import type { ErrorDetail } from '@fin/core';
import type { z } from 'zod';

export type Validated<T> =
  | { ok: true; data: T }
  | { ok: false; code: 'validation_error' | 'unsupported_currency'; details: ErrorDetail[] };

/** The money schema's currency literal reports this message (schemas.money). */
const UNSUPPORTED_CURRENCY = 'unsupported_currency';

export function validate<S extends z.ZodType>(schema: S, value: unknown): Validated<z.output<S>> {
  const result = schema.safeParse(value);
  if (result.success) return { ok: true, data: result.data };
  const details = result.error.issues.map((issue) => ({
    field: issue.path.length > 0 ? issue.path.map(String).join('.') : 'body',
    issue: issue.message,
  }));
  const currency = details.filter((detail) => detail.issue === UNSUPPORTED_CURRENCY);
  return currency.length > 0
    ? {
        ok: false,
        code: 'unsupported_currency',
        details: currency.map((d) => ({ field: d.field, issue: 'currency must be BRL' })),
      }
    : { ok: false, code: 'validation_error', details };
}
