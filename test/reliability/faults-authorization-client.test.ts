// Faults between the POS and the financing service: every authorize ends typed or correct, in time, and runs once.
import { AuthorizationClient, isFinApiError } from '@fin/authorization-client';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Fault, type FaultServer, faults, startFaultServer } from './support/fault-server.js';
import {
  CUSTOMER_CPF,
  cartFor,
  countingStore,
  imeiStream,
  PARTNER_A,
  reliabilityService,
  SELLER_CPF,
} from './support/financing.js';
import { guardSecrets } from './support/secret-guard.js';
import { FAULT_DEADLINE_MS, FAULT_SLACK_MS, faultTiming, isTypedError, settle } from './support/settle.js';
import { failOnUnhandledRejections } from './support/unhandled.js';

failOnUnhandledRejections();
const guard = guardSecrets();
guard.add('client secret', PARTNER_A.clientSecret);
guard.add('cpf', CUSTOMER_CPF, SELLER_CPF);

const counted = countingStore();
const service = reliabilityService({ store: counted.store, logger: guard.logger });
const nextImei = imeiStream(86);
let server: FaultServer;
let client: AuthorizationClient;
/** For the calls made once the faults are over: a loaded CI machine must not turn them into timeouts. */
let calm: AuthorizationClient;

const newClient = (overrides: { timeoutMs?: number; deadlineMs?: number; maxRetries?: number } = {}) =>
  new AuthorizationClient({
    baseUrl: server.url,
    clientId: PARTNER_A.clientId,
    clientSecret: PARTNER_A.clientSecret,
    fetch: guard.sniffTokens(fetch),
    logger: guard.logger,
    ...faultTiming,
    ...overrides,
  });

beforeAll(async () => {
  server = await startFaultServer(service.fetch);
  client = newClient();
  calm = newClient({ timeoutMs: 10_000, deadlineMs: 30_000 });
});

afterAll(async () => {
  await server.close();
  await service.close();
});

const settleAuthorize = (call: ReturnType<AuthorizationClient['authorize']>) =>
  settle(call, FAULT_DEADLINE_MS + FAULT_SLACK_MS);

describe('faults on POST /v1/sales/authorize (resets, hangs, 5xx bursts, 429 storms, truncated and malformed JSON)', () => {
  it('spec §8 idempotency: any fault sequence ends typed or authorized within the deadline, and the sale is written at most once', async () => {
    const authorizePath = (path: string) => path === '/v1/sales/authorize';
    await fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom(...faults), { maxLength: 4 }), async (sequence: Fault[]) => {
        const deviceImei = nextImei();
        guard.add('imei', deviceImei);
        const idempotencyKey = crypto.randomUUID();
        server.plan(sequence, authorizePath);
        const outcome = await settleAuthorize(
          client.authorize(cartFor(deviceImei, PARTNER_A.storeId), { idempotencyKey }),
        );
        if (outcome.ok) expect(outcome.value.authorized).toBe(true);
        else expect(isTypedError(outcome.error), String(outcome.error)).toBe(true);
        expect(counted.executions(deviceImei)).toBeLessThanOrEqual(1);

        // The POS retries the same intention later, with the same key: one sale, never two.
        server.plan([]);
        const retry = await calm.authorize(cartFor(deviceImei, PARTNER_A.storeId), { idempotencyKey });
        expect(retry.authorized).toBe(true);
        expect(counted.executions(deviceImei)).toBe(1);
      }),
      { numRuns: 25 },
    );
  });

  it('a 5xx burst longer than the retries ends in a typed FinApiError carrying the status', async () => {
    const deviceImei = nextImei();
    guard.add('imei', deviceImei);
    server.plan(['503', '503', '503', '503', '503'], (path) => path === '/v1/sales/authorize');
    const outcome = await settleAuthorize(client.authorize(cartFor(deviceImei, PARTNER_A.storeId)));
    expect(outcome.ok).toBe(false);
    expect(isFinApiError((outcome as { error: unknown }).error)).toBe(true);
    expect(counted.executions(deviceImei)).toBe(0);
    // The retries were logged, and the secret guard saw those lines (it checks them after this test).
    expect(guard.captured().some((line) => line.channel.startsWith('logger.'))).toBe(true);
  });

  it('a 429 storm with Retry-After: 0 is retried and, once it ends, the sale is authorized once', async () => {
    const deviceImei = nextImei();
    guard.add('imei', deviceImei);
    server.plan(['429', '429', '429'], (path) => path === '/v1/sales/authorize');
    const outcome = await settleAuthorize(calm.authorize(cartFor(deviceImei, PARTNER_A.storeId)));
    expect(outcome.ok).toBe(true);
    expect(counted.executions(deviceImei)).toBe(1);
  });

  it('faults on the token endpoint end typed or authorized, never pending, never a second sale', async () => {
    // The transport's default retries: a fresh client, so each fault meets a token it must fetch.
    const tokenClient = newClient({ maxRetries: 2 });
    for (const fault of faults) {
      const deviceImei = nextImei();
      guard.add('imei', deviceImei);
      server.plan([fault, fault, fault], (path) => path === '/v1/oauth/token');
      const outcome = await settleAuthorize(tokenClient.authorize(cartFor(deviceImei, PARTNER_A.storeId)));
      if (!outcome.ok) expect(isTypedError(outcome.error), `${fault}: ${String(outcome.error)}`).toBe(true);
      expect(counted.executions(deviceImei)).toBeLessThanOrEqual(1);
    }
  });
});
