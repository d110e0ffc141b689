// catalogSyncJob against hostile partners on loopback: text no store holds is refused by record, a stuck partner is bounded.
import { schemas } from '@fin/core';
import { PosClient } from '@fin/pos-client';
import { createSimulatedPos } from '@fin/pos-client/testing';
import { catalogSyncJob, memoryStore, type Store } from '@fin/server-kit';
import { migrate, postgresStore } from '@fin/server-kit/postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usePostgres } from '../support/postgres.js';
import {
  clientTransport,
  type HostilePeer,
  startHostilePeer,
  suiteTransport,
} from './support/hostile-peer.js';
import { failOnUnhandledRejections } from './support/unhandled.js';

failOnUnhandledRejections();

const transport = suiteTransport;
const database = usePostgres();
const size = { stores: 2, productsPerStore: 20, employees: 8 };

/** Rewrites one list's first record's `name` in the partner's JSON answer. */
function poisoned(sim: ReturnType<typeof createSimulatedPos>, names: Record<string, [string, string]>) {
  return async (request: Request) => {
    const response = await sim.fetch(request);
    const rewrite = names[new URL(request.url).pathname];
    if (!rewrite || response.status !== 200) return response;
    const [list, name] = rewrite;
    const body = (await response.json()) as { data: Record<string, { name: string }[]> };
    const first = body.data[list]?.[0];
    if (first) first.name = name;
    return Response.json(body);
  };
}

const hostileSim = createSimulatedPos({ seed: 11, size, rateLimit: false });
const calmSim = createSimulatedPos({ seed: 12, size, rateLimit: false });
const stuckSim = createSimulatedPos({ seed: 13, size, rateLimit: false });
const peers: HostilePeer[] = [];

beforeAll(async () => {
  peers.push(
    await startHostilePeer(
      poisoned(hostileSim, {
        '/v1/stores': ['stores', 'Loja\u0000Centro'],
        '/v1/employees': ['employees', 'Ana \uD800'],
        '/v1/products': ['products', 'Phone\uDFFF'],
      }),
      () => undefined,
      transport,
    ),
    await startHostilePeer(calmSim.fetch, () => undefined, transport),
    // Headers, then a byte every 100 ms for ever: every call to it is a slow drip.
    await startHostilePeer(
      stuckSim.fetch,
      (_m, path) => (path === '/v1/employees' ? { kind: 'drip', everyMs: 100 } : undefined),
      transport,
    ),
  );
});

afterAll(async () => {
  await Promise.all(peers.map((peer) => peer.close()));
});

const client = (peer: HostilePeer, sim: ReturnType<typeof createSimulatedPos>) =>
  new PosClient({
    baseUrl: peer.url,
    ...sim.credentials,
    rateLimit: false,
    maxRetries: 0,
    ...clientTransport(transport),
  });

function describeOn(name: string, makeStore: () => Promise<Store>) {
  describe(`DESIGN 17/19: catalogSyncJob against hostile partners on ${name}`, () => {
    it('a stuck partner ends at partnerTimeoutMs; NUL and lone surrogates are refused by record, naming partner and field; the rest is stored', async () => {
      const store = await makeStore();
      const [hostile, calm, stuck] = peers as [HostilePeer, HostilePeer, HostilePeer];
      const findings: Record<string, unknown>[] = [];
      const job = catalogSyncJob({
        store,
        partnerTimeoutMs: 1_000,
        logger: { warn: (entry) => findings.push(entry), info: () => {}, error: () => {} },
        partners: [
          { partnerId: 'stuck', pos: client(stuck, stuckSim) },
          {
            partnerId: 'hostile',
            pos: client(hostile, hostileSim),
            storeIds: [hostileSim.data.stores[0]!.storeId],
          },
          { partnerId: 'calm', pos: client(calm, calmSim), storeIds: [calmSim.data.stores[0]!.storeId] },
        ],
      });
      const [stuckResult, hostileResult, calmResult] = await job.runOnce();

      expect(stuckResult).toEqual({
        partnerId: 'stuck',
        ok: false,
        error: 'timeout',
        lastSucceededAt: undefined,
      });
      expect(calmResult).toMatchObject({ partnerId: 'calm', ok: true, refused: [] });
      expect(hostileResult).toMatchObject({ partnerId: 'hostile', ok: true });
      const refused = hostileResult?.ok ? hostileResult.refused : [];
      // The first product of every plan's list is poisoned: one finding per plan, the same field.
      expect([...new Set(refused.map(({ resource, field }) => `${resource}.${field}`))].sort()).toEqual([
        'employees.name',
        'products.name',
        'stores.name',
      ]);
      expect(findings.filter((entry) => entry.event === 'catalog.record_refused')).toEqual(
        refused.map((finding) => ({ event: 'catalog.record_refused', partnerId: 'hostile', ...finding })),
      );
      // A refused employee's CPF is masked in the finding; the employee is unreadable, not departed.
      expect(refused.find((finding) => finding.resource === 'employees')?.key).toMatch(/\*/);

      const stored = await job.read('hostile');
      expect(stored?.catalog.employees).toHaveLength(size.employees - 1);
      expect(stored?.catalog.products.length).toBeGreaterThan(0);
      expect(schemas.unstorableField(stored)).toBeUndefined();
      expect(await job.read('calm')).toBeDefined();
    });
  });
}

describeOn('memoryStore()', async () => memoryStore());
describeOn('postgresStore()', async () => {
  const connectionString = await database.createDatabase();
  await migrate({ connectionString });
  return postgresStore({ connectionString });
});
