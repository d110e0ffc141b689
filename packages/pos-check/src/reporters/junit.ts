// JUnit XML for the partner's CI: one testcase per check; a violation is a <failure>, a skip <skipped>, findings go to <system-out>.
import type { CheckReport } from '../report.js';

const xml = (text: string) =>
  text.replace(
    /[<>&"']/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!,
  );

const seconds = (ms: number) => `${Math.trunc(ms / 1000)}.${String(ms % 1000).padStart(3, '0')}`;

export function junitReport(report: CheckReport): string {
  const total = report.results.reduce((sum, result) => sum + result.durationMs, 0);
  const cases = report.results.map((result) => {
    const violations = result.problems.filter((problem) => problem.severity === 'violation');
    const findings = result.problems.filter((problem) => problem.severity === 'finding');
    const describe = (list: typeof violations) =>
      list.map((problem) => `${problem.where}: ${problem.message}\nfix: ${problem.fix}`).join('\n\n');
    const body = [
      violations.length > 0 &&
        `      <failure message="${xml(violations[0]!.message)}" type="violation">${xml(describe(violations))}</failure>`,
      result.status === 'skip' && `      <skipped message="${xml(result.skipped ?? '')}"/>`,
      findings.length > 0 && `      <system-out>${xml(`findings:\n${describe(findings)}`)}</system-out>`,
    ].filter(Boolean);
    const open = `    <testcase classname="fin-pos-check" name="${xml(`${result.id}: ${result.title}`)}" time="${seconds(result.durationMs)}"`;
    return body.length === 0 ? `${open}/>` : `${open}>\n${body.join('\n')}\n    </testcase>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="fin-pos-check" tests="${report.results.length}" failures="${report.summary.fail}" skipped="${report.summary.skip}" time="${seconds(total)}">`,
    `  <testsuite name="Partner POS API contract (${xml(report.baseUrl)})" tests="${report.results.length}" failures="${report.summary.fail}" errors="0" skipped="${report.summary.skip}" timestamp="${report.startedAt}" time="${seconds(total)}">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
