// The Clock port: the one source of "now" for rules, tokens, idempotency and rate limits.

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
