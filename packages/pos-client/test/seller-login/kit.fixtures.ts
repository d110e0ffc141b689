// The @fin/pos-client/testing seller-login kit behind msw, with a PosClient playing private_key_jwt + DPoP and a movable clock.

import type { LogEntry } from '@fin/core';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll } from 'vitest';
import { PosClient, type SellerLoginTransaction } from '../../src/index.js';
import {
  createSimulatedPos,
  createSimulatedSellerLogin,
  type SimulatedSellerLogin,
  simulatedSellerLoginHandlers,
} from '../../src/testing/index.js';

export const KIT_REDIRECT_URI = 'https://financing.test/callback';

export interface KitFixture {
  kit: SimulatedSellerLogin;
  sim: ReturnType<typeof createSimulatedPos>;
  /** What the clients' clock reads; move it forward to expire a transaction. */
  clock: { now(): Date; advance(ms: number): void };
  /** Every log entry the clients wrote, with its level. */
  logs: { level: string; entry: LogEntry }[];
  client(): PosClient;
  /** beginLogin then the seller's approval at the kit: the callback URL and the transaction. */
  approved(
    storeId?: string,
  ): Promise<{ callbackUrl: string; transaction: SellerLoginTransaction; url: string }>;
}

/** Registers msw for the file's tests (beforeAll/afterAll) and returns the fixture, ready once they start. */
export function useSellerLoginKit(): KitFixture {
  // A still clock (the time the file loads), moved only by `advance`.
  let now = Date.now();
  const sim = createSimulatedPos({ size: { stores: 2, employees: 6 } });
  const logs: KitFixture['logs'] = [];
  const fixture = {
    sim,
    logs,
    clock: {
      now: () => new Date(now),
      advance: (ms: number) => {
        now += ms;
      },
    },
  } as KitFixture;
  const server = setupServer();
  beforeAll(async () => {
    fixture.kit = await createSimulatedSellerLogin({ sim, clock: fixture.clock });
    server.use(...simulatedSellerLoginHandlers(fixture.kit));
    server.listen({ onUnhandledRequest: 'error' });
  });
  afterAll(() => server.close());
  const record = (level: string) => (entry: LogEntry) => void logs.push({ level, entry });
  fixture.client = () =>
    new PosClient({
      baseUrl: 'https://pos.test',
      clientId: fixture.kit.clientId,
      clientSecret: 'unused',
      clock: fixture.clock,
      logger: { debug: record('debug'), info: record('info'), warn: record('warn'), error: record('error') },
      oidc: {
        issuer: fixture.kit.issuer,
        redirectUri: KIT_REDIRECT_URI,
        clientAuth: fixture.kit.clientAuth,
        dpop: fixture.kit.dpop,
      },
    });
  fixture.approved = async (storeId) => {
    const { url, transaction } = await fixture.client().sellers.beginLogin(storeId ? { storeId } : {});
    return { url, transaction, callbackUrl: fixture.kit.approve(url) };
  };
  return fixture;
}
