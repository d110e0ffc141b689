// startWorkerLoop: runs a worker at once and then after every pause, never two runs together, survives failures, stops gracefully.
import { startWorkerLoop } from '@fin/server-kit';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** A runOnce whose runs the test finishes by hand. */
function controlledWorker() {
  const runs: { finish(result?: unknown): void; fail(error: Error): void }[] = [];
  let running = 0;
  let overlapped = false;
  const runOnce = () =>
    new Promise<unknown>((resolve, reject) => {
      running += 1;
      if (running > 1) overlapped = true;
      const end = () => {
        running -= 1;
      };
      runs.push({
        finish: (result) => {
          end();
          resolve(result);
        },
        fail: (error) => {
          end();
          reject(error);
        },
      });
    });
  return { runs, runOnce, overlapped: () => overlapped };
}

describe('startWorkerLoop', () => {
  it('runs at once, then intervalMs after each run ends, never two at a time', async () => {
    const worker = controlledWorker();
    const results: unknown[] = [];
    const loop = startWorkerLoop(worker.runOnce, {
      name: 'test',
      intervalMs: 1000,
      onRun: (r) => results.push(r),
    });
    expect(worker.runs).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(5000);
    expect(worker.runs).toHaveLength(1);
    worker.runs[0]!.finish('first');
    await vi.advanceTimersByTimeAsync(999);
    expect(worker.runs).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(worker.runs).toHaveLength(2);
    worker.runs[1]!.finish('second');
    await vi.advanceTimersByTimeAsync(0);
    expect(results).toEqual(['first', 'second']);
    expect(worker.overlapped()).toBe(false);
    await loop.close();
  });

  it('logs a failed run and goes on', async () => {
    const worker = controlledWorker();
    const logged: unknown[] = [];
    const loop = startWorkerLoop(worker.runOnce, {
      name: 'poller',
      intervalMs: 10,
      logger: { error: (entry) => logged.push(entry) },
    });
    worker.runs[0]!.fail(new Error('database down'));
    await vi.advanceTimersByTimeAsync(10);
    expect(logged).toEqual([{ event: 'worker.failed', worker: 'poller', error: 'database down' }]);
    expect(worker.runs).toHaveLength(2);
    worker.runs[1]!.finish();
    await loop.close();
  });

  it('close() waits for the run in progress and starts no other', async () => {
    const worker = controlledWorker();
    const loop = startWorkerLoop(worker.runOnce, { name: 'test', intervalMs: 10 });
    let closed = false;
    const closing = loop.close().then(() => {
      closed = true;
    });
    await vi.advanceTimersByTimeAsync(100);
    expect(closed).toBe(false);
    worker.runs[0]!.finish();
    await closing;
    await vi.advanceTimersByTimeAsync(100);
    expect(worker.runs).toHaveLength(1);
  });

  it('close() aborts the signal the run in progress was given and reports the loop stopped', async () => {
    const signals: AbortSignal[] = [];
    let finish = () => {};
    const loop = startWorkerLoop(
      (signal) => {
        signals.push(signal);
        return new Promise<void>((resolve) => {
          finish = resolve;
        });
      },
      { name: 'verifier', intervalMs: 10 },
    );
    expect(loop).toMatchObject({ name: 'verifier', running: true });
    expect(signals[0]!.aborted).toBe(false);
    const closing = loop.close();
    expect(signals[0]!.aborted).toBe(true);
    expect(loop.running).toBe(false);
    finish();
    await closing;
  });

  it('DESIGN 19: a run stuck on a partner is ended at runTimeoutMs (its signal aborts), logged, and the loop goes on', async () => {
    const results: unknown[] = [];
    const warnings: unknown[] = [];
    let runs = 0;
    const loop = startWorkerLoop(
      (signal) => {
        runs += 1;
        // A worker that stops between items once its signal aborts, and never otherwise.
        return new Promise((resolve) =>
          signal.addEventListener('abort', () => resolve('stopped'), { once: true }),
        );
      },
      {
        name: 'stuck',
        intervalMs: 1_000,
        runTimeoutMs: 5_000,
        onRun: (r) => results.push(r),
        logger: { warn: (e) => warnings.push(e) },
      },
    );
    await vi.advanceTimersByTimeAsync(5_000);
    expect(results).toEqual(['stopped']);
    expect(warnings).toEqual([{ event: 'worker.run_timed_out', worker: 'stuck' }]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(runs).toBe(2);
    const closing = loop.close();
    await vi.advanceTimersByTimeAsync(0);
    await closing;
  });
});
