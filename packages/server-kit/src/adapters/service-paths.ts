// Which request paths belong to the service inside a host framework: the API under /v1/ and the probes it was given.
import type { FinancingService } from '../service/create-financing-service.js';

/** What a framework adapter needs of a service: its plain-data core and the probe paths it answers. */
export type AdaptedService = Pick<FinancingService, 'handle' | 'healthPaths'>;

/** The API's own prefix: every route of the spec, and its 404/405 answers, live under it. */
export const API_PREFIX = '/v1/';

/** The probe paths the service answers, in order (none unless `healthPaths` was given). */
export function probePaths(service: AdaptedService): string[] {
  const { live, ready } = service.healthPaths;
  return [live, ready].filter((path): path is string => path !== undefined);
}

/** Whether a path is the service's to answer; any other is left to the host's own routes. */
export function servesPath(service: AdaptedService): (path: string) => boolean {
  const probes = new Set(probePaths(service));
  return (path) => path.startsWith(API_PREFIX) || probes.has(path);
}
