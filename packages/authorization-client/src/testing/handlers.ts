// msw handlers that play the Sales Authorization API for a POS vendor's own tests, on a real server-kit service.
import { type Clock, systemClock } from '@fin/core';
import { createFinancingService, sandboxCreditEngine, type WebhookSubscription } from '@fin/server-kit';
import { http } from 'msw';
import { v4 as uuidv4 } from 'uuid';
import { createFaults } from './faults.js';
import { magicValues } from './magic-values.js';
import { createPosMirror } from './pos-mirror.js';
import { SEED_PARTNER, seedSandbox } from './seed.js';

export interface SandboxHandlersOptions {
  /** Base URL the handlers answer on; default `https://sandbox.fin.test`. */
  baseUrl?: string;
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

export const SANDBOX_BASE_URL = 'https://sandbox.fin.test';

/**
 * Handlers for `setupServer(...authorizationHandlers())`: a real `@fin/server-kit` service (every rule,
 * idempotency, rate limits) with the sandbox credit engine, the magic values of `magicValues`, and a
 * partner POS whose sale search agrees with the calls of the POS under test. Each call makes a fresh
 * sandbox; its state lives in the returned handlers only.
 */
export function authorizationHandlers(options: SandboxHandlersOptions = {}) {
  const baseUrl = (options.baseUrl ?? SANDBOX_BASE_URL).replace(/\/+$/, '');
  const clock = options.clock ?? systemClock;
  const seedSecret = uuidv4();
  const pos = createPosMirror(clock);
  const { faultStoreIds } = magicValues;
  const service = createFinancingService({
    clients: [
      {
        clientId: options.clientId ?? magicValues.credentials.clientId,
        clientSecret: options.clientSecret ?? magicValues.credentials.clientSecret,
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
  });
  const faults = createFaults(clock, (request) => pos.forward(request, service.fetch));
  let seeded: Promise<void> | undefined;

  return [
    http.all(`${baseUrl}/*`, async ({ request }) => {
      seeded ??= seedSandbox(service, seedSecret, clock);
      await seeded;
      const answer = (await faults(request)) ?? (await pos.forward(request, service.fetch));
      if (options.webhooks) await service.webhooks.deliverDue();
      return answer;
    }),
  ];
}
