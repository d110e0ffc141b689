// A node:http server listening on one address (port 0: a free one), whose close lets the answers in progress go out first.
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerClientErrors } from '@fin/server-kit';

/** After the service has drained, how long a connection still open (a half-sent request) is given before it is cut. */
const FORCE_AFTER_MS = 1_000;

export interface Listening {
  /** `http://127.0.0.1:41234` */
  url: string;
  /**
   * Stops listening and ends idle keep-alive connections at once; once `drained` (the service's
   * `close()`) has settled, every answer has been written with `Connection: close`, so the connections
   * end themselves; any still open a second later is cut. Resolves when the last one has gone.
   */
  close(drained?: Promise<unknown>): Promise<void>;
}

export async function listen(listener: RequestListener, port: number, host: string): Promise<Listening> {
  // Node's own refusals (bad request line, oversized headers, timeouts) answer the error envelope too.
  const server = answerClientErrors(createServer(listener));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${bound}`,
    async close(drained) {
      const closed = new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
      });
      server.closeIdleConnections();
      await drained?.catch(() => undefined);
      server.closeIdleConnections();
      const force = setTimeout(() => server.closeAllConnections(), FORCE_AFTER_MS);
      force.unref();
      try {
        await closed;
      } finally {
        clearTimeout(force);
      }
    },
  };
}
