// Soak: a bounded authorize load on the PostgreSQL store, loopback only; nothing lost, memory flat.
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler } from '@fin/server-kit';
import { migrate, postgresStore } from '@fin/server-kit/postgres';
import { describe, expect, it } from 'vitest';
import { fetchToken } from '../../bench/lib/requests.js';
import { mib, soak } from '../../bench/lib/soak.js';
import { usePostgres, withClient } from '../support/postgres.js';
import { PARTNER_A, reliabilityService } from './support/financing.js';
import { heapUsedAfterGc } from './support/heap.js';
import { guardSecrets } from './support/secret-guard.js';

/** Bounded for the test suite; `pnpm bench soak` is the long variant. */
const SOAK_SECONDS = 30;
const CONNECTIONS = 8;
/** Growth of the heap in use, after collection, that still reads as flat: caches and JIT, not a leak. */
const FLAT_HEAP_BYTES = 48 * 1024 * 1024;

const database = usePostgres();
const guard = guardSecrets();
guard.add('client secret', PARTNER_A.clientSecret);

describe('soak on the PostgreSQL store', () => {
  it(
    'R-10 and idempotency under load: every authorized: true answer is one row in the database, and the heap stays flat',
    async () => {
      const connectionString = await database.createDatabase();
      await migrate({ connectionString });
      const store = postgresStore({ connectionString });
      const service = reliabilityService({
        store,
        logger: guard.logger,
        limits: { writesPerMinute: 1_000_000_000 },
      });
      const server = createServer(toNodeHandler(service));
      server.listen(0, '127.0.0.1');
      await once(server, 'listening');
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      try {
        await withClient(connectionString, async (db) => {
          const token = await fetchToken(url, PARTNER_A.clientId, PARTNER_A.clientSecret);
          guard.add('token', token);
          const report = await soak({
            url,
            token,
            storeId: PARTNER_A.storeId,
            seconds: SOAK_SECONDS,
            connections: CONNECTIONS,
            heapUsed: heapUsedAfterGc,
            countAuthorizations: async () =>
              Number(
                (await db.query<{ n: string }>('SELECT count(*) AS n FROM fin_authorizations')).rows[0]!.n,
              ),
          });
          console.info(
            `soak ${SOAK_SECONDS}s: ${report.requests} requests, ${report.authorized} authorized, ` +
              `${report.storedAuthorizations} stored, heap ${mib(report.heapBefore)} -> ${mib(report.heapAfter)}`,
          );
          expect(report.authorized).toBeGreaterThan(0);
          expect(report.failures).toBe(0);
          expect(report.storedAuthorizations).toBe(report.authorized);
          expect(report.heapAfter - report.heapBefore).toBeLessThan(FLAT_HEAP_BYTES);
        });
      } finally {
        server.closeAllConnections();
        server.close();
        await service.close();
        await store.close();
      }
    },
    (SOAK_SECONDS + 60) * 1000,
  );
});
