// FinInputError: input the SDK refused before sending anything, with the code the server would have answered.
import { catalogEntry, type ErrorCode } from './catalog.js';
import type { ErrorDetail } from './fin-api-error.js';
import { FinError } from './fin-error.js';

export interface FinInputErrorInit {
  /** The catalog code the API would answer for the same input (`validation_error`, `unsupported_currency` ...). */
  code: ErrorCode;
  /** Each field refused and why. */
  details: ErrorDetail[];
  message?: string;
}

/** Input refused locally: no request was sent, so there is no status, request id or retry to consider. */
export class FinInputError extends FinError<ErrorCode> {
  override readonly name = 'FinInputError';
  readonly details: ErrorDetail[];

  constructor(init: FinInputErrorInit) {
    super(init.message || catalogEntry(init.code)?.message || init.code, init);
    this.details = init.details;
  }

  override toJSON() {
    return { ...super.toJSON(), details: this.details };
  }
}

/** Narrows an unknown error to a FinInputError, optionally of one code. */
export const isFinInputError = (error: unknown, code?: ErrorCode): error is FinInputError =>
  error instanceof FinInputError && (code === undefined || error.code === code);
