// Sends one test delivery to the partner's receiver as the financing service would: POST, no redirect, within the delivery timeout.
import { signWebhookDelivery, WEBHOOK_DELIVERY_TIMEOUT_MS } from '@fin/core/webhooks';
import { errorText } from '../error-text.js';
import type { WebhookCheckOptions } from './options.js';

/** How a delivery is changed from a correct one, to see the receiver refuse it. */
export interface DeliveryVariant {
  /** Seconds added to now for `webhook-timestamp` (negative: in the past). */
  skewSeconds?: number;
  /** Secrets to sign with instead of the receiver's (a wrong one, or a rotation pair). */
  secrets?: readonly string[];
  /** Drops the `webhook-signature` header. */
  unsigned?: boolean;
  /** The event type to send (default `contract.created`). */
  type?: string;
  /** Changes the body after signing. */
  tamper?: boolean;
}

/** What came back: the status, or the reason no answer came in time. */
export type DeliveryOutcome = { status: number } | { failed: string };

/** A test event: thin, fake identifiers that say where they come from; no personal data. */
function probeEvent(type: string, now: Date) {
  return {
    id: `evt_fin_pos_check_${crypto.randomUUID()}`,
    type,
    timestamp: now.toISOString(),
    data: {
      authorizationId: 'fin-pos-check-authorization',
      storeId: 'fin-pos-check-store',
      status: 'CONFIRMED',
      sequence: 1,
      contractId: 'fin-pos-check-contract',
      principal: { amount: 100, currency: 'BRL' },
      source: 'CONFIRM',
      occurredAt: now.toISOString(),
    },
  };
}

export async function deliver(
  options: WebhookCheckOptions,
  variant: DeliveryVariant = {},
): Promise<DeliveryOutcome> {
  const now = new Date();
  const body = JSON.stringify(probeEvent(variant.type ?? 'contract.created', now));
  const headers = await signWebhookDelivery({
    id: `msg_fin_pos_check_${crypto.randomUUID().replaceAll('-', '')}`,
    timestamp: Math.floor(now.getTime() / 1000) + (variant.skewSeconds ?? 0),
    body,
    secrets: variant.secrets ?? [options.secret],
  });
  if (variant.unsigned) delete headers['webhook-signature'];
  try {
    const response = await (options.fetch ?? globalThis.fetch)(options.url, {
      method: 'POST',
      headers,
      body: variant.tamper ? body.replace('"sequence":1', '"sequence":2') : body,
      redirect: 'manual',
      signal: AbortSignal.timeout(WEBHOOK_DELIVERY_TIMEOUT_MS),
    });
    await response.body?.cancel();
    return { status: response.status };
  } catch (error) {
    const timedOut = error instanceof Error && error.name === 'TimeoutError';
    return { failed: timedOut ? `no answer within ${WEBHOOK_DELIVERY_TIMEOUT_MS} ms` : errorText(error) };
  }
}
