// The response envelope (spec sections 2 and 7) on every answer but the token's: its fields, success and error consistent, UTC milliseconds.
import { schemas } from '@fin/core';
import { type Check, issuesText } from '../check.js';
import type { Exchange } from '../probe.js';
import { answers, perEndpoint } from './observed.js';

const MILLISECONDS_UTC = /\.\d{3}Z$/;

/** What is wrong with one answer's envelope, or undefined. */
function envelopeProblem(exchange: Exchange): string | undefined {
  if (exchange.body === undefined) return `HTTP ${exchange.status} with a body that is not JSON`;
  const parsed = schemas.envelope.safeParse(exchange.body);
  if (!parsed.success) return `HTTP ${exchange.status}: ${issuesText(parsed.error, 'body')}`;
  const { success, timestamp } = parsed.data;
  if (!MILLISECONDS_UTC.test(timestamp)) return `timestamp without milliseconds (${timestamp})`;
  if (success) {
    if (exchange.status >= 400) return `HTTP ${exchange.status} with success true`;
    if (parsed.data.error) return 'success true with an error object';
    if (parsed.data.data === null || parsed.data.data === undefined) return 'success true without data';
    return undefined;
  }
  if (exchange.status < 400) return `HTTP ${exchange.status} with success false`;
  const error = schemas.errorEnvelope.safeParse(exchange.body);
  return error.success ? undefined : `HTTP ${exchange.status} error: ${issuesText(error.error, 'body')}`;
}

export const envelope: Check = {
  id: 'envelope',
  title: 'Envelope: success, message, timestamp, data and error on every answer',
  run({ probe, violation }) {
    const problems = perEndpoint();
    for (const exchange of answers(probe.exchanges, false)) {
      const problem = envelopeProblem(exchange);
      if (problem) problems.add(exchange.endpoint, problem);
    }
    problems.report((endpoint, summary) =>
      violation(
        endpoint,
        `the envelope is not the contract's: ${summary}`,
        'wrap every answer in { success, message, timestamp (UTC, milliseconds, Z), requestId, data, error }: data null and error { code, message } on errors, error null on success',
      ),
    );
  },
};
