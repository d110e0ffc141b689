// startPartnerOidcProvider: the partner POS's OpenID Provider (oidc-provider, FAPI 2.0) on loopback HTTPS, client certificates requested.
import { createServer } from 'node:https';
import { createSimulatedPos, type SimulatedPos } from '@fin/pos-client/testing';
import Provider from 'oidc-provider';
import { closer, listen } from '../listening.js';
import { handleLoginPage, INTERACTION_PATH } from './login-page.js';
import { type PartnerOidcClient, providerConfiguration } from './provider-configuration.js';
import { providerSigningKeys } from './provider-keys.js';

export interface PartnerOidcProviderOptions {
  /** The server's certificate and key (PEM), and `ca`: the CA of the client certificates it accepts. */
  tls: { cert: string; key: string; ca: string };
  clients: PartnerOidcClient[];
  /** The partner whose sellers log in (CPF, password, store); default a fresh `createSimulatedPos()`. */
  sim?: SimulatedPos;
  port?: number;
  host?: string;
  /** Plays a broken partner: every ID token names this store, whatever the pushed request asked. */
  idTokenStoreId?: string;
}

export interface PartnerOidcProvider {
  /** The issuer identifier, e.g. `https://127.0.0.1:41234`: discovery at `/.well-known/openid-configuration`. */
  issuer: string;
  /** The sellers (`sim.data.sellers`: cpf, password, storeId) and stores behind the login page. */
  sim: SimulatedPos;
  /** The oidc-provider instance, for tests that look inside. */
  provider: Provider;
  close(): Promise<void>;
}

/**
 * Starts the provider on `host` (default 127.0.0.1), port 0 (a free one) unless told. Client certificates
 * are requested, not required: a browser reaches the login page without one, a `tls_client_auth` client
 * presents its own, and oidc-provider checks it. Keys are made at start; nothing is written to disk.
 */
export async function startPartnerOidcProvider(
  options: PartnerOidcProviderOptions,
): Promise<PartnerOidcProvider> {
  const { tls, port = 0, host = '127.0.0.1' } = options;
  const sim = options.sim ?? createSimulatedPos();
  const server = createServer({
    ...tls,
    requestCert: true,
    rejectUnauthorized: false,
    minVersion: 'TLSv1.2',
  });
  const issuer = `https://${host}:${await listen(server, port, host)}`;
  const storeOfGrant = new Map<string, string>();
  const configuration = providerConfiguration({
    clients: options.clients,
    sim,
    jwks: await providerSigningKeys(),
    storeOfGrant,
    ...(options.idTokenStoreId === undefined ? {} : { idTokenStoreId: options.idTokenStoreId }),
  });
  const provider = new Provider(issuer, configuration);
  const callback = provider.callback();
  const page = { provider, sim, storeOfGrant };
  server.on('request', (req, res) => {
    const interaction = INTERACTION_PATH.exec(new URL(req.url ?? '/', issuer).pathname);
    if (!interaction) return void callback(req, res);
    handleLoginPage(page, req, res, interaction[2]).catch(() => {
      if (!res.headersSent) res.writeHead(400, { 'content-type': 'text/plain' });
      res.end('login failed');
    });
  });
  return {
    issuer,
    sim,
    provider,
    close: closer(server),
  };
}
