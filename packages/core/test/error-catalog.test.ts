// The error catalog holds every code of the spec, each with a unique legacy code and a status.
import { errorCatalog, errorCodes, FinApiError, isFinApiError, schemas } from '@fin/core';
import { describe, expect, it } from 'vitest';

// Every code written in spec sections 5 and 7, copied from the spec text.
const specCodes = [
  'missing_token',
  'invalid_token',
  'expired_token',
  'invalid_client',
  'insufficient_scope',
  'store_context_required',
  'rate_limit_exceeded',
  'idempotency_key_conflict',
  'total_mismatch',
  'unsupported_currency',
  'imei_already_financed',
  'proposal_not_found',
  'proposal_already_used',
  'proposal_reuse_window_expired',
  'proposal_reuse_amount_exceeded',
  'proposal_reuse_limit_reached',
  'store_not_found',
  'imei_not_in_stock',
];

describe('errorCatalog', () => {
  it.each(specCodes)('holds the spec code %s', (code) => {
    expect(errorCodes).toContain(code);
  });

  it('keeps the HTTP statuses the spec fixes', () => {
    const fixed = {
      missing_token: 401,
      invalid_token: 401,
      expired_token: 401,
      invalid_client: 401,
      insufficient_scope: 403,
      store_context_required: 400,
      rate_limit_exceeded: 429,
      idempotency_key_conflict: 409,
    } as const;
    for (const [code, status] of Object.entries(fixed)) {
      expect(errorCatalog[code as keyof typeof fixed].status, code).toBe(status);
    }
  });

  it('gives each code a unique legacy code of two letters and four digits', () => {
    const legacy = errorCodes.map((code) => errorCatalog[code].legacyCode);
    expect(new Set(legacy).size).toBe(legacy.length);
    for (const code of legacy) expect(code).toMatch(/^[A-Z]{2}[0-9]{4}$/);
  });

  it('uses stable snake_case codes and a Portuguese message for each', () => {
    for (const code of errorCodes) {
      expect(code).toMatch(/^[a-z][a-z0-9_]*$/);
      expect(errorCatalog[code].message.length).toBeGreaterThan(10);
    }
  });
});

describe('FinApiError', () => {
  it('fills status, legacy code and message from the catalog', () => {
    const error = new FinApiError({ code: 'total_mismatch', requestId: 'r-1' });
    expect(error.status).toBe(errorCatalog.total_mismatch.status);
    expect(error.legacyCode).toBe(errorCatalog.total_mismatch.legacyCode);
    expect(error.message).toBe(errorCatalog.total_mismatch.message);
    expect(error.toJSON()).toMatchObject({ code: 'total_mismatch', requestId: 'r-1' });
  });

  it('keeps a code a newer server adds, and isFinApiError narrows on it', () => {
    const error = new FinApiError({ code: 'brand_new_code', status: 418, message: 'novo' });
    expect(isFinApiError(error)).toBe(true);
    expect(isFinApiError(error, 'brand_new_code')).toBe(true);
    expect(isFinApiError(error, 'total_mismatch')).toBe(false);
    expect(isFinApiError(new Error('x'))).toBe(false);
  });

  it('serializes into an error envelope the schema accepts', () => {
    const error = new FinApiError({ code: 'proposal_not_found' });
    const body = {
      success: false,
      message: error.message,
      timestamp: new Date().toISOString(),
      data: null,
      error: { code: error.code, legacyCode: error.legacyCode, message: error.message },
    };
    expect(schemas.errorEnvelope.parse(body).error.code).toBe('proposal_not_found');
  });
});
