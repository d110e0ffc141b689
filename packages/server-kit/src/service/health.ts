// service.health(): liveness and readiness as plain data, from the closing state, the store's ping and the attached worker loops.

import type { ServiceDeps } from '../deps/service-deps.js';
import type { WorkerLoop } from '../workers/worker-loop.js';
import { withDeadline } from './deadline.js';

export interface HealthReport {
  /** Liveness: this process answers (a process that cannot answer cannot say so): always true. */
  live: true;
  /** Readiness: every check passes, so a load balancer may send requests here. */
  ready: boolean;
  checks: {
    /** False from the moment `close()` begins. */
    accepting: boolean;
    /** `up` when the store's ping answered within `limits.healthCheckTimeoutMs` (a memory store always). */
    store: 'up' | 'down';
    /** Each loop given to `service.workers.attach()`, by name. */
    workers: Record<string, 'running' | 'stopped'>;
  };
}

/**
 * The health check. Pings of the store never pile up: a check that comes while one is waiting shares
 * its answer, so probes every second hold at most one database connection between them.
 */
export function createHealthCheck(
  deps: Pick<ServiceDeps, 'store' | 'stopping' | 'settings'>,
  loops: () => readonly WorkerLoop[],
): () => Promise<HealthReport> {
  let pinging: Promise<'up' | 'down'> | undefined;
  const pingOnce = async (): Promise<'up' | 'down'> => {
    if (!deps.store.ping) return 'up';
    const answered = deps.store.ping().then(
      () => true,
      () => false,
    );
    const up = await withDeadline(answered, deps.settings.limits.healthCheckTimeoutMs, () => false);
    return up ? 'up' : 'down';
  };
  const pingStore = () => {
    pinging ??= pingOnce().finally(() => {
      pinging = undefined;
    });
    return pinging;
  };

  return async () => {
    const store = await pingStore();
    const workers: HealthReport['checks']['workers'] = {};
    for (const loop of loops()) workers[loop.name] = loop.running ? 'running' : 'stopped';
    const accepting = !deps.stopping.aborted;
    const ready = accepting && store === 'up' && Object.values(workers).every((w) => w === 'running');
    return { live: true, ready, checks: { accepting, store, workers } };
  };
}
