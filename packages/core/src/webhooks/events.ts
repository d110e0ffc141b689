// Contract-status webhook events (spec v1.1): the zod schemas of every event type and of the envelope around them.
import * as z from 'zod';
import { financedAmount, shortId, utcDateTime } from '../schemas/primitives.js';
import { authorizationStatus, cancellationVerification } from '../schemas/sales-authorization.js';

/**
 * The event type names, stable forever like error codes (docs/spec-decisions.md, WH-3). `unknown` is never
 * one: it names, on the receiving side, a type this version of the SDK does not know.
 */
export const WEBHOOK_EVENT_TYPES = [
  'contract.created',
  'cancellation.verified',
  'cancellation.contradicted',
  'authorization.expired',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** What every event's `data` carries: thin, no CPF, no IMEI. Unknown fields are dropped, never refused. */
const eventData = {
  authorizationId: z.string().min(1),
  storeId: shortId,
  status: authorizationStatus,
  /** Per authorization, from 1, one more per event: keep the highest seen and drop lower ones (stale). */
  sequence: z.number().int().min(1),
  /** When the state changed (the event's business time; the envelope's `timestamp` is when it was emitted). */
  occurredAt: utcDateTime,
};

/** Who created the contract: the POS's `confirm` call, or the financing service finding the sale by sale search. */
export const contractSource = z.enum(['CONFIRM', 'SALE_SEARCH']);

export const contractCreatedData = z.object({
  ...eventData,
  status: z.literal('CONFIRMED'),
  contractId: z.string().min(1),
  principal: financedAmount.optional(),
  source: contractSource,
});

export const cancellationVerifiedData = z.object({
  ...eventData,
  status: z.literal('CANCELLED'),
  verification: cancellationVerification.extract(['VERIFIED']),
  contractId: z.string().min(1).optional(),
  reason: z.string(),
});

export const cancellationContradictedData = z.object({
  ...eventData,
  verification: cancellationVerification.extract(['CONTRADICTED']),
  contractId: z.string().min(1).optional(),
  reason: z.string(),
});

export const authorizationExpiredData = z.object({
  ...eventData,
  status: z.literal('EXPIRED'),
  expiresAt: utcDateTime,
});

/** The envelope of one event type: Standard Webhooks' `{ type, timestamp, data }` plus our event `id`. */
const envelope = <T extends WebhookEventType, D extends z.ZodType>(type: T, data: D, id: string) =>
  z
    .object({
      /** The event id; equal to the `webhook-id` header of our deliveries. */
      id: z.string().min(1).optional(),
      type: z.literal(type),
      /** When the event was emitted (ISO 8601, UTC). */
      timestamp: utcDateTime,
      data,
    })
    .meta({ id });

export const contractCreatedEvent = envelope('contract.created', contractCreatedData, 'ContractCreatedEvent');
export const cancellationVerifiedEvent = envelope(
  'cancellation.verified',
  cancellationVerifiedData,
  'CancellationVerifiedEvent',
);
export const cancellationContradictedEvent = envelope(
  'cancellation.contradicted',
  cancellationContradictedData,
  'CancellationContradictedEvent',
);
export const authorizationExpiredEvent = envelope(
  'authorization.expired',
  authorizationExpiredData,
  'AuthorizationExpiredEvent',
);

/** Every event type this version knows, discriminated by `type`. */
export const knownWebhookEvent = z.discriminatedUnion('type', [
  contractCreatedEvent,
  cancellationVerifiedEvent,
  cancellationContradictedEvent,
  authorizationExpiredEvent,
]);

export type ContractCreatedEvent = z.infer<typeof contractCreatedEvent>;
export type CancellationVerifiedEvent = z.infer<typeof cancellationVerifiedEvent>;
export type CancellationContradictedEvent = z.infer<typeof cancellationContradictedEvent>;
export type AuthorizationExpiredEvent = z.infer<typeof authorizationExpiredEvent>;
export type KnownWebhookEvent = z.infer<typeof knownWebhookEvent>;

/** The envelope of any event, known or not: what a receiver can always read. */
export const webhookEnvelope = z.object({
  id: z.string().min(1).optional(),
  type: z.string().min(1),
  timestamp: z.string(),
  data: z.record(z.string(), z.unknown()),
});

/**
 * An event of a type this version does not know (a newer one): `type` is `'unknown'` so a `switch` on
 * `type` narrows the known ones; the type as sent is `receivedType`. Ignore it and answer 2xx.
 */
export interface UnknownWebhookEvent {
  id?: string | undefined;
  type: 'unknown';
  receivedType: string;
  timestamp: string;
  data: Record<string, unknown>;
}

/** What a verified delivery parses to. */
export type WebhookEvent = KnownWebhookEvent | UnknownWebhookEvent;
