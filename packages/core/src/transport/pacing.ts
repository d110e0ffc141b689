// One pacer per rate class of a client (spec section 8), or none when pacing is off; a 429 holds them all.
import type { Clock } from '../clock/index.js';
import type { RateClass } from '../endpoints/endpoint.js';
import { perMinuteOf } from '../endpoints/endpoint.js';
import { createPacer, type Pacer } from './pacer.js';
import type { RateLimitOptions } from './types.js';

/** The spec's limits per client_id (section 8), requests per minute: those of the registry's rate classes. */
export const DEFAULT_RATE_LIMITS: Readonly<Record<RateClass, number>> = perMinuteOf;

export type Pacers = Partial<Record<RateClass, Pacer>>;

/** A 429 with `Retry-After` holds every caller of the client, whatever its class, until the time given. */
export function holdAll(pacers: Pacers, untilMs: number): void {
  for (const pacer of Object.values(pacers)) pacer?.holdUntil(untilMs);
}

/** The pacers of one client: the spec's limits unless `rateLimit` overrides them; none for `false`. */
export function createPacers(rateLimit: RateLimitOptions | false | undefined, clock: Clock): Pacers {
  if (rateLimit === false) return {};
  const pacers: Pacers = {};
  for (const rate of Object.keys(DEFAULT_RATE_LIMITS) as RateClass[]) {
    const limit = rateLimit?.[rate] ?? DEFAULT_RATE_LIMITS[rate];
    pacers[rate] = createPacer({ limit, clock });
  }
  return pacers;
}
