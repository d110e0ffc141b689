// The sandbox: a real server-kit service with the magic values, a mirroring partner POS and faults, resettable.
import { type Clock, systemClock } from '@fin/core';
import {
  createFinancingService,
  memoryStore,
  type Store,
  sandboxCreditEngine,
  type WebhookSubscription,
} from '@fin/server-kit';
import { v4 as uuidv4 } from 'uuid';
import { createFaults } from './faults.js';
import { magicValues } from './magic-values.js';
import { createPosMirror } from './pos-mirror.js';
import { SEED_PARTNER, seedSandbox } from './seed.js';

export interface SandboxOptions {
  /** Credentials the sandbox accepts; default `magicValues.credentials`. */
  clientId?: string;
  clientSecret?: string;
  /** The sandbox's clock (expiry, R-06; proposal windows, R-11); default the real one. */
  clock?: Clock;
  /**
   * Your webhook receivers (`[{ url, secrets, events? }]`, `http://` allowed on loopback): the sandbox
   * delivers real, signed Standard Webhooks deliveries to them, right after the call that caused the event
   * (the call answers once its events were sent; a failed one is retried after the next calls).
   */
  webhooks?: readonly WebhookSubscription[];
}

/** Where the sandbox keeps the access tokens it issued: they outlive every reset. */
export type IssuedTokens = Pick<Store, 'saveToken' | 'findToken'>;

export interface Sandbox {
  readonly clientId: string;
  readonly clientSecret: string;
  /** Answers one call of the Sales Authorization API. */
  fetch(request: Request): Promise<Response>;
  /** Forgets every sale, proposal and rate-limit count; credentials and issued tokens stay valid. */
  reset(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A fresh sandbox: every rule, idempotency and rate limit of `@fin/server-kit` with the sandbox credit
 * engine, the magic values of `magicValues`, and a partner POS whose sale search agrees with the calls of
 * the POS under test. `issuedTokens` may be shared by several sandboxes (the msw handlers share one).
 */
export function createSandbox(
  options: SandboxOptions = {},
  issuedTokens: IssuedTokens = memoryStore(),
): Sandbox {
  const clock = options.clock ?? systemClock;
  const clientId = options.clientId ?? magicValues.credentials.clientId;
  const clientSecret = options.clientSecret ?? magicValues.credentials.clientSecret;
  const seedSecret = uuidv4();
  const { faultStoreIds } = magicValues;

  function generation() {
    const pos = createPosMirror(clock);
    const service = createFinancingService({
      clients: [
        {
          clientId,
          clientSecret,
          scopes: ['sales:authorize'],
          storeIds: [
            magicValues.storeId,
            faultStoreIds.rateLimited,
            faultStoreIds.unavailableOnce,
            faultStoreIds.answerLost,
          ],
          saleSearch: pos.saleSearch,
          ...(options.webhooks ? { webhooks: options.webhooks } : {}),
        },
        {
          ...SEED_PARTNER,
          clientSecret: seedSecret,
          scopes: ['sales:authorize'],
          storeIds: [SEED_PARTNER.storeId],
        },
      ],
      credit: sandboxCreditEngine(),
      clock,
      // Sales live in a store of this generation; tokens in the one that outlives resets.
      store: { ...memoryStore(), saveToken: issuedTokens.saveToken, findToken: issuedTokens.findToken },
    });
    const faults = createFaults(clock, (request) => pos.forward(request, service.fetch));
    let seeded: Promise<void> | undefined;
    return {
      service,
      async fetch(request: Request): Promise<Response> {
        seeded ??= seedSandbox(service, seedSecret, clock);
        await seeded;
        const answer = (await faults(request)) ?? (await pos.forward(request, service.fetch));
        if (options.webhooks) await service.webhooks.deliverDue();
        return answer;
      },
    };
  }

  let current = generation();
  return {
    clientId,
    clientSecret,
    fetch: (request) => current.fetch(request),
    async reset() {
      const previous = current;
      current = generation();
      await previous.service.close();
    },
    close: () => current.service.close(),
  };
}
