// The /testing handlers: each documented magic value triggers its outcome.
import { AuthorizationClient, buildCart } from '@fin/authorization-client';
import { magicValues } from '@fin/authorization-client/testing';
import { authorizationHandlers } from '@fin/authorization-client/testing/msw';
import { money } from '@fin/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cart, cartInput, NFE_KEY, sandboxClientOptions, useSandbox } from './fixtures.js';

const server = useSandbox();
afterEach(() => vi.useRealTimers());

const client = (extra: { maxRetries?: number } = {}) =>
  new AuthorizationClient({ ...sandboxClientOptions, ...extra });

/** Statuses the API answered to authorize, in order. */
function statuses() {
  const seen: number[] = [];
  server.events.on('response:mocked', ({ request, response }) => {
    if (request.url.endsWith('/v1/sales/authorize')) seen.push(response.status);
  });
  return seen;
}

describe('magic values of @fin/authorization-client/testing', () => {
  it('approved: any valid CPF and a free IMEI', async () => {
    await expect(client().authorize(cart())).resolves.toMatchObject({
      authorized: true,
      status: 'AUTHORIZED',
    });
  });

  it('declined: cpf.declined gets authorized: false with declineReason (R-07)', async () => {
    const taxId = magicValues.cpf.declined;
    await expect(
      client().authorize(cart({ client: { name: 'Ana', taxId, phoneNumber: '11912345678' } })),
    ).resolves.toEqual({
      authorized: false,
      declineReason: magicValues.declineReason,
      message: expect.any(String),
    });
  });

  it('total_mismatch: cpf.fixedApproval with a grandTotal other than fixedApprovalAmount (R-02)', async () => {
    const client_ = { name: 'Rui', taxId: magicValues.cpf.fixedApproval, phoneNumber: '11912345678' };
    await expect(client().authorize(cart({ client: client_ }))).rejects.toMatchObject({
      code: 'total_mismatch',
      status: 422,
    });
    const exact = buildCart(
      cartInput({
        client: client_,
        items: [
          {
            sku: 'A',
            productType: 'SMARTPHONE',
            name: 'A',
            quantity: 1,
            unitPrice: money.brl(magicValues.fixedApprovalAmount),
          },
        ],
        services: [],
      }),
    );
    await expect(client().authorize(exact)).resolves.toMatchObject({ authorized: true });
  });

  it('total_mismatch: a hand-made cart whose totals do not add up (R-02)', async () => {
    const built = cart();
    const tampered = {
      ...built,
      totals: { ...built.totals, grandTotal: money.brl(built.totals.grandTotal.amount + 1) },
    };
    await expect(client().authorize(tampered)).rejects.toMatchObject({ code: 'total_mismatch' });
  });

  it('imei_already_financed: imei.alreadyFinanced (R-10)', async () => {
    await expect(client().authorize(cart({ imei: magicValues.imei.alreadyFinanced }))).rejects.toMatchObject({
      code: 'imei_already_financed',
      legacyCode: 'FA3003',
    });
  });

  it('429 with Retry-After: faultStoreIds.rateLimited is retried after Retry-After seconds', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const seen = statuses();
    const pending = client().authorize(cart({ storeId: magicValues.faultStoreIds.rateLimited }));
    await vi.advanceTimersByTimeAsync(magicValues.retryAfterSeconds * 1000 - 1);
    expect(seen).toEqual([429]);
    await vi.advanceTimersByTimeAsync(1);
    await expect(pending).resolves.toMatchObject({ authorized: true });
    expect(seen).toEqual([429, 200]);
  });

  it('429 with Retry-After reaches a client that does not retry, with retryAfterMs', async () => {
    await expect(
      client({ maxRetries: 0 }).authorize(cart({ storeId: magicValues.faultStoreIds.rateLimited })),
    ).rejects.toMatchObject({
      code: 'rate_limit_exceeded',
      retryAfterMs: magicValues.retryAfterSeconds * 1000,
    });
  });

  it('503 then success: faultStoreIds.unavailableOnce, the retry carries the same Idempotency-Key', async () => {
    const keys: Array<string | null> = [];
    server.events.on('request:start', ({ request }) => {
      if (request.url.endsWith('/v1/sales/authorize')) keys.push(request.headers.get('idempotency-key'));
    });
    const seen = statuses();
    await expect(
      client().authorize(cart({ storeId: magicValues.faultStoreIds.unavailableOnce })),
    ).resolves.toMatchObject({
      authorized: true,
    });
    expect(seen).toEqual([503, 200]);
    expect(keys[1]).toBe(keys[0]);
  });

  it('issue 19: faultStoreIds.answerLost, the sale authorized but its answer lost (503): the retry with the same key gets that authorization', async () => {
    const seen = statuses();
    const body = cart({ storeId: magicValues.faultStoreIds.answerLost });
    const result = await client().authorize(body);
    expect(seen).toEqual([503, 200]);
    expect(result).toMatchObject({ authorized: true });
    // The device is financed once: a new sale of it (a new key) meets R-10.
    await expect(client().authorize(body)).rejects.toMatchObject({ code: 'imei_already_financed' });
  });

  it('R-06: the `now` option moves the sandbox clock, so a confirm after 15 minutes is authorization_expired', async () => {
    const clock = { at: Date.parse('2026-03-02T12:00:00.000Z') };
    server.resetHandlers(...authorizationHandlers({ clock: { now: () => new Date(clock.at) } }));
    const approved = await client().authorize(cart());
    if (!approved.authorized) throw new Error('expected an approval');
    expect(approved.expiresAt).toBe('2026-03-02T12:15:00.000Z');
    clock.at += 16 * 60_000;
    await expect(
      client().confirm(approved.authorizationId, {
        saleNumber: 'V-1',
        invoiceNumber: 'NF-1',
        nfeAccessKey: NFE_KEY,
        invoicedAt: new Date(clock.at),
      }),
    ).rejects.toMatchObject({ code: 'authorization_expired' });
  });

  it('a repeated Idempotency-Key with the same cart replays the first answer', async () => {
    const idempotencyKey = '2a4f6c8e-1b3d-4f5a-9c7e-0d2b4f6a8c1e';
    const first = await client().authorize(cart(), { idempotencyKey });
    const again = await client().authorize(cart(), { idempotencyKey });
    expect(again).toEqual(first);
  });
});
