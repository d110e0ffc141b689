// Sync pacing: syncCatalog against the simulated partner POS limited to 600 reads a minute, as the spec allows.
import { PosClient, syncCatalog } from '@fin/pos-client';
import { createSimulatedPos } from '@fin/pos-client/testing';
import { commandOf, type Figure, type FigureOptions, fixed, type Row, verdict } from '../lib/figure.js';

/** The spec's read limit per client_id (section 8); the simulation enforces it over a sliding minute. */
const READS_PER_MINUTE = 600;
const GOAL = 0.95;
/** Catalog sizes: the full one needs a little over 600 reads (a minute of real time), the quick one ~100. */
const sizes = {
  full: { stores: 3, productsPerStore: 1000, smartphonesPerStore: 200, employees: 600 },
  quick: { stores: 2, productsPerStore: 400, smartphonesPerStore: 45, employees: 300 },
};

async function run(options: FigureOptions): Promise<Row[]> {
  const command = commandOf('sync', options);
  const sim = createSimulatedPos({ seed: 7, size: options.quick ? sizes.quick : sizes.full });
  const pos = new PosClient({ baseUrl: 'http://partner-pos.test', ...sim.credentials, fetch: sim.fetch });
  const startedAt = performance.now();
  const { snapshot } = await syncCatalog(pos);
  const elapsedMs = performance.now() - startedAt;

  const reads = sim.requests.all().filter((record) => record.endpoint !== 'POST /v1/oauth/token');
  const refused = sim.requests.count({ status: 429 });
  const items =
    snapshot.employees.length +
    snapshot.stores.length +
    snapshot.plans.length +
    snapshot.products.length +
    snapshot.services.length;
  const perMinute = (reads.length / elapsedMs) * 60_000;
  // The pacer lets the whole allowance leave at once, then waits for the window: N reads can take no less
  // than one window per full allowance after the first. The rate kept is that least time over the time taken.
  const windowsForced = Math.floor((reads.length - 1) / READS_PER_MINUTE);
  const fraction = windowsForced > 0 ? (windowsForced * 60_000) / elapsedMs : undefined;
  const label = `syncCatalog, ${reads.length} reads in ${fixed(elapsedMs / 1000, 1)} s`;
  return [
    {
      figure: `${label}: read rate (overall, burst included)`,
      measured: `${fixed(perMinute, 0)} reads/min`,
      baseline: `${READS_PER_MINUTE} allowed`,
      ratio: fixed(perMinute / READS_PER_MINUTE),
      goalRow: 'sync read rate',
      command,
    },
    {
      figure: `${label}: rate kept (least time the limit allows / time taken)`,
      measured: fraction === undefined ? `n/a: ${reads.length} reads fit in one allowance` : fixed(fraction),
      goal: `>= ${GOAL}`,
      verdict: fraction === undefined ? '' : verdict(fraction, GOAL, 'at-least'),
      command,
    },
    { figure: `${label}: items/s`, measured: fixed(items / (elapsedMs / 1000), 0), command },
    {
      figure: `${label}: 429 answers received`,
      measured: String(refused),
      goal: '0',
      verdict: refused === 0 ? 'ok' : 'below goal',
      command,
    },
  ];
}

export const sync: Figure = {
  name: 'sync',
  title: `Sync pacing: syncCatalog against the simulated partner POS limited to ${READS_PER_MINUTE} reads/min`,
  run,
};
