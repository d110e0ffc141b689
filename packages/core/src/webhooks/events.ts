// Contract-status webhook events (spec v1.1): the zod schemas of every event type and of the envelope around them.
import * as z from 'zod';
import { documentedObject } from '../schemas/documented-object.js';
import { openValues } from '../schemas/open-values.js';
import { financedAmount, shortId, utcDateTime } from '../schemas/primitives.js';
import {
  authorizationStatus,
  cancellationVerification,
  reportedCancelReason,
} from '../schemas/sales-authorization.js';

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
  /** The authorization the event is about. */
  authorizationId: z.string().min(1),
  /** The store of the authorization. */
  storeId: shortId,
  /** The authorization's status after the change. */
  status: authorizationStatus,
  /** Per authorization, from 1, one more per event: keep the highest seen and drop lower ones (stale). */
  sequence: z.number().int().min(1),
  /** When the state changed (the event's business time; the envelope's `timestamp` is when it was emitted). */
  occurredAt: utcDateTime,
};

/** Who created the contract: the POS's `confirm` call, or the financing service finding the sale by sale search. */
export const contractSource = z.enum(['CONFIRM', 'SALE_SEARCH']);

export const contractCreatedData = documentedObject({
  ...eventData,
  /** `CONFIRMED`. */
  status: z.literal('CONFIRMED'),
  /** The credit contract created. */
  contractId: z.string().min(1),
  /** The amount financed (the cart's `grandTotal`). */
  principal: financedAmount.optional(),
  /** `CONFIRM` (the POS's confirm call) or `SALE_SEARCH` (found by sale search). */
  source: contractSource,
});

export const cancellationVerifiedData = documentedObject({
  ...eventData,
  /** `CANCELLED`: the financing is cancelled. */
  status: z.literal('CANCELLED'),
  /** `VERIFIED`: the sale search shows the sale cancelled. */
  verification: cancellationVerification.extract(['VERIFIED']),
  /** The contract cancelled with it, if one was created. */
  contractId: z.string().min(1).optional(),
  /** The reason as notified; `EXCHANGE` marks an exchange. */
  reason: reportedCancelReason,
});

export const cancellationContradictedData = documentedObject({
  ...eventData,
  /** `CONTRADICTED`: the sale search shows the sale not cancelled; the search prevails. */
  verification: cancellationVerification.extract(['CONTRADICTED']),
  /** The contract, which stays in force. */
  contractId: z.string().min(1).optional(),
  /** The reason as notified. */
  reason: reportedCancelReason,
});

export const authorizationExpiredData = documentedObject({
  ...eventData,
  /** `EXPIRED`: not confirmed within 15 minutes. */
  status: z.literal('EXPIRED'),
  /** When it lapsed. */
  expiresAt: utcDateTime,
});

/** The envelope of one event type: Standard Webhooks' `{ type, timestamp, data }` plus our event `id`. */
const envelope = <T extends WebhookEventType, D extends z.ZodType>(type: T, data: D, id: string) =>
  documentedObject({
    /** The event id; equal to the `webhook-id` header of our deliveries. */
    id: z.string().min(1).optional(),
    /** The event type, stable forever (WH-3). */
    type: z.literal(type),
    /** When the event was emitted (ISO 8601, UTC). */
    timestamp: utcDateTime,
    /** What changed: thin, no CPF, no IMEI. */
    data,
  }).meta({ id });

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
export const webhookEnvelope = documentedObject({
  /** The event id; equal to the `webhook-id` header of our deliveries. */
  id: z.string().min(1).optional(),
  /** The event type: one this version knows, or a newer one. */
  type: openValues<WebhookEventType>(z.string().min(1)),
  /** When the event was emitted (ISO 8601, UTC). */
  timestamp: z.string(),
  /** The event's fields. */
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
