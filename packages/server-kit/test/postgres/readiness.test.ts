// Readiness on a real PostgreSQL (issue 16 §1, §3): the store's ping turns readiness false when the server stops and true when it is back.
import { migrate, postgresStore } from '@fin/server-kit/postgres';
import { describe, expect, it } from 'vitest';
import { usePostgres } from '../../../../test/support/postgres.js';
import { harness } from '../support/harness.js';

const server = usePostgres();

describe('readiness follows PostgreSQL', () => {
  it('ready while the server answers, not ready (503) once it stops, ready again when it restarts on the same port and data', async () => {
    const connectionString = await server.createDatabase({ name: 'fin_readiness_secret_name' });
    await migrate({ connectionString });
    const store = postgresStore({ connectionString });
    const h = harness({ store, healthPaths: { live: '/healthz', ready: '/readyz' } });
    const probe = async (path: string) => {
      const answer = await h.service.fetch(new Request(`http://fin.test${path}`));
      return { status: answer.status, text: await answer.text() };
    };
    try {
      expect(await h.service.health()).toMatchObject({ ready: true, checks: { store: 'up' } });
      expect((await probe('/readyz')).status).toBe(200);

      await server.halt('fast');
      await expect.poll(async () => (await h.service.health()).ready, { timeout: 10_000 }).toBe(false);
      const down = await probe('/readyz');
      expect(down.status).toBe(503);
      expect(JSON.parse(down.text)).toEqual({
        status: 'not_ready',
        checks: { accepting: true, store: 'down', workers: 'none' },
      });
      // Nothing of the connection: no host, port, database, user, server version or error text.
      for (const leak of [
        '127.0.0.1',
        String(server.port),
        'fin_readiness_secret_name',
        'postgres',
        'ECONN',
      ]) {
        expect(down.text).not.toContain(leak);
      }
      // The process is alive: liveness must not restart it for a database outage.
      expect((await probe('/healthz')).status).toBe(200);

      await server.resume();
      await expect
        .poll(async () => (await h.service.health()).checks.store, { timeout: 20_000, interval: 200 })
        .toBe('up');
      expect((await probe('/readyz')).status).toBe(200);
    } finally {
      await h.service.close();
      await store.close();
    }
  }, 60_000);
});
