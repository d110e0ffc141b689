// S-25: client secrets are compared in constant time: one fixed-length digest comparison per attempt, whoever asks.
import * as crypto from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { harness, PARTNER_A } from './support/harness.js';

vi.mock('node:crypto', async (importOriginal) => {
  const original = await importOriginal<typeof import('node:crypto')>();
  return { ...original, timingSafeEqual: vi.fn(original.timingSafeEqual) };
});

const compare = vi.mocked(crypto.timingSafeEqual);
afterEach(() => compare.mockClear());

describe('S-25: constant-time secret comparison', () => {
  it.each([
    ['the right secret', PARTNER_A.clientId, PARTNER_A.clientSecret, 200],
    ['a wrong secret of the same length', PARTNER_A.clientId, 'secret-x', 401],
    ['a one-character secret', PARTNER_A.clientId, 'x', 401],
    ['a 500-character secret', PARTNER_A.clientId, 's'.repeat(500), 401],
    ['an unknown client id', 'nobody', PARTNER_A.clientSecret, 401],
  ])(
    '%s: exactly one timingSafeEqual of two 32-byte digests, never the secret itself',
    async (_case, id, secret, status) => {
      const h = harness();
      compare.mockClear();
      const answer = await h.tokenRequest({
        grant_type: 'client_credentials',
        client_id: id,
        client_secret: secret,
      });
      expect(answer.status).toBe(status);
      expect(compare).toHaveBeenCalledTimes(1);
      const [a, b] = compare.mock.calls[0]! as [Buffer, Buffer];
      expect([a.byteLength, b.byteLength]).toEqual([32, 32]);
      // Neither side is the secret itself, padded or cut to the digest's length. (A digest may hold any
      // byte, so "does not contain a one-character secret" would fail one run in eight by chance.)
      const secretBytes = Buffer.alloc(32);
      Buffer.from(secret).copy(secretBytes);
      expect(a.equals(secretBytes) || b.equals(secretBytes)).toBe(false);
    },
  );
});
