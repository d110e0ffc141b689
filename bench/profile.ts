// `pnpm bench:profile [memory|postgres|raw|raw-pg] [--seconds=N]`: the authorize load on one built server under node --cpu-prof, printed as self time per function, file and area.
import { mkdtempSync, readdirSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONNECTIONS } from './figures/server.js';
import { summarize } from './lib/cpu-profile.js';
import { fixed } from './lib/figure.js';
import { runLoad } from './lib/load.js';
import { pinningNote } from './lib/pin.js';
import { withPostgres } from './lib/postgres.js';
import { authorizeRequests, fetchToken } from './lib/requests.js';
import { startTarget } from './lib/target.js';
import { BENCH_CLIENT } from './targets/bench-service.js';

const args = process.argv.slice(2);
const kind = args.find((arg) => !arg.startsWith('--')) ?? 'memory';
const seconds = Number(args.find((arg) => arg.startsWith('--seconds='))?.split('=')[1] ?? 15);
/** Start-up and the JIT's first tiers: the first seconds of load are left out of the figures. */
const WARMUP_SECONDS = 3;
const TOP = 25;

/** Runs the load on a target started with --cpu-prof; answers the profile's path and the requests served. */
async function profiled(env: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'fin-profile-'));
  process.env.FIN_BENCH_TARGET_NODE_ARGS = `--cpu-prof --cpu-prof-dir=${dir}`;
  // From before the fork: the profile starts with the process, so this skips a little more than start-up.
  const startedAt = performance.now();
  const target = await startTarget(kind, env);
  let served = 0;
  let cpuMicros = 0;
  let systemMicros = 0;
  try {
    // The raw baselines take the bearer token as the partner's client id (bench/figures/server.ts).
    const token = kind.startsWith('raw')
      ? BENCH_CLIENT.clientId
      : await fetchToken(target.url, BENCH_CLIENT.clientId, BENCH_CLIENT.clientSecret);
    const load = (durationSeconds: number) =>
      runLoad({
        url: target.url,
        path: '/v1/sales/authorize',
        connections: CONNECTIONS,
        durationSeconds,
        makeRequest: authorizeRequests(token, 40 + Math.round(durationSeconds)),
      });
    await load(WARMUP_SECONDS);
    const skipMicros = (performance.now() - startedAt) * 1000;
    const cpuBefore = await target.cpuSplit();
    const result = await load(seconds);
    const cpuAfter = await target.cpuSplit();
    cpuMicros = cpuAfter.micros - cpuBefore.micros;
    systemMicros = cpuAfter.systemMicros - cpuBefore.systemMicros;
    if (result.non2xx + result.errors > 0)
      throw new Error(`${result.non2xx + result.errors} requests failed`);
    served = result.total;
    await target.close();
    // CPU.<date>.<time>.<pid>.<thread>.<n>.cpuprofile: thread 0 is the main thread (tsx's loader hooks run on another).
    const [file] = readdirSync(dir).filter((name) => /\.\d+\.0\.\d+\.cpuprofile$/.test(name));
    if (!file) throw new Error(`no profile written in ${dir}`);
    return { path: join(dir, file), skipMicros, served, cpuMicros, systemMicros };
  } finally {
    await target.close();
  }
}

const percent = (part: number, whole: number) => `${fixed((part / whole) * 100, 1)}%`;

/** The top rows: each one's share of the samples, and that share of the user CPU one request costs. */
function print(title: string, rows: { name: string; micros: number }[], total: number, perRequest: number) {
  console.log(`\n## ${title}\n\n| share | µs per request | where |\n| ----: | ----: | --- |`);
  for (const row of rows.slice(0, TOP)) {
    const share = row.micros / total;
    console.log(`| ${percent(row.micros, total)} | ${fixed(share * perRequest, 1)} | ${row.name} |`);
  }
}

const loadBefore = loadavg();
const run = async (env: Record<string, string> = {}) => {
  const { path, skipMicros, served, cpuMicros, systemMicros } = await profiled(env);
  const summary = summarize(path, skipMicros);
  console.log(
    `# CPU profile of the ${kind} target under authorize load (${seconds} s after ${WARMUP_SECONDS} s warm-up, ${CONNECTIONS} connections)`,
  );
  console.log(
    `\nload average before: ${loadBefore.map((n) => fixed(n, 2)).join(' ')}; after: ${loadavg()
      .map((n) => fixed(n, 2))
      .join(' ')} on ${pinningNote()}; node ${process.version}; profile ${path}`,
  );
  // Samples follow the wall clock, so on a busy machine they also cover time the process waited for a core:
  // the shares hold, the microseconds come from the process's own CPU time. The socket writes are the
  // kernel's (system time); every other sample shares the user time.
  const userPerRequest = (cpuMicros - systemMicros) / served;
  const busy = summary.totalMicros + summary.socketWriteMicros;
  console.log(
    [
      `\n${served} requests (${fixed(served / seconds, 0)}/s), profiler running.`,
      `Server CPU per request: ${fixed(cpuMicros / served, 0)} µs, ${fixed(userPerRequest, 0)} µs user (JavaScript, V8, node) and ${fixed(systemMicros / served, 0)} µs system (kernel: socket reads, writes, epoll).`,
      `Samples in the native socket writes (writev): ${percent(summary.socketWriteMicros, busy)} of the busy samples, kernel time and the core lost to the reader they wake: counted as system time, left out below.`,
      `Below: each row's share of the other ${fixed(summary.totalMicros / 1000, 0)} ms sampled busy, and that share of the user CPU per request.`,
    ].join('\n'),
  );
  print('Self time by area', summary.byArea, summary.totalMicros, userPerRequest);
  print('Self time by file', summary.byFile, summary.totalMicros, userPerRequest);
  print('Self time by function', summary.byFunction, summary.totalMicros, userPerRequest);
  // Where the request's stages are: our functions (and zod's parse) with everything they call.
  const ours = summary.byFunctionTotal.filter(({ name }) => / packages\/|zod\/v4\/classic/.test(name));
  print('Total time by function of ours (with what it calls)', ours, summary.totalMicros, userPerRequest);
};

if (kind === 'memory' || kind === 'raw') await run();
else if (kind === 'postgres' || kind === 'raw-pg')
  await withPostgres(async (postgres) => run({ DATABASE_URL: await postgres.createDatabase() }));
else throw new Error(`unknown target ${kind}: memory, postgres, raw or raw-pg`);
