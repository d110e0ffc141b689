// Shared inputs of the authorization-client tests: the sandbox behind msw, a sandbox-approved cart, a valid NF-e key.
import { type AuthorizationClient, buildCart, type CartInput } from '@fin/authorization-client';
import { magicValues } from '@fin/authorization-client/testing';
import { authorizationHandlers, SANDBOX_BASE_URL } from '@fin/authorization-client/testing/msw';
import { money } from '@fin/core';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';

export const NFE_KEY = magicValues.nfeAccessKey;

export const sandboxClientOptions = {
  baseUrl: SANDBOX_BASE_URL,
  ...magicValues.credentials,
  rateLimit: false,
} as const;

export const cartInput = (change: Partial<CartInput> = {}): CartInput => ({
  client: { name: 'Maria Souza', taxId: magicValues.cpf.approved, phoneNumber: '11987654321' },
  seller: { id: 'seller-7', taxId: '98765432100', name: 'João Lima' },
  storeId: magicValues.storeId,
  planId: 'plan-controle',
  imei: magicValues.imei.approved,
  items: [
    {
      sku: 'SM-A55',
      productType: 'SMARTPHONE',
      name: 'Galaxy A55',
      quantity: 1,
      unitPrice: money.brl(189_990),
    },
  ],
  services: [
    { serviceId: 'gar-12', type: 'EXTENDED_WARRANTY', name: 'Garantia 12 meses', price: money.brl(29_900) },
  ],
  ...change,
});

export const cart = (change: Partial<CartInput> = {}) => buildCart(cartInput(change));

/** A whole sale on the sandbox: `cart` authorized (the sandbox approves magicValues.cpf.approved), then confirmed. */
export async function authorizeAndConfirm(client: AuthorizationClient, sale = cart()) {
  const result = await client.authorize(sale);
  if (!result.authorized) throw new Error('the sandbox approves magicValues.cpf.approved');
  const confirmed = await client.confirm(result.authorizationId, {
    saleNumber: 'V-1',
    invoiceNumber: '1',
    nfeAccessKey: magicValues.nfeAccessKey,
    invoicedAt: new Date(),
  });
  return { authorizationId: result.authorizationId, status: confirmed.status };
}

/** msw serving a fresh sandbox to each test of the file; listeners a test adds are dropped after it. */
export function useSandbox() {
  const server = setupServer();
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  beforeEach(() => server.use(...authorizationHandlers()));
  afterEach(() => {
    server.resetHandlers();
    server.events.removeAllListeners();
  });
  afterAll(() => server.close());
  return server;
}
