// Shared inputs of the authorization-client tests: a sandbox-approved cart and a valid NF-e key.
import { buildCart, type CartInput } from '@fin/authorization-client';
import { magicValues, SANDBOX_BASE_URL } from '@fin/authorization-client/testing';
import { money } from '@fin/core';

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
