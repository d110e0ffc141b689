// One error base: every @fin error is a FinError with a code and the request ids, recognised across package copies.
import {
  FinApiError,
  FinConnectionError,
  FinError,
  FinInputError,
  FinTimeoutError,
  isFinApiError,
  isFinError,
  isFinInputError,
  money,
} from '@fin/core';
import { describe, expect, expectTypeOf, it, vi } from 'vitest';

/** The error classes of a second copy of @fin/core, as an app loading both the ESM and the CJS build has. */
async function otherCopy() {
  vi.resetModules();
  return import('../src/errors/index.js');
}

describe('one error base (issue 17)', () => {
  it('an API answer, a local refusal and a transport failure are all FinErrors with code and request ids', () => {
    const ids = { endpoint: 'POST /v1/sales/authorize', requestId: 'req-1', correlationId: 'cor-1' };
    const errors = [
      new FinApiError({ code: 'total_mismatch', ...ids }),
      new FinInputError({ code: 'validation_error', details: [{ field: 'imei', issue: 'check digit' }] }),
      new FinConnectionError(ids),
      new FinTimeoutError({ ...ids, scope: 'attempt', timeoutMs: 1_000 }),
    ];
    for (const error of errors) {
      expect(error).toBeInstanceOf(FinError);
      expect(isFinError(error)).toBe(true);
      expect(error.code).toEqual(expect.any(String));
    }
    expect(errors.map((error) => error.code)).toEqual([
      'total_mismatch',
      'validation_error',
      'connection_failed',
      'timeout',
    ]);
    expect(errors[2]).toMatchObject(ids);
  });

  it('input refused before sending is a FinInputError, never mistaken for an answer of the API', () => {
    const refused = (() => {
      try {
        money.add(money.brl(1), { amount: 1, currency: 'USD' } as never);
      } catch (error) {
        return error;
      }
    })();
    expect(isFinInputError(refused, 'unsupported_currency')).toBe(true);
    expect(isFinApiError(refused)).toBe(false);
    expect(refused).not.toBeInstanceOf(FinApiError);
    expect(isFinInputError(new FinApiError({ code: 'validation_error' }))).toBe(false);
  });

  it('instanceof and the is* checks hold for errors made by another copy of the package', async () => {
    const other = await otherCopy();
    expect(other.FinApiError).not.toBe(FinApiError);
    const answer = new other.FinApiError({ code: 'imei_already_financed', requestId: 'req-2' });
    const timeout = new other.FinTimeoutError({ endpoint: 'GET /v1/ping', scope: 'deadline', timeoutMs: 5 });
    expect(answer).toBeInstanceOf(FinApiError);
    expect(answer).toBeInstanceOf(FinError);
    expect(isFinApiError(answer, 'imei_already_financed')).toBe(true);
    expect(timeout).toBeInstanceOf(FinTimeoutError);
    expect(timeout).not.toBeInstanceOf(FinApiError);
    expect(isFinError(timeout)).toBe(true);
    expect(isFinError(new Error('plain'))).toBe(false);
    expect(new Error('plain')).not.toBeInstanceOf(FinError);
  });

  it("FinApiError.code is the catalog's code union and still takes a code a newer server adds", () => {
    const error: unknown = new FinApiError({ code: 'a_code_of_tomorrow' });
    if (error instanceof FinApiError) {
      expectTypeOf(error.code).toExtend<string>();
      expectTypeOf<'total_mismatch'>().toExtend<typeof error.code>();
      expect(error.code).toBe('a_code_of_tomorrow');
      expect(error.status).toBe(500);
    }
    if (isFinApiError(error, 'total_mismatch')) expectTypeOf(error.code).toEqualTypeOf<'total_mismatch'>();
  });

  it('the brand is not enumerable: JSON and equality see only the fields', () => {
    const error = new FinInputError({ code: 'validation_error', details: [] });
    expect(
      Object.getOwnPropertySymbols(error).every(
        (key) => !Object.getOwnPropertyDescriptor(error, key)?.enumerable,
      ),
    ).toBe(true);
    expect(JSON.parse(JSON.stringify(error))).toEqual({
      name: 'FinInputError',
      code: 'validation_error',
      message: expect.any(String),
      status: 422,
      details: [],
    });
  });
});
