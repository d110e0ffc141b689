// The poller and the verifier on two instances sharing one PostgreSQL, against the simulated partner POS: each contract and each cancellation once.
import { migrate, postgresStore } from '@fin/server-kit/postgres';
import pg from 'pg';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { usePostgres } from '../../../../test/support/postgres.js';
import { CUSTOMER, cart, harness, MINUTE, manualClock } from '../support/harness.js';
import { simulatedPartner } from '../support/simulated-partner.js';

const server = usePostgres();
const TEMPLATE = 'fin_workers_template';
const SALES = 12;

beforeAll(async () => {
  await migrate({ connectionString: await server.createDatabase({ name: TEMPLATE }) });
});

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanup.splice(0).map((close) => close()));
});

/** Two service instances (two pools) on one fresh database, one clock, one simulated partner POS. */
async function twoInstances() {
  const connectionString = await server.createDatabase({ template: TEMPLATE });
  const clock = manualClock();
  const { sim, storeId, devices, registration } = simulatedPartner(clock, 200);
  const instance = () => {
    const store = postgresStore({ connectionString, max: 4 });
    cleanup.push(() => store.close());
    return harness({ clients: [registration()], store }, clock);
  };
  expect(devices.length).toBeGreaterThanOrEqual(SALES);
  const rows = async (text: string) => {
    const client = new pg.Client({ connectionString });
    await client.connect();
    try {
      return (await client.query(text)).rows;
    } finally {
      await client.end();
    }
  };
  return { a: instance(), b: instance(), sim, storeId, devices: devices.slice(0, SALES), clock, rows };
}

type Setup = Awaited<ReturnType<typeof twoInstances>>;

/** Authorizes a sale of each device on instance A and registers it in the POS with `status`. */
async function sell({ a, sim, storeId, devices }: Setup, status: 'ACTIVE' | 'PENDING') {
  const sales = [];
  for (const imei of devices) {
    const answer = await a.authorize(cart({ imei, storeId }));
    const sale = sim.sales.register({ imei, taxId: CUSTOMER, storeId, status });
    sales.push({ id: answer.body.data.authorizationId as string, sale });
  }
  return sales;
}

const searches = (sim: Setup['sim']) => sim.requests.count({ endpoint: 'POST /v1/sales/search' });

describe('workers on two instances sharing one PostgreSQL', () => {
  it('DESIGN 4: two pollers at once search each sale once and create each contract once', async () => {
    const setup = await twoInstances();
    const { a, b, sim, rows } = setup;
    await sell(setup, 'ACTIVE');
    const [first, second] = await Promise.all([
      a.service.workers.pollConfirmations(),
      b.service.workers.pollConfirmations(),
    ]);
    expect(first.checked + second.checked).toBe(SALES);
    expect(first.confirmed + second.confirmed).toBe(SALES);
    expect(searches(sim)).toBe(SALES);
    const contracts = await rows('SELECT authorization_id FROM fin_contracts');
    expect(new Set(contracts.map((row) => row.authorization_id)).size).toBe(SALES);
    expect(contracts).toHaveLength(SALES);
  });

  it('DESIGN 4: a confirm arriving while the poller confirms the same sale leaves one contract, the one both answer', async () => {
    const setup = await twoInstances();
    const { a, b, rows } = setup;
    const sales = await sell(setup, 'ACTIVE');
    const confirms = await Promise.all([
      ...sales.map(({ id, sale }) =>
        a.confirm(id, {
          saleNumber: sale.saleNumber,
          invoiceNumber: sale.invoiceNumber!,
          nfeAccessKey: sale.nfeAccessKey!,
          invoicedAt: sale.saleDate,
        }),
      ),
      b.service.workers.pollConfirmations(),
    ]);
    const contracts = await rows('SELECT authorization_id, contract_id FROM fin_contracts');
    expect(contracts).toHaveLength(SALES);
    const stored = new Map(contracts.map((row) => [row.authorization_id, row.contract_id]));
    for (const [i, { id }] of sales.entries()) {
      expect(confirms[i]).toMatchObject({ status: 200, body: { data: { contractId: stored.get(id) } } });
    }
  });

  it('R-08: two verifiers at once search each pending notice once and cancel each financing once', async () => {
    const setup = await twoInstances();
    const { a, b, sim, rows, clock } = setup;
    const sales = await sell(setup, 'ACTIVE');
    await a.service.workers.pollConfirmations();
    // The POS fails while the notices arrive: every one waits for the verifiers.
    sim.faults.serverErrors({ endpoint: 'POST /v1/sales/search', count: SALES });
    for (const { id, sale } of sales) {
      sim.sales.setStatus({ saleNumber: sale.saleNumber }, 'CANCELLED');
      expect((await a.cancel(id, { reason: 'CUSTOMER_REQUEST' })).body.data.verification).toBe('PENDING');
    }
    const before = searches(sim);
    clock.advance(MINUTE);
    const [first, second] = await Promise.all([
      a.service.workers.verifyCancellations(),
      b.service.workers.verifyCancellations(),
    ]);
    expect(first.checked + second.checked).toBe(SALES);
    expect(first.verified + second.verified).toBe(SALES);
    expect(searches(sim) - before).toBe(SALES);
    const statuses = await rows('SELECT status, count(*)::int AS n FROM fin_authorizations GROUP BY status');
    expect(statuses).toEqual([{ status: 'CANCELLED', n: SALES }]);
  });
});
