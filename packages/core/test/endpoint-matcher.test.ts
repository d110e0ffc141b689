// The registry's router (server-kit and the simulated POS): a literal path segment wins over a parameter.
import { endpoints } from '@fin/core';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';

const entry = (method: 'GET' | 'POST', path: string) =>
  endpoints.defineEndpoint({
    method,
    path,
    rate: method === 'GET' ? 'read' : 'write',
    scopes: [],
    response: { schema: z.object({}), envelope: false, description: 'test' },
    errors: [],
    docs: { summary: path, description: path, tag: 'test' },
  });

describe('createEndpointMatcher: literal segments rank before parameters', () => {
  // The parameter entry is declared first, so declaration order cannot be what makes the literal win.
  const table = {
    retrieve: entry('GET', '/v1/sales/{id}'),
    confirm: entry('POST', '/v1/sales/{id}/confirm'),
    authorize: entry('POST', '/v1/sales/authorize'),
  };
  const match = endpoints.createEndpointMatcher(table);

  it('GET /v1/sales/authorize is not caught by GET /v1/sales/{id}: the literal path answers 405', () => {
    expect(match('GET', '/v1/sales/authorize')).toEqual({
      ok: false,
      code: 'method_not_allowed',
      allow: 'POST',
    });
    expect(match('POST', '/v1/sales/authorize')).toEqual({ ok: true, operationId: 'authorize', params: {} });
  });

  it('any other segment is the parameter, decoded', () => {
    expect(match('GET', '/v1/sales/auth%20x')).toEqual({
      ok: true,
      operationId: 'retrieve',
      params: { id: 'auth x' },
    });
    expect(match('POST', '/v1/sales/authorize/confirm')).toEqual({
      ok: true,
      operationId: 'confirm',
      params: { id: 'authorize' },
    });
    expect(match('DELETE', '/v1/sales/x')).toEqual({ ok: false, code: 'method_not_allowed', allow: 'GET' });
    expect(match('GET', '/v1/other')).toEqual({ ok: false, code: 'not_found' });
  });

  it('the registries route the same way whatever their declaration order', () => {
    const reversed = endpoints.createEndpointMatcher(
      Object.fromEntries(Object.entries(endpoints.salesAuthorization).reverse()),
    );
    expect(reversed('POST', '/v1/sales/authorize')).toMatchObject({ ok: true, operationId: 'authorizeSale' });
  });
});
