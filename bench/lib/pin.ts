// Keeps bench servers and the load apart: each live target process on a core of its own, the bench (load, clients) on the rest.
import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';

/** `taskset` with its messages in English and its complaint kept: the failure's reason goes in the header. */
const taskset = (...args: string[]) =>
  execFileSync('taskset', args, {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, LC_ALL: 'C' },
  });

/** What a failed `taskset` said (its stderr), or the error's own message (not found). */
const reasonOf = (error: unknown) => {
  const stderr = (error as { stderr?: string }).stderr?.trim();
  return stderr || (error instanceof Error ? error.message : String(error));
};

/** `0-3,6` as [0, 1, 2, 3, 6]; anything else in the list makes it unreadable (`undefined`). */
function parseCoreList(list: string): number[] | undefined {
  const parts = list.split(',');
  if (!parts.every((part) => /^\d+(-\d+)?$/.test(part))) return undefined;
  return parts.flatMap((part) => {
    const [first, last = first] = part.split('-').map(Number) as [number, number?];
    return Array.from({ length: last - first + 1 }, (_, i) => first + i);
  });
}

/** The cores this process may use, read once, before any pinning narrows them; or why pinning is off. */
function allowedCores(): { cores: number[]; unpinned?: string } {
  if (process.env.FIN_BENCH_NO_PIN === '1') return { cores: [], unpinned: 'FIN_BENCH_NO_PIN=1' };
  try {
    const list = /:\s*([\d,-]+)\s*$/.exec(taskset('-c', '-p', String(process.pid)))?.[1];
    const cores = list === undefined ? undefined : parseCoreList(list);
    if (!cores) return { cores: [], unpinned: 'taskset gave no core list' };
    return cores.length >= 2 ? { cores } : { cores, unpinned: 'one core' };
  } catch (error) {
    return { cores: [], unpinned: `taskset: ${reasonOf(error)}` };
  }
}

const allowed = allowedCores();
const { cores } = allowed;
/** Why the figures run unpinned, once anything made them so; `undefined` while pinning holds. */
let unpinned = allowed.unpinned;
/** The target processes now running, in the order they started. */
const live: number[] = [];

/**
 * Lays the cores out for the live targets: each its own core, from the last one down, and the bench (the
 * load, and the clients and servers it forks meanwhile) the cores left; with no target live, the bench gets
 * them all back. When the targets would leave the bench no core (two service processes on two cores),
 * everything runs on every core, as before the bench pinned. `taskset -a` moves every thread of a process,
 * V8's collector and compiler helpers included. A failure puts everything back on every core and turns
 * pinning off for the rest of the run, its reason in the header.
 */
function layOut(): void {
  if (unpinned !== undefined) return;
  const everyone = [process.pid, ...live];
  const onEveryCore = (pid: number) => taskset('-a', '-p', '-c', cores.join(','), String(pid));
  try {
    if (live.length === 0 || live.length >= cores.length) {
      everyone.forEach(onEveryCore);
      return;
    }
    // The bench first: were the targets moved first, a failure between would leave them on its cores.
    taskset('-a', '-p', '-c', cores.slice(0, cores.length - live.length).join(','), String(process.pid));
    for (const [i, pid] of live.entries())
      taskset('-a', '-p', '-c', String(cores[cores.length - 1 - i]), String(pid));
  } catch (error) {
    unpinned = `taskset failed: ${reasonOf(error)}`;
    for (const pid of everyone) {
      try {
        onEveryCore(pid);
      } catch {
        // Best effort: the header already says the run is not pinned.
      }
    }
  }
}

/**
 * A target started: it gets a core of its own and the bench the rest. Left to the scheduler on two cores,
 * a server and the load share one core in some runs, and the server's CPU per request then reads up to
 * twice as high (docs/performance.md, "The retained sales, pinned").
 */
export function pinTarget(pid: number): void {
  live.push(pid);
  layOut();
}

/** A target ended: the cores are laid out again for those still running. */
export function unpinTarget(pid: number): void {
  const index = live.indexOf(pid);
  if (index === -1) return;
  live.splice(index, 1);
  layOut();
}

/** How the figures' processes share the machine, for a table's header. */
export const pinningNote = (): string =>
  unpinned === undefined
    ? `${cores.length} cores: each running server on a core of its own from core ${cores.at(-1)} down, the load and clients on the rest (every core shared when none would be left)`
    : `${cores.length || availableParallelism()} cores, not pinned (${unpinned})`;
