// isUuidV4: the uuid v4 check of the id and key headers, as one test of the pattern `schemas.uuid` holds.
import { schemas } from '@fin/core';

/**
 * The very pattern `schemas.uuid` validates with (zod keeps it on the schema's definition), so the two
 * cannot disagree; testing it directly spares the three parse results a write allocated per request
 * (X-Request-Id, X-Correlation-Id, Idempotency-Key).
 */
const UUID_V4 = schemas.uuid.def.pattern;
if (!(UUID_V4 instanceof RegExp)) throw new Error('schemas.uuid carries no pattern');

export const isUuidV4 = (value: string): boolean => UUID_V4.test(value);
