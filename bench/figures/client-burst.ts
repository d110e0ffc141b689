// Burst of sales: N concurrent authorize calls through one AuthorizationClient (spec pacing on) vs bare fetch.
import { AuthorizationClient } from '@fin/authorization-client';
import { cartStream } from '../lib/cart.js';
import { commandOf, type FigureOptions, fixed, inTurn, type Row, verdict } from '../lib/figure.js';
import { authorizeRequests, fetchToken } from '../lib/requests.js';
import { BENCH_CLIENT } from '../targets/bench-service.js';

const GOAL = 1.5;
/** Thirty cashiers of one partner pressing "finance" in the same second (issue 14). */
const CONCURRENT = 30;
const rounds = { full: 12, quick: 4 };

/** Wall milliseconds of `count` calls started together. */
async function burst(call: () => Promise<void>, count: number): Promise<number> {
  const startedAt = performance.now();
  await Promise.all(Array.from({ length: count }, call));
  return performance.now() - startedAt;
}

/**
 * Each round uses a new client with the spec's limits (120 writes a minute), its token already cached:
 * what a POS process sees when a burst meets a client that has been idle for a minute.
 */
export async function burstRows(targetUrl: string, options: FigureOptions): Promise<Row[]> {
  const token = await fetchToken(targetUrl, BENCH_CLIENT.clientId, BENCH_CLIENT.clientSecret);
  const carts = cartStream(22);
  const fetchRequests = authorizeRequests(token, 23);
  const viaFetch = async () => {
    const { headers, body } = fetchRequests();
    const response = await fetch(`${targetUrl}/v1/sales/authorize`, { method: 'POST', headers, body });
    const answer = (await response.json()) as { data?: { authorized?: boolean } };
    if (answer.data?.authorized !== true) throw new Error(`bench authorization answered ${response.status}`);
  };
  const viaClient = async () => {
    const client = new AuthorizationClient({ baseUrl: targetUrl, ...BENCH_CLIENT });
    await client.authorize(carts());
    return burst(async () => {
      if (!(await client.authorize(carts())).authorized) throw new Error('bench authorization declined');
    }, CONCURRENT);
  };
  // Both share the process's connection pool: an unmeasured burst opens its thirty connections first, and
  // the order alternates ABBA, so neither side always meets the connections the other just opened.
  await burst(viaFetch, CONCURRENT);
  let clientMs = 0;
  let fetchMs = 0;
  const count = options.quick ? rounds.quick : rounds.full;
  for (let round = 0; round < count; round++) {
    const [ours, bare] = await inTurn(round, viaClient, () => burst(viaFetch, CONCURRENT));
    clientMs += ours;
    fetchMs += bare;
  }
  const ratio = clientMs / fetchMs;
  return [
    {
      figure: `authorize, ${CONCURRENT} concurrent calls through one client (spec pacing on): wall time`,
      goalRow: 'client burst of 30 vs bare fetch',
      measured: `${fixed(clientMs / count, 1)} ms AuthorizationClient`,
      baseline: `${fixed(fetchMs / count, 1)} ms bare fetch`,
      ratio: fixed(ratio),
      goal: `<= ${GOAL}`,
      verdict: verdict(ratio, GOAL, 'at-most'),
      command: commandOf('client', options),
    },
  ];
}
