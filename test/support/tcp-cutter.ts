// Test helper: a loopback TCP relay in front of a server whose open connections a test can cut (a socket lost mid-transaction).
import { once } from 'node:events';
import { type AddressInfo, createConnection, createServer, type Socket } from 'node:net';

export interface TcpCutter {
  readonly port: number;
  /** Destroys every relayed connection at once, both ways, without a word from the server; new ones still pass. */
  cut(): void;
  close(): Promise<void>;
}

/** Relays 127.0.0.1:<port> to `targetPort` on loopback. */
export async function tcpCutter(targetPort: number): Promise<TcpCutter> {
  const open = new Set<Socket>();
  const track = (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  const server = createServer((client) => {
    const upstream = createConnection({ host: '127.0.0.1', port: targetPort });
    track(client);
    track(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    client.once('close', () => upstream.destroy());
    upstream.once('close', () => client.destroy());
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    port: (server.address() as AddressInfo).port,
    cut() {
      for (const socket of open) socket.destroy();
    },
    async close() {
      for (const socket of open) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
