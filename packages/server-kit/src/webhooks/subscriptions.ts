// A partner's webhook subscriptions (`clients[].webhooks` of createFinancingService): checked once, at startup.
import { WEBHOOK_EVENT_TYPES } from '@fin/core';
import { webhookSecretBytes } from '@fin/core/webhooks';
import type { WebhookSubscription } from '../deps/webhook-subscription.js';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** The subscriptions, frozen, or a TypeError naming the client and what is wrong (never a secret). */
export function checkSubscriptions(
  clientId: string,
  subscriptions: readonly WebhookSubscription[] | undefined,
): readonly WebhookSubscription[] {
  const fail = (why: string): never => {
    throw new TypeError(`createFinancingService: client ${clientId}: webhooks ${why}`);
  };
  if (subscriptions === undefined) return [];
  if (!Array.isArray(subscriptions as unknown)) fail('must be an array of { url, secrets, events? }');
  const urls = new Set<string>();
  return Object.freeze(
    subscriptions.map((subscription: WebhookSubscription, i: number) => {
      let url: URL | undefined;
      try {
        url = new URL(subscription?.url);
      } catch {
        fail(`[${i}].url is not a URL`);
      }
      const secure = url!.protocol === 'https:' || (url!.protocol === 'http:' && LOOPBACK.has(url!.hostname));
      if (!secure) fail(`[${i}].url must be https (http only on loopback)`);
      if (urls.has(url!.href)) fail(`[${i}].url is listed twice`);
      urls.add(url!.href);
      if (!Array.isArray(subscription.secrets) || subscription.secrets.length === 0) {
        fail(`[${i}].secrets must list at least one whsec_ secret`);
      }
      subscription.secrets.forEach((secret, j) => {
        try {
          webhookSecretBytes(secret);
        } catch (error) {
          fail(`[${i}].secrets[${j}]: ${(error as Error).message}`);
        }
      });
      const unknown = (subscription.events ?? []).filter((type) => !WEBHOOK_EVENT_TYPES.includes(type));
      if (unknown.length > 0) fail(`[${i}].events names unknown types: ${unknown.join(', ')}`);
      return Object.freeze({
        url: url!.href,
        secrets: Object.freeze([...subscription.secrets]),
        ...(subscription.events ? { events: Object.freeze([...subscription.events]) } : {}),
      });
    }),
  );
}

/** The subscriptions an event of `type` goes to. */
export const subscribedTo = (subscriptions: readonly WebhookSubscription[], type: string) =>
  subscriptions.filter((s) => !s.events || (s.events as readonly string[]).includes(type));
