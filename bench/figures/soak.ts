// Soak (long variant of test/reliability/soak.test.ts): minutes of authorize load on the PostgreSQL store.
import pg from 'pg';
import { commandOf, type Figure, type FigureOptions, fixed, type Row } from '../lib/figure.js';
import { withDatabase } from '../lib/postgres.js';
import { fetchToken } from '../lib/requests.js';
import { mib, soak as soakRun } from '../lib/soak.js';
import { startTarget } from '../lib/target.js';
import { BENCH_CLIENT } from '../targets/bench-service.js';

const SECONDS = { full: 300, quick: 60 };
const CONNECTIONS = 10;

async function run(options: FigureOptions): Promise<Row[]> {
  const seconds = options.quick ? SECONDS.quick : SECONDS.full;
  const command = commandOf('soak', options);
  return withDatabase(async (connectionString) => {
    const target = await startTarget('postgres', { DATABASE_URL: connectionString });
    const db = new pg.Client({ connectionString });
    await db.connect();
    try {
      const token = await fetchToken(target.url, BENCH_CLIENT.clientId, BENCH_CLIENT.clientSecret);
      const report = await soakRun({
        url: target.url,
        token,
        seconds,
        connections: CONNECTIONS,
        heapUsed: async () => (await target.heap()).heapUsed,
        countAuthorizations: async () =>
          Number((await db.query<{ n: string }>('SELECT count(*) AS n FROM fin_authorizations')).rows[0]!.n),
      });
      const lost = report.authorized - report.storedAuthorizations;
      const label = `soak ${seconds} s, postgres store, ${CONNECTIONS} connections`;
      return [
        {
          figure: `${label}: authorized answers vs rows stored`,
          measured: `${report.authorized} answered, ${report.storedAuthorizations} stored`,
          goal: 'equal, 0 failures',
          verdict: lost === 0 && report.failures === 0 ? 'ok' : 'below goal',
          command,
        },
        {
          figure: `${label}: server heap after GC, before -> after`,
          measured: `${mib(report.heapBefore)} -> ${mib(report.heapAfter)}`,
          command,
        },
        { figure: `${label}: requests/s`, measured: fixed(report.requestsPerSecond, 0), command },
      ];
    } finally {
      await db.end();
      await target.close();
    }
  });
}

export const soak: Figure = {
  name: 'soak',
  title: 'Soak: authorize load on the PostgreSQL store, server heap before and after, nothing lost',
  run,
};
