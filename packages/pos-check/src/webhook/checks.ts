// The checks of a partner's webhook receiver: what it must accept (signed, rotation, unknown types) and refuse (forgeries, replays).
import { generateWebhookSecret } from '@fin/core/webhooks';
import type { DeliveryOutcome, DeliveryVariant } from './deliver.js';
import type { WebhookCheckOptions } from './options.js';

/** One check: the delivery it sends and whether the receiver must accept (2xx) or refuse it. */
export interface WebhookCheck {
  id: string;
  title: string;
  expect: 'accept' | 'refuse';
  variant: (options: WebhookCheckOptions) => DeliveryVariant;
  /** What to change when the receiver gets it wrong. */
  fix: string;
}

/** Beyond any sane tolerance (the default is 300 s): 10 minutes. */
const SKEW_SECONDS = 600;

export const webhookChecks: readonly WebhookCheck[] = [
  {
    id: 'webhook.accepts-signed',
    title: 'A correctly signed delivery is answered 2xx in time',
    expect: 'accept',
    variant: () => ({}),
    fix: 'verify with the secret you were given (verifyWebhook or any Standard Webhooks library) over the raw body, store the event, answer 2xx within 15 s; no redirect',
  },
  {
    id: 'webhook.rotation',
    title: 'A delivery signed with two secrets (rotation) is accepted',
    expect: 'accept',
    variant: (options) => ({ secrets: [generateWebhookSecret(), options.secret] }),
    fix: 'webhook-signature is a space-separated list: accept the delivery when any v1 signature matches',
  },
  {
    id: 'webhook.unknown-type',
    title: 'An event type the receiver does not know is acknowledged 2xx',
    expect: 'accept',
    variant: () => ({ type: 'fin_pos_check.unknown_type' }),
    fix: 'ignore event types you do not handle and answer 2xx; new types are added without notice',
  },
  {
    id: 'webhook.rejects-unsigned',
    title: 'A delivery without webhook-signature is refused',
    expect: 'refuse',
    variant: () => ({ unsigned: true }),
    fix: 'refuse (4xx) any delivery without a valid webhook-signature',
  },
  {
    id: 'webhook.rejects-wrong-secret',
    title: 'A delivery signed with another secret is refused',
    expect: 'refuse',
    variant: () => ({ secrets: [generateWebhookSecret()] }),
    fix: 'compare the signature computed with your secret, in constant time; refuse (4xx) when none matches',
  },
  {
    id: 'webhook.rejects-tampered',
    title: 'A body changed after signing is refused',
    expect: 'refuse',
    variant: () => ({ tamper: true }),
    fix: 'verify the signature over the raw body as received, before parsing it',
  },
  {
    id: 'webhook.rejects-stale',
    title: 'A delivery dated 10 minutes ago (a replay) is refused',
    expect: 'refuse',
    variant: () => ({ skewSeconds: -SKEW_SECONDS }),
    fix: 'refuse a webhook-timestamp older than your tolerance (default 5 minutes)',
  },
  {
    id: 'webhook.rejects-future',
    title: 'A delivery dated 10 minutes ahead is refused',
    expect: 'refuse',
    variant: () => ({ skewSeconds: SKEW_SECONDS }),
    fix: 'check the timestamp both ways: refuse a webhook-timestamp further in the future than your tolerance',
  },
];

/** The problem with `outcome`, or undefined when the receiver did what `check` expects. */
export function webhookProblem(check: WebhookCheck, outcome: DeliveryOutcome): string | undefined {
  if ('failed' in outcome) return `no answer: ${outcome.failed}`;
  const ok = outcome.status >= 200 && outcome.status < 300;
  if (check.expect === 'accept' && !ok) {
    const redirect = outcome.status >= 300 && outcome.status < 400 ? ' (redirects are not followed)' : '';
    return `answered HTTP ${outcome.status}${redirect}, expected 2xx`;
  }
  if (check.expect === 'refuse' && ok)
    return `answered HTTP ${outcome.status}: accepted a delivery it must refuse`;
  if (check.expect === 'refuse' && outcome.status >= 500) {
    return `answered HTTP ${outcome.status}: a 5xx is retried by the sender; refuse with a 4xx`;
  }
  return undefined;
}
