// Idempotency-Key values: a uuid v4 per business intention, made by `newIdempotencyKey` and checked before sending.
import { v4 as uuidv4 } from 'uuid';
import { FinInputError } from '../errors/index.js';
import { uuid } from '../schemas/primitives.js';

/**
 * A new Idempotency-Key (uuid v4). Make it when the order is created and store it with the order before
 * the first call: after a crash, the same call with the same key gets the original answer.
 */
export const newIdempotencyKey = (): string => uuidv4();

/** Whether `value` is a key the API accepts: a uuid v4 (the spec's format), as the server checks it. */
export const isIdempotencyKey = (value: unknown): value is string => uuid.safeParse(value).success;

/** The caller's key when it is a uuid v4; else a `validation_error` before any request is sent. */
export function checkIdempotencyKey(value: string | undefined): string | undefined {
  if (value === undefined || isIdempotencyKey(value)) return value;
  throw new FinInputError({
    code: 'validation_error',
    message: 'Idempotency-Key must be a uuid v4: use newIdempotencyKey() and store it with the order.',
    details: [{ field: 'idempotencyKey', issue: 'must be a uuid v4' }],
  });
}
