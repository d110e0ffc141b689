// Migration 6: webhook events (spec v1.1, issue 26), written with their state change and delivered from here.
import type { Migration } from './migration.js';

/**
 * One row per event: numbered per authorization (`sequence`, unique with it), at most one
 * `contract.created` and one `authorization.expired` per authorization, and the delivery state the
 * sender's workers lease with `FOR UPDATE SKIP LOCKED`. No foreign key to the authorization: the purge
 * may one day drop authorizations before their events' retention ends.
 */
export const webhookEvents: Migration = {
  version: 6,
  name: 'webhook events',
  sql: /* sql */ `
CREATE TABLE fin_webhook_events (
  event_id text PRIMARY KEY,
  type text NOT NULL,
  client_id text NOT NULL,
  authorization_id text NOT NULL,
  sequence integer NOT NULL CHECK (sequence >= 1),
  correlation_id text,
  occurred_at timestamptz NOT NULL,
  data jsonb NOT NULL,
  status text NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'DELIVERED', 'DEAD')),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz,
  delivered_to jsonb NOT NULL DEFAULT '[]',
  delivered_at timestamptz,
  last_outcome text,
  lease_owner text,
  lease_until timestamptz,
  CONSTRAINT fin_webhook_events_sequence UNIQUE (authorization_id, sequence)
);
CREATE UNIQUE INDEX fin_webhook_events_once ON fin_webhook_events (authorization_id, type)
  WHERE type IN ('contract.created', 'authorization.expired');
CREATE INDEX fin_webhook_events_due ON fin_webhook_events (next_attempt_at) WHERE status = 'PENDING';
CREATE INDEX fin_webhook_events_client ON fin_webhook_events (client_id, status);
`,
};
