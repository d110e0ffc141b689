// Mutual TLS through service.fetch: the peer certificate a host passes, and a TLS-terminating proxy's header only when it is trusted.
import { createFinancingService, type FinancingServiceOptions, sandboxCreditEngine } from '@fin/server-kit';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeTestPki, type TestPki } from '../../../test/support/certificates.js';
import { boundClient } from './support/bound-client.js';
import { derOf, read, token } from './support/certificate-calls.js';

let pki: TestPki;
beforeAll(() => {
  pki = makeTestPki(['bound', 'other']);
});

const serviceWith = (extra: Partial<FinancingServiceOptions> = {}) =>
  createFinancingService({
    clients: [boundClient(pki.clients.bound!.sha256)],
    credit: sandboxCreditEngine(),
    ...extra,
  });

/** nginx's `$ssl_client_escaped_cert`: the PEM, URL-encoded. */
const escapedPem = (name: 'bound' | 'other') => encodeURIComponent(pki.clients[name]!.cert);
const der = (name: 'bound' | 'other') => derOf(pki.clients[name]!.cert);

describe('service.fetch(request, { peerCertificate }): the host hands the TLS peer certificate over (Hono, Deno, Bun)', () => {
  it('authenticates the bound client with its DER and binds the token to it', async () => {
    const service = serviceWith();
    const issued = await token(service, {}, { peerCertificate: der('bound') });
    expect(issued.status).toBe(200);
    expect(await read(service, issued.body.access_token, {}, { peerCertificate: der('bound') })).toBe(404);
    expect(await read(service, issued.body.access_token, {}, { peerCertificate: der('other') })).toBe(401);
    expect(await token(service, {}, { peerCertificate: der('other') })).toMatchObject({ status: 401 });
    await service.close();
  });
});

describe('behind a TLS-terminating proxy: its certificate header is read only when trusted', () => {
  it('ignores a certificate header when no proxy is trusted (the default): anyone could write it', async () => {
    const service = serviceWith();
    expect(await token(service, { 'x-client-cert': escapedPem('bound') })).toMatchObject({
      status: 401,
      body: { error: 'invalid_client' },
    });
    await service.close();
  });

  it('reads the trusted proxy header (URL-encoded PEM, PEM or base64 DER) and binds the token to it', async () => {
    const service = serviceWith({ trustedProxy: { certificateHeader: 'X-Client-Cert' } });
    const bare = Buffer.from(der('bound')).toString('base64');
    for (const header of [escapedPem('bound'), pki.clients.bound!.cert.replaceAll('\n', ' '), bare]) {
      expect((await token(service, { 'x-client-cert': header })).status).toBe(200);
    }
    const issued = await token(service, { 'x-client-cert': escapedPem('bound') });
    expect(await read(service, issued.body.access_token, { 'x-client-cert': escapedPem('bound') })).toBe(404);
    expect(await read(service, issued.body.access_token)).toBe(401);
    expect(await read(service, issued.body.access_token, { 'x-client-cert': escapedPem('other') })).toBe(401);
    expect(await token(service, { 'x-client-cert': 'not a certificate' })).toMatchObject({ status: 401 });
    await service.close();
  });

  it('reads it only from the proxy addresses given; from another peer, the socket certificate counts', async () => {
    const service = serviceWith({
      trustedProxy: { certificateHeader: 'x-client-cert', addresses: ['10.0.0.7'] },
    });
    const header = { 'x-client-cert': escapedPem('bound') };
    expect((await token(service, header, { source: '10.0.0.7' })).status).toBe(200);
    expect((await token(service, header, { source: '203.0.113.9' })).status).toBe(401);
    expect((await token(service, header)).status).toBe(401);
    expect((await token(service, {}, { source: '203.0.113.9', peerCertificate: der('bound') })).status).toBe(
      200,
    );
    await service.close();
  });

  it('refuses at start a trusted proxy without a header name, and a bound client without a SHA-256', () => {
    expect(() => serviceWith({ trustedProxy: { certificateHeader: ' ' } })).toThrow(/certificateHeader/);
    expect(() => serviceWith({ trustedProxy: { certificateHeader: 'x-c', addresses: [] } })).toThrow(
      /addresses/,
    );
    expect(() =>
      createFinancingService({
        clients: [
          { clientId: 'c', clientSecret: 's', scopes: [], storeIds: [], certificate: { sha256: 'abc' } },
        ],
        credit: sandboxCreditEngine(),
      }),
    ).toThrow(/certificate\.sha256/);
  });
});
