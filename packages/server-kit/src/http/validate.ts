// Schema validation of a parsed body: the failure is the code and per-field details of `schemaFailure` (@fin/core).
import { type SchemaFailure, schemaFailure } from '@fin/core/errors';
import type { z } from 'zod';

export type Validated<T> = { ok: true; data: T } | ({ ok: false } & SchemaFailure);

export function validate<S extends z.ZodType>(schema: S, value: unknown): Validated<z.output<S>> {
  const result = schema.safeParse(value);
  return result.success ? { ok: true, data: result.data } : { ok: false, ...schemaFailure(result.error) };
}
