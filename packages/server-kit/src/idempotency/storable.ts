// Which answers an idempotency key keeps for replay: not 5xx, 429, nor a refusal a corrected retry should pass (DESIGN 9).
import type { ErrorCode } from '@fin/core';
import type { PlainResponse } from '../http/plain.js';

/** Answers that are not stored, so a corrected retry with the same key runs (DESIGN 9). */
const NOT_STORED: ReadonlySet<string> = new Set<ErrorCode>([
  'validation_error',
  'unsupported_currency',
  'bad_request',
  'payload_too_large',
  'unsupported_media_type',
  'rate_limit_exceeded',
  'idempotency_key_conflict',
  'idempotency_key_in_progress',
]);

export function isStorable(response: PlainResponse): boolean {
  if (response.status >= 500 || response.status === 429) return false;
  const body = response.body as { error?: { code?: unknown } | null } | null;
  const code = body?.error?.code;
  return typeof code !== 'string' || !NOT_STORED.has(code);
}
