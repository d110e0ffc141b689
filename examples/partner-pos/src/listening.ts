// One listening lifecycle for the example servers (the partner's API and its OpenID Provider): listen on loopback, close at once.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Listens on `host`:`port` (0: a free one) and resolves with the port taken. */
export async function listen(server: Server, port: number, host: string): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  return (server.address() as AddressInfo).port;
}

/** Stops accepting and drops every open connection (keep-alive ones included), so a test's close never waits. */
export const closer = (server: Server) => (): Promise<void> =>
  new Promise<void>((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
    server.closeAllConnections();
  });
