// Starts a bench server in its own node process (so the load generator never shares its event loop) and talks to it.
import { type ChildProcess, fork } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { pinTarget, unpinTarget } from './pin.js';

/** What the target process answers about its memory, after a full garbage collection. */
export interface HeapReport {
  heapUsed: number;
  rss: number;
}

export type TargetMessage =
  | { type: 'listening'; port: number }
  | { type: 'heap'; report: HeapReport }
  | { type: 'cpu'; micros: number; systemMicros: number }
  | { type: 'failed'; message: string };

export interface Target {
  url: string;
  heap(): Promise<HeapReport>;
  /** CPU time (user + system, microseconds) the target process has used so far. */
  cpuMicros(): Promise<number>;
  /** The same, with the part spent in the kernel (socket reads and writes) apart. */
  cpuSplit(): Promise<{ micros: number; systemMicros: number }>;
  close(): Promise<void>;
}

const entry = fileURLToPath(new URL('../targets/server.ts', import.meta.url));

function nextMessage(child: ChildProcess, type: TargetMessage['type']): Promise<TargetMessage> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: TargetMessage) => {
      if (message.type !== type && message.type !== 'failed') return;
      child.off('message', onMessage);
      child.off('exit', onExit);
      if (message.type === 'failed') reject(new Error(`bench target failed: ${message.message}`));
      else resolve(message);
    };
    const onExit = (code: number | null) => {
      child.off('message', onMessage);
      reject(new Error(`bench target exited with ${code}`));
    };
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

/** `kind` is read by targets/server.ts: `raw`, `memory` or `postgres` (with `DATABASE_URL` in `env`). */
export async function startTarget(kind: string, env: Record<string, string> = {}): Promise<Target> {
  const child = fork(entry, [kind], {
    // FIN_BENCH_TARGET_NODE_ARGS: more node flags for the targets, e.g. `--cpu-prof --cpu-prof-dir=prof`.
    execArgv: [
      '--import',
      'tsx',
      '--expose-gc',
      ...(process.env.FIN_BENCH_TARGET_NODE_ARGS?.split(' ') ?? []),
    ],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const listening = await nextMessage(child, 'listening');
  if (listening.type !== 'listening') throw new Error('unreachable');
  const { pid } = child;
  if (pid !== undefined) {
    pinTarget(pid);
    // Also when it ends on its own: the cores are laid out again for the targets still running.
    child.once('exit', () => unpinTarget(pid));
  }
  const cpuSplit = async () => {
    const answer = nextMessage(child, 'cpu');
    child.send({ type: 'cpu' });
    const message = await answer;
    if (message.type !== 'cpu') throw new Error('unreachable');
    return { micros: message.micros, systemMicros: message.systemMicros };
  };
  return {
    url: `http://127.0.0.1:${listening.port}`,
    async heap() {
      const answer = nextMessage(child, 'heap');
      child.send({ type: 'heap' });
      const message = await answer;
      if (message.type !== 'heap') throw new Error('unreachable');
      return message.report;
    },
    async cpuMicros() {
      return (await cpuSplit()).micros;
    },
    cpuSplit,
    async close() {
      if (child.exitCode !== null) return;
      child.send({ type: 'close' });
      await once(child, 'exit');
    },
  };
}
