// Issue 35 §6, DESIGN 26 (spec v2.0): `mutualTls: 'required'` on createFinancingService; every client bound, every call with its certificate.
import {
  createFinancingService,
  type FinancingServiceOptions,
  memoryStore,
  sandboxCreditEngine,
} from '@fin/server-kit';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeTestPki, type TestPki } from '../../../test/support/certificates.js';
import { boundClient } from './support/bound-client.js';
import { derOf, read, readAnswer, token } from './support/certificate-calls.js';

let pki: TestPki;
beforeAll(() => {
  pki = makeTestPki(['bound', 'other']);
});

const unbound = {
  clientId: 'free',
  clientSecret: 'fr33',
  scopes: ['sales:authorize' as const],
  storeIds: ['store-2'],
};
const free = { id: 'free', secret: 'fr33' };
const peer = (name: 'bound' | 'other') => ({ peerCertificate: derOf(pki.clients[name]!.cert) });

const serviceWith = (extra: Partial<FinancingServiceOptions> = {}) =>
  createFinancingService({
    clients: [boundClient(pki.clients.bound!.sha256)],
    credit: sandboxCreditEngine(),
    mutualTls: 'required',
    ...extra,
  });

describe("DESIGN 26: under mutualTls 'required' the service refuses to start with a client not bound to a certificate", () => {
  it('throws at start naming the unbound client, and starts when every client is bound', async () => {
    expect(() => serviceWith({ clients: [boundClient(pki.clients.bound!.sha256), unbound] })).toThrow(
      /mutualTls is 'required' but client free is not bound to a certificate/,
    );
    const started = serviceWith();
    await started.close();
  });

  it('refuses a misspelt setting instead of reading it as optional', () => {
    expect(() => serviceWith({ mutualTls: 'requried' as never })).toThrow(/mutualTls must be/);
  });

  it("keeps today's behaviour by default: an unbound client without a certificate gets and uses a token", async () => {
    const sandbox = serviceWith({ clients: [unbound], mutualTls: undefined });
    const issued = await token(sandbox, {}, undefined, free);
    expect(issued.status).toBe(200);
    expect(await read(sandbox, issued.body.access_token)).toBe(404);
    await sandbox.close();
  });
});

describe("DESIGN 26, RFC 8705: under mutualTls 'required' a call without the bound certificate is refused", () => {
  it('the token endpoint answers invalid_client without a certificate or with another one, 200 with its own', async () => {
    const service = serviceWith();
    expect(await token(service)).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    expect(await token(service, {}, peer('other'))).toMatchObject({
      status: 401,
      body: { error: 'invalid_client' },
    });
    expect(await token(service, {}, peer('bound'))).toMatchObject({
      status: 200,
      body: { token_type: 'Bearer' },
    });
    await service.close();
  });

  it('an API call answers invalid_token (certificate-bound token) unless made with the certificate', async () => {
    const service = serviceWith();
    const { body } = await token(service, {}, peer('bound'));
    expect(await read(service, body.access_token, {}, peer('bound'))).toBe(404);
    for (const info of [undefined, peer('other')]) {
      const refused = await readAnswer(service, body.access_token, {}, info);
      expect(refused).toMatchObject({ status: 401, code: 'invalid_token' });
      expect(refused.challenge).toContain('error_description="certificate-bound token"');
    }
    await service.close();
  });

  it('a token issued unbound before the setting was turned on is refused even with the certificate', async () => {
    const store = memoryStore();
    // Yesterday: `bound` was not yet bound, and took a token over a plain connection.
    const before = createFinancingService({
      clients: [{ ...boundClient(pki.clients.bound!.sha256), certificate: undefined }],
      credit: sandboxCreditEngine(),
      store,
    });
    const { body } = await token(before);
    expect(await read(before, body.access_token, {}, peer('bound'))).toBe(404);
    const required = serviceWith({ store });
    expect(await readAnswer(required, body.access_token, {}, peer('bound'))).toMatchObject({
      status: 401,
      code: 'invalid_token',
    });
    await Promise.all([before.close(), required.close()]);
  });

  it('a token bound to a certificate since rotated out of the client is refused', async () => {
    const store = memoryStore();
    const both = boundClient(pki.clients.bound!.sha256);
    const rotating = serviceWith({
      store,
      clients: [{ ...both, certificate: { sha256: [pki.clients.bound!.sha256, pki.clients.other!.sha256] } }],
    });
    const { body } = await token(rotating, {}, peer('other'));
    expect(await read(rotating, body.access_token, {}, peer('other'))).toBe(404);
    const rotated = serviceWith({ store });
    expect(await read(rotated, body.access_token, {}, peer('other'))).toBe(401);
    await Promise.all([rotating.close(), rotated.close()]);
  });

  it("behind a trusted proxy the forwarded certificate counts as the connection's", async () => {
    const service = serviceWith({ trustedProxy: { certificateHeader: 'x-client-cert' } });
    const forwarded = { 'x-client-cert': encodeURIComponent(pki.clients.bound!.cert) };
    const { status, body } = await token(service, forwarded);
    expect(status).toBe(200);
    expect(await read(service, body.access_token, forwarded)).toBe(404);
    expect(await read(service, body.access_token)).toBe(401);
    await service.close();
  });
});
