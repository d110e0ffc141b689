// The `webhooks` section of the Sales Authorization document: one POST per contract-status event type (spec v1.1).
import type * as z from 'zod';
import {
  authorizationExpiredEvent,
  cancellationContradictedEvent,
  cancellationVerifiedEvent,
  contractCreatedEvent,
} from '../webhooks/events.js';
import {
  WEBHOOK_ID_HEADER,
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_TIMESTAMP_HEADER,
} from '../webhooks/headers.js';
import type { OperationObject, ParameterObject } from './document.js';
import { refTo } from './json-schema.js';

/** One event type as the document shows it. */
export interface WebhookDefinition {
  type: string;
  summary: string;
  description: string;
  /** The event's envelope schema (named with `.meta({ id })`). */
  schema: z.ZodType;
}

export const webhooksTag = {
  name: 'Webhooks',
  description:
    'Contract-status events the financing service POSTs to the partner POS (spec v1.1), signed to Standard ' +
    'Webhooks v1: verify the raw body, dedupe on webhook-id, answer 2xx within 15 s (docs/webhooks.md).',
};

export const contractStatusWebhooks: readonly WebhookDefinition[] = [
  {
    type: 'contract.created',
    summary: 'Contract created',
    description:
      'The sale was confirmed, by the POS (`source: CONFIRM`) or found by sale search (`SALE_SEARCH`).',
    schema: contractCreatedEvent,
  },
  {
    type: 'cancellation.verified',
    summary: 'Cancellation verified',
    description: 'Sale search agrees with the cancellation notice (R-08): the financing is cancelled.',
    schema: cancellationVerifiedEvent,
  },
  {
    type: 'cancellation.contradicted',
    summary: 'Cancellation contradicted',
    description: 'Sale search still finds the sale: the financing stands.',
    schema: cancellationContradictedEvent,
  },
  {
    type: 'authorization.expired',
    summary: 'Authorization expired',
    description: 'No confirmation can arrive any more: `expiresAt` and its grace period have passed.',
    schema: authorizationExpiredEvent,
  },
];

const header = (name: string, description: string, pattern: string, example: string): ParameterObject => ({
  name,
  in: 'header',
  required: true,
  description,
  schema: { type: 'string', pattern },
  example,
});

const headers: ParameterObject[] = [
  header(
    WEBHOOK_ID_HEADER,
    'The event id, the same on every retry: dedupe on it.',
    '^[^.\\s]+$',
    'msg_2b7f4c1d9e8a4f0b',
  ),
  header(
    WEBHOOK_TIMESTAMP_HEADER,
    'Unix seconds of this attempt; refuse it beyond your tolerance, both ways.',
    '^\\d+$',
    '1767225600',
  ),
  header(
    WEBHOOK_SIGNATURE_HEADER,
    '`v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>">`, space-separated, one per active secret.',
    '^v1,[A-Za-z0-9+/=]+( v1,[A-Za-z0-9+/=]+)*$',
    'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
  ),
];

/** The POST the service sends for one event type. */
export function webhookOperation(definition: WebhookDefinition): OperationObject {
  const operationId = `webhook${definition.type
    .split(/[._]/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('')}`;
  return {
    operationId,
    summary: definition.summary,
    description: `${definition.description} Event type \`${definition.type}\`.`,
    tags: [webhooksTag.name],
    security: [],
    parameters: headers,
    requestBody: { required: true, content: { 'application/json': { schema: refTo(definition.schema) } } },
    responses: {
      '204': { description: 'Received (any 2xx within 15 s counts as delivered).' },
      '400': {
        description: 'Refused: a header is missing or the body is not an event; not retried as valid.',
      },
      '401': { description: 'Refused: no signature matches, or the timestamp is outside the tolerance.' },
    },
  };
}
