// startPartnerPos: the simulated partner POS listening on 127.0.0.1 (HTTP, or HTTPS with client certificates), one simulation core shared with the msw handlers.
import { createServer } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { SecureVersion } from 'node:tls';
import { createSimulatedPos, type SimulatedPos, type SimulatedPosOptions } from '@fin/pos-client/testing';
import { closer, listen } from './listening.js';
import { toNodeListener } from './node-listener.js';

/** HTTPS for the simulated partner (docs/mtls.md): PEM text. */
export interface PartnerPosTls {
  cert: string;
  key: string;
  /**
   * The CA of the client certificates: given, every connection must present one it signed (client
   * certificate authentication); omitted, plain server-side TLS.
   */
  ca?: string;
  /** Default TLS 1.2 (spec section 5); lower only to play a partner fin-pos-check must report. */
  minVersion?: SecureVersion;
}

export interface PartnerPosServer {
  /** Base URL to give a PosClient, e.g. `http://127.0.0.1:41234` (`https://` with `tls`). */
  url: string;
  /** The simulation behind the server: data, faults, request counts, sale controls. */
  sim: SimulatedPos;
  close(): Promise<void>;
}

const tlsServer = ({ cert, key, ca, minVersion = 'TLSv1.2' }: PartnerPosTls) =>
  createTlsServer({
    cert,
    key,
    minVersion,
    // OpenSSL 3 refuses TLS 1.0/1.1 at its default security level: lowered only when asked for.
    ...(minVersion < 'TLSv1.2' ? { ciphers: 'DEFAULT@SECLEVEL=0' } : {}),
    ...(ca ? { ca, requestCert: true, rejectUnauthorized: true } : {}),
  });

/** Starts the simulated partner on loopback; port 0 (default) picks a free one; HTTPS with `tls`. */
export async function startPartnerPos(
  options: SimulatedPosOptions & { port?: number; host?: string; tls?: PartnerPosTls } = {},
): Promise<PartnerPosServer> {
  const { port = 0, host = '127.0.0.1', tls, ...simulation } = options;
  const sim = createSimulatedPos(simulation);
  const server = tls ? tlsServer(tls) : createServer();
  const url = `${tls ? 'https' : 'http'}://${host}:${await listen(server, port, host)}`;
  server.on('request', toNodeListener(sim.fetch, url));
  return {
    url,
    sim,
    close: closer(server),
  };
}
