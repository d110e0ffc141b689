// When a failed attempt is retried and how long it waits first: `Retry-After`, else full-jitter backoff; the abortable wait.
import {
  FinConnectionError,
  FinResponseParseError,
  FinResponseValidationError,
  FinTimeoutError,
  isFinApiError,
} from '../errors/index.js';
import type { BackoffOptions } from './types.js';

export const DEFAULT_BACKOFF = { baseMs: 300, maxMs: 10_000, maxRetryAfterMs: 30_000 } as const;

const RETRYABLE_STATUS = new Set([408, 429]);
/** 5xx that no retry can change: 501 Not Implemented (a partner without an optional capability). */
const FINAL_SERVER_STATUS = new Set([501]);

/** The HTTP status an error came with, when it came with one. */
const statusOf = (error: unknown): number | undefined =>
  isFinApiError(error) ||
  error instanceof FinResponseParseError ||
  error instanceof FinResponseValidationError
    ? error.status
    : undefined;

/** What the retry decision needs to know of the call. */
export interface RetryCall {
  write: boolean;
  idempotencyKey: string | undefined;
}

/**
 * Whether an attempt's failure may be retried. Network errors, attempt timeouts, 408, 429 and 5xx but 501 may;
 * a write only when an Idempotency-Key protects it, and then also a 409 `idempotency_key_in_progress`
 * (the first attempt is still running on the server). Any other 4xx, aborts and deadlines never.
 */
export function isRetryable(error: unknown, call: RetryCall): boolean {
  const keyed = call.idempotencyKey !== undefined;
  if (call.write && !keyed) return false;
  if (error instanceof FinConnectionError) return true;
  if (error instanceof FinTimeoutError) return error.scope === 'attempt';
  if (isFinApiError(error, 'idempotency_key_in_progress')) return call.write && keyed;
  const status = statusOf(error);
  return (
    status !== undefined &&
    (RETRYABLE_STATUS.has(status) || (status >= 500 && !FINAL_SERVER_STATUS.has(status)))
  );
}

/** `Retry-After` as milliseconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(
  value: string | null | undefined,
  now: number = Date.now(),
): number | undefined {
  if (value == null || value.trim() === '') return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * Wait before retry number `retry` (1 for the first retry): the server's `Retry-After` when it sent one,
 * else a uniform draw in [0, min(maxMs, baseMs * 2^(retry-1))) ("full jitter").
 */
export function retryDelayMs(
  retry: number,
  retryAfterMs: number | undefined,
  backoff: Required<BackoffOptions>,
  random: () => number = Math.random,
): number {
  if (retryAfterMs !== undefined) return retryAfterMs;
  const ceiling = Math.min(backoff.maxMs, backoff.baseMs * 2 ** (retry - 1));
  return Math.floor(random() * ceiling);
}

/** Resolves after `ms`, or rejects with `signal.reason` as soon as the signal aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
