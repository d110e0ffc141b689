// fin-pos-check as a partner runs it: the command against the simulated partner on loopback, its exit codes, reports and masking.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type PartnerPosServer, startPartnerPos } from '../src/index.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
/** The command from its sources (tsx resolves @fin/* through the root tsconfig paths); the pack test runs the built bin. */
const command = [
  join(root, 'node_modules', '.bin', 'tsx'),
  join(root, 'packages/pos-client/src/check/cli.ts'),
];

let partner: PartnerPosServer;
let folder = '';
const SALE_CPF = '52998224725';

beforeAll(async () => {
  partner = await startPartnerPos({ size: { stores: 2, productsPerStore: 60, employees: 30 } });
  folder = await mkdtemp(join(tmpdir(), 'fin-pos-check-'));
});
afterAll(async () => {
  await partner.close();
  await rm(folder, { recursive: true, force: true });
});

/** The partner's test data as command-line arguments; the client secret comes from the environment. */
function partnerArguments() {
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

async function finPosCheck(args: string[]) {
  const [file, ...prefix] = command;
  try {
    const { stdout, stderr } = await promisify(execFile)(file!, [...prefix, ...args], {
      cwd: root,
      env: { ...process.env, FIN_POS_CHECK_CLIENT_SECRET: partner.sim.credentials.clientSecret },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('npx fin-pos-check against a partner over HTTP', () => {
  test('a conforming partner: exit 0, a progress line per check, a JUnit file, no secret or personal data printed', async () => {
    const { args, secrets } = partnerArguments();
    const junit = join(folder, 'report.xml');
    const run = await finPosCheck([...args, '--junit', junit]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/\[ 1\/22\] PASS oauth\.token-response/);
    expect(run.stdout).toMatch(/\[22\/22\] PASS payload/);
    expect(run.stdout).toContain('22 passed, 0 failed');
    const xml = await readFile(junit, 'utf8');
    expect(xml.match(/<testcase /g)).toHaveLength(22);
    expect(xml).toContain('failures="0"');
    for (const secret of secrets) expect(`${run.stdout}${run.stderr}${xml}`).not.toContain(secret);
  }, 60_000);

  test('--json: the report as JSON on stdout, progress on stderr', async () => {
    const run = await finPosCheck([...partnerArguments().args, '--json']);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report).toMatchObject({ exitCode: 0, summary: { pass: 22, fail: 0, warn: 0, skip: 0 } });
    expect(run.stderr).toMatch(/PASS r01\.store-context/);
  }, 60_000);

  test('a broken partner: exit 1, the failing check with what to fix; a finding alone keeps exit 0', async () => {
    partner.sim.faults.breakContract('store-context-422');
    const broken = await finPosCheck(partnerArguments().args);
    partner.sim.faults.clear();
    expect(broken.code).toBe(1);
    expect(broken.stdout).toMatch(/FAIL r01\.store-context/);
    expect(broken.stdout).toMatch(/fix: check storeId first on every store-scoped call/);

    partner.sim.partner.set({ stockField: 'quantity' });
    const finding = await finPosCheck(partnerArguments().args);
    partner.sim.partner.reset();
    expect(finding.code).toBe(0);
    expect(finding.stdout).toMatch(
      /WARN stock[\s\S]*finding at GET \/v1\/stock[\s\S]*fix: name the count `stock`/,
    );
  }, 60_000);

  test('usage errors (no --imei, credentials in the base URL): exit 2 with the usage, nothing sent', async () => {
    const args = partnerArguments().args;
    const at = args.indexOf('--imei');
    const before = partner.sim.requests.count();
    const run = await finPosCheck([...args.slice(0, at), ...args.slice(at + 2)]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--imei is required');
    expect(run.stderr).toContain('Usage: fin-pos-check');
    expect(partner.sim.requests.count()).toBe(before);

    const withCredentials = args.map((arg) => arg.replace('http://', 'http://vendor:s3cr3t@'));
    const refused = await finPosCheck(withCredentials);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--base-url must not carry credentials');
    expect(refused.stderr).not.toContain('s3cr3t');
  }, 60_000);
});
