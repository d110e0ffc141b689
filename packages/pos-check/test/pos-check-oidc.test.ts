// Issue 35 §5, CHK-3: fin-pos-check --oidc passes the example partner's provider and fails each broken one on its own check.
import { execFile } from 'node:child_process';
import { webcrypto } from 'node:crypto';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  JWT_CLIENT,
  type PartnerFixture,
  REDIRECT_URI,
  startPartnerFixture,
} from '../../pos-client/test/seller-login/partner-provider.fixtures.js';
import { oidcChecks, runOidcCheck } from '../src/oidc/run.js';
import type { CheckReport } from '../src/report.js';
import { junitReport } from '../src/reporters/junit.js';
import { terminalReport } from '../src/reporters/terminal.js';
import { type Breakage, checkOptions } from './oidc-providers.fixtures.js';

const run = promisify(execFile);
const tsx = fileURLToPath(new URL('../../../node_modules/.bin/tsx', import.meta.url));
const cli = fileURLToPath(new URL('../src/cli.ts', import.meta.url));
const loginCommand = fileURLToPath(new URL('./oidc-login-command.ts', import.meta.url));

let partner: PartnerFixture;
beforeAll(async () => {
  partner = await startPartnerFixture();
});
afterAll(() => partner?.close());

const statuses = (report: CheckReport) => Object.fromEntries(report.results.map((r) => [r.id, r.status]));
const failing = (report: CheckReport) => report.results.filter((r) => r.status === 'fail').map((r) => r.id);
const allPass = Object.fromEntries(oidcChecks.map((check) => [check.id, 'pass']));

describe('fin-pos-check --oidc against the example partner provider', () => {
  test.each(['private_key_jwt', 'tls_client_auth'] as const)(
    'every check passes with %s, exit code 0',
    async (method) => {
      const report = await runOidcCheck(checkOptions(partner, method));
      expect(report.results.flatMap((r) => r.problems)).toEqual([]);
      expect(statuses(report)).toEqual(allPass);
      expect(report.exitCode).toBe(0);
      expect(report.requests).toBeGreaterThan(10);
    },
  );

  test('without a client registration and login, the discovery checks run and the login checks are skipped', async () => {
    const { client: _client, login: _login, ...discoveryOnly } = checkOptions(partner, 'private_key_jwt');
    const report = await runOidcCheck(discoveryOnly);
    expect(failing(report)).toEqual([]);
    expect(report.results.filter((r) => r.status === 'skip').map((r) => r.id)).toEqual([
      'oidc.id-token-claims',
      'oidc.code-single-use',
      'oidc.pkce-enforced',
      'oidc.redirect-uri-bound',
    ]);
  });
});

const without =
  (...names: string[]) =>
  (document: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(document).filter(([name]) => !names.includes(name)));
const withValues = (values: Record<string, unknown>) => (document: Record<string, unknown>) => ({
  ...document,
  ...values,
});

