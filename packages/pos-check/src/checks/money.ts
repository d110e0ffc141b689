// Money as integer cents: every `{ amount, currency }` in every answer of the run is a non-negative integer of cents in BRL.
import { schemas } from '@fin/core';
import { type Check, successData } from '../check.js';
import { answers, objectsIn, perEndpoint } from './observed.js';

/** An object that is meant to be Money: it has an `amount` or a `currency`. */
const looksLikeMoney = (object: Record<string, unknown>) => 'amount' in object || 'currency' in object;

export const moneyInCents: Check = {
  id: 'money',
  title: 'Money: every amount is integer cents in BRL',
  run({ probe, violation }) {
    const problems = perEndpoint();
    for (const exchange of answers(probe.exchanges, false)) {
      for (const [path, object] of objectsIn(successData(exchange))) {
        if (!looksLikeMoney(object) || schemas.money.safeParse(object).success) continue;
        problems.add(
          exchange.endpoint,
          `${path} is ${JSON.stringify({ amount: object.amount, currency: object.currency })}`,
        );
      }
    }
    problems.report((endpoint, summary) =>
      violation(
        endpoint,
        `Money not in integer cents: ${summary}`,
        'send every amount as { "amount": <integer cents>, "currency": "BRL" } (R$ 1.999,90 is 199990): no decimals, no strings, never negative',
      ),
    );
  },
};
