// The financing service the reliability suite attacks: two partners, the sandbox credit engine, a store that counts writes.
import type { Logger } from '@fin/core';
import {
  createFinancingService,
  type FinancingServiceOptions,
  memoryStore,
  type Store,
  sandboxCreditEngine,
} from '@fin/server-kit';

export const PARTNER_A = {
  clientId: 'partner-a',
  clientSecret: 'secret-of-partner-a-0001',
  storeId: 'store-a-001',
};
export const PARTNER_B = {
  clientId: 'partner-b',
  clientSecret: 'secret-of-partner-b-0002',
  storeId: 'store-b-001',
};
/** CPFs of the cart (valid check digits, approved by the sandbox credit engine). */
export {
  BENCH_CLIENT_TAX_ID as CUSTOMER_CPF,
  BENCH_SELLER_TAX_ID as SELLER_CPF,
} from '../../../bench/lib/cart.js';

/** A store whose authorization writes are counted by IMEI: the server-side executions of each write. */
export function countingStore(inner: Store = memoryStore()) {
  const executions = new Map<string, number>();
  const store = new Proxy(inner, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (property !== 'createAuthorization' || typeof value !== 'function') {
        return typeof value === 'function' ? value.bind(target) : value;
      }
      const create: Store['createAuthorization'] = async (input) => {
        const result = await value.call(target, input);
        if (result.ok) {
          const key = input.authorization.imei;
          executions.set(key, (executions.get(key) ?? 0) + 1);
        }
        return result;
      };
      return create;
    },
  });
  return { store, executions: (deviceImei: string) => executions.get(deviceImei) ?? 0, all: executions };
}

export function reliabilityService(
  options: { store: Store; logger?: Logger } & Partial<FinancingServiceOptions>,
) {
  return createFinancingService({
    clients: [PARTNER_A, PARTNER_B].map(({ clientId, clientSecret, storeId }) => ({
      clientId,
      clientSecret,
      scopes: ['sales:authorize' as const],
      storeIds: [storeId],
    })),
    credit: sandboxCreditEngine(),
    ...options,
  });
}

/** The bench's cart and IMEI stream: one definition of a valid cart for the whole repository. */
export { benchCart as cartFor, imeiStream } from '../../../bench/lib/cart.js';
