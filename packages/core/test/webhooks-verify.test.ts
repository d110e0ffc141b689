// Receiving a webhook: each check of verifyWebhook (headers, timestamp both ways, tolerance 0, secrets, raw body) and event parsing.
import {
  isWebhookVerificationError,
  type VerifyWebhookOptions,
  verifyWebhook,
  type WebhookVerificationCode,
} from '@fin/core';
import { generateWebhookSecret, signWebhookDelivery, verifyWebhookSignature } from '@fin/core/webhooks';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contractCreated, fixedClock, NOW_SECONDS, OTHER_SECRET, SECRET } from './webhooks-fixtures.js';

const body = JSON.stringify(contractCreated);
const options: VerifyWebhookOptions = { secrets: [SECRET], clock: fixedClock() };
const signed = (timestamp = NOW_SECONDS, secrets = [SECRET], payload = body) =>
  signWebhookDelivery({ id: 'msg_1', timestamp, body: payload, secrets });

async function refusal(promise: Promise<unknown>): Promise<WebhookVerificationCode | undefined> {
  try {
    await promise;
  } catch (error) {
    if (isWebhookVerificationError(error)) return error.code;
    throw error;
  }
  return undefined;
}

describe('verifyWebhook: timestamps (replay protection, both ways)', () => {
  it('accepts a delivery at the edge of the tolerance, both ways', async () => {
    for (const skew of [-300, 0, 300]) {
      await expect(verifyWebhook(body, await signed(NOW_SECONDS + skew), options)).resolves.toEqual(
        contractCreated,
      );
    }
  });

  it('refuses one second beyond it: too old and too new (a future date is not trusted either)', async () => {
    expect(await refusal(verifyWebhook(body, await signed(NOW_SECONDS - 301), options))).toBe(
      'webhook_timestamp_too_old',
    );
    expect(await refusal(verifyWebhook(body, await signed(NOW_SECONDS + 301), options))).toBe(
      'webhook_timestamp_too_new',
    );
  });

  it('tolerance 0 means this very second, never "off"', async () => {
    const strict = { ...options, toleranceSeconds: 0 };
    await expect(verifyWebhook(body, await signed(NOW_SECONDS), strict)).resolves.toEqual(contractCreated);
    expect(await refusal(verifyWebhook(body, await signed(NOW_SECONDS - 1), strict))).toBe(
      'webhook_timestamp_too_old',
    );
    expect(await refusal(verifyWebhook(body, await signed(NOW_SECONDS + 1), strict))).toBe(
      'webhook_timestamp_too_new',
    );
    const old = await signed(NOW_SECONDS - 10 * 365 * 86_400);
    expect(await refusal(verifyWebhook(body, old, strict))).toBe('webhook_timestamp_too_old');
  });

  it('refuses a tolerance that is negative, fractional or not a number', async () => {
    for (const toleranceSeconds of [-1, 0.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      await expect(verifyWebhook(body, await signed(), { ...options, toleranceSeconds })).rejects.toThrow(
        TypeError,
      );
    }
  });
});

describe('verifyWebhook: headers and signatures', () => {
  it('names each missing header', async () => {
    const headers = await signed();
    for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature']) {
      const without = { ...headers, [name]: undefined };
      await expect(verifyWebhook(body, without, options)).rejects.toMatchObject({
        code: 'webhook_missing_headers',
        message: expect.stringContaining(name),
      });
    }
    expect(await refusal(verifyWebhook(body, { ...headers, 'webhook-timestamp': '1e9' }, options))).toBe(
      'webhook_missing_headers',
    );
  });

  it('reads Fetch Headers and node:http headers of any case', async () => {
    const headers = await signed();
    await expect(verifyWebhook(body, new Headers(headers), options)).resolves.toEqual(contractCreated);
    const upper = Object.fromEntries(
      Object.entries(headers).map(([key, value]) => [key.toUpperCase(), value]),
    );
    await expect(verifyWebhook(body, upper, options)).resolves.toEqual(contractCreated);
  });

  it('refuses a wrong secret, a changed body, a changed id and an unknown signature version', async () => {
    const headers = await signed();
    expect(await refusal(verifyWebhook(body, headers, { ...options, secrets: [OTHER_SECRET] }))).toBe(
      'webhook_no_matching_signature',
    );
    expect(await refusal(verifyWebhook(`${body} `, headers, options))).toBe('webhook_no_matching_signature');
    expect(await refusal(verifyWebhook(body, { ...headers, 'webhook-id': 'msg_2' }, options))).toBe(
      'webhook_no_matching_signature',
    );
    const v2 = headers['webhook-signature']?.replace('v1,', 'v2,');
    expect(await refusal(verifyWebhook(body, { ...headers, 'webhook-signature': v2 }, options))).toBe(
      'webhook_no_matching_signature',
    );
  });

  it('rotation: a header signed with the old and the new secret verifies with either', async () => {
    const headers = await signed(NOW_SECONDS, [OTHER_SECRET, SECRET]);
    expect(headers['webhook-signature']?.split(' ')).toHaveLength(2);
    for (const secrets of [[SECRET], [OTHER_SECRET], [generateWebhookSecret(), SECRET]]) {
      await expect(verifyWebhook(body, headers, { ...options, secrets })).resolves.toEqual(contractCreated);
    }
  });
});

