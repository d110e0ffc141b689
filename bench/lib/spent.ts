// Time spent in sequential calls (wall, process CPU, calling-thread CPU), and the rotating batches that share the machine's noise among sides.
import { readFileSync } from 'node:fs';
import type { Call } from './peer-clients.js';

export interface Spent {
  /** Wall-clock milliseconds. */
  wallMs: number;
  /** CPU milliseconds of the process that called (the server runs in another): what the client itself costs. */
  cpuMs: number;
  /** CPU milliseconds of the calling thread alone, without V8's helper threads (GC, compiler); Linux only, else NaN. */
  threadMs: number;
}

/** Times `count` more calls of one side, wherever that side runs (this process or one of its own). */
export type Batch = (count: number) => Promise<Spent>;

const BATCH = 100;

/** The main thread's CPU so far in ms (Linux `/proc`, 10 ms ticks), or NaN where there is no such file. */
function threadCpuMs(): number {
  try {
    const fields = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

/** Time spent in `count` sequential calls. */
export async function timed(call: Call, count: number): Promise<Spent> {
  const cpu = process.cpuUsage();
  const thread = threadCpuMs();
  const startedAt = performance.now();
  for (let i = 0; i < count; i++) await call();
  const used = process.cpuUsage(cpu);
  return {
    wallMs: performance.now() - startedAt,
    cpuMs: (used.user + used.system) / 1000,
    threadMs: threadCpuMs() - thread,
  };
}

/**
 * Batch `batch` of every side in turn, the order rotated one place each batch and reversed on every other
 * full turn, so that a noisy neighbour slows all alike and no side always follows the same other (two
 * sides: AB BA BA AB).
 */
function orderOf<T>(sides: readonly T[], batch: number): T[] {
  const shift = batch % sides.length;
  const rotated = [...sides.slice(shift), ...sides.slice(0, shift)];
  return Math.floor(batch / sides.length) % 2 === 0 ? rotated : rotated.reverse();
}

/** Wall and CPU milliseconds per call of each side, every side warmed first, then measured in rotating batches. */
export async function perBatch<S extends string>(
  sides: Map<S, Batch>,
  plan: { warmup: number; calls: number },
) {
  for (const batch of sides.values()) await batch(plan.warmup);
  const spent = new Map([...sides.keys()].map((side) => [side, { wallMs: 0, cpuMs: 0, threadMs: 0 }]));
  const batches = Math.ceil(plan.calls / BATCH);
  for (let batch = 0; batch < batches; batch++) {
    for (const side of orderOf([...sides.keys()], batch)) {
      const more = await sides.get(side)!(BATCH);
      const into = spent.get(side)!;
      into.wallMs += more.wallMs;
      into.cpuMs += more.cpuMs;
      into.threadMs += more.threadMs;
    }
  }
  const calls = batches * BATCH;
  const per = (side: S): Spent => {
    const { wallMs, cpuMs, threadMs } = spent.get(side)!;
    return { wallMs: wallMs / calls, cpuMs: cpuMs / calls, threadMs: threadMs / calls };
  };
  return { calls, per };
}

/** `perBatch` for calls made in this process, all sides sharing its heap and compiled code. */
export const perCall = <S extends string>(sides: Map<S, Call>, plan: { warmup: number; calls: number }) =>
  perBatch(new Map([...sides].map(([side, call]) => [side, (count: number) => timed(call, count)])), plan);
