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

/** What `withResponse()` gives: the parsed result and the fetch `Response` that carried it (body already read). */
export interface DataAndResponse<T> {
  data: T;
  response: Response;
}

/**
 * A client method's promise (openai-node style): await it for the data, or call `.withResponse()` for
 * `{ data, response }`. A failure rejects both alike; an answered one carries the same `Response` as
 * `error.response`.
 */
export type ApiPromise<T> = Promise<T> & { withResponse(): Promise<DataAndResponse<T>> };

/** `promise` (of a result carrying `lastResponse`) with `.withResponse()`. */
export function apiPromise<T extends { readonly lastResponse: ResponseMeta }>(
  promise: Promise<T>,
): ApiPromise<T> {
  const withRaw = () =>
    promise.then((data) => ({
      data,
      response: data.lastResponse.response ?? new Response(null, data.lastResponse),
    }));
  return Object.assign(promise, { withResponse: withRaw });
}
