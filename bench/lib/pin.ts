// Keeps a bench server and the load apart: the target process on a core of its own, the bench (load, clients) on the rest.
import { execFileSync } from 'node:child_process';

/** The cores this process may run on, read once before any pinning narrows them (`taskset -c -p`). */
function allowedCores(): number[] {
  try {
    const answer = execFileSync('taskset', ['-c', '-p', String(process.pid)], { encoding: 'utf8' });
    const list = answer.split(':').at(-1)?.trim() ?? '';
    return list.split(',').flatMap((part) => {
      const [first, last = first] = part.split('-').map(Number);
      if (first === undefined || last === undefined || Number.isNaN(first) || Number.isNaN(last)) return [];
      return Array.from({ length: last - first + 1 }, (_, i) => first + i);
    });
  } catch {
    return [];
  }
}

const cores = allowedCores();
const targetCore = cores.at(-1);
const loadCores = cores.slice(0, -1).join(',');
/** FIN_BENCH_NO_PIN=1 leaves both to the scheduler, as before the bench pinned; so does a refused `taskset`. */
let pinning = cores.length >= 2 && !process.env.FIN_BENCH_NO_PIN;
let refused = '';

/**
 * Pins `pid` (every thread: V8's GC and compiler helpers too) to the last allowed core, and this process to
 * the others. Left to the scheduler on two cores, the server and the load share one core in some runs, and
 * the server's CPU per request then reads up to twice as high (docs/performance.md, "The retained
 * sales, pinned").
 */
export function pinApart(pid: number): void {
  if (!pinning) return;
  try {
    execFileSync('taskset', ['-a', '-p', '-c', String(targetCore), String(pid)], { stdio: 'ignore' });
    execFileSync('taskset', ['-a', '-p', '-c', loadCores, String(process.pid)], { stdio: 'ignore' });
  } catch (error) {
    pinning = false;
    refused = ` (taskset failed: ${error instanceof Error ? error.message.split('\n')[0] : String(error)})`;
  }
}

/** How the figures' processes share the machine, for a table's header. */
export const pinningNote = (): string =>
  pinning
    ? `${cores.length} cores: each server pinned to core ${targetCore}, the load and clients to ${loadCores}`
    : `${Math.max(cores.length, 1)} core(s), not pinned${process.env.FIN_BENCH_NO_PIN ? ' (FIN_BENCH_NO_PIN)' : refused}`;
