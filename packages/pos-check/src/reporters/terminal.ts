// The readable report: one line per check as it ends (progress), then each problem with its fix, then the summary.
import type { ProgressEvent } from '../options.js';
import type { CheckReport, CheckStatus } from '../report.js';

const mark: Record<CheckStatus, string> = { pass: 'PASS', warn: 'WARN', fail: 'FAIL', skip: 'SKIP' };

/** A progress line per finished check: `[ 3/19] PASS oauth.client-auth  OAuth: both ... (12 ms)`. */
export function progressLine(event: ProgressEvent): string | undefined {
  if (event.type !== 'end') return undefined;
  const { result, index, total } = event;
  const counter = `[${String(index + 1).padStart(String(total).length)}/${total}]`;
  return `${counter} ${mark[result.status]} ${result.id.padEnd(22)} ${result.title} (${result.durationMs} ms)`;
}

export function terminalReport(report: CheckReport): string {
  const lines: string[] = [];
  for (const result of report.results) {
    if (result.problems.length === 0) {
      if (result.skipped) lines.push(`${mark.skip} ${result.id}: ${result.skipped}`);
      continue;
    }
    lines.push('', `${mark[result.status]} ${result.id}: ${result.title}`);
    if (result.skipped) lines.push(`  skipped: ${result.skipped}`);
    for (const problem of result.problems) {
      lines.push(
        `  ${problem.severity === 'violation' ? 'violation' : 'finding'} at ${problem.where}: ${problem.message}`,
      );
      lines.push(`    fix: ${problem.fix}`);
    }
  }
  const { pass, warn, fail, skip } = report.summary;
  lines.push(
    '',
    `${report.results.length} checks, ${report.requests} requests to ${report.baseUrl}: ${pass} passed, ${fail} failed, ${warn} with findings, ${skip} skipped`,
    report.exitCode === 0
      ? warn > 0
        ? 'No contract violation. Findings are readings @fin/pos-client tolerates; aligning them helps every other reader.'
        : 'No contract violation.'
      : 'Contract violations found: fix them and run fin-pos-check again.',
  );
  return `${lines.join('\n')}\n`;
}
