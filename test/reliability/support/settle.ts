// Settles a client call for the fault tests: its value or its error, and a test failure if it outlives its deadline.
import { isFinError } from '@fin/core';

/** Per attempt: short, so a hang costs the suite little. */
export const FAULT_TIMEOUT_MS = 250;
/** Per call, retries and waits included. */
export const FAULT_DEADLINE_MS = 4_000;
/** How late past its deadline a call may settle: timers on a loaded CI machine, not a speed goal. */
export const FAULT_SLACK_MS = 3_000;

/** The transport options every client of the fault tests takes (pacing off: faults, not limits, are tested). */
export const faultTiming = {
  timeoutMs: FAULT_TIMEOUT_MS,
  deadlineMs: FAULT_DEADLINE_MS,
  maxRetries: 3,
  rateLimit: false,
} as const;

export type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

const PENDING = 'call still pending past its deadline';

/** `limitMs` is the call's own deadline plus slack for timers on a loaded machine: not a speed goal. */
export async function settle<T>(call: Promise<T>, limitMs: number): Promise<Settled<T>> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(PENDING)), limitMs);
  });
  try {
    return await Promise.race([call.then((value) => ({ ok: true as const, value })), late]);
  } catch (error) {
    if (error instanceof Error && error.message === PENDING) throw error;
    return { ok: false, error };
  } finally {
    clearTimeout(timer);
  }
}

/** One of the SDK's typed errors: an API answer, a local refusal or a transport failure, all FinErrors. */
export const isTypedError = (error: unknown) => isFinError(error);
