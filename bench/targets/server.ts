// Child process of the bench: starts one server (`raw`, `memory` or `postgres`) on loopback and reports its port.
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { memoryStore, toNodeHandler } from '@fin/server-kit';
import type { TargetMessage } from '../lib/target.js';
import { benchService } from './bench-service.js';
import { rawServer } from './raw-server.js';

const reply = (message: TargetMessage) => process.send?.(message);

async function start(kind: string): Promise<{ server: Server; close: () => Promise<void> }> {
  if (kind === 'raw') return { server: rawServer(), close: async () => undefined };
  if (kind !== 'memory' && kind !== 'postgres') throw new Error(`unknown target ${kind}`);
  const connectionString = process.env.DATABASE_URL ?? '';
  if (kind === 'postgres' && connectionString === '') throw new Error('postgres target needs DATABASE_URL');
  // Loaded only when asked for, so the raw and memory targets never load pg.
  const store =
    kind === 'memory'
      ? memoryStore()
      : (await import('@fin/server-kit/postgres')).postgresStore({ connectionString });
  const service = benchService(store);
  const close = async () => {
    await service.close();
    // The service closes only a store it made itself; this one is ours.
    await store.close();
  };
  return { server: createServer(toNodeHandler(service)), close };
}

try {
  const { server, close } = await start(process.argv[2] ?? 'raw');
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  process.on('message', async (message: { type: string }) => {
    if (message.type === 'heap') {
      globalThis.gc?.();
      const { heapUsed, rss } = process.memoryUsage();
      reply({ type: 'heap', report: { heapUsed, rss } });
    } else if (message.type === 'cpu') {
      const { user, system } = process.cpuUsage();
      reply({ type: 'cpu', micros: user + system });
    } else if (message.type === 'close') {
      server.closeAllConnections();
      server.close();
      await close();
      process.exit(0);
    }
  });
  reply({ type: 'listening', port: (server.address() as AddressInfo).port });
} catch (error) {
  reply({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
  process.exit(1);
}
