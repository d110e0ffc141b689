// The published retry schedule of webhook deliveries (docs/webhooks.md): about a day, with jitter, then dead.

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/**
 * The wait after failed attempt n (n = 1..7) before attempt n + 1: Standard Webhooks' reference schedule
 * (at once, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h), eight attempts over about 27.6 hours. An event whose
 * eighth attempt fails is DEAD (replay sends it again).
 */
export const WEBHOOK_RETRY_SCHEDULE_MS: readonly number[] = Object.freeze([
  5 * SECOND,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  5 * HOUR,
  10 * HOUR,
  10 * HOUR,
]);

/** Attempts before an event is dead: the first one and one per wait of the schedule. */
export const WEBHOOK_MAX_ATTEMPTS = WEBHOOK_RETRY_SCHEDULE_MS.length + 1;

/** Each wait is stretched by up to this share (10%), drawn per event, so receivers recovering are not stampeded. */
export const WEBHOOK_RETRY_JITTER = 0.1;

/** The longest `Retry-After` honoured (a larger one waits this long): the schedule's own longest wait. */
export const WEBHOOK_MAX_RETRY_AFTER_MS = 10 * HOUR;

/**
 * How long to wait after `attempts` failed attempts, or `undefined` once the schedule is spent (dead).
 * `random` is a draw in [0, 1) (injected: tests fix it); `retryAfterMs`, a 429's or 503's `Retry-After`,
 * lengthens the wait to it (never shortens it), up to `WEBHOOK_MAX_RETRY_AFTER_MS`.
 */
export function nextAttemptDelayMs(
  attempts: number,
  random: number,
  retryAfterMs?: number,
): number | undefined {
  if (attempts >= WEBHOOK_MAX_ATTEMPTS) return undefined;
  const scheduled = WEBHOOK_RETRY_SCHEDULE_MS[Math.max(0, attempts - 1)]!;
  const jittered = scheduled + Math.floor(scheduled * WEBHOOK_RETRY_JITTER * random);
  const asked = Math.min(retryAfterMs ?? 0, WEBHOOK_MAX_RETRY_AFTER_MS);
  return Math.max(jittered, asked);
}
