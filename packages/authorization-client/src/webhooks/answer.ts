// One delivery in, one HTTP answer out: verify, hand the event to `onEvent`, and say what the sender should do.
import {
  type Clock,
  isWebhookVerificationError,
  verifyWebhook,
  type WebhookEvent,
  type WebhookHeadersInput,
  type WebhookRawBody,
  type WebhookVerificationCode,
} from '@fin/core';
import { readWebhookHeaders } from '@fin/core/webhooks';

export interface WebhookHandlerOptions {
  /** The subscription's secrets (`whsec_...`); during a rotation, both. */
  secrets: string | readonly string[];
  /**
   * Handles one verified event. Return once it is stored: the answer is 204 then, and any throw is 500 so
   * the sender retries. The same `webhook-id` may come again (at-least-once): dedupe on `event.id`/`webhookId`.
   */
  onEvent: (event: WebhookEvent, delivery: { webhookId: string }) => Promise<void> | void;
  /** Seconds `webhook-timestamp` may be off, both ways (default 300; 0 is "this very second"). */
  toleranceSeconds?: number;
  clock?: Clock;
  /** Told when `onEvent` throws (the delivery is answered 500 and retried): log it your way. */
  onError?: (error: unknown) => void;
}

/** The HTTP answer to one delivery. */
export interface WebhookAnswer {
  status: number;
  /** `{ error: code }` on a refusal; empty when delivered. */
  body: string;
}

/**
 * Refusals the sender's retry cannot fix answer 4xx (400 malformed, 401 not authentic); a receiver set up
 * wrong (bad secret, body parsed by a middleware) answers 500, so deliveries are retried once it is fixed.
 */
const STATUS_OF: Record<WebhookVerificationCode, number> = {
  webhook_missing_headers: 400,
  webhook_invalid_payload: 400,
  webhook_timestamp_too_old: 401,
  webhook_timestamp_too_new: 401,
  webhook_no_matching_signature: 401,
  webhook_bad_secret: 500,
  webhook_body_parsed: 500,
};

/** Verifies one delivery and runs `onEvent`; never throws for a refused delivery, only answers. */
export async function answerWebhook(
  rawBody: WebhookRawBody,
  headers: WebhookHeadersInput,
  options: WebhookHandlerOptions,
): Promise<WebhookAnswer> {
  let event: WebhookEvent;
  try {
    event = await verifyWebhook(rawBody, headers, options);
  } catch (error) {
    if (!isWebhookVerificationError(error)) throw error;
    return { status: STATUS_OF[error.code], body: JSON.stringify({ error: error.code }) };
  }
  const webhookId = readWebhookHeaders(headers).id ?? '';
  try {
    await options.onEvent(event, { webhookId });
  } catch (error) {
    options.onError?.(error);
    return { status: 500, body: JSON.stringify({ error: 'handler_failed' }) };
  }
  return { status: 204, body: '' };
}
