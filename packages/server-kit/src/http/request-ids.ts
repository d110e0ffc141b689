// X-Request-Id and X-Correlation-Id: uuid v4 on every call (spec section 5); a clear 400 when missing or malformed.
import type { ErrorDetail } from '@fin/core';
import type { PlainRequest } from './plain.js';
import { isUuidV4 } from './uuid-header.js';

export type RequestIds =
  | { ok: true; requestId: string | undefined; correlationId: string | undefined }
  /** `requestId` is kept when it alone was valid, so the error still echoes it. */
  | { ok: false; requestId: string | undefined; details: ErrorDetail[] };

const HEADERS = [
  ['x-request-id', 'X-Request-Id'],
  ['x-correlation-id', 'X-Correlation-Id'],
] as const;

/** Reads both headers; `required: false` (the token endpoint, for plain OAuth libraries) lets them be absent. */
export function readRequestIds(request: PlainRequest, required: boolean): RequestIds {
  const details: ErrorDetail[] = [];
  const [requestId, correlationId] = HEADERS.map(([name, label]) => {
    const value = request.header(name);
    if (value === undefined && !required) return undefined;
    if (value !== undefined && isUuidV4(value)) return value.toLowerCase();
    details.push({
      field: `header.${label}`,
      issue: value === undefined ? 'is required (uuid v4)' : 'must be a uuid v4',
    });
    return undefined;
  });
  return details.length === 0 ? { ok: true, requestId, correlationId } : { ok: false, requestId, details };
}
