// Bytes a call allocates on the V8 heap, from the garbage collector's own before/after figures: the same on every run, whatever the machine's load.
import { GCProfiler, getHeapStatistics } from 'node:v8';
import type { Call } from './peer-clients.js';

/**
 * Mean heap bytes allocated per call over `calls` sequential calls: what the heap grew by between collections,
 * summed (each collection's heap before it, less the heap after the previous one), plus the growth since the last.
 * Run one side at a time: anything else running in the process is counted with it.
 */
export async function allocatedPerCall(call: Call, calls: number): Promise<number> {
  const profiler = new GCProfiler();
  const startUsed = getHeapStatistics().used_heap_size;
  profiler.start();
  for (let i = 0; i < calls; i++) await call();
  const endUsed = getHeapStatistics().used_heap_size;
  const { statistics } = profiler.stop();
  let grown = 0;
  let after = startUsed;
  for (const gc of statistics) {
    grown += gc.beforeGC.heapStatistics.usedHeapSize - after;
    after = gc.afterGC.heapStatistics.usedHeapSize;
  }
  grown += endUsed - after;
  return grown / calls;
}
