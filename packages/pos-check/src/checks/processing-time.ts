// X-Processing-Time-Ms on every answer (token endpoint included), never in the body (spec section 1).
import type { Check } from '../check.js';
import { answers, perEndpoint } from './observed.js';

const MILLISECONDS = /^\d+(\.\d+)?$/;
const IN_BODY = /processing.?time/i;

const keysOf = (value: unknown) => (typeof value === 'object' && value !== null ? Object.keys(value) : []);

export const processingTime: Check = {
  id: 'processing-time',
  title: 'X-Processing-Time-Ms header on every answer, never in the body',
  run({ probe, violation }) {
    const header = perEndpoint();
    const body = perEndpoint();
    for (const exchange of answers(probe.exchanges, true)) {
      const value = exchange.headers.get('x-processing-time-ms');
      if (value === null) header.add(exchange.endpoint, `HTTP ${exchange.status} without the header`);
      else if (!MILLISECONDS.test(value.trim()))
        header.add(exchange.endpoint, `HTTP ${exchange.status} with "${value}"`);
      const data = (exchange.body as { data?: unknown } | undefined)?.data;
      const field = [...keysOf(exchange.body), ...keysOf(data)].find((key) => IN_BODY.test(key));
      if (field) body.add(exchange.endpoint, `field ${field}`);
    }
    header.report((endpoint, summary) =>
      violation(
        endpoint,
        `X-Processing-Time-Ms missing or not a number of milliseconds: ${summary}`,
        'send `X-Processing-Time-Ms: <milliseconds>` on every answer, errors and the token endpoint included',
      ),
    );
    body.report((endpoint, summary) =>
      violation(
        endpoint,
        `the processing time is in the body: ${summary}`,
        'report the processing time only in the X-Processing-Time-Ms header, never in the body',
      ),
    );
  },
};
