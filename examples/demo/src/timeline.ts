// The timeline: runs each step, times it, reports it as one event, and knows how far the demo got.
import { describeError } from './describe-error.js';
import type { EventData, EventSink } from './events.js';
import { type StepId, stepInfo, steps } from './steps.js';

/** A step that went wrong: its number and id, and why. */
export class StepFailure extends Error {
  constructor(
    readonly step: number,
    readonly id: StepId,
    readonly why: string,
    options?: ErrorOptions,
  ) {
    super(`step ${step} (${id}) failed: ${why}`, options);
    this.name = 'StepFailure';
  }
}

/** What a running step may do: say what happened, and report the progress of a long part. */
export interface StepContext {
  report(lines: string[], data?: EventData): void;
  progress(progress: { resource: string; storeId: string | null; percent: number; pages: number }): void;
}

export type Timeline = ReturnType<typeof createTimeline>;

/** `work`, unless `signal` aborts first: an interrupted step ends at once, even with a request in flight. */
function untilAborted<T>(signal: AbortSignal, work: Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

export function createTimeline(sink: EventSink, signal: AbortSignal) {
  const started = performance.now();
  let passed = 0;
  let failed = 0;
  const elapsed = (since: number) => Math.trunc(performance.now() - since);

  return {
    start() {
      sink({ event: 'start', title: 'a financed smartphone sale, end to end', steps: steps.length });
    },

    /** Runs step `id`; resolves with what `body` returns, or rejects with a StepFailure once reported. */
    async run<T>(id: StepId, body: (step: StepContext) => Promise<T>): Promise<T> {
      const { step, title } = stepInfo(id);
      if (signal.aborted) throw new StepFailure(step, id, `not started: ${String(signal.reason)}`);
      const since = performance.now();
      let lines: string[] = [];
      let data: EventData = {};
      try {
        const value = await untilAborted(
          signal,
          body({
            report: (reported, reportedData = {}) => {
              lines = reported;
              data = reportedData;
            },
            progress: (progress) => sink({ event: 'progress', step, id, ...progress }),
          }),
        );
        passed += 1;
        sink({ event: 'step', step, id, title, outcome: 'ok', ms: elapsed(since), lines, data });
        return value;
      } catch (error) {
        failed += 1;
        const why = signal.aborted ? `stopped by ${String(signal.reason)}` : describeError(error);
        sink({
          event: 'step',
          step,
          id,
          title,
          outcome: 'failed',
          ms: elapsed(since),
          lines,
          data,
          error: why,
        });
        throw new StepFailure(step, id, why, { cause: error });
      }
    },

    summary(end: { exitCode: number; serversStopped: boolean; reason?: string }) {
      const outcome = end.exitCode === 0 ? 'ok' : signal.aborted ? 'interrupted' : 'failed';
      sink({
        event: 'summary',
        outcome,
        passed,
        failed,
        notRun: steps.length - passed - failed,
        elapsedMs: elapsed(started),
        serversStopped: end.serversStopped,
        exitCode: end.exitCode,
        ...(end.reason ? { reason: end.reason } : {}),
      });
    },
  };
}
