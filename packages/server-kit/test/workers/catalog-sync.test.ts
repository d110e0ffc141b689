// The catalog sync job against the simulated partner POS: stored snapshot, departures on record, last success exposed.
import { PosClient } from '@fin/pos-client';
import { createSimulatedPos } from '@fin/pos-client/testing';
import { catalogSyncJob, memoryStore } from '@fin/server-kit';
import { describe, expect, it } from 'vitest';
import { DAY, manualClock, T0 } from '../support/harness.js';

function partner(clock: ReturnType<typeof manualClock>, seed: number) {
  const sim = createSimulatedPos({ seed, clock, size: { stores: 2, productsPerStore: 60, employees: 12 } });
  const pos = new PosClient({
    baseUrl: `http://partner-${seed}.test`,
    ...sim.credentials,
    fetch: (input, init) => sim.fetch(new Request(input, init)),
    maxRetries: 0,
    rateLimit: false,
  });
  return { sim, pos };
}

function setup() {
  const clock = manualClock();
  const store = memoryStore();
  const a = partner(clock, 1);
  const b = partner(clock, 2);
  const job = catalogSyncJob({
    store,
    clock,
    partners: [
      { partnerId: 'partner-a', pos: a.pos },
      { partnerId: 'partner-b', pos: b.pos, storeIds: [b.sim.data.stores[0]!.storeId] },
    ],
  });
  return { clock, store, a, b, job };
}

describe('catalog sync job', () => {
  it('an aborted signal (a closing worker loop) cuts the partner in progress short, leaves its stored catalog as it was and starts no other', async () => {
    const { clock, store, a, b } = setup();
    const stop = new AbortController();
    const logs: { event: string }[] = [];
    const job = catalogSyncJob({
      store,
      clock,
      logger: { info: (entry) => logs.push(entry), error: (entry) => logs.push(entry) },
      partners: [
        { partnerId: 'partner-a', pos: a.pos },
        { partnerId: 'partner-b', pos: b.pos },
      ],
      onProgress: () => stop.abort(),
    });
    expect(await job.runOnce({ signal: stop.signal })).toEqual([
      { partnerId: 'partner-a', ok: false, error: 'aborted', lastSucceededAt: undefined },
    ]);
    expect(await job.read('partner-a')).toBeUndefined();
    expect(b.sim.requests.count({})).toBe(0);
    expect(logs).toEqual([{ event: 'catalog.sync_stopped', partnerId: 'partner-a' }]);
  });

  it('spec 1.3: stores each partner’s stores, plans, products, services and employees, and tells when it last succeeded', async () => {
    const { job, a, b } = setup();
    expect(await job.lastSucceededAt('partner-a')).toBeUndefined();
    const results = await job.runOnce();
    expect(results.map((r) => [r.partnerId, r.ok])).toEqual([
      ['partner-a', true],
      ['partner-b', true],
    ]);
    expect(await job.lastSucceededAt('partner-a')).toEqual(T0);
    const catalog = (await job.read('partner-a'))!.catalog;
    expect(catalog.stores.map((s) => s.storeId)).toEqual(a.sim.data.stores.map((s) => s.storeId));
    expect(catalog.employees).toHaveLength(12);
    expect(catalog.plans.length).toBeGreaterThan(0);
    expect(catalog.products.length).toBeGreaterThan(0);
    expect(catalog.services.length).toBeGreaterThan(0);
    // A partner synced for some stores only keeps those.
    const onlyFirst = (await job.read('partner-b'))!.catalog;
    expect(onlyFirst.storeIds).toEqual([b.sim.data.stores[0]!.storeId]);
    expect(new Set(onlyFirst.products.map((p) => p.storeId))).toEqual(new Set(onlyFirst.storeIds));
  });

  it('spec 6: an employee gone from the daily list is recorded as a departure, and stays on record', async () => {
    const { job, a, clock } = setup();
    await job.runOnce();
    clock.advance(DAY);
    const gone = a.sim.employees.remove({ count: 2 });
    const [first] = await job.runOnce();
    expect(first).toMatchObject({ ok: true, departures: gone });
    const departedAt = new Date(T0.getTime() + DAY).toISOString();
    expect((await job.read('partner-a'))!.departures).toEqual(
      gone.map((employee) => ({ employee, detectedAt: departedAt })),
    );
    clock.advance(DAY);
    const [next] = await job.runOnce();
    expect(next).toMatchObject({ ok: true, departures: [] });
    expect((await job.read('partner-a'))!.departures).toHaveLength(2);
  });

  it('departures are forgotten after the retention period', async () => {
    const { job, a, clock } = setup();
    await job.runOnce();
    a.sim.employees.remove({ count: 1 });
    clock.advance(DAY);
    await job.runOnce();
    clock.advance(90 * DAY);
    await job.runOnce();
    expect((await job.read('partner-a'))!.departures).toEqual([]);
  });

  it('a failed sync keeps the previous catalog, says when it last succeeded, and does not stop the other partners', async () => {
    const { job, a, clock } = setup();
    await job.runOnce();
    clock.advance(DAY);
    a.sim.faults.serverErrors({ endpoint: 'GET /v1/employees', count: 1 });
    const [failed, other] = await job.runOnce();
    expect(failed).toMatchObject({ partnerId: 'partner-a', ok: false, lastSucceededAt: T0.toISOString() });
    expect(other).toMatchObject({ partnerId: 'partner-b', ok: true });
    expect(await job.lastSucceededAt('partner-a')).toEqual(T0);
    expect((await job.read('partner-a'))!.catalog.employees).toHaveLength(12);
  });

  it('reports every page each partner’s sync reads, naming the partner', async () => {
    const { store, a, b, clock } = setup();
    const seen: { partnerId: string; resource: string; pages: number }[] = [];
    const job = catalogSyncJob({
      store,
      clock,
      partners: [
        { partnerId: 'partner-a', pos: a.pos },
        { partnerId: 'partner-b', pos: b.pos },
      ],
      onProgress: ({ partnerId, resource, pages }) => seen.push({ partnerId, resource, pages }),
    });
    const [first, second] = await job.runOnce();
    const last = (partnerId: string) => seen.filter((p) => p.partnerId === partnerId).at(-1);
    expect(seen[0]).toEqual({ partnerId: 'partner-a', resource: 'employees', pages: 1 });
    expect(first).toMatchObject({ ok: true, pages: last('partner-a')!.pages });
    expect(second).toMatchObject({ ok: true, pages: last('partner-b')!.pages });
  });
});
