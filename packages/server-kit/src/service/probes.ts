// The probe routes a host may ask for (`healthPaths`): liveness and readiness over HTTP, without auth, without configuration.
import { JSON_HEADERS } from '../http/envelope.js';
import type { PlainRequest, PlainResponse } from '../http/plain.js';
import { matchEndpoint } from '../http/routes.js';
import type { HealthReport } from './health.js';

export interface HealthPaths {
  /** Liveness path, e.g. `/healthz`: 200 while the process answers (also while it shuts down). */
  live?: string;
  /** Readiness path, e.g. `/readyz`: 200 when ready, 503 when not (store down, a worker stopped, closing). */
  ready?: string;
}

const PROBE_HEADERS = { ...JSON_HEADERS, 'cache-control': 'no-store' };

function checkPath(name: string, path: string | undefined): void {
  if (path === undefined) return;
  const api = typeof path === 'string' ? matchEndpoint('GET', path) : undefined;
  if (typeof path !== 'string' || !path.startsWith('/') || /[?#\s]/.test(path)) {
    throw new TypeError(`createFinancingService: healthPaths.${name} must be a path such as /healthz`);
  }
  if (api?.ok || api?.code === 'method_not_allowed') {
    throw new TypeError(`createFinancingService: healthPaths.${name} ${path} is a path of the API`);
  }
}

/**
 * The probe answer for `request`, or `undefined` when it is not a probe path. Nothing of the request is
 * read but its method and path: a bearer token neither changes the answer nor is checked. The bodies
 * say only what is up (`{ status, checks }`): no version, host, DSN or setting.
 */
export function createProbes(paths: HealthPaths | undefined, health: () => Promise<HealthReport>) {
  checkPath('live', paths?.live);
  checkPath('ready', paths?.ready);
  if (paths?.live !== undefined && paths.live === paths.ready) {
    throw new TypeError('createFinancingService: healthPaths.live and healthPaths.ready must differ');
  }
  return (request: PlainRequest): Promise<PlainResponse> | undefined => {
    const probe = request.path === paths?.live ? 'live' : request.path === paths?.ready ? 'ready' : undefined;
    if (!probe) return undefined;
    const head = request.method === 'HEAD';
    if (!head && request.method !== 'GET') {
      return Promise.resolve({
        status: 405,
        headers: { ...PROBE_HEADERS, allow: 'GET, HEAD' },
        body: { status: 'method_not_allowed' },
      });
    }
    const answer = (status: number, body: PlainResponse['body']): PlainResponse => ({
      status,
      headers: PROBE_HEADERS,
      body: head ? null : body,
    });
    if (probe === 'live') return Promise.resolve(answer(200, { status: 'ok' }));
    return health().then(({ ready, checks }) => {
      const workers = Object.values(checks.workers);
      return answer(ready ? 200 : 503, {
        status: ready ? 'ready' : 'not_ready',
        checks: {
          accepting: checks.accepting,
          store: checks.store,
          workers:
            workers.length === 0 ? 'none' : workers.every((w) => w === 'running') ? 'running' : 'stopped',
        },
      });
    });
  };
}
