// Migration 1: every table of the PostgreSQL store, with the constraints that hold the service's invariants.
import type { Migration } from './migration.js';

export const initialSchema: Migration = {
  version: 1,
  name: 'initial schema',
  sql: /* sql */ `
-- System tokens (spec section 5): only the SHA-256 of a token is kept.
CREATE TABLE fin_tokens (
  token_hash   text PRIMARY KEY,
  client_id    text NOT NULL,
  scopes       text[] NOT NULL,
  environment  text NOT NULL,
  issued_at    timestamptz NOT NULL,
  expires_at   timestamptz NOT NULL
);
CREATE INDEX fin_tokens_expires_at ON fin_tokens (expires_at);

-- Idempotency keys (spec section 8): one row per (client, key); the primary key is the one claim.
-- A row without completed_at is a claim in progress, leased to owner until lease_until.
CREATE TABLE fin_idempotency_keys (
  client_id     text NOT NULL,
  idem_key      text NOT NULL,
  fingerprint   text NOT NULL,
  owner         text NOT NULL,
  claimed_at    timestamptz NOT NULL,
  lease_until   timestamptz NOT NULL,
  completed_at  timestamptz,
  response      jsonb,
  PRIMARY KEY (client_id, idem_key),
  CHECK ((completed_at IS NULL) = (response IS NULL))
);
CREATE INDEX fin_idempotency_keys_age ON fin_idempotency_keys ((coalesce(completed_at, claimed_at)));

-- Rate limits (spec section 8): one fixed window per key, counted by an atomic upsert.
CREATE TABLE fin_rate_limits (
  limit_key     text PRIMARY KEY,
  window_start  timestamptz NOT NULL,
  window_end    timestamptz NOT NULL,
  hits          integer NOT NULL CHECK (hits >= 1)
);
CREATE INDEX fin_rate_limits_window_end ON fin_rate_limits (window_end);

-- Credit proposals (DESIGN 1, R-11): immutable once stored. Amounts are integer cents of BRL.
CREATE TABLE fin_proposals (
  proposal_id    text PRIMARY KEY,
  client_tax_id  text NOT NULL,
  store_id       text NOT NULL,
  amount_cents   bigint NOT NULL CHECK (amount_cents >= 0),
  installments   integer NOT NULL CHECK (installments BETWEEN 1 AND 99),
  approved_at    timestamptz NOT NULL,
  source         text NOT NULL CHECK (source IN ('MANUAL', 'CREDIT_ENGINE'))
);
CREATE INDEX fin_proposals_customer ON fin_proposals (client_tax_id, store_id, approved_at DESC);

-- Authorizations: one row per authorizationId, with its confirmation and cancellation notice.
CREATE TABLE fin_authorizations (
  authorization_id              text PRIMARY KEY,
  client_id                     text NOT NULL,
  status                        text NOT NULL
                                CHECK (status IN ('AUTHORIZED', 'CONFIRMED', 'CANCELLED', 'EXPIRED')),
  version                       integer NOT NULL CHECK (version >= 1),
  issued_at                     timestamptz NOT NULL,
  expires_at                    timestamptz NOT NULL,
  updated_at                    timestamptz NOT NULL,
  correlation_id                text,
  client_tax_id                 text NOT NULL,
  store_id                      text NOT NULL,
  imei                          text NOT NULL,
  grand_total_cents             bigint NOT NULL CHECK (grand_total_cents >= 0),
  cart                          jsonb NOT NULL,
  proposal_id                   text NOT NULL,
  proposal_use                  integer NOT NULL CHECK (proposal_use >= 0),
  -- Confirmation (POST /v1/sales/{id}/confirm, or the confirmation poller)
  sale_number                   text,
  invoice_number                text,
  nfe_access_key                text,
  invoiced_at                   timestamptz,
  confirmed_at                  timestamptz,
  -- Cancellation notice (R-08) and its verification through the partner's sale search
  cancellation_reason           text,
  cancellation_description      text,
  cancelled_at                  timestamptz,
  cancellation_noticed_at       timestamptz,
  cancellation_verification     text CHECK (cancellation_verification IN ('PENDING', 'VERIFIED', 'CONTRADICTED')),
  cancellation_attempts         integer CHECK (cancellation_attempts >= 0),
  cancellation_next_attempt_at  timestamptz,
  cancellation_verified_at      timestamptz,
  cancellation_last_outcome     text,
  -- Which worker instance took this row, until when (the workers' FOR UPDATE SKIP LOCKED lease)
  worker_lease_owner            text,
  worker_lease_until            timestamptz,
  CHECK ((sale_number IS NULL) = (invoiced_at IS NULL)),
  CHECK ((cancellation_reason IS NULL) = (cancellation_noticed_at IS NULL)),
  CHECK ((cancellation_reason IS NULL) = (cancellation_verification IS NULL))
);
-- R-10: at most one active financing per IMEI. Expiry (R-06) is not visible to an index, so the store
-- writes EXPIRED on overdue rows in the same transaction, before it inserts or reactivates a row.
CREATE UNIQUE INDEX fin_authorizations_active_imei
  ON fin_authorizations (imei) WHERE status IN ('AUTHORIZED', 'CONFIRMED');
-- One use per proposal and R-11's reuse limit: one live row per (proposal, use); an expired use frees it.
CREATE UNIQUE INDEX fin_authorizations_live_proposal_use
  ON fin_authorizations (proposal_id, proposal_use) WHERE status <> 'EXPIRED';
CREATE INDEX fin_authorizations_imei ON fin_authorizations (imei);
CREATE INDEX fin_authorizations_exchange_notices
  ON fin_authorizations (client_id, client_tax_id, issued_at DESC) WHERE cancellation_reason = 'EXCHANGE';
CREATE INDEX fin_authorizations_pending_cancellations
  ON fin_authorizations (cancellation_noticed_at) WHERE cancellation_verification = 'PENDING';
CREATE INDEX fin_authorizations_unconfirmed
  ON fin_authorizations (issued_at)
  WHERE status IN ('AUTHORIZED', 'EXPIRED') AND sale_number IS NULL AND cancellation_reason IS NULL;

-- Credit contracts (DESIGN 5): written once; the unique authorization_id makes "one contract per sale"
-- a property of the database, whichever of confirm and the confirmation poller gets there first.
CREATE TABLE fin_contracts (
  contract_id       text PRIMARY KEY,
  authorization_id  text NOT NULL UNIQUE REFERENCES fin_authorizations (authorization_id) ON DELETE CASCADE,
  principal_cents   bigint NOT NULL CHECK (principal_cents >= 0),
  installments      jsonb NOT NULL,
  created_at        timestamptz NOT NULL
);

-- Catalog snapshots of the daily sync (spec section 1.3): the latest one per partner.
CREATE TABLE fin_catalog_snapshots (
  partner_id  text PRIMARY KEY,
  snapshot    jsonb NOT NULL,
  synced_at   timestamptz NOT NULL
);
`,
};
