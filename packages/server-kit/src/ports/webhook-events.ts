// The Store port's webhook part: event rows written with their state change, and the delivery bookkeeping of the sender.
/*
 * The contract (docs/spec-decisions.md WD-1..):
 * - An event row is written ONLY by `updateAuthorization({ ..., events })`, in the same atomic step as the
 *   record: both or neither. The store numbers the events of one authorization 1, 2, 3... (`sequence`);
 *   the compare-and-set on `version` serializes the writers of one authorization, so numbers never repeat.
 *   At most one `contract.created` and one `authorization.expired` per authorization.
 * - `claimDueWebhookEvents` leases `PENDING` events whose `nextAttemptAt <= now`, that no unexpired lease
 *   holds and that no `PENDING` event of the same authorization with a lower `sequence` precedes (order per
 *   authorization): several instances may claim at once, none gets an event another holds.
 * - `recordWebhookAttempt` writes an attempt's outcome only while `owner` still holds the lease, and frees it.
 */
import type { WebhookEventType } from '@fin/core';
import * as z from 'zod';
import type { AuthorizationRecord, JsonValue } from './records.js';
import type { WorkerLease } from './worker-lease.js';

export const webhookEventStatus = z.enum(['PENDING', 'DELIVERED', 'DEAD']);
export type WebhookEventStatus = z.infer<typeof webhookEventStatus>;

/** An event as a use case writes it: the store adds `sequence` and the delivery state. */
export interface NewWebhookEvent {
  /** `evt_<uuid>`: the `webhook-id` of every attempt and replay. */
  eventId: string;
  type: WebhookEventType;
  /** The API client whose subscriptions receive it (the authorization's tenant). */
  clientId: string;
  authorizationId: string;
  /** The sale journey's `X-Correlation-Id`, sent with every attempt. */
  correlationId?: string;
  /** When the state changed (ISO 8601): also when the event is first due. */
  occurredAt: string;
  /** The event's `data` but `sequence`: thin, never a CPF or an IMEI. */
  data: { [key: string]: JsonValue };
}

/** A stored event and how far its delivery got. */
export const webhookEventRecord = z.object({
  eventId: z.string().min(1),
  type: z.string().min(1),
  clientId: z.string().min(1),
  authorizationId: z.string().min(1),
  correlationId: z.string().optional(),
  occurredAt: z.string(),
  data: z.record(z.string(), z.custom<JsonValue>()),
  /** 1 for the authorization's first event, one more per event. */
  sequence: z.number().int().min(1),
  status: webhookEventStatus,
  /** Attempts made since it was written or last replayed. */
  attempts: z.number().int().min(0),
  /** When it is due next; null once DELIVERED or DEAD. */
  nextAttemptAt: z.string().nullable(),
  /** The subscription URLs that answered 2xx (an event is DELIVERED once every subscription did). */
  deliveredTo: z.array(z.string()),
  deliveredAt: z.string().nullable(),
  /** Why the last attempt failed (status or error name; never a body, header or secret). */
  lastOutcome: z.string().optional(),
});
export type WebhookEventRecord = z.infer<typeof webhookEventRecord>;

export interface ClaimWebhookEvents {
  now: Date;
  limit: number;
  lease: WorkerLease;
}

export interface WebhookAttempt {
  eventId: string;
  /** The lease owner that claimed it; another owner's write is ignored. */
  owner: string;
  status: WebhookEventStatus;
  attempts: number;
  nextAttemptAt: Date | null;
  deliveredTo: readonly string[];
  lastOutcome?: string;
  now: Date;
}

export interface WebhookEventQuery {
  clientId?: string;
  authorizationId?: string;
  status?: WebhookEventStatus;
  /** Default 100, at most 1000. */
  limit?: number;
}

export interface WebhookReplay {
  /** The events to send again; or every event of `authorizationId`; or every DEAD event of `clientId`. */
  eventIds?: readonly string[];
  authorizationId?: string;
  clientId?: string;
  now: Date;
}

export interface WebhookEventStore {
  /** Leases the events due now, oldest due first in turns per partner (a fair share, WF-1), keeping per-authorization order. */
  claimDueWebhookEvents(input: ClaimWebhookEvents): Promise<WebhookEventRecord[]>;
  /** Stores one attempt's outcome while `owner` holds the event; false when it no longer did (nothing written). */
  recordWebhookAttempt(attempt: WebhookAttempt): Promise<boolean>;
  /** Events by `sequence` within an authorization, oldest first; for support (`service.webhooks.list`). */
  listWebhookEvents(query: WebhookEventQuery): Promise<WebhookEventRecord[]>;
  /** Makes the chosen events `PENDING` again, due now, with no attempt and no subscription served; returns how many. */
  replayWebhookEvents(input: WebhookReplay): Promise<number>;
  /**
   * `AUTHORIZED` or `EXPIRED` records never confirmed whose `expiresAt` lies in [`expiredAfter`,
   * `expiredBefore`) and that have no `authorization.expired` event yet, oldest expiry first; with `lease`
   * as `listUnconfirmed` does. What the expiry worker turns into `EXPIRED` plus its event.
   */
  listExpiredWithoutEvent(query: {
    expiredBefore: Date;
    expiredAfter: Date;
    limit: number;
    lease?: WorkerLease;
  }): Promise<AuthorizationRecord[]>;
}

/** The default and largest page of `listWebhookEvents`. */
export const WEBHOOK_LIST_DEFAULT = 100;
export const WEBHOOK_LIST_MAX = 1000;
export const listLimit = (limit: number | undefined) =>
  Math.min(Math.max(1, Math.trunc(limit ?? WEBHOOK_LIST_DEFAULT)), WEBHOOK_LIST_MAX);
