// service.health(): liveness and readiness as plain data, from the closing state, the store (ping and refused requests, with hysteresis) and the attached worker loops.

import type { ServiceDeps } from '../deps/service-deps.js';
import type { WorkerLoop } from '../workers/worker-loop.js';
import { withDeadline } from './deadline.js';
import {
  nextStoreReadiness,
  type ReadinessThresholds,
  refusedRecently,
  type StoreReadiness,
} from './readiness.js';

export interface HealthReport {
  /** Liveness: this process answers (a process that cannot answer cannot say so): always true. */
  live: true;
  /** Readiness: every check passes, so a load balancer may send requests here. */
  ready: boolean;
  checks: {
    /** False from the moment `close()` begins. */
    accepting: boolean;
    /**
     * This check's store: `up` when its ping answered within `limits.healthCheckTimeoutMs` (a memory store
     * always) and no request was refused 503 for it within `readiness.writeRefusalWindowMs`. Readiness follows
     * it with hysteresis (`readiness.failuresBeforeNotReady` / `successesBeforeReady`, RDY-1).
     */
    store: 'up' | 'down';
    /** Each loop given to `service.workers.attach()`, by name. */
    workers: Record<string, 'running' | 'stopped'>;
  };
}

/**
 * The health check. Pings of the store never pile up: a check that comes while one is waiting shares
 * its answer (and counts once toward the hysteresis), so probes every second hold at most one database
 * connection between them. Closing and a stopped worker turn readiness false at once.
 */
export function createHealthCheck(
  deps: Pick<ServiceDeps, 'store' | 'stopping' | 'settings' | 'clock'>,
  loops: () => readonly WorkerLoop[],
  readiness: ReadinessThresholds,
  lastRefusal: () => Date | undefined,
): () => Promise<HealthReport> {
  let pinging: Promise<{ store: 'up' | 'down'; ready: boolean }> | undefined;
  let storeReadiness: StoreReadiness | undefined;
  const pingOnce = async () => {
    const answered = deps.store.ping
      ? deps.store.ping().then(
          () => true,
          () => false,
        )
      : Promise.resolve(true);
    const pinged = await withDeadline(answered, deps.settings.limits.healthCheckTimeoutMs, () => false);
    const refused = refusedRecently(lastRefusal(), deps.clock.now(), readiness.writeRefusalWindowMs);
    const passed = pinged && !refused;
    storeReadiness = nextStoreReadiness(storeReadiness, passed, readiness);
    return { store: passed ? ('up' as const) : ('down' as const), ready: storeReadiness.ready };
  };
  const pingStore = () => {
    pinging ??= pingOnce().finally(() => {
      pinging = undefined;
    });
    return pinging;
  };

  return async () => {
    const { store, ready: storeReady } = await pingStore();
    const workers: HealthReport['checks']['workers'] = {};
    for (const loop of loops()) workers[loop.name] = loop.running ? 'running' : 'stopped';
    const accepting = !deps.stopping.aborted;
    const ready = accepting && storeReady && Object.values(workers).every((w) => w === 'running');
    return { live: true, ready, checks: { accepting, store, workers } };
  };
}
