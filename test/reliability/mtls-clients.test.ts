// Issue 29 §1: both clients over mutual TLS on loopback (certificates made now by openssl), TLS below 1.2 refused, plain http only where local.
import { once } from 'node:events';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import tls from 'node:tls';
import { AuthorizationClient, FinConnectionError, FinInputError } from '@fin/authorization-client';
import { PosClient } from '@fin/pos-client';
import { createSimulatedPos } from '@fin/pos-client/testing';
import { memoryStore } from '@fin/server-kit';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestPki } from '../support/certificates.js';
import { cartFor, imeiStream, PARTNER_A, reliabilityService } from './support/financing.js';
import { type HostilePeer, mutualTlsTransport, startHostilePeer } from './support/hostile-peer.js';

const pki = makeTestPki(['pos-vendor']);
const vendor = pki.clients['pos-vendor'] ?? expect.fail('the PKI issues pos-vendor');
/** A server that asks every client for a certificate signed by the test CA, TLS 1.2 at least; pos-vendor's. */
const requireCertificate = mutualTlsTransport(pki, 'pos-vendor');
const clientTls = requireCertificate.client;

const sim = createSimulatedPos({ size: { stores: 2, productsPerStore: 5, employees: 3 }, rateLimit: false });
const service = reliabilityService({ store: memoryStore() });
const nextImei = imeiStream(29);
let partner: HostilePeer;
let financing: HostilePeer;

beforeAll(async () => {
  partner = await startHostilePeer(sim.fetch, () => undefined, requireCertificate);
  financing = await startHostilePeer(service.fetch, () => undefined, requireCertificate);
});

afterAll(async () => {
  await Promise.all([partner.close(), financing.close()]);
  await service.close();
});

/** A caller's own fetch that trusts the test CA but presents no certificate (what a client without `tls` sends). */
const anonymousFetch = (() => {
  const agent = new Agent({ connect: { ca: pki.ca } });
  return ((input, init) => fetch(input, { ...init, dispatcher: agent } as RequestInit)) as typeof fetch;
})();

const pos = (options: Partial<ConstructorParameters<typeof PosClient>[0]> = {}) =>
  new PosClient({ baseUrl: partner.url, ...sim.credentials, rateLimit: false, maxRetries: 0, ...options });

const pointOfSale = (options: Partial<ConstructorParameters<typeof AuthorizationClient>[0]> = {}) =>
  new AuthorizationClient({
    baseUrl: financing.url,
    clientId: PARTNER_A.clientId,
    clientSecret: PARTNER_A.clientSecret,
    rateLimit: false,
    maxRetries: 0,
    ...options,
  });

describe('mutual TLS: a server that requires a client certificate (issue 29 §1)', () => {
  it('PosClient with tls: token, list and store reads succeed, all over the one certificate', async () => {
    const client = pos({ tls: clientTls });
    const stores = await client.stores.list().toArray();
    expect(stores).toHaveLength(2);
    const plans = await client.store(stores[0]?.storeId ?? '').plans.list();
    expect(plans.lastResponse.status).toBe(200);
    expect(partner.received).toContain('POST /v1/oauth/token');
  });

  it('sequential calls reuse the client’s TLS connections: no new handshake (the Agent lives with the client)', async () => {
    const client = pos({ tls: clientTls });
    const storeId = sim.data.stores[0]?.storeId ?? '';
    await client.store(storeId).plans.list(); // the token and the first read open the pool
    const before = partner.connections();
    for (let i = 0; i < 5; i++) await client.store(storeId).plans.list();
    expect(partner.connections() - before).toBe(0);
  });

  it('AuthorizationClient with tls: a whole authorize over mutual TLS', async () => {
    const result = await pointOfSale({ tls: clientTls }).authorize(cartFor(nextImei(), PARTNER_A.storeId));
    expect(result.authorized).toBe(true);
  });

  it('without a certificate the handshake fails: FinConnectionError on both clients, nothing decoded', async () => {
    const posError = await pos({ fetch: anonymousFetch })
      .stores.list()
      .toArray()
      .catch((e) => e);
    expect(posError).toBeInstanceOf(FinConnectionError);
    const authorizeError = await pointOfSale({ fetch: anonymousFetch })
      .authorize(cartFor(nextImei(), PARTNER_A.storeId))
      .catch((e) => e);
    expect(authorizeError).toBeInstanceOf(FinConnectionError);
  });

  it('a certificate from a CA the server does not trust is refused the same way', async () => {
    const stranger = { cert: pki.stranger.cert, key: pki.stranger.key, ca: pki.ca };
    const error = await pos({ tls: stranger })
      .stores.list()
      .toArray()
      .catch((e) => e);
    expect(error).toBeInstanceOf(FinConnectionError);
  });

  it('tls without a certificate or key is refused when the client is made', () => {
    expect(() => pos({ tls: { cert: '', key: vendor.key } })).toThrow(FinInputError);
    expect(() => pointOfSale({ tls: { cert: vendor.cert } as never })).toThrow(FinInputError);
  });
});

