// One side of the client figure in a process of its own (its own heap and compiled code, as in a POS): the parent forks it, then asks for batches.
import { type ChildProcess, fork } from 'node:child_process';
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
  const child: ChildProcess = fork(new URL(import.meta.url), [CHILD, side, baseUrl, token, String(prefix)]);
  const batch: Batch = (count) =>
    new Promise<Spent>((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`bench side ${side} exited with ${code}`));
      child.once('exit', onExit);
      child.once('message', (answer: { spent?: Spent; error?: string }) => {
        child.off('exit', onExit);
        if (answer.spent) resolve(answer.spent);
        else reject(new Error(`bench side ${side}: ${answer.error}`));
      });
      child.send({ count });
    });
  return { batch, close: () => child.kill() };
}

if (process.argv[2] === CHILD && process.send) {
  const [side, baseUrl, token, prefix] = process.argv.slice(3) as [string, string, string, string];
  const call = callOf(side, baseUrl, token, Number(prefix));
  process.on('message', ({ count }: { count: number }) => {
    timed(call, count).then(
      (spent) => process.send!({ spent }),
      (error: unknown) => process.send!({ error: String(error) }),
    );
  });
}
