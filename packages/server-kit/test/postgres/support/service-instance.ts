// One service instance of the multi-process tests: the financing service on postgresStore, on 127.0.0.1, in a process of its own.
import { createServer } from 'node:http';
import {
  createFinancingService,
  sandboxCreditEngine,
  startWorkerLoop,
  toNodeHandler,
  type WorkerLoop,
} from '@fin/server-kit';
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

// Webhooks (issue 37): `{ secret, timeoutMs, intervalMs, urls: { clientId: url } }`; the delivery loop starts on SIGUSR2,
// so a test writes its events first and then times the loop's first passes.
const webhooks:
  | { secret: string; timeoutMs: number; intervalMs: number; urls: Record<string, string> }
  | undefined = process.env.FIN_TEST_WEBHOOKS ? JSON.parse(process.env.FIN_TEST_WEBHOOKS) : undefined;
const clients = LOAD_PARTNERS.map((partner) => {
  const url = webhooks?.urls[partner.clientId];
  return url ? { ...partner, webhooks: [{ url, secrets: [webhooks!.secret] }] } : partner;
});

const store = postgresStore({ connectionString, max: 8, preparedStatements, ...timeouts });
const service = createFinancingService({
  clients,
  ...(webhooks ? { webhookDelivery: { timeoutMs: webhooks.timeoutMs } } : {}),
  // Lines on stderr, for a test that counts what was logged (only when webhooks are on: the fault suite's own
  // instances stay as quiet as before).
  ...(webhooks
    ? {
        logger: {
          info: () => {},
          warn: (entry: object) => process.stderr.write(`${JSON.stringify({ level: 'warn', ...entry })}\n`),
          error: (entry: object) => process.stderr.write(`${JSON.stringify({ level: 'error', ...entry })}\n`),
        },
      }
    : {}),
  credit: sandboxCreditEngine(),
  store,
  // A slow CI machine must not turn a waiting duplicate into a 409: the tests count answers, not time.
  limits: { idempotencyWaitMs: 60_000, requestDeadlineMs: 60_000, idempotencyLeaseMs: 90_000, ...limits },
  ...(fixedNow ? { clock: { now: () => new Date(fixedNow) } } : {}),
});
const server = createServer(toNodeHandler(service));
let delivery: WorkerLoop | undefined;
process.on('SIGUSR2', () => {
  if (!webhooks || delivery) return;
  delivery = service.workers.attach(
    startWorkerLoop((signal) => service.webhooks.deliverDue({ signal }), {
      name: 'webhook-delivery',
      intervalMs: webhooks.intervalMs,
    }),
  );
});

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
