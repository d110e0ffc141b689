// The build of `#tls-agent` for runtimes without Node's TLS (browsers, workers, edge): a client with `tls` is refused when it is made (decision EDGE-1).
import { FinInputError } from '../errors/index.js';
import type { tlsDispatcher as nodeTlsDispatcher } from './tls-agent.js';

/** Throws at once: a client certificate needs Node's TLS, which this runtime's build of @fin/core does not reach. */
export const tlsDispatcher: typeof nodeTlsDispatcher = () => {
  throw new FinInputError({
    code: 'validation_error',
    details: [
      {
        field: 'tls',
        issue:
          'mutual TLS needs Node.js (the "node" export condition); this runtime has no client certificates: terminate mutual TLS in front of it, or run the client on Node',
      },
    ],
  });
};
