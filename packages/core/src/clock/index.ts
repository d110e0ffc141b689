// The Clock every @fin package reads "now" from: rules, tokens, pacing, idempotency and sync timestamps.

/** The one source of "now"; inject a fixed or moving one in tests instead of sleeping. */
export interface Clock {
  now(): Date;
}

/** The real clock. */
export const systemClock: Clock = { now: () => new Date() };
