// `pnpm --filter @fin/example-financing-service start`: the financing service on loopback until Ctrl+C, fed by a partner POS.
import { magicValues } from '@fin/authorization-client/testing';
import { type LogEntry, redact } from '@fin/core';
import { defaultSimulatedClient } from '@fin/pos-client/testing';
import { startFinancingService } from './financing-service.js';

const env = process.env;
const port = Number(env.PORT ?? 8080);
if (!Number.isSafeInteger(port) || port < 0) throw new Error('PORT must be a non-negative integer');
// Defaults: the simulated partner of examples/partner-pos and the sandbox's documented POS credentials.
const partnerPosUrl = env.PARTNER_POS_URL ?? 'http://127.0.0.1:4010';
const posVendor = {
  clientId: env.FIN_CLIENT_ID ?? magicValues.credentials.clientId,
  clientSecret: env.FIN_CLIENT_SECRET ?? magicValues.credentials.clientSecret,
};
const log = (entry: LogEntry) => process.stdout.write(`${JSON.stringify(redact(entry))}\n`);

const running = await startFinancingService({
  partnerPosUrl,
  partnerPosCredentials: {
    clientId: env.PARTNER_CLIENT_ID ?? defaultSimulatedClient.clientId,
    clientSecret: env.PARTNER_CLIENT_SECRET ?? defaultSimulatedClient.clientSecret,
  },
  posVendor,
  port,
  databaseUrl: env.DATABASE_URL || undefined,
  logger: { info: log, warn: log, error: log },
  // Kubernetes probes (docs/operations.md): no token, nothing of the configuration in the answers.
  healthPaths: { live: '/healthz', ready: '/readyz' },
}).catch((error: unknown) => {
  process.stderr.write(`financing service did not start: ${(error as Error).message}\n`);
  process.stderr.write(
    `  is the partner POS running at ${partnerPosUrl}? (pnpm --filter @fin/example-partner-pos start)\n`,
  );
  process.exit(1);
});

const { catalog } = (await running.catalog.read(posVendor.clientId))!;
// Never the secret itself: its sandbox prefix at most, and where to read it.
const maskedSecret = `${posVendor.clientSecret.startsWith('test_') ? 'test_' : ''}********`;
const secretNote = env.FIN_CLIENT_SECRET
  ? 'from FIN_CLIENT_SECRET'
  : 'the sandbox default: magicValues.credentials of @fin/authorization-client/testing';
process.stdout.write(
  [
    `Financing service at ${running.url} (${running.storeKind} store)`,
    `  partner POS ${partnerPosUrl}: ${catalog.stores.length} stores, ${catalog.products.length} products, ${catalog.employees.length} employees synced`,
    `  POS vendor client id ${posVendor.clientId}, secret ${maskedSecret}`,
    `    (${secretNote})`,
    `  its stores: ${running.storeIds.join(', ')}`,
    `  probes: ${running.url}/healthz (liveness), ${running.url}/readyz (readiness)`,
    '  try it: pnpm --filter @fin/example-pos-checkout start',
    '  stop with Ctrl+C',
    '',
  ].join('\n'),
);

// SIGTERM (Kubernetes, docker stop) or Ctrl+C: refuse new work, finish what is in flight, exit 0.
// A second signal during the drain ends the process at once (the default action: the handlers are once).
const stop = (signal: NodeJS.Signals) => {
  log({ event: 'shutdown.started', signal });
  running.close().then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`close failed: ${(error as Error).message}\n`);
      process.exit(1);
    },
  );
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
