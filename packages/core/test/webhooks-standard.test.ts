// Standard Webhooks v1 interop: the specification's test vector, and the `standardwebhooks` package both ways.
import { verifyWebhook } from '@fin/core';
import { signWebhookDelivery, signWebhookPayload, verifyWebhookSignature } from '@fin/core/webhooks';
import fc from 'fast-check';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import vectors from './vectors/standard-webhooks.json' with { type: 'json' };
import { contractCreated, fixedClock, OTHER_SECRET, SECRET } from './webhooks-fixtures.js';

const nowSeconds = () => Math.floor(Date.now() / 1000);
const ids = fc.stringMatching(/^msg_[A-Za-z0-9_-]{1,40}$/);

describe('Standard Webhooks test vectors', () => {
  it.each(vectors.sign)('signs $id exactly as the specification', async (vector) => {
    const signature = await signWebhookPayload({ ...vector, secrets: [vector.secret] });
    expect(signature).toBe(vector.signature);
    const headers = {
      'webhook-id': vector.id,
      'webhook-timestamp': String(vector.timestamp),
      'webhook-signature': vector.signature,
    };
    const verified = await verifyWebhookSignature(vector.body, headers, {
      secrets: [vector.secret],
      clock: fixedClock(vector.timestamp),
    });
    expect(verified).toEqual({ id: vector.id, timestamp: vector.timestamp, body: vector.body });
  });
});

describe('interop with the standardwebhooks package', () => {
  it('standardwebhooks verifies every delivery we sign, with either secret of a rotation', async () => {
    await fc.assert(
      fc.asyncProperty(ids, fc.string({ unit: 'grapheme' }), async (id, text) => {
        const body = JSON.stringify({ ...contractCreated, note: text });
        const headers = await signWebhookDelivery({
          id,
          timestamp: nowSeconds(),
          body,
          secrets: [SECRET, OTHER_SECRET],
        });
        for (const secret of [SECRET, OTHER_SECRET]) {
          expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
        }
      }),
      { numRuns: 50 },
    );
  });

  it('verifyWebhook verifies what standardwebhooks signs and returns the typed event', async () => {
    await fc.assert(
      fc.asyncProperty(ids, fc.integer({ min: 1, max: 999_999 }), async (id, sequence) => {
        const event = { ...contractCreated, data: { ...contractCreated.data, sequence } };
        const body = JSON.stringify(event);
        const timestamp = new Date(nowSeconds() * 1000);
        const signature = new Webhook(SECRET).sign(id, timestamp, body);
        const headers = {
          'webhook-id': id,
          'webhook-timestamp': String(timestamp.getTime() / 1000),
          'webhook-signature': signature,
        };
        expect(await verifyWebhook(body, headers, { secrets: SECRET })).toEqual(event);
        expect(await verifyWebhook(new TextEncoder().encode(body), headers, { secrets: [SECRET] })).toEqual(
          event,
        );
      }),
      { numRuns: 50 },
    );
  });

  it('standardwebhooks refuses what we sign with another secret, and we refuse what it signs with another', async () => {
    const body = JSON.stringify(contractCreated);
    const headers = await signWebhookDelivery({
      id: 'msg_x',
      timestamp: nowSeconds(),
      body,
      secrets: [OTHER_SECRET],
    });
    expect(() => new Webhook(SECRET).verify(body, headers)).toThrow();
    const theirs = {
      'webhook-id': 'msg_y',
      'webhook-timestamp': String(nowSeconds()),
      'webhook-signature': new Webhook(OTHER_SECRET).sign('msg_y', new Date(nowSeconds() * 1000), body),
    };
    await expect(verifyWebhook(body, theirs, { secrets: [SECRET] })).rejects.toMatchObject({
      code: 'webhook_no_matching_signature',
    });
  });
});
