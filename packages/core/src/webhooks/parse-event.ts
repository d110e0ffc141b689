// Parses a verified webhook body into a typed event: known types strictly, unknown types as UnknownWebhookEvent.
import { knownWebhookEvent, WEBHOOK_EVENT_TYPES, type WebhookEvent, webhookEnvelope } from './events.js';
import { WebhookVerificationError } from './verification-error.js';

const KNOWN_TYPES: ReadonlySet<string> = new Set(WEBHOOK_EVENT_TYPES);

/**
 * The event of a body whose signature was verified. A type this version does not know comes back as
 * `{ type: 'unknown', receivedType }`, never an error; unknown fields are dropped. A body that is not an
 * event envelope, or a known type whose data does not fit its schema, is `webhook_invalid_payload`.
 */
export function parseWebhookEvent(body: string): WebhookEvent {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw invalid('the body is not JSON');
  }
  const envelope = webhookEnvelope.safeParse(json);
  if (!envelope.success) throw invalid('the body is not a webhook event envelope { type, timestamp, data }');
  if (!KNOWN_TYPES.has(envelope.data.type)) {
    const { id, type, timestamp, data } = envelope.data;
    return { ...(id === undefined ? {} : { id }), type: 'unknown', receivedType: type, timestamp, data };
  }
  const known = knownWebhookEvent.safeParse(json);
  if (!known.success) {
    const fields = known.error.issues.map((issue) => issue.path.join('.')).join(', ');
    throw invalid(`the ${envelope.data.type} event does not fit its schema (${fields})`);
  }
  return known.data;
}

const invalid = (reason: string) =>
  new WebhookVerificationError('webhook_invalid_payload', `The webhook signature is valid but ${reason}.`);
