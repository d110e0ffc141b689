// DESIGN 16/19: a flood of failed token requests with random client_ids leaves storage bounded; failure budgets hold.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { endpoints } from '@fin/core';
import { PosClient } from '@fin/pos-client';
import { createSimulatedPos } from '@fin/pos-client/testing';
import { memoryStore, type Store, toNodeHandler } from '@fin/server-kit';
import { migrate, postgresStore } from '@fin/server-kit/postgres';
import { describe, expect, it } from 'vitest';
import { requestToken } from '../../bench/lib/requests.js';
import { usePostgres, withClient } from '../support/postgres.js';
import { PARTNER_A, reliabilityService } from './support/financing.js';
import { clientTransport, peerFetch, startHostilePeer, suiteTransport } from './support/hostile-peer.js';

const database = usePostgres();
const FLOOD = 10_000;

/** A store whose rate-limit keys are recorded: the memory store's map holds one entry per distinct key. */
function keyRecording(inner: Store) {
  const keys = new Set<string>();
  const store = new Proxy(inner, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      if (property !== 'consumeRateLimit') return value.bind(target);
      return (hit: Parameters<Store['consumeRateLimit']>[0]) => {
        keys.add(hit.key);
        return value.call(target, hit);
      };
    },
  });
  return { store, keys };
}

/** One client_credentials request to `url`'s token endpoint: its status and body text. */
const tokenAt = (url: string, clientId: string, clientSecret: string, send?: typeof fetch) =>
  requestToken(url, clientId, clientSecret, undefined, send).then(async (response) => ({
    status: response.status,
    body: await response.text(),
  }));

async function serve(store: Store) {
  const service = reliabilityService({ store });
  const server = createServer(toNodeHandler(service)).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const token = (clientId: string, clientSecret: string) => tokenAt(url, clientId, clientSecret);
  const close = async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await service.close();
  };
  return { token, close };
}

/** `count` failed token requests, each with a fresh random client_id, 25 at a time; the statuses seen. */
async function flood(token: (id: string, secret: string) => Promise<{ status: number }>, count: number) {
  const statuses = new Set<number>();
  for (let sent = 0; sent < count; sent += 25) {
    const batch = Array.from({ length: Math.min(25, count - sent) }, () =>
      token(crypto.randomUUID(), 'guess'),
    );
    for (const { status } of await Promise.all(batch)) statuses.add(status);
  }
  return statuses;
}

describe('DESIGN 16/19: anonymous token failures never grow storage', () => {
  it(`memoryStore(): ${FLOOD} failures with random client_ids use a fixed set of rate-limit keys; the partner is not locked out`, async () => {
    const { store, keys } = keyRecording(memoryStore());
    const { token, close } = await serve(store);
    try {
      expect(await flood(token, FLOOD)).toEqual(new Set([401, 429]));
      // One shared budget for every unknown id, one for the source address: not one per id.
      expect([...keys].sort()).toEqual(['token-fail:source:127.0.0.1', endpoints.UNKNOWN_CLIENT_FAILURE_KEY]);
      // The budgets hold: a spent shared budget answers 429 at once; the right secret still gets a token.
      expect((await token(crypto.randomUUID(), 'guess')).status).toBe(429);
      expect((await token(PARTNER_A.clientId, PARTNER_A.clientSecret)).status).toBe(200);
    } finally {
      await close();
    }
  });

  it(`postgresStore(): ${FLOOD} failures with random client_ids leave a fixed number of fin_rate_limits rows`, async () => {
    const connectionString = await database.createDatabase();
    await migrate({ connectionString });
    const { token, close } = await serve(postgresStore({ connectionString }));
    try {
      await withClient(connectionString, async (db) => {
        const rows = async () =>
          Number((await db.query('SELECT count(*) AS n FROM fin_rate_limits')).rows[0].n);
        const before = await rows();
        expect(await flood(token, FLOOD)).toEqual(new Set([401, 429]));
        expect((await rows()) - before).toBeLessThanOrEqual(2);
        // The shared budget holds: once spent, an unknown id is answered 429 at once.
        expect((await token(crypto.randomUUID(), 'guess')).status).toBe(429);
        expect((await token(PARTNER_A.clientId, PARTNER_A.clientSecret)).status).toBe(200);
      });
    } finally {
      await close();
    }
  });
});

describe('DESIGN 16: the simulated partner keeps failed authentications in their own budget, like the service', () => {
  it('60 wrong secrets (the whole issuance allowance) do not lock the right one out; the 31st failure is 429', async () => {
    const sim = createSimulatedPos({ size: { stores: 1, productsPerStore: 10, employees: 5 } });
    const peer = await startHostilePeer(sim.fetch, () => undefined, suiteTransport);
    try {
      const statuses: number[] = [];
      const send = peerFetch(suiteTransport);
      for (let i = 0; i < 60; i++) {
        const response = await tokenAt(peer.url, sim.credentials.clientId, `wrong-${i}`, send);
        statuses.push(response.status);
      }
      expect(statuses.slice(0, endpoints.TOKEN_FAILURES_PER_MINUTE).every((status) => status === 401)).toBe(
        true,
      );
      expect(statuses.slice(endpoints.TOKEN_FAILURES_PER_MINUTE).every((status) => status === 429)).toBe(
        true,
      );
      const pos = new PosClient({
        baseUrl: peer.url,
        ...sim.credentials,
        maxRetries: 0,
        ...clientTransport(suiteTransport),
      });
      expect(await pos.stores.list().toArray()).toHaveLength(1);
    } finally {
      await peer.close();
    }
  });
});