describe('fin-pos-check --oidc fails each broken provider on its own check', () => {
  test.each<[string, Breakage, string[]]>([
    [
      'no PAR endpoint',
      {
        discovery: without('pushed_authorization_request_endpoint', 'require_pushed_authorization_requests'),
      },
      [
        'oidc.par',
        // A provider without PAR cannot log anyone in: the login checks fail with it (the reused code has none to reuse).
        'oidc.id-token-claims',
        'oidc.pkce-enforced',
        'oidc.redirect-uri-bound',
      ],
    ],
    [
      'PKCE plain offered',
      { discovery: withValues({ code_challenge_methods_supported: ['S256', 'plain'] }) },
      ['oidc.pkce-methods'],
    ],
    [
      'no S256',
      { discovery: withValues({ code_challenge_methods_supported: ['plain'] }) },
      ['oidc.pkce-methods'],
    ],
    [
      'no iss parameter',
      { discovery: without('authorization_response_iss_parameter_supported') },
      ['oidc.iss-parameter'],
    ],
    [
      'client secrets only',
      { discovery: withValues({ token_endpoint_auth_methods_supported: ['client_secret_basic'] }) },
      ['oidc.client-auth'],
    ],
    [
      'no bound tokens',
      {
        discovery: without('tls_client_certificate_bound_access_tokens', 'dpop_signing_alg_values_supported'),
      },
      ['oidc.bound-tokens'],
    ],
    [
      'alg none and HS256 offered',
      { discovery: withValues({ id_token_signing_alg_values_supported: ['ES256', 'HS256', 'none'] }) },
      ['oidc.signing-algs'],
    ],
    ['PKCE not enforced', { ignoresVerifier: true }, ['oidc.pkce-enforced']],
    ['codes reusable', { replaysCodes: true }, ['oidc.code-single-use']],
    ['redirect_uri not compared', { ignoresRedirectUri: true }, ['oidc.redirect-uri-bound']],
  ])('%s', async (_name, breakage, expected) => {
    const report = await runOidcCheck(checkOptions(partner, 'private_key_jwt', breakage));
    expect(failing(report)).toEqual(expected);
    expect(report.exitCode).toBe(1);
  });

  test('ID token claims malformed (a masked store CNPJ): oidc.id-token-claims fails, naming the claim, never its value', async () => {
    const store = partner.provider.sim.data.stores.find(
      (s) => s.storeId === partner.provider.sim.data.sellers[0]!.storeId,
    )!;
    const cnpj = store.cnpj;
    store.cnpj = `${cnpj.slice(0, 2)}.${cnpj.slice(2, 5)}.${cnpj.slice(5, 8)}/${cnpj.slice(8, 12)}-${cnpj.slice(12)}`;
    try {
      const report = await runOidcCheck(checkOptions(partner, 'private_key_jwt'));
      expect(failing(report)).toEqual(['oidc.id-token-claims']);
      const problem = report.results.find((r) => r.id === 'oidc.id-token-claims')!.problems[0]!;
      expect(problem.message).toMatch(/claims\.store_cnpj/);
      expect(JSON.stringify(report)).not.toContain(store.cnpj);
      expect(terminalReport(report)).toMatch(/FAIL oidc\.id-token-claims/);
      expect(junitReport(report)).toMatch(/<failure message="claims missing or malformed/);
    } finally {
      store.cnpj = cnpj;
    }
  });
});

describe('the fin-pos-check --oidc command', () => {
  test('private_key_jwt keys from JWK files and the partner login command: every check passes, JUnit written; a usage error exits 2', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'fin-pos-check-oidc-'));
    const file = async (name: string, text: string) => {
      await writeFile(join(dir, name), text);
      return join(dir, name);
    };
    const assertion = await webcrypto.subtle.exportKey('jwk', partner.keys.assertion.privateKey);
    const ec = { name: 'ECDSA', namedCurve: 'P-256' } as const;
    const dpop = (await webcrypto.subtle.generateKey(ec, true, ['sign', 'verify'])) as CryptoKeyPair;
    const seller = partner.provider.sim.data.sellers[0]!;
    const env = {
      ...process.env,
      TEST_SELLER_CPF: seller.cpf,
      TEST_SELLER_PASSWORD: seller.password,
      TEST_CA_FILE: await file('ca.pem', partner.pki.ca),
      TEST_REDIRECT_URI: REDIRECT_URI,
    };
    const junit = join(dir, 'report.xml');
    const { stdout } = await run(
      tsx,
      [
        cli,
        '--oidc',
        partner.provider.issuer,
        '--oidc-client-id',
        JWT_CLIENT,
        '--oidc-redirect-uri',
        REDIRECT_URI,
        '--oidc-private-key',
        await file('client.jwk', JSON.stringify({ ...assertion, kid: partner.keys.publicJwk.kid })),
        '--oidc-dpop-key',
        await file('dpop.jwk', JSON.stringify(await webcrypto.subtle.exportKey('jwk', dpop.privateKey))),
        '--oidc-login-command',
        `"${tsx}" "${loginCommand}"`,
        '--ca',
        env.TEST_CA_FILE,
        '--json',
        '--junit',
        junit,
      ],
      { env },
    );
    const report = JSON.parse(stdout) as CheckReport;
    expect(statuses(report)).toEqual(allPass);
    expect(stdout).not.toContain(seller.cpf);
    expect(await readFile(junit, 'utf8')).toMatch(/<testsuites name="fin-pos-check" tests="11" failures="0"/);
    const usage = await run(tsx, [
      cli,
      '--oidc',
      partner.provider.issuer,
      '--oidc-client-id',
      JWT_CLIENT,
    ]).catch((error: { code: number; stderr: string }) => error);
    expect(usage).toMatchObject({ code: 2, stderr: expect.stringMatching(/--oidc-login-command together/) });
  }, 120_000);
});
