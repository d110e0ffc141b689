// The `--webhook-url`/`--webhook-secret` options of fin-pos-check, checked before anything is sent.
import { webhookSecretBytes } from '@fin/core/webhooks';
import type { WebhookCheckOptions } from './options.js';

/** The webhook check's options, or the usage error (`UsageError`) saying what to change; never quotes the secret. */
export function webhookOptions(
  url: string,
  secret: string,
  UsageError: new (message: string) => Error,
): WebhookCheckOptions {
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) {
    throw new UsageError('--webhook-url must be an http(s) URL such as https://pos.example.com/webhooks/fin');
  }
  try {
    webhookSecretBytes(secret);
  } catch (error) {
    throw new UsageError(`--webhook-secret: ${(error as Error).message}`);
  }
  return { url, secret };
}
