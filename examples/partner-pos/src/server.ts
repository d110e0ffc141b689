// startPartnerPos: the simulated partner POS listening on 127.0.0.1, one simulation core shared with the msw handlers.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSimulatedPos, type SimulatedPos, type SimulatedPosOptions } from '@fin/pos-client/testing';
import { toNodeListener } from './node-listener.js';

export interface PartnerPosServer {
  /** Base URL to give a PosClient, e.g. `http://127.0.0.1:41234`. */
  url: string;
  /** The simulation behind the server: data, faults, request counts, sale controls. */
  sim: SimulatedPos;
  close(): Promise<void>;
}

/** Starts the simulated partner on loopback; port 0 (default) picks a free one. */
export async function startPartnerPos(
  options: SimulatedPosOptions & { port?: number; host?: string } = {},
): Promise<PartnerPosServer> {
  const { port = 0, host = '127.0.0.1', ...simulation } = options;
  const sim = createSimulatedPos(simulation);
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  const address = server.address() as AddressInfo;
  const url = `http://${host}:${address.port}`;
  server.on('request', toNodeListener(sim.fetch, url));
  return {
    url,
    sim,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
