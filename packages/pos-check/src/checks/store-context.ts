// every store-scoped call without storeId is HTTP 400 store_context_required; the store-scoped calls come from the registry.
import { catalogEntry, endpoints } from '@fin/core';
import { type Check, expectError } from '../check.js';
import type { PosOperation } from '../probe.js';

/**
 * The endpoints whose query carries `storeId` (plans, products, barcode, services, stock, IMEI). The
 * optional stock reservation endpoints (v1.1) are left to the reservation checks, skipped for a partner without them.
 */
const storeScopedOperations = (Object.keys(endpoints.partnerPos) as PosOperation[]).filter((operation) => {
  const { query, path } = endpoints.partnerPos[operation] as endpoints.EndpointDefinition;
  return query !== undefined && 'storeId' in query.shape && !path.startsWith('/v1/stock/reservations');
});

export const storeContext: Check = {
  id: 'r01.store-context',
  title: 'R-01: store-scoped calls without storeId are 400 store_context_required',
  async run(context) {
    const { probe, options, facts } = context;
    // Every other parameter right, so storeId is the only thing missing.
    const sample: Record<string, string> = {
      planId: await facts.planId(),
      sku: await facts.smartphoneSku(),
      barcode: options.accessoryBarcode ?? '7890000000000',
      imei: options.imei,
    };
    const expected = {
      status: catalogEntry('store_context_required')!.status,
      code: 'store_context_required',
    };
    for (const operation of storeScopedOperations) {
      const shape = (endpoints.partnerPos[operation] as endpoints.EndpointDefinition).query!.shape;
      const query = Object.fromEntries(
        Object.keys(shape)
          .filter((name) => sample[name] !== undefined)
          .map((name) => [name, sample[name]]),
      );
      const exchange = await probe.send(operation, { query });
      expectError(
        context,
        exchange,
        expected,
        'a call without storeId',
        'check storeId first on every store-scoped call and answer HTTP 400 with error code `store_context_required` (R-01, spec section 5)',
      );
    }
  },
};
