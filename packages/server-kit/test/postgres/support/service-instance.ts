// One service instance of the multi-process tests: the financing service on postgresStore, on 127.0.0.1, in a process of its own.
import { createServer } from 'node:http';
import { createFinancingService, sandboxCreditEngine, toNodeHandler } from '@fin/server-kit';
import { postgresStore } from '@fin/server-kit/postgres';
import { LOAD_PARTNERS } from './partners.js';

const connectionString = process.env.DATABASE_URL;
if (!connectionString) throw new Error('service-instance: DATABASE_URL is required');
// A fixed instant shared by every instance, when the test needs all requests in one rate-limit window.
const fixedNow = process.env.FIN_TEST_NOW;

// Tighter bounds for the fault tests (JSON of `limits` and of the store's timeouts), so a fault shows fast.
const limits = JSON.parse(process.env.FIN_TEST_LIMITS ?? '{}');
const timeouts = JSON.parse(process.env.FIN_TEST_PG_TIMEOUTS ?? '{}');

// FIN_TEST_PREPARED_STATEMENTS=off: statements unnamed, as behind PgBouncer before 1.21 in transaction mode.
const preparedStatements = process.env.FIN_TEST_PREPARED_STATEMENTS !== 'off';

const store = postgresStore({ connectionString, max: 8, preparedStatements, ...timeouts });
const service = createFinancingService({
  clients: LOAD_PARTNERS,
  credit: sandboxCreditEngine(),
  store,
  // A slow CI machine must not turn a waiting duplicate into a 409: the tests count answers, not time.
  limits: { idempotencyWaitMs: 60_000, requestDeadlineMs: 60_000, idempotencyLeaseMs: 90_000, ...limits },
  ...(fixedNow ? { clock: { now: () => new Date(fixedNow) } } : {}),
});
const server = createServer(toNodeHandler(service));

async function shutdown() {
  server.close();
  await service.close();
  await store.close();
  process.exit(0);
}
// The test closes our stdin to stop us (or dies, which closes it too).
process.stdin.on('end', shutdown);
process.stdin.resume();

server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`${JSON.stringify({ port: typeof address === 'object' && address?.port })}\n`);
});
