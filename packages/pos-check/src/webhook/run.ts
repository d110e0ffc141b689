// The runner of `fin-pos-check --webhook-url`: sends each test delivery to the partner's receiver and builds the report.
import { displayUrl } from '../mask.js';
import { type CheckReport, type CheckResult, type Problem, reportOf, statusOf } from '../report.js';
import { webhookChecks, webhookProblem } from './checks.js';
import { deliver } from './deliver.js';
import type { WebhookCheckOptions } from './options.js';

const NO_ANSWER_FIX =
  'check --webhook-url and that the receiver is up, reachable from here and answers within 15 s, then run again';

/** Runs every webhook check in order; never throws for a receiver's fault. The secret never appears in the report. */
export async function runWebhookCheck(options: WebhookCheckOptions): Promise<CheckReport> {
  const startedAt = new Date().toISOString();
  const where = displayUrl(options.url);
  const results: CheckResult[] = [];
  const total = webhookChecks.length;
  for (const [index, check] of webhookChecks.entries()) {
    options.onProgress?.({ type: 'start', id: check.id, title: check.title, index, total });
    const started = performance.now();
    const outcome = await deliver(options, check.variant(options));
    const problem = webhookProblem(check, outcome);
    const fix = 'failed' in outcome ? NO_ANSWER_FIX : check.fix;
    const problems: Problem[] = problem ? [{ severity: 'violation', where, message: problem, fix }] : [];
    const result: CheckResult = {
      id: check.id,
      title: check.title,
      status: statusOf(problems),
      problems,
      durationMs: Math.trunc(performance.now() - started),
    };
    results.push(result);
    options.onProgress?.({ type: 'end', result, index, total });
  }
  return reportOf({ baseUrl: where, startedAt, results, requests: results.length });
}
