// Issue 14 §2: an Idempotency-Key a POS can recover with after a crash: checked locally, exposed on every result and error.
import {
  AuthorizationClient,
  FinApiError,
  FinConnectionError,
  FinInputError,
  FinTimeoutError,
  isFinApiError,
  newIdempotencyKey,
} from '@fin/authorization-client';
import { magicValues } from '@fin/authorization-client/testing';
import { isIdempotencyKey } from '@fin/core/transport';
import { describe, expect, it } from 'vitest';
import { cart, sandboxClientOptions, useSandbox } from './fixtures.js';

useSandbox();

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const AUTHORIZE = '/v1/sales/authorize';

const requestOf = (input: RequestInfo | URL, init?: RequestInit) => new Request(input, init);

/**
 * A fetch that delivers the first authorize to the sandbox, which processes it, then loses its answer
 * (the POS crashed, or the network dropped): the POS never sees the authorizationId the sandbox gave.
 */
function losingFirstAnswer() {
  const lost: { authorizationId?: string; idempotencyKey?: string | null } = {};
  let authorizes = 0;
  const lossyFetch: typeof fetch = async (input, init) => {
    const request = requestOf(input, init);
    const response = await fetch(request);
    if (new URL(request.url).pathname !== AUTHORIZE || ++authorizes > 1) return response;
    const body = (await response.json()) as { data: { authorizationId: string } };
    lost.authorizationId = body.data.authorizationId;
    lost.idempotencyKey = request.headers.get('idempotency-key');
    throw new TypeError('fetch failed: socket hang up');
  };
  return { lossyFetch, lost };
}

/** Counts every request the client sends. */
function countingFetch() {
  const counted = { requests: 0 };
  const counting: typeof fetch = (input, init) => {
    counted.requests++;
    return fetch(requestOf(input, init));
  };
  return { counting, counted };
}

describe('Idempotency-Key format (spec section 4: uuid v4), checked before any request', () => {
  it('an order id as key is a FinInputError naming idempotencyKey, and nothing is sent', async () => {
    const { counting, counted } = countingFetch();
    const client = new AuthorizationClient({ ...sandboxClientOptions, fetch: counting });
    const error = await client.authorize(cart(), { idempotencyKey: 'PEDIDO-2026-000123' }).catch((e) => e);
    expect(error).toBeInstanceOf(FinInputError);
    expect(error).toMatchObject({ code: 'validation_error', details: [{ field: 'idempotencyKey' }] });
    expect(counted.requests).toBe(0);
  });

  it('a uuid of another version is refused the same way, on confirm and cancel too', async () => {
    const client = new AuthorizationClient(sandboxClientOptions);
    const v1 = 'c232ab00-9414-11ec-b3c8-9f6bdeced846';
    const refused = (call: Promise<unknown>) =>
      expect(call).rejects.toMatchObject({ name: 'FinInputError', details: [{ field: 'idempotencyKey' }] });
    await refused(client.authorize(cart(), { idempotencyKey: v1 }));
    await refused(client.confirm('auth-1', confirmInput(), { idempotencyKey: v1 }));
    await refused(client.cancel('auth-1', { reason: 'OTHER' }, { idempotencyKey: v1 }));
  });

  it('newIdempotencyKey makes a fresh uuid v4 each time, which isIdempotencyKey accepts', () => {
    const keys = [newIdempotencyKey(), newIdempotencyKey()];
    for (const key of keys) {
      expect(key).toMatch(UUID_V4);
      expect(isIdempotencyKey(key)).toBe(true);
    }
    expect(keys[0]).not.toBe(keys[1]);
    expect(isIdempotencyKey('PEDIDO-123')).toBe(false);
  });
});

describe('crash-safe pattern: the key stored with the order gets the original answer after a restart', () => {
  it('first answer lost; a restarted client calling again with the stored key gets the same authorizationId', async () => {
    // Before the first call: the key is made and stored with the order.
    const order = { number: 'PEDIDO-123', idempotencyKey: newIdempotencyKey() };
    const { lossyFetch, lost } = losingFirstAnswer();
    const before = new AuthorizationClient({ ...sandboxClientOptions, fetch: lossyFetch, maxRetries: 0 });
    const failure = await before.authorize(cart(), { idempotencyKey: order.idempotencyKey }).catch((e) => e);
    expect(failure).toBeInstanceOf(FinConnectionError);
    expect(failure.idempotencyKey).toBe(order.idempotencyKey);
    expect(lost.authorizationId).toEqual(expect.any(String));

    // After the restart: a new client, the stored key, the original answer (not a second financing).
    const after = new AuthorizationClient(sandboxClientOptions);
    const result = await after.authorize(cart(), { idempotencyKey: order.idempotencyKey });
    expect(result.authorized && result.authorizationId).toBe(lost.authorizationId);
    expect(result.idempotencyKey).toBe(order.idempotencyKey);

    // A new key is a new intention: the device is now financed once already.
    const second = await after.authorize(cart(), { idempotencyKey: newIdempotencyKey() }).catch((e) => e);
    expect(second).toBeInstanceOf(FinApiError);
    expect(second.code).toBe('imei_already_financed');
  });

  it('a key the client made is on the FinConnectionError, with every attempt’s X-Request-Id, and recovers the same way', async () => {
    const { lossyFetch, lost } = losingFirstAnswer();
    const client = new AuthorizationClient({ ...sandboxClientOptions, fetch: lossyFetch, maxRetries: 0 });
    const failure: FinConnectionError = await client.authorize(cart()).catch((e) => e);
    expect(failure.idempotencyKey).toBe(lost.idempotencyKey);
    expect(failure.idempotencyKey).toMatch(UUID_V4);
    expect(failure.requestIds).toEqual([failure.requestId]);
    expect(failure.toJSON()).toMatchObject({ idempotencyKey: failure.idempotencyKey });

    const result = await new AuthorizationClient(sandboxClientOptions).authorize(cart(), {
      idempotencyKey: failure.idempotencyKey,
    });
    expect(result.authorized && result.authorizationId).toBe(lost.authorizationId);
  });
});

