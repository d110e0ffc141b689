// The simulated partner over HTTPS with client-certificate authentication, and fin-pos-check --cert --key --ca against it (issue 29 §3).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { makeTestPki, type TestPki } from '../../../test/support/certificates.js';
import { httpsFetch } from '../../../test/support/https-fetch.js';
import { type PartnerPosServer, startPartnerPos } from '../src/index.js';
import { finPosCheck, partnerArguments } from './support/fin-pos-check-cli.js';

let pki: TestPki;
let folder = '';
const partners: PartnerPosServer[] = [];
const files = { ca: '', cert: '', key: '' };

beforeAll(async () => {
  pki = makeTestPki(['pos-checker']);
  folder = await mkdtemp(join(tmpdir(), 'fin-pos-mtls-'));
  const client = pki.clients['pos-checker']!;
  for (const [name, pem] of [
    ['ca', pki.ca],
    ['cert', client.cert],
    ['key', client.key],
  ] as const) {
    files[name] = join(folder, `${name}.pem`);
    await writeFile(files[name], pem);
  }
});
afterAll(async () => {
  for (const partner of partners) await partner.close();
  await rm(folder, { recursive: true, force: true });
});

/** The partner over HTTPS, requiring client certificates of the test CA; TLS 1.2+ unless told. */
async function partnerOverTls(minVersion?: 'TLSv1.1') {
  const partner = await startPartnerPos({
    size: { stores: 1, productsPerStore: 40, employees: 10 },
    tls: { cert: pki.server.cert, key: pki.server.key, ca: pki.ca, ...(minVersion ? { minVersion } : {}) },
  });
  partners.push(partner);
  return partner;
}

const tokenBody = (partner: PartnerPosServer) =>
  new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: partner.sim.credentials.clientId,
    client_secret: partner.sim.credentials.clientSecret,
  });

describe('the simulated partner with client-certificate authentication', () => {
  test('serves https://, answers a client presenting a certificate of its CA, refuses the handshake to others', async () => {
    const partner = await partnerOverTls();
    expect(partner.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const client = pki.clients['pos-checker']!;
    const answer = await httpsFetch({ ca: pki.ca, cert: client.cert, key: client.key })(
      `${partner.url}/v1/oauth/token`,
      { method: 'POST', body: tokenBody(partner) },
    );
    expect(answer.status).toBe(200);
    const without = httpsFetch({ ca: pki.ca })(`${partner.url}/v1/oauth/token`, {
      method: 'POST',
      body: tokenBody(partner),
    });
    await expect(without).rejects.toThrow();
    const stranger = httpsFetch({ ca: pki.ca, cert: pki.stranger.cert, key: pki.stranger.key });
    await expect(stranger(`${partner.url}/v1/oauth/token`, { method: 'POST' })).rejects.toThrow();
  });
});

type Report = {
  exitCode: number;
  results: { id: string; status: string; problems: { message: string }[] }[];
};
const transport = (report: Report) => report.results.find((result) => result.id === 'transport-security')!;

describe('fin-pos-check --cert --key --ca', () => {
  test('checks a partner that requires a client certificate: every check passes, TLS 1.2+ only, no finding', async () => {
    const partner = await partnerOverTls();
    const { args, secrets } = partnerArguments(partner);
    const run = await finPosCheck(partner, [
      ...args,
      ...['--cert', files.cert, '--key', files.key, '--ca', files.ca, '--json'],
    ]);
    const report = JSON.parse(run.stdout) as Report;
    expect(report.results.filter((result) => result.status !== 'pass').map((result) => result.id)).toEqual(
      [],
    );
    expect(run.code).toBe(0);
    for (const secret of [...secrets, pki.clients['pos-checker']!.key])
      expect(run.stdout).not.toContain(secret);
  }, 60_000);

  test('without --cert the partner does not answer: a violation, exit 1', async () => {
    const partner = await partnerOverTls();
    const run = await finPosCheck(partner, [...partnerArguments(partner).args, '--ca', files.ca, '--json']);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout).results[0].problems[0].message).toMatch(/no answer/);
  }, 60_000);

  test('--cert without --key is a usage error', async () => {
    const partner = await partnerOverTls();
    const run = await finPosCheck(partner, [...partnerArguments(partner).args, '--cert', files.cert]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('give --cert and --key together');
  }, 60_000);

  test('reports as a finding a partner that agrees a TLS 1.1 handshake (exit 0: a finding is no failure)', async () => {
    const partner = await partnerOverTls('TLSv1.1');
    const { args } = partnerArguments(partner);
    const run = await finPosCheck(partner, [
      ...args,
      ...['--cert', files.cert, '--key', files.key, '--ca', files.ca, '--json'],
    ]);
    const report = JSON.parse(run.stdout) as Report;
    expect(transport(report).status).toBe('warn');
    expect(transport(report).problems[0]!.message).toMatch(/agreed a TLSv1(\.1)? handshake/);
    expect(report.exitCode).toBe(0);
  }, 60_000);

  test('reports as a finding a partner served over plain HTTP', async () => {
    const partner = await startPartnerPos({ size: { stores: 1, productsPerStore: 40, employees: 10 } });
    partners.push(partner);
    const run = await finPosCheck(partner, [...partnerArguments(partner).args, '--json']);
    const report = JSON.parse(run.stdout) as Report;
    expect(transport(report).status).toBe('warn');
    expect(transport(report).problems[0]!.message).toMatch(/plain HTTP/);
  }, 60_000);
});
