// Sets up the sandbox's standing facts: the fixed-amount proposal and the already financed device.
import { type Clock, money } from '@fin/core';
import type { FinancingService } from '@fin/server-kit';
import { buildCart } from '../cart.js';
import { AuthorizationClient } from '../client.js';
import { magicValues } from './magic-values.js';

/** A second partner of the sandbox, owning its own store, that financed `imei.alreadyFinanced`. */
export const SEED_PARTNER = { clientId: 'test_sandbox_seed', storeId: 'store-seed' } as const;

export async function seedSandbox(
  service: FinancingService,
  seedSecret: string,
  clock: Clock,
): Promise<void> {
  await service.proposals.approve({
    clientTaxId: magicValues.cpf.fixedApproval,
    storeId: magicValues.storeId,
    amount: money.brl(magicValues.fixedApprovalAmount),
  });
  // Through the real API, so the IMEI is held by the same rule as any other financing.
  const partner = new AuthorizationClient({
    baseUrl: 'https://sandbox.seed',
    clientId: SEED_PARTNER.clientId,
    clientSecret: seedSecret,
    rateLimit: false,
    fetch: (input, init) => service.fetch(new Request(input, init)),
  });
  const financed = await partner.authorize(
    buildCart({
      client: { name: 'Cliente Sandbox', taxId: magicValues.cpf.approved, phoneNumber: '11900000000' },
      seller: { id: 'seed-seller', taxId: magicValues.cpf.approved, name: 'Vendedor Sandbox' },
      storeId: SEED_PARTNER.storeId,
      planId: 'plan-seed',
      imei: magicValues.imei.alreadyFinanced,
      items: [
        {
          sku: 'SEED-1',
          productType: 'SMARTPHONE',
          name: 'Aparelho',
          quantity: 1,
          unitPrice: money.brl(150_000),
        },
      ],
    }),
  );
  if (!financed.authorized) throw new Error('sandbox seed: the financed device was not authorized');
  await partner.confirm(financed.authorizationId, {
    saleNumber: 'SEED-1',
    invoiceNumber: 'SEED-1',
    nfeAccessKey: magicValues.nfeAccessKey,
    invoicedAt: clock.now(),
  });
}
