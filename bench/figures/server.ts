// Server throughput: POST /v1/sales/authorize through toNodeHandler against a raw node:http baseline, same load.
import { commandOf, type Figure, type FigureOptions, fixed, type Row, verdict } from '../lib/figure.js';
import { type LoadResult, runLoad } from '../lib/load.js';
import { withDatabase } from '../lib/postgres.js';
import { authorizeRequests, fetchToken } from '../lib/requests.js';
import { startTarget, type Target } from '../lib/target.js';
import { BENCH_CLIENT } from '../targets/bench-service.js';

/** Same connections for both servers; enough to keep one server core busy without queueing for long. */
export const CONNECTIONS = 10;
const PATH = '/v1/sales/authorize';
/** Goal: the fin path keeps at least this fraction of raw node:http's throughput. */
const GOAL = 0.6;

interface Plan {
  warmupSeconds: number;
  roundSeconds: number;
  rounds: number;
}

const plans: Record<'quick' | 'full', Plan> = {
  quick: { warmupSeconds: 1, roundSeconds: 3, rounds: 1 },
  full: { warmupSeconds: 3, roundSeconds: 10, rounds: 2 },
};

interface Contender {
  target: Target;
  next: ReturnType<typeof authorizeRequests>;
  results: LoadResult[];
  /** Server CPU microseconds spent in the measured rounds. */
  cpuMicros: number;
}

const load = (contender: Contender, seconds: number) =>
  runLoad({
    url: contender.target.url,
    path: PATH,
    connections: CONNECTIONS,
    durationSeconds: seconds,
    makeRequest: contender.next,
  });

/** One measured round: the load result, and the server's CPU time spent during it. */
async function measure(contender: Contender, seconds: number): Promise<void> {
  const before = await contender.target.cpuMicros();
  contender.results.push(await load(contender, seconds));
  contender.cpuMicros += (await contender.target.cpuMicros()) - before;
}

/** Mean over rounds; p50 and p99 as the mean of each round's percentile; server CPU per request. */
function summary({ results, cpuMicros }: Contender) {
  const mean = (pick: (r: LoadResult) => number) =>
    results.reduce((sum, r) => sum + pick(r), 0) / results.length;
  return {
    rps: mean((r) => r.requestsPerSecond),
    p50: mean((r) => r.p50Ms),
    p99: mean((r) => r.p99Ms),
    failures: results.reduce((sum, r) => sum + r.non2xx + r.errors, 0),
    cpuPerRequestMicros: cpuMicros / results.reduce((sum, r) => sum + r.total, 0),
  };
}

/** autocannon reports whole milliseconds: under 1 ms a ratio says nothing. */
const latencyRatio = (ours: number, base: number) => (base >= 1 ? fixed(ours / base) : '-');

/** Raw and fin alternate round by round, so a noisy neighbour hits both alike. */
async function compare(
  store: 'memory' | 'postgres',
  plan: Plan,
  command: string,
  env: Record<string, string>,
) {
  const raw = await startTarget('raw');
  const fin = await startTarget(store, env);
  try {
    const token = await fetchToken(fin.url, BENCH_CLIENT.clientId, BENCH_CLIENT.clientSecret);
    const contenders: Contender[] = [raw, fin].map((target, i) => ({
      target,
      next: authorizeRequests(token, 10 + i),
      results: [],
      cpuMicros: 0,
    }));
    for (const contender of contenders) await load(contender, plan.warmupSeconds);
    for (let round = 0; round < plan.rounds; round++) {
      for (const contender of contenders) await measure(contender, plan.roundSeconds);
    }
    const [base, ours] = contenders.map(summary) as [ReturnType<typeof summary>, ReturnType<typeof summary>];
    if (ours.failures > 0) throw new Error(`${store}: ${ours.failures} requests failed or answered non-2xx`);
    const ratio = ours.rps / base.rps;
    const label = `authorize, ${store} store, ${CONNECTIONS} connections`;
    const rows: Row[] = [
      {
        figure: `${label}: requests/s`,
        measured: fixed(ours.rps, 0),
        baseline: `${fixed(base.rps, 0)} raw node:http`,
        ratio: fixed(ratio),
        goal: `>= ${GOAL}`,
        verdict: verdict(ratio, GOAL, 'at-least'),
        command,
      },
      {
        figure: `${label}: latency p50 / p99`,
        measured: `${fixed(ours.p50, 1)} / ${fixed(ours.p99, 1)} ms`,
        baseline: `${fixed(base.p50, 1)} / ${fixed(base.p99, 1)} ms`,
        ratio: `${latencyRatio(ours.p50, base.p50)} / ${latencyRatio(ours.p99, base.p99)}`,
        command,
      },
      {
        // What a dedicated core would give: throughput is bounded by the CPU one request costs the server.
        figure: `${label}: server CPU per request (raw / ours, as throughput on a free core)`,
        measured: `${fixed(ours.cpuPerRequestMicros, 0)} µs`,
        baseline: `${fixed(base.cpuPerRequestMicros, 0)} µs`,
        ratio: fixed(base.cpuPerRequestMicros / ours.cpuPerRequestMicros),
        command,
      },
    ];
    return rows;
  } finally {
    await Promise.all([raw.close(), fin.close()]);
  }
}

async function run(options: FigureOptions): Promise<Row[]> {
  const plan = options.quick ? plans.quick : plans.full;
  const command = commandOf('server', options);
  const rows = await compare('memory', plan, command, {});
  rows.push(...(await withDatabase((url) => compare('postgres', plan, command, { DATABASE_URL: url }))));
  return rows;
}

export const server: Figure = {
  name: 'server',
  title: `Server throughput: POST ${PATH} (toNodeHandler, fresh IMEI and key per request) vs raw node:http`,
  run,
};
