// Drift: a registry entry server-kit has no use case for fails the service when it is created (a read as a write).
import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(() => {
  vi.doUnmock('@fin/core');
  vi.resetModules();
});

/** `@fin/server-kit` loaded against a registry that has one more Sales Authorization entry. */
async function serverKitWithExtraEntry(method: 'GET' | 'POST') {
  vi.resetModules();
  vi.doMock('@fin/core', async (importOriginal) => {
    const core = await importOriginal<typeof import('@fin/core')>();
    const { body: _, ...cancel } = core.endpoints.salesAuthorization.cancelSale;
    const base = method === 'GET' ? { ...cancel, method, rate: 'read' } : { ...cancel, body: _ };
    const salesAuthorization = {
      ...core.endpoints.salesAuthorization,
      saleHistory: { ...base, path: '/v1/sales/{id}/history' },
    };
    return { ...core, endpoints: { ...core.endpoints, salesAuthorization } };
  });
  return import('@fin/server-kit');
}

describe('server-kit against the endpoint registry', () => {
  it.each(['GET', 'POST'] as const)(
    'a %s entry without a server stage (no use case) fails createFinancingService',
    async (method) => {
      const { createFinancingService, sandboxCreditEngine } = await serverKitWithExtraEntry(method);
      expect(() =>
        createFinancingService({
          clients: [
            { clientId: 'pos', clientSecret: 'secret', scopes: ['sales:authorize'], storeIds: ['s-1'] },
          ],
          credit: sandboxCreditEngine(),
        }),
      ).toThrow('saleHistory: in the registry, no use case serves it');
    },
  );

  it('the registry as it is builds a service', async () => {
    const { createFinancingService, sandboxCreditEngine } = await import('@fin/server-kit');
    const service = createFinancingService({
      clients: [{ clientId: 'pos', clientSecret: 'secret', scopes: ['sales:authorize'], storeIds: ['s-1'] }],
      credit: sandboxCreditEngine(),
    });
    await service.close();
  });
});
