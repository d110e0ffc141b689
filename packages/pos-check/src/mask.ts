// No secret or personal data in a report: the values the partner gave are masked wherever a message might quote them.
import { maskSecretValues, redactText } from '@fin/core';
import type { PosCheckOptions } from './options.js';

/**
 * A function that masks, in any text: the client secret and the seller's password wherever they stand as a
 * whole token (`maskSecretValues`: a short secret inside an ordinary word is left alone), the test CPFs and
 * IMEI (given and any other CPF- or IMEI-shaped run, via `redactText`), and any `Bearer`/`Basic` credential.
 */
export function secretsMask(options: PosCheckOptions): (text: string) => string {
  const passphrase = options.tls?.passphrase;
  const secrets = [options.clientSecret, options.seller.password, ...(passphrase ? [passphrase] : [])];
  return (text) => redactText(maskSecretValues(text, secrets));
}

/** The base URL as shown in a report: any `user:password@` it carries left out. */
export function displayUrl(baseUrl: string): string {
  if (!URL.canParse(baseUrl)) return redactText(baseUrl);
  const url = new URL(baseUrl);
  url.username = '';
  url.password = '';
  return url.href.replace(/\/$/, '');
}
