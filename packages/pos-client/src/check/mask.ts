// No secret or personal data in a report: the values the partner gave are masked wherever a message might quote them.
import { redactText } from '@fin/core';
import type { PosCheckOptions } from './options.js';

/**
 * A function that masks, in any text: the client secret, the seller's password, the test CPFs and IMEI
 * (given and any other CPF- or IMEI-shaped run, via `redactText`), and any `Bearer`/`Basic` credential.
 */
export function secretsMask(options: PosCheckOptions): (text: string) => string {
  const secrets = [options.clientSecret, options.seller.password].filter((value) => value.length > 0);
  return (text) => {
    let masked = text;
    for (const secret of secrets) masked = masked.split(secret).join('[REDACTED]');
    return redactText(masked);
  };
}

/** The base URL as shown in a report: any `user:password@` it carries left out. */
export function displayUrl(baseUrl: string): string {
  if (!URL.canParse(baseUrl)) return redactText(baseUrl);
  const url = new URL(baseUrl);
  url.username = '';
  url.password = '';
  return url.href.replace(/\/$/, '');
}
