// One harness for every Prism run of the contract tests: spawn `prism mock|proxy` on a free loopback port, await it, read its violations.
import { createServer } from 'node:net';
import { startTool, tools } from './tools.js';

/** A contract violation as Prism reports it in the `sl-violations` header of a proxied answer. */
export interface Violation {
  location: string[];
  severity: string;
  code: string | number;
  message: string;
}

/** One exchange through Prism: what was asked, and what Prism found wrong with the request or the answer. */
export interface Exchange {
  request: string;
  status: number;
  violations: Violation[];
}

export interface PrismServer {
  url: string;
  output(): string;
  close(): Promise<void>;
}

const STARTUP_TIMEOUT_MS = 120_000;

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

/**
 * `prism mock <document>` (static examples, or generated with `dynamic`) or `prism proxy <document>
 * <upstream>` on 127.0.0.1, resolved once Prism says it listens. Prism reads only the local document
 * and the upstream: it runs offline.
 */
export async function startPrism(
  options: { document: string } & ({ mode: 'mock'; dynamic?: boolean } | { mode: 'proxy'; upstream: string }),
): Promise<PrismServer> {
  const port = await freePort();
  const args =
    options.mode === 'mock'
      ? ['mock', options.document, ...(options.dynamic ? ['--dynamic'] : [])]
      : ['proxy', options.document, options.upstream];
  const prism = startTool(tools.prism(), [...args, '--port', String(port), '--host', '127.0.0.1']);
  const exited = new Promise<never>((_, reject) =>
    prism.child.once('exit', (code) => reject(new Error(`prism exited (${code}):\n${prism.output()}`))),
  );
  const listening = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`prism did not listen in time:\n${prism.output()}`)),
      STARTUP_TIMEOUT_MS,
    );
    const check = () => {
      if (/Prism is listening/i.test(prism.output())) {
        clearTimeout(timer);
        resolve();
      } else setTimeout(check, 100);
    };
    check();
  });
  await Promise.race([listening, exited]);
  exited.catch(() => undefined);
  return {
    url: `http://127.0.0.1:${port}`,
    output: prism.output,
    close: () =>
      new Promise<void>((resolve) => {
        if (prism.child.exitCode !== null) return resolve();
        prism.child.once('exit', () => resolve());
        prism.child.kill('SIGTERM');
      }),
  };
}

/**
 * A `fetch` for our clients and raw calls that goes through Prism and records, for every exchange, the
 * violations of its `sl-violations` header; `exchanges` is what the tests assert on.
 */
export function recordingFetch(): { fetch: typeof fetch; exchanges: Exchange[] } {
  const exchanges: Exchange[] = [];
  const recording: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const response = await fetch(request);
    const header = response.headers.get('sl-violations');
    const url = new URL(request.url);
    exchanges.push({
      request: `${request.method} ${url.pathname}`,
      status: response.status,
      violations: header ? (JSON.parse(header) as Violation[]) : [],
    });
    return response;
  };
  return { fetch: recording, exchanges };
}

/** The violations of the answers (never expected: the servers must keep the contract). */
export const responseViolations = (exchanges: Exchange[]) =>
  exchanges.flatMap(({ request, status, violations }) =>
    violations
      .filter((violation) => violation.location[0] !== 'request')
      .map((violation) => `${request} ${status}: ${violation.location.join('.')} ${violation.message}`),
  );

/** The violations of the requests (expected only where a test sends a deliberately wrong one). */
export const requestViolations = (exchanges: Exchange[]) =>
  exchanges.flatMap(({ request, status, violations }) =>
    violations
      .filter((violation) => violation.location[0] === 'request')
      .map((violation) => `${request} ${status}: ${violation.location.join('.')} ${violation.message}`),
  );
