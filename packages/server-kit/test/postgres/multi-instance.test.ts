// Several service instances in separate processes sharing one PostgreSQL: R-10, idempotency and the write rate limit hold across them.
import { randomUUID } from 'node:crypto';
import { migrate } from '@fin/server-kit/postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usePostgres, withClient } from '../../../../test/support/postgres.js';
import { cart, confirmation, deviceImei } from '../support/harness.js';
import {
  type Answer,
  type Instance,
  post,
  replayable,
  startInstance,
  tokenFor,
} from './support/instances.js';
import { customer, LOAD_STORE, partnerFor } from './support/partners.js';

const server = usePostgres();
// Every instance reads this instant, so all requests of a test fall in one rate-limit window.
const NOW = '2026-03-02T15:00:10.000Z';

// Each mode on a database of its own: named prepared statements (the default), and unnamed ones.
describe.each(['on', 'off'] as const)('prepared statements %s', (prepared) => {
  let databaseUrl: string;
  let instances: Instance[] = [];
  const env = () => ({
    DATABASE_URL: databaseUrl,
    FIN_TEST_NOW: NOW,
    FIN_TEST_PREPARED_STATEMENTS: prepared,
    // These tests count answers, not time: 50 requests queue for each instance's 8 connections, and on a loaded
    // CI machine the default 2 s waits for a connection or a lock answered some of them 503 (a fault the fault
    // suites test on their own, with bounds of their own).
    FIN_TEST_PG_TIMEOUTS: JSON.stringify({
      connectionTimeoutMs: 60_000,
      lockTimeoutMs: 30_000,
      statementTimeoutMs: 30_000,
    }),
  });

  beforeAll(async () => {
    databaseUrl = await server.createDatabase();
    await migrate({ connectionString: databaseUrl });
    instances = await Promise.all([0, 1].map(() => startInstance(env())));
  });

  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.stop()));
  });

  async function count(text: string, values: unknown[]): Promise<number> {
    return withClient(databaseUrl, async (client) =>
      Number((await client.query<{ n: string }>(text, values)).rows[0]!.n),
    );
  }

  const spread = <T>(n: number, request: (instance: Instance, i: number) => Promise<T>) =>
    Promise.all(Array.from({ length: n }, (_, i) => request(instances[i % instances.length]!, i)));

  describe('several instances on one PostgreSQL', () => {
    it('R-10: of 100 concurrent authorizations of one IMEI spread over two processes, exactly one is authorized', async () => {
      const token = await tokenFor(instances[0]!, partnerFor('imei'));
      const imei = deviceImei(100);
      const answers = await spread(100, (instance, i) =>
        post(instance, '/v1/sales/authorize', cart({ imei, storeId: LOAD_STORE, clientTaxId: customer(i) }), {
          token,
          idempotencyKey: randomUUID(),
        }),
      );
      const authorized = answers.filter((a) => a.status === 200 && a.body.data.authorized === true);
      expect(authorized).toHaveLength(1);
      expect(answers.filter((a) => a !== authorized[0]).map((a) => [a.status, a.body.error?.code])).toEqual(
        Array.from({ length: 99 }, () => [422, 'imei_already_financed']),
      );
      expect(await count('SELECT count(*) AS n FROM fin_authorizations WHERE imei = $1', [imei])).toBe(1);
    });

    it('idempotency: 100 concurrent identical requests with one key over two processes create one authorization and get one answer', async () => {
      const token = await tokenFor(instances[1]!, partnerFor('idempotency'));
      const imei = deviceImei(200);
      const body = cart({ imei, storeId: LOAD_STORE, clientTaxId: customer(200) });
      const idempotencyKey = randomUUID();
      const answers = await spread(100, (instance) =>
        post(instance, '/v1/sales/authorize', body, { token, idempotencyKey }),
      );
      const first = replayable(answers[0]!);
      expect(first.status).toBe(200);
      expect(first.body.data.authorized).toBe(true);
      for (const answer of answers) expect(replayable(answer)).toEqual(first);
      expect(await count('SELECT count(*) AS n FROM fin_authorizations WHERE imei = $1', [imei])).toBe(1);
    });

    it('spec 8: the write limit (120 a minute per client) is one budget shared by every instance', async () => {
      const token = await tokenFor(instances[0]!, partnerFor('rate'));
      // Invalid bodies (a store, nothing else): they count against the limit too, and nothing else is written.
      const answers = await spread(130, (instance) =>
        post(
          instance,
          '/v1/sales/authorize',
          { storeId: 'store-1' },
          { token, idempotencyKey: randomUUID() },
        ),
      );
      const limited = answers.filter((a) => a.status === 429);
      expect(limited).toHaveLength(10);
      expect(limited.every((a) => a.body.error.code === 'rate_limit_exceeded')).toBe(true);
      expect(answers.filter((a) => a.status === 422)).toHaveLength(120);
    });
  });

  describe('an instance killed in the middle of a load run', () => {
    it('SIGKILL loses no committed authorization or contract, and every answered request replays its answer after a restart', async () => {
      const partner = partnerFor('restart');
      const token = await tokenFor(instances[0]!, partner);
      const answered: { path: string; body: unknown; key: string; answer: Answer }[] = [];
      let victimAnswers = 0;
      const victim = instances[0]!;
      let killing: Promise<void> | undefined;

      /** One sale: authorize then confirm, on the instance its number picks; stops at the first lost answer. */
      const journey = async (n: number) => {
        const instance = instances[n % 2]!;
        const send = async (path: string, body: unknown) => {
          const key = randomUUID();
          const answer = await post(instance, path, body, { token, idempotencyKey: key });
          answered.push({ path, body, key, answer });
          if (instance === victim && ++victimAnswers === 8) killing = victim.kill();
          return answer;
        };
        const authorized = await send(
          '/v1/sales/authorize',
          cart({ imei: deviceImei(300 + n), storeId: LOAD_STORE, clientTaxId: customer(300 + n) }),
        );
        const id = authorized.body.data.authorizationId as string;
        await send(`/v1/sales/${id}/confirm`, confirmation(new Date(NOW)));
      };
      const outcomes = await Promise.allSettled(Array.from({ length: 20 }, (_, n) => journey(n)));
      await killing;
      expect(outcomes.some((outcome) => outcome.status === 'rejected')).toBe(true);

      const restarted = await startInstance(env());
      instances[0] = restarted;
      const authorizations = answered.filter((a) => a.path === '/v1/sales/authorize');
      const contracts = answered.filter((a) => a.path.endsWith('/confirm'));
      expect(authorizations.every((a) => a.answer.body.data?.authorized === true)).toBe(true);
      expect(contracts.every((a) => a.answer.body.data?.status === 'CONFIRMED')).toBe(true);
      for (const a of authorizations) {
        const id = a.answer.body.data.authorizationId;
        expect(
          await count('SELECT count(*) AS n FROM fin_authorizations WHERE authorization_id = $1', [id]),
        ).toBe(1);
      }
      for (const a of contracts) {
        const { authorizationId, contractId } = a.answer.body.data;
        expect(
          await count(
            'SELECT count(*) AS n FROM fin_contracts WHERE contract_id = $1 AND authorization_id = $2',
            [contractId, authorizationId],
          ),
        ).toBe(1);
      }
      // The POS retries each request with its key: the restarted instance answers what was answered.
      for (const a of answered) {
        const retry = await post(restarted, a.path, a.body, { token, idempotencyKey: a.key });
        expect(replayable(retry)).toEqual(replayable(a.answer));
      }
    });
  });
});
