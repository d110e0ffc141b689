// When the shared rate limiter's table cannot be written: 'allow' lets requests through and says so in the log, 'deny' answers 429.
import type { LogEntry } from '@fin/core';
import { migrate, postgresStore } from '@fin/server-kit/postgres';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { usePostgres } from '../../../../test/support/postgres.js';
import { cart, harness } from '../support/harness.js';

const server = usePostgres();

async function withBrokenLimiter(onRateLimitError: 'allow' | 'deny') {
  const connectionString = await server.createDatabase();
  await migrate({ connectionString });
  const logs: LogEntry[] = [];
  const store = postgresStore({ connectionString, onRateLimitError, logger: { warn: (e) => logs.push(e) } });
  const h = harness({ store });
  await h.token();
  // The limiter's table goes away under the service (a failed migration, a DBA's mistake ...).
  const db = new pg.Client({ connectionString });
  await db.connect();
  await db.query('ALTER TABLE fin_rate_limits RENAME TO fin_rate_limits_gone');
  await db.end();
  return { h, logs, close: () => store.close() };
}

describe('spec 8 rate limits when the limiter store fails', () => {
  it("'allow' (default): the request goes on, and the failure is logged", async () => {
    const { h, logs, close } = await withBrokenLimiter('allow');
    try {
      const answer = await h.authorize(cart());
      expect(answer.status).toBe(200);
      expect(answer.body.data.authorized).toBe(true);
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
