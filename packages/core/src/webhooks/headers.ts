// The Standard Webhooks headers of a delivery, read from any header shape (Fetch Headers, node:http, plain object).

export const WEBHOOK_ID_HEADER = 'webhook-id';
export const WEBHOOK_TIMESTAMP_HEADER = 'webhook-timestamp';
export const WEBHOOK_SIGNATURE_HEADER = 'webhook-signature';

/** Headers as Fetch gives them, as node:http gives them (`IncomingHttpHeaders`) or as a plain record. */
export type WebhookHeadersInput =
  | { get(name: string): string | null }
  | Readonly<Record<string, string | readonly string[] | undefined>>;

/** The three headers a delivery is verified with; `undefined` where one is missing or empty. */
export interface WebhookHeaderValues {
  id: string | undefined;
  timestamp: string | undefined;
  signature: string | undefined;
}

/** Reads the Standard Webhooks headers, whatever the case of their names. */
export function readWebhookHeaders(headers: WebhookHeadersInput): WebhookHeaderValues {
  const read = headerReader(headers);
  return {
    id: read(WEBHOOK_ID_HEADER),
    timestamp: read(WEBHOOK_TIMESTAMP_HEADER),
    signature: read(WEBHOOK_SIGNATURE_HEADER),
  };
}

function headerReader(headers: WebhookHeadersInput): (name: string) => string | undefined {
  if (typeof (headers as { get?: unknown }).get === 'function') {
    const fetchHeaders = headers as { get(name: string): string | null };
    return (name) => fetchHeaders.get(name) || undefined;
  }
  const lowered = new Map<string, string | readonly string[] | undefined>();
  for (const [key, value] of Object.entries(headers)) lowered.set(key.toLowerCase(), value);
  return (name) => {
    const value = lowered.get(name);
    const joined = Array.isArray(value) ? value.join(' ') : (value as string | undefined);
    return joined || undefined;
  };
}
