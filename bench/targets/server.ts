// Child process of the bench: starts one server (`raw`, `raw-pg`, `memory`, `postgres` or `soak`) on loopback and reports its port.
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { TargetMessage } from '../lib/target.js';
import { benchService } from './bench-service.js';
import { rawPgServer } from './raw-pg-server.js';
import { rawServer } from './raw-server.js';
import { soakService } from './soak-service.js';

const reply = (message: TargetMessage) => process.send?.(message);

/**
 * The built package, as users run it (`pnpm bench` builds first, and bench/tsconfig.json maps every
 * `@fin/*` to its dist), loaded by path so `FIN_BENCH_SERVER_KIT_DIST` can point at another build.
 */
async function built<T>(file: 'index.js' | 'postgres.js'): Promise<T> {
  // FIN_BENCH_SERVER_KIT_DIST: another build to measure (e.g. main's, copied aside) instead of this tree's.
  const dist =
    process.env.FIN_BENCH_SERVER_KIT_DIST ??
    fileURLToPath(new URL('../../packages/server-kit/dist', import.meta.url));
  const url = new URL(`file://${dist}/${file}`);
  if (!existsSync(fileURLToPath(url))) throw new Error(`build first (pnpm build): no ${url.pathname}`);
  return (await import(url.href)) as T;
}

async function start(kind: string): Promise<{ server: Server; close: () => Promise<void> }> {
  if (kind === 'raw') return { server: rawServer(), close: async () => undefined };
  if (kind !== 'memory' && kind !== 'postgres' && kind !== 'raw-pg' && kind !== 'soak')
    throw new Error(`unknown target ${kind}`);
  const connectionString = process.env.DATABASE_URL ?? '';
  if (kind !== 'memory' && connectionString === '') throw new Error(`${kind} target needs DATABASE_URL`);
  if (kind === 'raw-pg') return rawPgServer(connectionString);
  const kit = await built<typeof import('@fin/server-kit')>('index.js');
  // Loaded only when asked for, so the raw and memory targets never load pg.
  const store =
    kind === 'memory'
      ? kit.memoryStore()
      : (await built<typeof import('@fin/server-kit/postgres')>('postgres.js')).postgresStore({
          connectionString,
          // FIN_BENCH_UNNAMED=1: the store as behind PgBouncer before 1.21 (docs/performance.md).
          ...(process.env.FIN_BENCH_UNNAMED ? { preparedStatements: false } : {}),
        });
  // The soak's service runs its own purge, expiry and webhook delivery (targets/soak-service.ts).
  const soak = kind === 'soak' ? soakService(kit, store) : undefined;
  const service = soak?.service ?? benchService(kit, store);
  const stopWorkers = soak?.startWorkers();
  const close = async () => {
    stopWorkers?.();
    await service.close();
    // The service closes only a store it made itself; this one is ours.
    await store.close();
  };
  return { server: createServer(kit.toNodeHandler(service)), close };
}

/**
 * FIN_BENCH_OTEL=absent: this process cannot resolve `@opentelemetry/api`, as a host that never installed it
 * (the SDKs load it with a CommonJS require, which asks `Module._resolveFilename`).
 */
function hideOpenTelemetry(): void {
  const Module = createRequire(import.meta.url)('node:module') as {
    _resolveFilename: (request: string, ...rest: unknown[]) => string;
  };
  const resolve = Module._resolveFilename;
  Module._resolveFilename = (request, ...rest) => {
    if (request === '@opentelemetry/api') throw new Error(`Cannot find module '${request}' (bench: hidden)`);
    return resolve(request, ...rest);
  };
}

try {
  if (process.env.FIN_BENCH_OTEL === 'absent') hideOpenTelemetry();
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
      reply({ type: 'cpu', micros: user + system, systemMicros: system });
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
