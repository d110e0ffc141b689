// Local input checks: a zod failure becomes a FinInputError with the code the server would have answered.
import { type ErrorDetail, FinInputError } from '@fin/core';
import type { z } from 'zod';

const detailsOf = (error: z.ZodError, prefix: string): ErrorDetail[] =>
  error.issues.map((issue) => ({
    field: [prefix, ...issue.path.map(String)].filter(Boolean).join('.'),
    issue: issue.message,
  }));

/** `unsupported_currency` when an amount is not BRL (the money schema says so), else `validation_error`. */
export function inputError(error: z.ZodError, prefix = ''): FinInputError {
  const currency = error.issues.some((issue) => issue.message === 'unsupported_currency');
  return new FinInputError({
    code: currency ? 'unsupported_currency' : 'validation_error',
    details: detailsOf(error, prefix),
  });
}

/** The parsed value, or the input error naming each field. */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, prefix = ''): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw inputError(parsed.error, prefix);
  return parsed.data;
}

/** A `validation_error` about one field. */
export const invalidField = (field: string, issue: string): FinInputError =>
  new FinInputError({ code: 'validation_error', details: [{ field, issue }] });
