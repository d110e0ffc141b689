// The Store port: every state the service keeps, behind atomic operations that hold each invariant themselves.
/*
 * Why the operations look like this (read before implementing a store):
 *
 * Several service instances may share one store, so no invariant may rest on a read followed by a
 * write in service code. Each operation below is ONE atomic step (a transaction, or a single
 * synchronous block in memory) and reports the conflicts it refused:
 *
 * - R-10, one active financing per IMEI: `createAuthorization` and `updateAuthorization` refuse to
 *   leave two records with the same IMEI in an active status (`AUTHORIZED` or `CONFIRMED`). In
 *   PostgreSQL: a partial unique index on `imei WHERE status IN ('AUTHORIZED','CONFIRMED')`.
 * - Expiry (R-06) is derived from the clock, which no index can see, so it is an explicit status
 *   change: before checking R-10 (and proposal use) both writes first store `EXPIRED` on every
 *   OTHER `AUTHORIZED` record of the same IMEI (and of the same proposal) whose `expiresAt <= now`
 *   (never on the record being written: a late confirm may legitimately move it to `CONFIRMED`).
 *   Readers that take `now` treat such records as expired whether or not that write happened.
 * - One use per proposal and R-11's reuse limit: an authorization carries `proposalId` and
 *   `proposalUse` (0 = first use, k = k-th reuse). No two non-`EXPIRED` records may share
 *   (`proposalId`, `proposalUse`): a partial unique index. An expired use frees its slot.
 * - Idempotency: `claimWrite` lets exactly one request run per (clientId, key); the others see
 *   `completed` (replay), `conflict` (other fingerprint) or `in_progress`. It counts the write's rate-limit
 *   hit first (`rate_limited`: nothing claimed) and, once claimed, answers the reads the write declared,
 *   in the same atomic step (one round trip on PostgreSQL). A claim is a lease:
 *   after `leaseMs` without completion (a crashed instance) the next claim takes it over. A `claimWrite`
 *   that throws holds no claim: the key is free for the client's retry (at once, or once the holder's
 *   liveness runs out when the store cannot even release it).
 *   `completeIdempotencyKey`/`releaseIdempotencyKey` act only for the `owner` that holds the claim.
 * - The atomic phase (issue 19): a write that carries a `KeyAnswer` (`createAuthorization`,
 *   `updateAuthorization`) stores its effect AND the key's answer in one atomic step, and only while
 *   `owner` still holds the claim (else neither: `claim_lost`). So no fault can leave a committed effect
 *   whose answer a retry cannot replay, nor an answer without its effect.
 * - A store that cannot reach its database throws `StoreUnavailableError` (the service answers 503
 *   `service_unavailable` with `Retry-After`); any other throw is a bug (500).
 * - State transitions are compare-and-set on `version` (`updateAuthorization`), so two writers
 *   never both move one authorization.
 * - Rate limits: `consumeRateLimit` reads and extends one key's log of admitted hits atomically (a
 *   sliding window: never more than `limit` admitted in any `windowMs`).
 *
 * Records go in and come out as plain data (schemas in `records.ts`); a store never shares an object
 * with its caller. Time is always passed in (`now`), never read by the store, so tests move it.
 * The shared conformance suite (`describeStoreConformance` of `@fin/server-kit/testing`) is the
 * executable form of this contract: every store must pass it.
 */
import type { HoldStore } from './hold-store.js';
import type { RateLimitDecision, RateLimiter, RateLimitHit } from './rate-limiter.js';
import type {
  AuthorizationRecord,
  JsonValue,
  ProposalRecord,
  StoredResponse,
  TokenRecord,
} from './records.js';
import type { PurgeInput, PurgeReport } from './retention.js';
import type { NewWebhookEvent, WebhookEventStore } from './webhook-events.js';
import type { WorkerLease } from './worker-lease.js';

/** Identifies one idempotency key: keys are scoped by API client. */
export interface IdempotencyKeyRef {
  clientId: string;
  key: string;
  /** The request holding the claim (a random id per request). */
  owner: string;
}

/**
 * A write's claim of its key (`claimWrite`): its rate-limit hit first, then the claim, then, when granted,
 * the reads the write declared, all as of `now`, in one atomic step.
 */
