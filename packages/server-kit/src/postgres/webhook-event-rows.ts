// Webhook event rows in PostgreSQL: the insert a state change's transaction makes, and reading rows back as records.
import type pg from 'pg';
import {
  type NewWebhookEvent,
  type WebhookEventRecord,
  webhookEventRecord,
} from '../ports/webhook-events.js';
import { query } from './sql.js';

/**
 * Inserts `events` inside the transaction that writes their authorization, after its compare-and-set: the
 * row lock that update holds serializes the writers of one authorization, so the next number is theirs.
 * The number is one more than the authorization's counter (migration 9) or its highest stored event,
 * whichever is higher: purged events never give their number again.
 */
export async function insertWebhookEvents(
  client: pg.PoolClient,
  events: readonly NewWebhookEvent[] | undefined,
): Promise<void> {
  for (const event of events ?? []) {
    await query(
      client,
      `WITH numbered AS (
         UPDATE fin_authorizations SET last_event_sequence = greatest(coalesce(last_event_sequence, 0),
           coalesce((SELECT max(sequence) FROM fin_webhook_events WHERE authorization_id = $4), 0)) + 1
         WHERE authorization_id = $4 RETURNING last_event_sequence)
       INSERT INTO fin_webhook_events (event_id, type, client_id, authorization_id, sequence, correlation_id,
         occurred_at, data, next_attempt_at)
       SELECT $1, $2, $3, $4, numbered.last_event_sequence, $5, $6, $7::jsonb, $6 FROM numbered`,
      [
        event.eventId,
        event.type,
        event.clientId,
        event.authorizationId,
        event.correlationId ?? null,
        event.occurredAt,
        JSON.stringify(event.data),
      ],
    );
  }
}

export interface WebhookEventRow {
  event_id: string;
  type: string;
  client_id: string;
  authorization_id: string;
  sequence: number;
  correlation_id: string | null;
  occurred_at: Date;
  data: WebhookEventRecord['data'];
  status: string;
  attempts: number;
  next_attempt_at: Date | null;
  delivered_to: string[];
  delivered_at: Date | null;
  last_outcome: string | null;
}

const iso = (value: Date | null) => (value ? new Date(value).toISOString() : null);

export function toWebhookEventRecord(row: WebhookEventRow): WebhookEventRecord {
  return webhookEventRecord.parse({
    eventId: row.event_id,
    type: row.type,
    clientId: row.client_id,
    authorizationId: row.authorization_id,
    ...(row.correlation_id !== null ? { correlationId: row.correlation_id } : {}),
    occurredAt: iso(row.occurred_at),
    data: row.data,
    sequence: row.sequence,
    status: row.status,
    attempts: row.attempts,
    nextAttemptAt: iso(row.next_attempt_at),
    deliveredTo: row.delivered_to,
    deliveredAt: iso(row.delivered_at),
    ...(row.last_outcome !== null ? { lastOutcome: row.last_outcome } : {}),
  });
}
