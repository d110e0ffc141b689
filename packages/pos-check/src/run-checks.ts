// The runner of fin-pos-check: runs each check in order against one partner, with progress, and builds the report.
import { tlsFetch } from '@fin/core/transport';
import { type Check, type CheckContext, skip } from './check.js';
import { allChecks } from './checks/index.js';
import { errorText } from './error-text.js';
import { createFacts } from './facts.js';
import { displayUrl, secretsMask } from './mask.js';
import type { PosCheckOptions } from './options.js';
import { createProbe } from './probe.js';
import {
  type CheckReport,
  type CheckResult,
  CheckSkipped,
  checkResult,
  type Problem,
  reportOf,
} from './report.js';

/**
 * Runs every check (the limits check only with `options.limits`) and reports; never throws for a partner's
 * fault. Over `options.tls` (mutual TLS) unless `options.fetch` is given; its connections closed at the end.
 */
export async function runPosCheck(
  options: PosCheckOptions,
  checks: readonly Check[] = allChecks,
): Promise<CheckReport> {
  const kept = !options.fetch && options.tls ? tlsFetch(options.tls) : undefined;
  try {
    return await runWith(options, checks, kept ?? options.fetch ?? globalThis.fetch);
  } finally {
    await kept?.close();
  }
}

async function runWith(
  options: PosCheckOptions,
  checks: readonly Check[],
  fetchImpl: NonNullable<PosCheckOptions['fetch']>,
): Promise<CheckReport> {
  const startedAt = new Date().toISOString();
  const probe = createProbe(options.baseUrl, fetchImpl);
  const facts = createFacts(probe, options);
  const mask = secretsMask(options);
  const selected = checks.filter((check) => check.id !== 'limits' || options.limits);
  const results: CheckResult[] = [];
  let unreachable: string | undefined;

  for (const [index, check] of selected.entries()) {
    options.onProgress?.({ type: 'start', id: check.id, title: check.title, index, total: selected.length });
    const problems: Problem[] = [];
    const record = (severity: Problem['severity']) => (where: string, message: string, fix: string) =>
      problems.push({ severity, where, message: mask(message), fix: mask(fix) });
    const context: CheckContext = {
      probe,
      options,
      facts,
      violation: record('violation'),
      finding: record('finding'),
    };
    const started = performance.now();
    let skipped: string | undefined;
    probe.attribute(check.id);
    try {
      if (unreachable) skip(`the partner did not answer (${unreachable})`);
      if (!check.id.startsWith('oauth.')) await facts.token();
      await check.run(context);
    } catch (error) {
      if (error instanceof CheckSkipped) skipped = mask(error.message);
      else {
        // fetch rejects only when no answer came: refused connection, DNS, TLS, timeout.
        unreachable = mask(errorText(error));
        record('violation')(
          displayUrl(options.baseUrl),
          `no answer: ${unreachable}`,
          'check --base-url and that the partner is up and reachable from here, then run again',
        );
      }
    }
    const result = checkResult(check, problems, skipped, started);
    results.push(result);
    options.onProgress?.({ type: 'end', result, index, total: selected.length });
  }

  return reportOf({
    baseUrl: displayUrl(options.baseUrl),
    startedAt,
    results,
    requests: probe.exchanges.length,
  });
}