describe('crash-safe pattern with the sandbox fault store whose answer is lost', () => {
  it('faultStoreIds.answerLost: the 503 carries the key; with it a restarted client gets the one authorization made', async () => {
    const lostCart = () => cart({ storeId: magicValues.faultStoreIds.answerLost });
    const before = new AuthorizationClient({ ...sandboxClientOptions, maxRetries: 0 });
    const failure: FinApiError = await before.authorize(lostCart()).catch((e) => e);
    expect(failure.code).toBe('service_unavailable');
    expect(failure.idempotencyKey).toMatch(UUID_V4);

    const after = new AuthorizationClient(sandboxClientOptions);
    const original = await after.authorize(lostCart(), { idempotencyKey: failure.idempotencyKey });
    expect(original.authorized).toBe(true);
    const again = await after.authorize(lostCart(), { idempotencyKey: failure.idempotencyKey });
    expect(again.authorized && again.authorizationId).toBe(original.authorized && original.authorizationId);
    const newKey = await after.authorize(lostCart(), { idempotencyKey: newIdempotencyKey() }).catch((e) => e);
    expect(isFinApiError(newKey, 'imei_already_financed')).toBe(true);
  });
});

describe('every result and error of a write carries its Idempotency-Key and X-Request-Ids', () => {
  it('a result retried after a 503 lists both attempts’ request ids; they stay out of the enumerable data', async () => {
    const seen: Array<string | null> = [];
    const watching: typeof fetch = (input, init) => {
      const request = requestOf(input, init);
      if (new URL(request.url).pathname === AUTHORIZE) seen.push(request.headers.get('x-request-id'));
      return fetch(request);
    };
    const client = new AuthorizationClient({ ...sandboxClientOptions, fetch: watching });
    const key = newIdempotencyKey();
    const result = await client.authorize(cart({ storeId: magicValues.faultStoreIds.unavailableOnce }), {
      idempotencyKey: key,
    });
    expect(result.idempotencyKey).toBe(key);
    expect(result.requestIds).toEqual(seen);
    expect(new Set(result.requestIds).size).toBe(2);
    expect(result.lastResponse).toMatchObject({ idempotencyKey: key, attempts: 2, requestId: seen[1] });
    expect(Object.keys(result)).not.toContain('idempotencyKey');
    expect(JSON.stringify(result)).not.toContain(key);
  });

  it('confirm and cancel results carry theirs; a FinApiError carries the key and request ids too', async () => {
    const client = new AuthorizationClient(sandboxClientOptions);
    const authorized = await client.authorize(cart());
    if (!authorized.authorized) throw new Error('the sandbox approves magicValues.cpf.approved');
    const confirmKey = newIdempotencyKey();
    const confirmed = await client.confirm(authorized.authorizationId, confirmInput(), {
      idempotencyKey: confirmKey,
    });
    expect(confirmed.idempotencyKey).toBe(confirmKey);
    expect(confirmed.requestIds).toHaveLength(1);

    const cancelled = await client.cancel(authorized.authorizationId, { reason: 'CUSTOMER_REQUEST' });
    expect(cancelled.idempotencyKey).toMatch(UUID_V4);
    expect(cancelled.requestIds).toEqual([cancelled.lastResponse.requestId]);

    const again: FinApiError = await client
      .confirm(authorized.authorizationId, confirmInput())
      .catch((e) => e);
    expect(again.code).toBe('invalid_state_transition');
    expect(again.idempotencyKey).toMatch(UUID_V4);
    expect(again.requestIds).toEqual([again.requestId]);
  });

  it('a FinTimeoutError after retries lists every attempt and the key to call again with', async () => {
    const hanging: typeof fetch = (input, init) => {
      const request = requestOf(input, init);
      if (new URL(request.url).pathname !== AUTHORIZE) return fetch(request);
      return new Promise((_, reject) =>
        request.signal.addEventListener('abort', () => reject(request.signal.reason)),
      );
    };
    const client = new AuthorizationClient({
      ...sandboxClientOptions,
      fetch: hanging,
      backoff: { baseMs: 1 },
    });
    const key = newIdempotencyKey();
    const failure = await client
      .authorize(cart(), { idempotencyKey: key, timeoutMs: 20, maxRetries: 1 })
      .catch((e) => e);
    expect(failure).toBeInstanceOf(FinTimeoutError);
    expect(failure).toMatchObject({ scope: 'attempt', timeoutMs: 20, idempotencyKey: key });
    expect(failure.requestIds).toHaveLength(2);
    expect(failure.requestIds.at(-1)).toBe(failure.requestId);
  });
});

function confirmInput() {
  return {
    saleNumber: 'V-1001',
    invoiceNumber: 'NF-555',
    nfeAccessKey: magicValues.nfeAccessKey,
    invoicedAt: new Date(),
  };
}
