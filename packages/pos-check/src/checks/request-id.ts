// `requestId` in every envelope, echoing the X-Request-Id sent; a partner's own id is tolerated by our client (a finding).
import type { Check } from '../check.js';
import { answers, perEndpoint } from './observed.js';

export const requestId: Check = {
  id: 'request-id',
  title: 'Request id: every answer carries requestId, the X-Request-Id sent',
  run({ probe, violation, finding }) {
    const missing = perEndpoint();
    const differing = perEndpoint();
    for (const exchange of answers(probe.exchanges, false)) {
      if (typeof exchange.body !== 'object' || exchange.body === null) continue; // the envelope check says so
      const id = (exchange.body as { requestId?: unknown }).requestId;
      if (typeof id !== 'string' || id === '')
        missing.add(exchange.endpoint, `HTTP ${exchange.status} without requestId`);
      else if (id !== exchange.requestId)
        differing.add(exchange.endpoint, `HTTP ${exchange.status} with an id of its own`);
    }
    missing.report((endpoint, summary) =>
      violation(
        endpoint,
        `no requestId in the envelope: ${summary}`,
        "put the X-Request-Id header of the request in the envelope's requestId, on success and error answers",
      ),
    );
    differing.report((endpoint, summary) =>
      finding(
        endpoint,
        `requestId does not echo the X-Request-Id sent: ${summary}. @fin/pos-client copes (it keeps its own id and yours as serverRequestId), but support tickets then need both`,
        'echo the X-Request-Id header in requestId (spec section 2); log your own id beside it if you need one',
      ),
    );
  },
};