export interface WriteClaim extends IdempotencyKeyRef {
  /** SHA-256 of method, path and the RFC 8785 canonical JSON of the parsed body. */
  fingerprint: string;
  now: Date;
  /** How long a completed response is replayed (24 h); an older record is replaced by a new claim. */
  retentionMs: number;
  /** How long an unfinished claim blocks others before it may be taken over. */
  leaseMs: number;
  /**
   * The write's hit, counted first whatever the claim answers (`consumeRateLimit`'s window); over the limit
   * nothing is claimed nor read. Absent when already counted (a duplicate claiming again after waiting) or
   * counted by a rate limiter other than the store.
   */
  hit?: RateLimitHit;
  /** An authorize's first reads (R-10's pre-check, DESIGN 1's proposal order), made only when claimed. */
  reads?: { clientTaxId: string; storeId: string; imei: string };
}

/** `findActiveByImei`, `findUnusedProposal` and `findExchangeNotices` answered for a claim's `reads`. */
export interface AuthorizeFindings {
  activeByImei: AuthorizationRecord | undefined;
  unusedProposal: ProposalRecord | undefined;
  exchangeNotices: AuthorizationRecord[];
}

export type WriteClaimResult =
  /** The hit was over the limit: nothing claimed, nothing read. */
  | { outcome: 'rate_limited'; limit: RateLimitDecision }
  /**
   * This request owns the key and must run, then complete or release it. `found`: the claim's `reads`
   * answered (given exactly when `reads` was), as the three reads return them at that moment; like any
   * read, the write decides (R-10 and proposal slots are held by `createAuthorization`).
   */
  | { outcome: 'claimed'; found?: AuthorizeFindings }
  /** Same key and fingerprint, already answered within retention: replay `response`. */
  | { outcome: 'completed'; response: StoredResponse }
  /** Same key, different fingerprint (running or completed): 409 `idempotency_key_conflict`. */
  | { outcome: 'conflict' }
  /** Same key and fingerprint, still running elsewhere: wait and claim again. */
  | { outcome: 'in_progress' };

/** An idempotency key's answer, stored by the write that makes it true, in the same atomic step. */
export interface KeyAnswer extends IdempotencyKeyRef {
  response: StoredResponse;
  now: Date;
}

export interface CreateAuthorization {
  authorization: AuthorizationRecord;
  /** A proposal approved during this request (CreditEngine), stored in the same atomic step. */
  newProposal?: ProposalRecord;
  /** The request's answer, completed with the record or not at all (see `claim_lost`). */
  answer?: KeyAnswer;
  now: Date;
}

export type CreateAuthorizationResult =
  | { ok: true }
  /** another record with this IMEI is active. */
  | { ok: false; reason: 'imei_already_financed' }
  /** (`proposalId`, `proposalUse`) is taken by a live record: decide again. */
  | { ok: false; reason: 'proposal_use_taken' }
  /** `answer.owner` no longer holds its key (its lease ran out and another request took it): nothing written. */
  | { ok: false; reason: 'claim_lost' };

export interface UpdateAuthorization {
  /** The whole next record; the store writes it with `version` = `expectedVersion + 1`. */
  record: AuthorizationRecord;
  expectedVersion: number;
  /** The request's answer, completed with the record or not at all (see `claim_lost`). */
  answer?: KeyAnswer;
  now: Date;
  /** Webhook events of this state change (issue 26), written with the record or not at all (`webhook-events.ts`). */
  events?: readonly NewWebhookEvent[];
}

export type UpdateAuthorizationResult =
  | { ok: true; record: AuthorizationRecord }
  /** Not found, or someone else wrote first: read again and decide again. */
  | { ok: false; reason: 'stale' }
  /** moving to an active status would make a second active financing of this IMEI. */
  | { ok: false; reason: 'imei_already_financed' }
  /** Moving out of `EXPIRED` would reuse a (`proposalId`, `proposalUse`) slot already taken. */
  | { ok: false; reason: 'proposal_use_taken' }
  /** `answer.owner` no longer holds its key: nothing written. */
  | { ok: false; reason: 'claim_lost' };

export interface CatalogSnapshotRecord {
  snapshot: JsonValue;
  syncedAt: string;
}

/** `Partial<HoldStore>`: the stock holds of issue 30 are optional, so a store written before them still fits. */
export interface Store extends RateLimiter, Partial<HoldStore>, WebhookEventStore {
  // System tokens (spec section 5) -------------------------------------------------------------
  saveToken(token: TokenRecord): Promise<void>;
  findToken(tokenHash: string): Promise<TokenRecord | undefined>;

