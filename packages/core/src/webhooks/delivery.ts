// What the sender promises a receiver about one delivery attempt (docs/webhooks.md, docs/spec-decisions.md WH-8).

/** A receiver answers 2xx within this time, or the attempt counts as failed and is retried. */
export const WEBHOOK_DELIVERY_TIMEOUT_MS = 15_000;
