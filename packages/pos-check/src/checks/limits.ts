// Opt-in (--limits): past the read budget the partner answers 429 rate_limit_exceeded with Retry-After; never more than one request over it.
import { answerText, type Check, errorOf } from '../check.js';
import { answers } from './observed.js';

const WINDOW_MS = 60_000;

export const rateLimit: Check = {
  id: 'limits',
  title: 'Limits: 429 with Retry-After past the read budget (opt-in)',
  async run({ probe, options, facts, violation }) {
    const budget = options.limits!.readsPerMinute;
    const query = { storeId: options.storeId, sku: await facts.smartphoneSku() };
    /** Reads this run sent with this client's tokens in the last 60 s: the partner's count, as far as we can know it. */
    const recentReads = () => {
      const since = Date.now() - WINDOW_MS;
      return answers(probe.exchanges, false).filter(
        (exchange) => exchange.clientToken && exchange.sentAt > since,
      ).length;
    };
    while (recentReads() <= budget) {
      const exchange = await probe.send('getStock', { query });
      if (exchange.status !== 429) continue;
      const retryAfter = exchange.headers.get('retry-after');
      if (!retryAfter || !/^\d+$/.test(retryAfter.trim())) {
        violation(
          exchange.endpoint,
          `a 429 ${retryAfter ? `with Retry-After "${retryAfter}"` : 'without Retry-After'}`,
          'send `Retry-After: <seconds>` with every 429 (spec section 8)',
        );
      }
      if (errorOf(exchange)?.code !== 'rate_limit_exceeded') {
        violation(
          exchange.endpoint,
          `the 429 is ${answerText(exchange)}`,
          'answer a read over the limit with HTTP 429 and error code `rate_limit_exceeded`',
        );
      }
      return;
    }
    violation(
      'GET /v1/stock',
      `no 429 after ${recentReads()} reads within 60 s, over a budget of ${budget} a minute`,
      `limit reads to ${budget} a minute per client_id and answer the excess with 429 and Retry-After (spec section 8); if your contract sets another limit, pass it with --read-limit`,
    );
  },
};
