// Local input checks: a zod failure becomes a FinInputError with the code the server would have answered.
import { FinInputError } from '@fin/core';
import { schemaFailure } from '@fin/core/errors';
import type { z } from 'zod';

/** The code and per-field details the server would have answered (`schemaFailure`): R-01 first, then currency. */
export function inputError(error: z.ZodError, prefix = ''): FinInputError {
  return new FinInputError(schemaFailure(error, prefix));
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
