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

/**
 * Input refused locally: no request was sent, so there is no request id and nothing to retry. `code` and
 * `status` are those the API answers for the same input, so handling written for either reads the same.
 */
export class FinInputError extends FinError<ErrorCode> {
  override readonly name = 'FinInputError';
  /** The HTTP status the API answers for this code (its catalog row). */
  readonly status: number;
  readonly details: ErrorDetail[];

  constructor(init: FinInputErrorInit) {
    const known = catalogEntry(init.code);
    super(init.message || known?.message || init.code, init);
    this.status = known?.status ?? 422;
    this.details = init.details;
  }

  override toJSON() {
    return { ...super.toJSON(), status: this.status, details: this.details };
  }
}

/** Narrows an unknown error to a FinInputError, optionally of one code. */
export const isFinInputError = (error: unknown, code?: ErrorCode): error is FinInputError =>
  error instanceof FinInputError && (code === undefined || error.code === code);