describe("DESIGN 26 (issue 35 §6): mutualTls 'required' makes both clients refuse to start without tls", () => {
  it('both constructors throw a FinInputError naming tls, the field missing', () => {
    for (const make of [() => pos({ mutualTls: 'required' }), () => pointOfSale({ mutualTls: 'required' })]) {
      expect(make).toThrow(FinInputError);
      expect(make).toThrow(/mutualTls is 'required' but no tls option is given/);
      try {
        make();
      } catch (error) {
        expect((error as FinInputError).details).toEqual([{ field: 'tls', issue: expect.any(String) }]);
      }
    }
  });

  it('a misspelt setting is refused rather than read as optional', () => {
    expect(() => pos({ mutualTls: 'requried' as never, tls: clientTls })).toThrow(FinInputError);
    expect(() => pointOfSale({ mutualTls: 'requried' as never, tls: clientTls })).toThrow(FinInputError);
  });

  it('with tls both work as before: a store read and a whole authorize over mutual TLS', async () => {
    const stores = await pos({ mutualTls: 'required', tls: clientTls }).stores.list().toArray();
    expect(stores).toHaveLength(2);
    const result = await pointOfSale({ mutualTls: 'required', tls: clientTls }).authorize(
      cartFor(nextImei(), PARTNER_A.storeId),
    );
    expect(result.authorized).toBe(true);
  });

  it("the default ('optional') keeps today's behaviour: a client without tls is made", () => {
    expect(() => pos()).not.toThrow();
    expect(() => pointOfSale({ mutualTls: 'optional' })).not.toThrow();
  });
});

describe('TLS below 1.2 is refused (spec section 5)', () => {
  it('a server offering only TLS 1.1 never completes a handshake with either client', async () => {
    const old = createServer(
      {
        key: pki.server.key,
        cert: pki.server.cert,
        minVersion: 'TLSv1',
        maxVersion: 'TLSv1.1',
        ciphers: 'DEFAULT@SECLEVEL=0',
      },
      (_req, res) => res.end('{}'),
    );
    old.listen(0, '127.0.0.1');
    await once(old, 'listening');
    const handshakes: string[] = [];
    old.on('secureConnection', (socket) => handshakes.push(String(socket.getProtocol())));
    const { port } = old.address() as AddressInfo;
    const baseUrl = `https://127.0.0.1:${port}`;
    // Control: the server does answer TLS 1.1 to a client that allows it, so a refusal below is the clients'.
    expect(await protocolOf(port)).toBe('TLSv1.1');
    handshakes.length = 0;
    // Even with the process default lowered (as `--tls-min-v1.0` does), the clients ask TLS 1.2 themselves.
    const processDefault = tls.DEFAULT_MIN_VERSION;
    tls.DEFAULT_MIN_VERSION = 'TLSv1';
    try {
      const posError = await pos({ baseUrl, tls: clientTls })
        .stores.list()
        .toArray()
        .catch((e) => e);
      const authorizeError = await pointOfSale({ baseUrl, tls: clientTls })
        .authorize(cartFor(nextImei(), PARTNER_A.storeId))
        .catch((e) => e);
      for (const error of [posError, authorizeError]) {
        expect(error).toBeInstanceOf(FinConnectionError);
        expect(JSON.stringify(causes(error))).toMatch(/protocol|version/i);
      }
      expect(handshakes).toEqual([]);
    } finally {
      tls.DEFAULT_MIN_VERSION = processDefault;
      old.closeAllConnections();
      old.close();
    }
  });
});

/** The protocol a permissive client (TLS 1.0 up, any cipher) agrees with the server on `port`. */
async function protocolOf(port: number): Promise<string | null> {
  const socket = tls.connect({
    host: '127.0.0.1',
    port,
    minVersion: 'TLSv1',
    ciphers: 'DEFAULT@SECLEVEL=0',
    rejectUnauthorized: false,
  });
  await once(socket, 'secureConnect');
  const protocol = socket.getProtocol();
  socket.destroy();
  return protocol;
}

/** The messages and codes down an error's `cause` chain. */
function causes(error: unknown): string[] {
  const out: string[] = [];
  for (let at = error; at instanceof Error && out.length < 10; at = at.cause) {
    out.push(`${(at as { code?: string }).code ?? ''} ${at.message}`);
  }
  return out;
}

describe('plain http:// only where it cannot leave a test (spec section 5)', () => {
  const credentials = { clientId: 'test_pos', clientSecret: 'secret' };

  it.each([
    'http://127.0.0.1:8080',
    'http://localhost:3000',
    'http://pos.test',
    'http://api.fin.example',
    'http://sandbox.invalid',
    'http://app.localhost',
    'http://[::1]:4010',
  ])('%s is accepted (loopback or a reserved test name)', (baseUrl) => {
    expect(() => new PosClient({ baseUrl, ...credentials })).not.toThrow();
    expect(() => new AuthorizationClient({ baseUrl, ...credentials })).not.toThrow();
  });

  it.each([
    'http://partner.com.br',
    'http://10.0.0.5:8080',
    'http://pos.test.evil.com',
    'ftp://pos.test',
    'pos.test',
  ])('%s is refused when the client is made, naming baseUrl', (baseUrl) => {
    for (const make of [
      () => new PosClient({ baseUrl, ...credentials }),
      () => new AuthorizationClient({ baseUrl, ...credentials }),
    ]) {
      expect(make).toThrow(FinInputError);
      try {
        make();
      } catch (error) {
        expect((error as FinInputError).details).toEqual([{ field: 'baseUrl', issue: expect.any(String) }]);
      }
    }
  });

  it('allowInsecureHttp lets it through, with one warning per client', () => {
    const warnings: Array<Record<string, unknown>> = [];
    const logger = { warn: (entry: Record<string, unknown>) => warnings.push(entry) };
    new PosClient({ baseUrl: 'http://10.0.0.5:8080', ...credentials, allowInsecureHttp: true, logger });
    new AuthorizationClient({
      baseUrl: 'http://10.0.0.5:8080',
      ...credentials,
      allowInsecureHttp: true,
      logger,
    });
    expect(warnings).toEqual([
      expect.objectContaining({ event: 'http.insecure_base_url', origin: 'http://10.0.0.5:8080' }),
      expect.objectContaining({ event: 'http.insecure_base_url', origin: 'http://10.0.0.5:8080' }),
    ]);
  });
});
