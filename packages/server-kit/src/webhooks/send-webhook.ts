// One webhook delivery attempt over HTTP: signed, bounded in time, no redirect followed, the answer's body never read.
import { randomUUID } from 'node:crypto';
import { createBoundedSignal, parseRetryAfter } from '@fin/core/transport';
import { signWebhookDelivery } from '@fin/core/webhooks';

export interface WebhookSend {
  fetch: typeof fetch;
  url: string;
  eventId: string;
  /** The body, identical on every attempt of the event. */
  body: string;
  secrets: readonly string[];
  /** Unix seconds of this attempt (`webhook-timestamp`). */
  timestamp: number;
  correlationId?: string;
  timeoutMs: number;
  /** The worker run's signal: a closing service stops waiting. */
  signal?: AbortSignal;
  /** For `Retry-After` given as an HTTP date. */
  nowMs: number;
}

export interface WebhookSendResult {
  delivered: boolean;
  /** The receiver's status, when it answered. */
  status?: number;
  /** Why it failed, for logs and `lastOutcome`: `http_500`, `redirect_not_followed`, `timeout`, `connection_error`. */
  outcome: string;
  /** A 429's or 503's `Retry-After`. */
  retryAfterMs?: number;
  /** The `X-Request-Id` of this attempt. */
  requestId: string;
}

/** 429 and 503 say when to come back; we wait at least that long. */
const ASKS_TO_WAIT = new Set([429, 503]);

/** Sends one attempt. Never throws: every failure is an outcome the schedule retries. */
export async function sendWebhook(send: WebhookSend): Promise<WebhookSendResult> {
  const requestId = randomUUID();
  const headers: Record<string, string> = {
    ...(await signWebhookDelivery({
      id: send.eventId,
      timestamp: send.timestamp,
      body: send.body,
      secrets: send.secrets,
    })),
    'x-request-id': requestId,
    ...(send.correlationId ? { 'x-correlation-id': send.correlationId } : {}),
  };
  const bound = createBoundedSignal(send.signal, send.timeoutMs);
  try {
    const response = await send.fetch(send.url, {
      method: 'POST',
      headers,
      body: send.body,
      redirect: 'manual',
      signal: bound.signal,
    });
    // Only the status counts: the body is dropped unread, so a receiver cannot hold the worker with it.
    await response.body?.cancel().catch(() => {});
    const { status } = response;
    if (status >= 200 && status < 300) return { delivered: true, status, outcome: 'delivered', requestId };
    const redirected = response.type === 'opaqueredirect' || (status >= 300 && status < 400);
    const retryAfterMs = ASKS_TO_WAIT.has(status)
      ? parseRetryAfter(response.headers.get('retry-after'), send.nowMs)
      : undefined;
    return {
      delivered: false,
      ...(status ? { status } : {}),
      outcome: redirected ? 'redirect_not_followed' : `http_${status}`,
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
      requestId,
    };
  } catch {
    return { delivered: false, outcome: bound.timedOut() ? 'timeout' : 'connection_error', requestId };
  } finally {
    bound.dispose();
  }
}