describe('verifyWebhook: the classic mistakes get helpful errors', () => {
  it('a parsed object instead of the raw body is webhook_body_parsed, pointing at express.raw', async () => {
    const headers = await signed();
    const parsed = JSON.parse(body) as unknown as string;
    await expect(verifyWebhook(parsed, headers, options)).rejects.toMatchObject({
      code: 'webhook_body_parsed',
      message: expect.stringContaining('express.raw'),
    });
  });

  it('a secret with whitespace, without whsec_, not base64 or missing is webhook_bad_secret (never echoed)', async () => {
    const headers = await signed();
    const cases: [string | string[], string][] = [
      [`${SECRET}\n`, 'whitespace'],
      [SECRET.slice('whsec_'.length), 'whsec_'],
      ['whsec_not*base64', 'base64'],
      [[], 'No webhook secret'],
    ];
    for (const [secrets, hint] of cases) {
      const error = await verifyWebhook(body, headers, { ...options, secrets }).catch(
        (caught: unknown) => caught,
      );
      expect(error).toMatchObject({ code: 'webhook_bad_secret', message: expect.stringContaining(hint) });
      expect((error as Error).message).not.toContain('MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw');
    }
  });

  it('generateWebhookSecret makes whsec_ secrets of 32 random bytes that sign and verify', async () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(generateWebhookSecret()).not.toBe(secret);
    const headers = await signed(NOW_SECONDS, [secret]);
    await expect(verifyWebhook(body, headers, { ...options, secrets: [secret] })).resolves.toEqual(
      contractCreated,
    );
  });
});

describe('verifyWebhook: events', () => {
  const verifyPayload = async (payload: unknown) =>
    verifyWebhook(
      JSON.stringify(payload),
      await signed(NOW_SECONDS, [SECRET], JSON.stringify(payload)),
      options,
    );

  it('an unknown type is a typed unknown event, not an error', async () => {
    const event = { type: 'contract.renegotiated', timestamp: contractCreated.timestamp, data: { x: 1 } };
    await expect(verifyPayload(event)).resolves.toEqual({
      ...event,
      type: 'unknown',
      receivedType: event.type,
    });
  });

  it('unknown fields are dropped, so a field a newer sender adds never breaks a receiver', async () => {
    const event = { ...contractCreated, extra: true, data: { ...contractCreated.data, newField: 'x' } };
    await expect(verifyPayload(event)).resolves.toEqual(contractCreated);
  });

  it('a signed body that is not an event, or a known type that does not fit, is webhook_invalid_payload', async () => {
    const broken = { ...contractCreated, data: { ...contractCreated.data, sequence: 0 } };
    for (const payload of ['not json', { hello: 1 }, broken]) {
      const raw = typeof payload === 'string' ? payload : JSON.stringify(payload);
      const headers = await signed(NOW_SECONDS, [SECRET], raw);
      expect(await refusal(verifyWebhook(raw, headers, options))).toBe('webhook_invalid_payload');
    }
  });
});

describe('verifyWebhookSignature: invariants (property)', () => {
  it('what is signed verifies within the tolerance; any changed byte of the body, id or timestamp does not', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.stringMatching(/^msg_[A-Za-z0-9]{1,30}$/),
        fc.integer({ min: -300, max: 299 }),
        fc.string({ minLength: 1, maxLength: 200 }),
        fc.nat(),
        async (id, skew, payload, at) => {
          fc.pre(id !== 'msg_1');
          const headers = await signed(NOW_SECONDS + skew, [SECRET], payload);
          const verified = await verifyWebhookSignature(payload, headers, options);
          expect(verified).toEqual({ id: 'msg_1', timestamp: NOW_SECONDS + skew, body: payload });
          const index = at % payload.length;
          const changed = `${payload.slice(0, index)}${payload[index] === 'a' ? 'b' : 'a'}${payload.slice(index + 1)}`;
          const refusals = [
            refusal(verifyWebhookSignature(changed, headers, options)),
            refusal(verifyWebhookSignature(payload, { ...headers, 'webhook-id': id }, options)),
            refusal(
              verifyWebhookSignature(
                payload,
                { ...headers, 'webhook-timestamp': String(NOW_SECONDS + skew + 1) },
                options,
              ),
            ),
          ];
          expect(await Promise.all(refusals)).toEqual(Array(3).fill('webhook_no_matching_signature'));
        },
      ),
      { numRuns: 100 },
    );
  });
});
