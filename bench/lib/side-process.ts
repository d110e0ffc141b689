// One side of the client figure in a process of its own (its own heap and compiled code, as in a POS): the parent forks it, then asks for batches.
import { fork } from 'node:child_process';
import { cartStream } from './cart.js';
import { type Call, PEERS, viaClient } from './peer-clients.js';
import { type Batch, type Spent, timed } from './spent.js';

const CHILD = '--bench-side';
export const OURS = 'AuthorizationClient';

/** The side's call: our client, or one of the peers, each on its own stream of carts. */
function callOf(side: string, baseUrl: string, token: string, prefix: number): Call {
  if (side === OURS) return viaClient(baseUrl, prefix);
  const peer = PEERS.find((candidate) => candidate.name === side);
  if (!peer) throw new Error(`no bench side named ${side}`);
  return peer.make(baseUrl, token, cartStream(prefix));
}

/** The side `side` in a forked process (tsx's loader and tsconfig inherited); `close` ends it. */
export function inOwnProcess(side: string, baseUrl: string, token: string, prefix: number) {
  const child = fork(new URL(import.meta.url), [CHILD, side, baseUrl, token, String(prefix)]);
  let ended: Error | undefined;
  const end = (error: Error) => {
    ended ??= error;
  };
  child.on('error', end);
  child.on('exit', (code) => end(new Error(`bench side ${side} exited with ${code}`)));
  const batch: Batch = (count) =>
    new Promise<Spent>((resolve, reject) => {
      if (ended) return reject(ended);
      const onEnd = (error: Error | number | null) =>
        reject(error instanceof Error ? error : new Error(`bench side ${side} exited with ${error}`));
      const onAnswer = (answer: { spent?: Spent; error?: string }) => {
        child.off('error', onEnd).off('exit', onEnd);
        if (answer.spent) resolve(answer.spent);
        else reject(new Error(`bench side ${side}: ${answer.error}`));
      };
      child.once('message', onAnswer).once('error', onEnd).once('exit', onEnd);
      child.send({ count });
    });
  return { batch, close: () => child.kill() };
}

/**
 * The child: times each batch asked for. Its CPU is counted from the end of the batch before, so what V8's
 * collector and compiler threads finish after a batch is charged to this side, not lost while the other runs.
 */
if (process.argv[2] === CHILD && process.send) {
  const [side, baseUrl, token, prefix] = process.argv.slice(3) as [string, string, string, string];
  const call = callOf(side, baseUrl, token, Number(prefix));
  let cpuSince = process.cpuUsage();
  process.on('disconnect', () => process.exit(0));
  process.on('message', ({ count }: { count: number }) => {
    timed(call, count).then(
      (spent) => {
        const used = process.cpuUsage(cpuSince);
        cpuSince = process.cpuUsage();
        process.send!({ spent: { ...spent, cpuMs: (used.user + used.system) / 1000 } });
      },
      (error: unknown) => process.send!({ error: String(error) }),
    );
  });
}
