// fin-pos-check as a partner runs it, from its sources: the command, and the simulated partner's test data as its arguments.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { PartnerPosServer } from '../../src/index.js';

const root = fileURLToPath(new URL('../../../..', import.meta.url));
/** The command from its sources (tsx resolves @fin/* through the root tsconfig paths); the pack test runs the built bin. */
const command = [join(root, 'node_modules', '.bin', 'tsx'), join(root, 'packages/pos-check/src/cli.ts')];

export const SALE_CPF = '52998224725';

/** The partner's test data as command-line arguments; the client secret comes from the environment. */
export function partnerArguments(partner: PartnerPosServer) {
  const { sim } = partner;
  const seller = sim.data.sellers[0]!;
  const [shelved, sold] = sim.data.devices({ storeId: seller.storeId, inStock: true });
  if (sim.sales.find({ taxId: SALE_CPF }).length === 0)
    sim.sales.register({ imei: sold!.imei, taxId: SALE_CPF, status: 'ACTIVE' });
  const accessory = sim.data.products(seller.storeId).find((e) => e.product.productType === 'ACCESSORY')!;
  const secrets = [sim.credentials.clientSecret, seller.password, seller.cpf, SALE_CPF, shelved!.imei];
  const args = [
    ...['--base-url', partner.url, '--client-id', sim.credentials.clientId],
    ...['--seller-cpf', seller.cpf, '--seller-password', seller.password, '--store-id', seller.storeId],
    ...['--imei', shelved!.imei, '--sale-cpf', SALE_CPF, '--accessory-barcode', accessory.barcode],
  ];
  return { args, secrets };
}

/** Runs the command with `args` (the client secret in its environment): exit code and both outputs. */
export async function finPosCheck(partner: PartnerPosServer, args: string[], env: NodeJS.ProcessEnv = {}) {
  const [file, ...prefix] = command;
  try {
    const { stdout, stderr } = await promisify(execFile)(file!, [...prefix, ...args], {
      cwd: root,
      env: { ...process.env, FIN_POS_CHECK_CLIENT_SECRET: partner.sim.credentials.clientSecret, ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}
