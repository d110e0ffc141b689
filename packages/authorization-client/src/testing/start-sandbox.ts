// startSandbox(): the sandbox as a real loopback HTTP server, for tests in any runner (Jest CJS, Vitest, node:test).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { defaultLimits, type PlainRequest, type PlainResponse, toNodeHandler } from '@fin/server-kit';
import { createSandbox, type Sandbox, type SandboxOptions } from './sandbox.js';

export interface StartSandboxOptions extends SandboxOptions {
  /** The loopback port to listen on; default a free one. */
  port?: number;
}

export interface RunningSandbox {
  /** `http://127.0.0.1:<port>`: the `baseUrl` of your `AuthorizationClient`. */
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** Forgets every sale; the credentials and every token issued stay valid (the next call is not a 401). */
  reset(): Promise<void>;
  /** Stops the server, its open connections included. */
  close(): Promise<void>;
}

/** The request headers the API reads (credentials, body type, ids, trace context): what the sandbox is given. */
const FORWARDED_HEADERS = [
  'authorization',
  'content-type',
  'idempotency-key',
  'x-request-id',
  'x-correlation-id',
  'traceparent',
  'tracestate',
  'user-agent',
] as const;

/** The sandbox behind server-kit's node:http adapter: the body is read bounded, as the service reads it. */
function plainHandler(sandbox: Sandbox, origin: () => string) {
  return {
    async handle(plain: PlainRequest): Promise<PlainResponse> {
      const limit = defaultLimits.maxBodyBytes;
      const read =
        plain.method === 'GET' || plain.method === 'HEAD' ? undefined : await plain.readBody(limit);
      // Too large: a body just over the limit, which the service refuses as it refuses the real one (413).
      const body =
        read === undefined ? undefined : read.ok ? new Uint8Array(read.bytes) : new Uint8Array(limit + 1);
      const headers = new Headers();
      for (const name of FORWARDED_HEADERS) {
        const value = plain.header(name);
        if (value !== undefined) headers.set(name, value);
      }
      const response = await sandbox.fetch(
        new Request(`${origin()}${plain.path}`, { method: plain.method, headers, body }),
      );
      const text = await response.text();
      return {
        status: response.status,
        headers: Object.fromEntries(response.headers),
        body: text === '' ? null : JSON.parse(text),
      };
    },
  };
}

/**
 * Starts a sandbox (the one `authorizationHandlers` of `/testing/msw` plays, same magic values) on
 * 127.0.0.1. No msw, no global fetch patched: point your client at `baseUrl`, from any runner or language.
 */
export async function startSandbox(options: StartSandboxOptions = {}): Promise<RunningSandbox> {
  const { port = 0, ...sandboxOptions } = options;
  const sandbox = createSandbox(sandboxOptions);
  let baseUrl = '';
  const server = createServer(toNodeHandler(plainHandler(sandbox, () => baseUrl)));
  await new Promise<void>((listening, failed) => {
    server.once('error', failed);
    server.listen(port, '127.0.0.1', () => listening());
  });
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl,
    clientId: sandbox.clientId,
    clientSecret: sandbox.clientSecret,
    reset: () => sandbox.reset(),
    async close() {
      const closed = new Promise<void>((done) => server.close(() => done()));
      server.closeAllConnections();
      await closed;
      await sandbox.close();
    },
  };
}
