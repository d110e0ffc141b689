// Settles a client call for the fault tests: its value or its error, and a test failure if it outlives its deadline.
import { FinError, isFinApiError } from '@fin/core';

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

/** One of the SDK's typed errors: an API answer (FinApiError) or a transport failure (FinError). */
export const isTypedError = (error: unknown) => error instanceof FinError || isFinApiError(error);