  // Idempotency (spec section 8, DESIGN 9) -----------------------------------------------------------
  /** The one claim of a write: its hit, its key and its reads in one atomic step (see `WriteClaim`). */
  claimWrite(claim: WriteClaim): Promise<WriteClaimResult>;
  /** Stores the answer to replay (an answer no write carried: a refusal, a decline); owner only. */
  completeIdempotencyKey(ref: KeyAnswer): Promise<void>;
  /** Forgets an unfinished claim (answer not stored: validation error, 429, 5xx); owner only. */
  releaseIdempotencyKey(ref: IdempotencyKeyRef): Promise<void>;

  // Proposals (DESIGN 1, R-11) -------------------------------------------------------------------------
  insertProposal(proposal: ProposalRecord): Promise<void>;
  getProposal(proposalId: string): Promise<ProposalRecord | undefined>;
  /**
   * The newest proposal of this CPF and store that no live authorization uses (live = any record
   * but `EXPIRED` and but `AUTHORIZED` with `expiresAt <= now`).
   */
  findUnusedProposal(query: {
    clientTaxId: string;
    storeId: string;
    now: Date;
  }): Promise<ProposalRecord | undefined>;
  /** Every authorization that used the proposal, expired ones included, by `proposalUse` ascending. */
  listProposalUses(proposalId: string): Promise<AuthorizationRecord[]>;

  // Authorizations ---------------------------------------------------------------------------------------
  createAuthorization(input: CreateAuthorization): Promise<CreateAuthorizationResult>;
  getAuthorization(authorizationId: string): Promise<AuthorizationRecord | undefined>;
  /** The active authorization of this IMEI, if any, as of `now`. */
  findActiveByImei(query: { imei: string; now: Date }): Promise<AuthorizationRecord | undefined>;
  /** This client's authorizations of this CPF whose cancellation notice says `EXCHANGE`, newest issue first. */
  findExchangeNotices(query: { clientId: string; clientTaxId: string }): Promise<AuthorizationRecord[]>;
  updateAuthorization(input: UpdateAuthorization): Promise<UpdateAuthorizationResult>;
  /**
   * Cancellation notices still `PENDING` whose `nextAttemptAt <= now` (null: the verifier gave up, never
   * listed), oldest notice first. With `lease`,
   * only records no unexpired lease holds, which it then holds.
   */
  listPendingCancellations(query: {
    now: Date;
    limit: number;
    lease?: WorkerLease;
  }): Promise<AuthorizationRecord[]>;
  /**
   * Records without confirmation nor cancellation notice, status `AUTHORIZED` or `EXPIRED`, issued at or
   * after `issuedAfter`, oldest first: what the confirmation poller searches the partner POS for. With
   * `lease`, only records no unexpired lease holds, which it then holds.
   */
  listUnconfirmed(query: {
    issuedAfter: Date;
    limit: number;
    lease?: WorkerLease;
  }): Promise<AuthorizationRecord[]>;

  // Catalog snapshots of the daily sync, one per partner (opaque JSON to the store) -----------------------
  saveCatalogSnapshot(input: { partnerId: string; snapshot: JsonValue; syncedAt: Date }): Promise<void>;
  getCatalogSnapshot(partnerId: string): Promise<CatalogSnapshotRecord | undefined>;

  /**
   * Housekeeping (DESIGN 27, docs/operations.md's lifecycle table), in bounded batches: deletes tokens
   * past `retention.tokensMs` after expiry, idempotency records past `retentionMs` (after completion),
   * rate-limit windows that ended, ended holds, unused proposals no longer offered (approved more than
   * `unusedProposalsMs` plus `PROPOSAL_PURGE_MARGIN_MS` ago, used by no stored authorization), DELIVERED
   * and DEAD webhook events past their retentions (but an `authorization.expired` event while its
   * authorization is stored), and ended authorizations (`CANCELLED`: archived with contract and proposal;
   * `EXPIRED` never confirmed: deleted). It never removes an unexpired idempotency answer, an `AUTHORIZED`
   * or `CONFIRMED` authorization, a `PENDING` event, or a proposal still offered or used by a stored
   * authorization; and a purged event's `sequence` is never given again (numbering continues per
   * authorization). Custom stores implement the whole lifecycle (issue 37); `retention` absent
   * means `defaultRetention`.
   */
  purgeExpired(input: PurgeInput): Promise<PurgeReport | undefined>;
  /**
   * Optional readiness check: resolves when the store can serve now (PostgreSQL: `SELECT 1`), throws
   * (`StoreUnavailableError`) when it cannot. `service.health()` bounds the wait; a store without it is
   * always ready.
   */
  ping?(): Promise<void>;
  /** Releases connections and timers. */
  close(): Promise<void>;
}
