// Heap in use after a full garbage collection, without starting node with --expose-gc.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
/** A full garbage collection, now. */
export const gc = runInNewContext('gc') as () => void;

export async function heapUsedAfterGc(): Promise<number> {
  // Two passes with a turn of the event loop between them: finalizers of the first free more.
  gc();
  await new Promise((resolve) => setImmediate(resolve));
  gc();
  return process.memoryUsage().heapUsed;
}
