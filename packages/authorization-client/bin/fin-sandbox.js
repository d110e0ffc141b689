#!/usr/bin/env node
// fin-sandbox: the test kit's sandbox on a loopback port, for POS vendors testing from any language; stops on SIGINT/SIGTERM.
import { parseArgs } from 'node:util';
import { startSandbox } from '../dist/testing.js';

const USAGE = `Usage: fin-sandbox [--port <port>] [--json]

Serves the Sales Authorization API sandbox (the magic values of @fin/authorization-client/testing) on
127.0.0.1 and prints its base URL and credentials. --json prints them as one JSON line. Ctrl-C stops it.`;

const { values } = parseArgs({
  options: { port: { type: 'string' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
});
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const port = values.port === undefined ? 0 : Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  console.error(`fin-sandbox: --port must be a port number (0 to 65535)\n\n${USAGE}`);
  process.exit(2);
}

const sandbox = await startSandbox({ port });
const { baseUrl, clientId, clientSecret } = sandbox;
console.log(
  values.json
    ? JSON.stringify({ baseUrl, clientId, clientSecret })
    : `fin-sandbox listening on ${baseUrl}\n  clientId:     ${clientId}\n  clientSecret: ${clientSecret}`,
);
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    sandbox.close().then(() => process.exit(0));
  });
}
