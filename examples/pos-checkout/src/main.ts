// `pnpm --filter @fin/example-pos-checkout start`: one financed sale against a running financing service (see its README section).
import { AuthorizationClient } from '@fin/authorization-client';
import { magicValues } from '@fin/authorization-client/testing';
import { cpf, imei, money } from '@fin/core';
import { checkout } from './checkout.js';

const env = process.env;
// Defaults: examples/financing-service on its default port with the sandbox's documented credentials.
const fin = new AuthorizationClient({
  baseUrl: env.FIN_BASE_URL ?? 'http://127.0.0.1:8080',
  clientId: env.FIN_CLIENT_ID ?? magicValues.credentials.clientId,
  clientSecret: env.FIN_CLIENT_SECRET ?? magicValues.credentials.clientSecret,
  environment: 'sandbox',
});
const customer = {
  name: 'Maria Souza',
  taxId: env.CPF ?? magicValues.cpf.approved,
  phoneNumber: '11987654321',
};
const device = env.IMEI ?? magicValues.imei.approved;

const result = await checkout(
  fin,
  {
    client: customer,
    seller: { id: 'SEL-000001', taxId: '11144477735', name: 'Vendedor de exemplo' },
    storeId: env.STORE_ID ?? 'LJ-0001', // the simulated partner's first store
    planId: 'PLAN-PRE',
    imei: device,
    items: [
      {
        sku: 'SM-000001',
        productType: 'SMARTPHONE',
        name: 'Smartphone',
        quantity: 1,
        unitPrice: money.brl(199_990),
      },
    ],
  },
  // Your POS issues the NF-e here, only now that the sale is authorized; this sample invoice stands for it.
  async () => ({
    saleNumber: `V-${Date.now()}`,
    invoiceNumber: `NF-${Date.now()}`,
    nfeAccessKey: '35260317371324000139550010000000771000000779',
    invoicedAt: new Date(),
  }),
);

const who = `customer ${cpf.mask(customer.taxId)}, device ${imei.mask(device)}`;
if (result.outcome === 'financed') {
  const { contractId, principal, installments } = result.contract;
  process.stdout.write(
    `financed (${who}): contract ${contractId}, ${principal ? money.format(principal) : ''} in ${installments.length} installments\n`,
  );
} else if (result.outcome === 'declined') {
  process.stdout.write(`declined (${who}): ${result.declineReason}, "${result.message}"\n`);
} else {
  process.stdout.write(
    `refused (${who}): ${result.code} (HTTP ${result.status}, ${result.legacyCode}): ${result.action}\n`,
  );
}
