// Response metadata on a result: a non-enumerable `lastResponse` (and, for writes, the key and request ids used).
import type { ResponseMeta, WithResponse, WriteResult } from './types.js';

const hidden = (value: unknown): PropertyDescriptor => ({ value, enumerable: false });

/**
 * `data` with `meta` as its non-enumerable `lastResponse`: request id, processing time, headers and
 * attempts for a support ticket, while `JSON.stringify`, spreads and equality still see only the data.
 */
export function withResponse<T extends object>(data: T, meta: ResponseMeta): WithResponse<T> {
  return Object.defineProperty(data, 'lastResponse', hidden(meta)) as WithResponse<T>;
}

/** A write's result: `lastResponse`, plus its `idempotencyKey` and `requestIds`, all non-enumerable. */
export function withWriteReceipt<T extends object>(data: T, meta: ResponseMeta): WriteResult<T> {
  return Object.defineProperties(withResponse(data, meta), {
    idempotencyKey: hidden(meta.idempotencyKey),
    requestIds: hidden(meta.requestIds),
  }) as WriteResult<T>;
}
