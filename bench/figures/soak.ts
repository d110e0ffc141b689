// Soak (issue 37; long variant of test/reliability/soak.test.ts): minutes of whole sale journeys on the PostgreSQL store with every retention about a minute, each table's size sampled.
import { withClient } from '../../test/support/postgres.js';
import { commandOf, type Figure, type FigureOptions, type Row } from '../lib/figure.js';
import { withDatabase } from '../lib/postgres.js';
import { fetchToken } from '../lib/requests.js';
import { saleJourneys } from '../lib/sale-journeys.js';
import { mib } from '../lib/soak.js';
import { formatSizes, type SizeSample, STORE_TABLES, tableSizes } from '../lib/table-sizes.js';
import { startTarget } from '../lib/target.js';
import { BENCH_CLIENT } from '../targets/bench-service.js';

/** FIN_BENCH_SOAK_SECONDS overrides: long enough for several retentions (a minute) and purges (15 s). */
const SECONDS = { full: 600, quick: 180 };
const CONNECTIONS = 8;
/** Samples of the table sizes: at start, this many between, and at the end. */
const SAMPLES_BETWEEN = 5;

/** The first failed answer of each step, when any failed. */
const failuresSeen = (first: Record<string, string>) =>
  Object.keys(first).length > 0 ? `, first: ${JSON.stringify(first)}` : '';

async function run(options: FigureOptions): Promise<Row[]> {
  const seconds = Number(
    process.env.FIN_BENCH_SOAK_SECONDS ?? (options.quick ? SECONDS.quick : SECONDS.full),
  );
  const command = commandOf('soak', options);
  return withDatabase(async (connectionString) => {
    const target = await startTarget('soak', { DATABASE_URL: connectionString });
    try {
      return await withClient(connectionString, async (db) => {
        const token = await fetchToken(target.url, BENCH_CLIENT.clientId, BENCH_CLIENT.clientSecret);
        const heapBefore = (await target.heap()).heapUsed;
        const startedAt = performance.now();
        const samples: SizeSample[] = [];
        const sample = async () =>
          samples.push({ atSeconds: (performance.now() - startedAt) / 1000, sizes: await tableSizes(db) });
        await sample();
        const between = setInterval(() => void sample(), (seconds * 1000) / (SAMPLES_BETWEEN + 1));
        const report = await saleJourneys({
          url: target.url,
          token,
          seconds,
          connections: CONNECTIONS,
        }).finally(() => clearInterval(between));
        await sample();
        const heapAfter = (await target.heap()).heapUsed;
        console.log(
          `\nTable sizes (rows / pg_total_relation_size), retentions ${process.env.FIN_BENCH_RETENTION_MS ?? 60_000} ms:\n`,
        );
        console.log(formatSizes(samples));
        const end = samples.at(-1)!.sizes;
        const kept = end.fin_authorizations!.rows + end.fin_authorizations_archive!.rows;
        const failures = report.failed.authorize + report.failed.confirm + report.failed.cancel;
        const label = `soak ${seconds} s, postgres store, ${CONNECTIONS} connections, retentions 1 min`;
        const middle = samples[Math.floor(samples.length / 2)]!.sizes;
        return [
          {
            figure: `${label}: journeys (authorize, confirm, cancel verified)`,
            measured: `${report.completed} completed (${(report.completed / report.seconds).toFixed(1)}/s), failures ${JSON.stringify(report.failed)}${failuresSeen(report.firstFailure)}`,
            goal: '0 failures',
            verdict: failures === 0 ? 'ok' : 'below goal',
            command,
          },
          {
            figure: `${label}: authorized answers vs authorizations kept (live + archive)`,
            measured: `${report.authorized} answered, ${kept} kept`,
            goal: 'equal',
            verdict: kept === report.authorized ? 'ok' : 'below goal',
            command,
          },
          ...STORE_TABLES.filter(
            (table) => !table.endsWith('_archive') && table !== 'fin_catalog_snapshots',
          ).map((table) => ({
            figure: `${label}: ${table} rows, middle -> end`,
            measured: `${middle[table]!.rows} -> ${end[table]!.rows} (${mib(middle[table]!.bytes)} -> ${mib(end[table]!.bytes)})`,
            command,
          })),
          {
            figure: `${label}: server heap after GC, before -> after`,
            measured: `${mib(heapBefore)} -> ${mib(heapAfter)}`,
            command,
          },
        ];
      });
    } finally {
      await target.close();
    }
  });
}

export const soak: Figure = {
  name: 'soak',
  title:
    'Soak: sale journeys on the PostgreSQL store, every retention a minute, each table levelling off (issue 37)',
  run,
};
