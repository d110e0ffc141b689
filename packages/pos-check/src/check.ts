// What a check is, and what it is given: the probe, the partner's test data, and helpers to read answers and record problems.
import { schemas } from '@fin/core';
import type { ErrorObject } from '@fin/core/schemas';
import type { z } from 'zod';
import type { PosCheckOptions } from './options.js';
import type { Exchange, Probe } from './probe.js';
import { CheckSkipped } from './report.js';

/** What the run learns from the partner once and shares between checks (made by `createFacts`). */
export interface Facts {
  /** A system token with every Partner POS scope (client_secret_post); skips the asking check when none comes. */
  token(): Promise<string>;
  /** A plan of the test store. */
  planId(): Promise<string>;
  /** The SKU of a smartphone of the test store: the test IMEI's, else the first listed. */
  smartphoneSku(): Promise<string>;
}

export interface CheckContext {
  probe: Probe;
  options: PosCheckOptions;
  /** What the run learned and shares between checks: the system token, a plan, a smartphone SKU. */
  facts: Facts;
  violation(where: string, message: string, fix: string): void;
  finding(where: string, message: string, fix: string): void;
}

export interface Check {
  /** Stable id, used in the JSON and JUnit reports: `oauth.token-response`. */
  id: string;
  title: string;
  run(context: CheckContext): Promise<void> | void;
}

/** The run cannot go on without `what`: the check is skipped and says why. */
export const skip = (why: string): never => {
  throw new CheckSkipped(why);
};

/** Zod issues as one line: `data.stores.0.cnpj (CNPJ must be 14 characters, no mask)`: paths and reasons, never values. */
export const issuesText = (error: z.ZodError, prefix = 'data') =>
  error.issues
    .slice(0, 5)
    .map((issue) => `${[prefix, ...issue.path].join('.')} (${issue.message})`)
    .join('; ');

/** The `data` of a success envelope, or `undefined` when the answer is not one. */
export function successData(exchange: Exchange): unknown {
  const parsed = schemas.envelope.safeParse(exchange.body);
  return exchange.status === 200 && parsed.success && parsed.data.success ? parsed.data.data : undefined;
}

/** The error object of an error envelope, or `undefined`. */
export function errorOf(exchange: Exchange): ErrorObject | undefined {
  const parsed = schemas.errorEnvelope.safeParse(exchange.body);
  return parsed.success ? parsed.data.error : undefined;
}

/** How an answer reads in a message: `HTTP 422 validation_error` or `HTTP 200`. */
export const answerText = (exchange: Exchange) => {
  const code = errorOf(exchange)?.code;
  return `HTTP ${exchange.status}${code ? ` ${code}` : ''}`;
};

/** Records a violation unless `exchange` is an error envelope with `status` and `code`; true when it is. */
export function expectError(
  context: CheckContext,
  exchange: Exchange,
  expected: { status: number; code: string },
  situation: string,
  fix: string,
): boolean {
  const error = errorOf(exchange);
  if (exchange.status === expected.status && error?.code === expected.code) return true;
  context.violation(
    exchange.endpoint,
    `${situation}; expected HTTP ${expected.status} \`${expected.code}\` in the error envelope, got ${answerText(exchange)}`,
    fix,
  );
  return false;
}
