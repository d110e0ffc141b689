// Waits until a server the tests started (PostgreSQL, PgBouncer) says on stderr that it is ready: bounded in time, failing with its log if it exits first.
import type { ChildProcess } from 'node:child_process';

/** Resolves when `child`'s stderr matches `ready` (then keeps draining it); rejects with the log on exit, or kills it after `ms`. */
export function loggedReady(child: ChildProcess, ready: RegExp, what: string, ms: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let log = '';
    const timer = setTimeout(() => {
      child.stderr?.off('data', onData);
      child.off('exit', onExit);
      child.kill('SIGKILL');
      reject(new Error(`${what} did not start in ${ms / 1000} s (killed): ${log}`));
    }, ms);
    const onData = (chunk: Buffer) => {
      log += chunk.toString();
      if (!ready.test(log)) return;
      clearTimeout(timer);
      child.stderr?.off('data', onData);
      child.stderr?.resume();
      child.off('exit', onExit);
      resolve();
    };
    const onExit = (code: number | null) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited with ${code} while starting: ${log}`));
    };
    child.stderr?.on('data', onData);
    child.once('exit', onExit);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}
