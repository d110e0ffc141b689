// `pnpm --filter @fin/example-partner-pos start`: a simulated partner POS on loopback until Ctrl+C.
import { readFileSync } from 'node:fs';
import { type PartnerPosTls, startPartnerPos } from './server.js';

const number = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer`);
  return value;
};

function reservationsOf(value: string | undefined) {
  if (value === undefined || value === 'supported') return 'supported';
  if (value === 'not-found' || value === 'not-implemented') return value;
  throw new Error('RESERVATIONS must be supported, not-found or not-implemented');
}

/** TLS_CERT and TLS_KEY (PEM files) serve HTTPS; TLS_CA also requires client certificates it signed (docs/mtls.md). */
function tlsOf(env: NodeJS.ProcessEnv): PartnerPosTls | undefined {
  const { TLS_CERT: cert, TLS_KEY: key, TLS_CA: ca } = env;
  if (!cert && !key) return undefined;
  if (!cert || !key) throw new Error('TLS_CERT and TLS_KEY go together');
  const pem = (file: string) => readFileSync(file, 'utf8');
  return { cert: pem(cert), key: pem(key), ...(ca ? { ca: pem(ca) } : {}) };
}

const tls = tlsOf(process.env);
const partner = await startPartnerPos({
  ...(tls ? { tls } : {}),
  port: number('PORT', 4010),
  seed: number('SEED', 1),
  size: {
    stores: number('STORES', 3),
    productsPerStore: number('PRODUCTS_PER_STORE', 300),
    employees: number('EMPLOYEES', 300),
  },
  loginShape: process.env.LOGIN_SHAPE === 'flat' ? 'flat' : 'status-wrapped',
  // RESERVATIONS=not-found|not-implemented plays a partner without stock reservation (v1.1, optional).
  partner: { reservations: reservationsOf(process.env.RESERVATIONS) },
});

const seller = partner.sim.data.sellers[0]!;
const device = partner.sim.data.devices({ storeId: seller.storeId, inStock: true })[0]!;
const sale = partner.sim.data.sales[0]!;
const accessory = partner.sim.data
  .products(seller.storeId)
  .find((entry) => entry.product.productType === 'ACCESSORY')!;
const { clientId, clientSecret } = partner.sim.credentials;
process.stdout.write(
  [
    `Simulated partner POS at ${partner.url} (seed ${number('SEED', 1)})`,
    `  client credentials: ${clientId} / ${clientSecret}`,
    `  a seller (simulated data): username ${seller.username}, password ${seller.password}, store ${seller.storeId}`,
    `  a device on the shelf of that store: IMEI ${device.imei} (${device.sku})`,
    `  a registered sale: customer CPF ${sale.taxId} (${sale.sale.status}); an accessory: barcode ${accessory.barcode}`,
    `  stock reservation (v1.1): ${partner.sim.partner.variants.reservations} (RESERVATIONS=not-found|not-implemented to play a partner without it)`,
    '  check it against the contract (docs/pos-implementers.md):',
    `    fin-pos-check --base-url ${partner.url} --client-id ${clientId} --client-secret ${clientSecret} \\`,
    `      --seller-username ${seller.username} --seller-password ${seller.password} --store-id ${seller.storeId} \\`,
    `      --imei ${device.imei} --sale-cpf ${sale.taxId} --accessory-barcode ${accessory.barcode}` +
      (tls
        ? ` \\\n      --ca <the CA of TLS_CERT>${tls.ca ? ' --cert <client.crt> --key <client.key>' : ''}`
        : ''),
    '  stop with Ctrl+C',
    '',
  ].join('\n'),
);

const stop = () => {
  partner.close().then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
