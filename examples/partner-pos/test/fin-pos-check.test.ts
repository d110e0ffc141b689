// fin-pos-check as a partner runs it: the command against the simulated partner on loopback, its exit codes, reports and masking.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type PartnerPosServer, startPartnerPos } from '../src/index.js';
import { partnerArguments as argumentsOf, finPosCheck as run } from './support/fin-pos-check-cli.js';

let partner: PartnerPosServer;
let folder = '';

beforeAll(async () => {
  partner = await startPartnerPos({ size: { stores: 2, productsPerStore: 60, employees: 30 } });
  folder = await mkdtemp(join(tmpdir(), 'fin-pos-check-'));
});
afterAll(async () => {
  await partner.close();
  await rm(folder, { recursive: true, force: true });
});

const partnerArguments = () => argumentsOf(partner);
const finPosCheck = (args: string[]) => run(partner, args);

describe('npx fin-pos-check against a partner over HTTP', () => {
  test('a conforming partner: exit 0, a progress line per check, a JUnit file, no secret or personal data printed', async () => {
    const { args, secrets } = partnerArguments();
    const junit = join(folder, 'report.xml');
    const run = await finPosCheck([...args, '--junit', junit]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/\[ 1\/23\] PASS oauth\.token-response/);
    expect(run.stdout).toMatch(/\[22\/23\] PASS payload/);
    // Plain HTTP on a real (loopback) server is a finding, never a failure (issue 29 §3).
    expect(run.stdout).toMatch(/\[23\/23\] WARN transport-security/);
    expect(run.stdout).toContain('22 passed, 0 failed');
    const xml = await readFile(junit, 'utf8');
    expect(xml.match(/<testcase /g)).toHaveLength(23);
    expect(xml).toContain('failures="0"');
    for (const secret of secrets) expect(`${run.stdout}${run.stderr}${xml}`).not.toContain(secret);
  }, 60_000);

  test('--json: the report as JSON on stdout, progress on stderr', async () => {
    const run = await finPosCheck([...partnerArguments().args, '--json']);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report).toMatchObject({ exitCode: 0, summary: { pass: 22, fail: 0, warn: 1, skip: 0 } });
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
