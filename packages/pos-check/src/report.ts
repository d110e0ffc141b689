// What fin-pos-check reports: per check a status, its violations (the contract is broken) and findings (tolerated, to align).

/** `violation`: the partner breaks the contract (exit code 1). `finding`: a reading our client tolerates, worth aligning. */
export type Severity = 'violation' | 'finding';

export interface Problem {
  severity: Severity;
  /** The endpoint (`GET /v1/stock`) or aspect the problem was seen on. */
  where: string;
  /** What was seen, without any secret, token, password, CPF or IMEI. */
  message: string;
  /** What the partner should change. */
  fix: string;
}

/** `fail`: at least one violation; `warn`: findings only; `skip`: could not run (see `skipped`). */
export type CheckStatus = 'pass' | 'warn' | 'fail' | 'skip';

export interface CheckResult {
  id: string;
  title: string;
  status: CheckStatus;
  problems: Problem[];
  /** Why the check could not run, when `status` is `skip`. */
  skipped?: string;
  durationMs: number;
}

export interface CheckReport {
  baseUrl: string;
  startedAt: string;
  results: CheckResult[];
  /** Requests sent to the partner during the run. */
  requests: number;
  summary: Record<CheckStatus, number>;
  /** 0 when no check found a violation, 1 otherwise. */
  exitCode: 0 | 1;
}

export const statusOf = (problems: readonly Problem[]): CheckStatus =>
  problems.some((problem) => problem.severity === 'violation')
    ? 'fail'
    : problems.length > 0
      ? 'warn'
      : 'pass';

/** The result of `check` that ran from `started` (`performance.now()`): skipped only when it found no problem. */
export const checkResult = (
  check: { id: string; title: string },
  problems: Problem[],
  skipped: string | undefined,
  started: number,
): CheckResult => ({
  id: check.id,
  title: check.title,
  status: skipped !== undefined && problems.length === 0 ? 'skip' : statusOf(problems),
  problems,
  ...(skipped !== undefined && { skipped }),
  durationMs: Math.trunc(performance.now() - started),
});

/** The report of a run: the summary and exit code counted from its results. */
export function reportOf(run: Omit<CheckReport, 'summary' | 'exitCode'>): CheckReport {
  const summary = { pass: 0, warn: 0, fail: 0, skip: 0 };
  for (const result of run.results) summary[result.status] += 1;
  return { ...run, summary, exitCode: summary.fail > 0 ? 1 : 0 };
}

/** Thrown by a check that cannot run (no token, an input not given); the runner records it as `skip`. */
export class CheckSkipped extends Error {
  override readonly name = 'CheckSkipped';
}
