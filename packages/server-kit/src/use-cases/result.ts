// What a use case answers: payload and seller-facing message, or a catalog error code with details.
import type { ErrorCode, ErrorDetail } from '@fin/core';

export type UseCaseResult =
  | { ok: true; data: unknown; message: string }
  | { ok: false; code: ErrorCode; details?: ErrorDetail[] };

export const done = (data: unknown, message: string): UseCaseResult => ({ ok: true, data, message });

export const refused = (code: ErrorCode, details?: ErrorDetail[]): UseCaseResult => ({
  ok: false,
  code,
  details,
});
