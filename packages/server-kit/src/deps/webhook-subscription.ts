// A partner's webhook subscription as configured (`clients[].webhooks` of createFinancingService).
import type { WebhookEventType } from '@fin/core';

/** Where and how one partner receives contract-status events (docs/server-kit.md, "Webhooks"). */
export interface WebhookSubscription {
  /** The partner's receiver: `https://...` (`http://` only for loopback and tests). */
  url: string;
  /**
   * Every active secret (`whsec_<base64>`): each delivery carries one signature per secret, so a rotation
   * (add the new secret, let the receiver switch, drop the old) loses nothing.
   */
  secrets: readonly string[];
  /** Only these types (default every type; a type added later is sent to subscriptions without a list). */
  events?: readonly WebhookEventType[];
}
