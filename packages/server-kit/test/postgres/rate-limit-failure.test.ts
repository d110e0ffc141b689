// When the shared rate limiter's table cannot be written: logged at error and counted; the token failure budget fails closed by default (RDY-4), 'allow' and 'deny' as set.
import type { LogEntry } from '@fin/core';
import { migrate, postgresStore } from '@fin/server-kit/postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usePostgres, withClient } from '../../../../test/support/postgres.js';
import { installOtelSdk, type OtelSdk } from '../../../../test/telemetry/support/otel-sdk.js';
import { cart, harness, PARTNER_A } from '../support/harness.js';

const server = usePostgres();
let sdk: OtelSdk;
beforeAll(() => {
  sdk = installOtelSdk();
});
afterAll(() => sdk.shutdown());

async function withBrokenLimiter(onRateLimitError: 'allow' | 'deny' | undefined) {
  const connectionString = await server.createDatabase();
  await migrate({ connectionString });
  const logs: (LogEntry & { level: string })[] = [];
  const store = postgresStore({
    connectionString,
    ...(onRateLimitError ? { onRateLimitError } : {}),
    logger: {
      warn: (e) => logs.push({ ...e, level: 'warn' }),
      error: (e) => logs.push({ ...e, level: 'error' }),
    },
  });
  const h = harness({ store });
  await h.token();
  // The limiter's table goes away under the service (a failed migration, a DBA's mistake ...).
  await withClient(connectionString, (db) =>
    db.query('ALTER TABLE fin_rate_limits RENAME TO fin_rate_limits_gone'),
  );
  return { h, logs, close: () => store.close() };
}

const wrongSecret = (h: ReturnType<typeof harness>) =>
  h.tokenRequest({ grant_type: 'client_credentials', client_id: PARTNER_A.clientId, client_secret: 'guess' });

describe('spec 8 rate limits when the limiter store fails', () => {
  it('RDY-4 default: writes go on (allow), a failed token attempt is refused 429 (the failure budget fails closed); each logged at error and counted', async () => {
    const { h, logs, close } = await withBrokenLimiter(undefined);
    try {
      const answer = await h.authorize(cart());
      expect(answer.status).toBe(200);
      expect(answer.body.data.authorized).toBe(true);
      const guessed = await wrongSecret(h);
      expect([guessed.status, guessed.body.error, guessed.headers.get('retry-after')]).toEqual([
        429,
        'rate_limit_exceeded',
        '1',
      ]);
      expect(logs).toContainEqual(
        expect.objectContaining({
          level: 'error',
          event: 'postgres.rate_limit_failed',
          key: 'write:partner-a',
          onRateLimitError: 'allow',
        }),
      );
      expect(logs).toContainEqual(
        expect.objectContaining({
          level: 'error',
          event: 'postgres.rate_limit_failed',
          key: 'token-fail:client:partner-a',
          onRateLimitError: 'deny',
        }),
      );
      const counted = (await sdk.collect()).get('fin.rate_limiter.errors') ?? [];
      expect(counted).toContainEqual({
        attributes: { 'fin.rate_class': 'write', 'fin.rate_limit.on_error': 'allow' },
        value: 1,
      });
      expect(counted).toContainEqual({
        attributes: { 'fin.rate_class': 'token-fail', 'fin.rate_limit.on_error': 'deny' },
        value: expect.any(Number),
      });
    } finally {
      await close();
    }
  });

  it("'allow' set: every limit fails open, the failed token attempt included (401, not 429)", async () => {
    const { h, logs, close } = await withBrokenLimiter('allow');
    try {
      const answer = await h.authorize(cart());
      expect(answer.status).toBe(200);
      expect((await wrongSecret(h)).status).toBe(401);
      expect(logs).toContainEqual(
        expect.objectContaining({ event: 'postgres.rate_limit_failed', key: 'write:partner-a' }),
      );
    } finally {
      await close();
    }
  });

  it("'deny': the request is refused 429 with Retry-After: 1", async () => {
    const { h, close } = await withBrokenLimiter('deny');
    try {
      const answer = await h.authorize(cart());
      expect(answer.status).toBe(429);
      expect(answer.body.error.code).toBe('rate_limit_exceeded');
      expect(answer.headers.get('retry-after')).toBe('1');
    } finally {
      await close();
    }
  });
});
