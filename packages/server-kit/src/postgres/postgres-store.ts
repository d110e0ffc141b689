// postgresStore(): the Store port on PostgreSQL, for several service instances sharing one database.
import { type Clock, type Logger, systemClock } from '@fin/core';
import type { RateLimitDecision, RateLimitHit } from '../ports/rate-limiter.js';
import { defaultRetention } from '../ports/retention.js';
import type { IdempotencyKeyRef, KeyAnswer, Store, WriteClaim, WriteClaimResult } from '../ports/store.js';
import { isStoreUnavailable } from '../ports/store-unavailable.js';
import * as authorizations from './authorizations.js';
import * as catalog from './catalog-snapshots.js';
import { claimHeartbeats } from './claim-heartbeat.js';
import { openPool, type PostgresConnection } from './connection.js';
import * as idempotency from './idempotency-keys.js';
import * as proposals from './proposals.js';
import { purgeExpired } from './purge.js';
import { rateLimitFailure } from './rate-limit-failure.js';
import { consumeRateLimit } from './rate-limits.js';
import { roleTimeoutsCheck } from './role-timeouts.js';
import { query, sendUnnamed, sqlState } from './sql.js';
import { postgresHolds } from './stock-holds.js';
import { tokenCache } from './token-cache.js';
import * as tokens from './tokens.js';
import { postgresWebhookEvents } from './webhook-events.js';

export type PostgresStoreOptions = PostgresConnection & {
  /** Receives `postgres.*` entries (rate limiter failures, purge counts). */
  logger?: Logger;
  /**
   * What a request meets when the rate-limit counter cannot be written (its table or function fails; a
   * database that is unavailable altogether answers 503 instead): `'allow'` lets it through, `'deny'` answers
   * it 429 with `Retry-After: 1`; either way it is logged at error (`postgres.rate_limit_failed`) and counted
   * (`fin.rate_limiter.errors`). Given, it applies to every limit. Unset (default), the token endpoint's
   * failure budgets fail closed (`'deny'`) and the other limits open (`'allow'`), decision RDY-4.
   */
  onRateLimitError?: 'allow' | 'deny';
  /**
   * Named prepared statements (default `true`): each statement is parsed and planned once per
   * connection, not on every call. Turn off behind a pooler that does not keep them, such as
   * PgBouncer before 1.21 in transaction mode (1.21 and later: set `max_prepared_statements`).
   */
  preparedStatements?: boolean;
  /**
   * How long this instance trusts a token it has found (default 5000 ms; 0 asks the database every
   * time). Tokens never change once issued; the cache only spares the lookup's round trip.
   */
  tokenCacheMs?: number;
  /**
   * The clock of claim liveness (default: the system's): an unfinished idempotency claim whose holder's
   * heartbeat has not been heard for 4 s is taken for dead and may be taken over (DESIGN 20). Give every
   * instance the same one: they compare each other's heartbeats with it.
   */
  clock?: Clock;
};

/**
 * The Store on PostgreSQL (run `migrate()` or `fin-server-kit-migrate` first). Every invariant is a
 * constraint or a single atomic statement in the database, so any number of instances may share it.
 */
export function postgresStore(options: PostgresStoreOptions): Store {
  const { pool, timeouts, end } = openPool(options, 'fin-server-kit');
  if (options.preparedStatements === false) sendUnnamed(pool);
  const cachedTokens = tokenCache(options.tokenCacheMs);
  const logger = options.logger;
  const limiterFailed = rateLimitFailure(options.onRateLimitError, logger);
  const clock = options.clock ?? systemClock;
  const heartbeats = claimHeartbeats(pool, clock);
  /** Readiness: `SELECT 1`, or with `timeoutsFrom: 'role'` the check that the role's bounds are in force. */
  const boundsFromRole = 'timeoutsFrom' in options && options.timeoutsFrom === 'role';
  const ping = boundsFromRole
    ? roleTimeoutsCheck(pool, timeouts, logger)
    : async () => void (await query(pool, 'SELECT 1'));
  // Said at start, not at the first probe; a database still down is the probes' to report.
  if (boundsFromRole) ping().catch(() => {});
  /**
   * A write that stored its key's answer (or found the claim lost) ends the claim's heartbeat at once: left
   * to find the row completed on its next beat, it would cost one more statement per write.
   */
  const answered = <T extends { ok: boolean; reason?: string }>(
    answer: KeyAnswer | undefined,
    result: T,
  ): T => {
    if (answer && (result.ok || result.reason === 'claim_lost')) heartbeats.stop(answer);
    return result;
  };
  async function consumeWithFallback(hit: RateLimitHit): Promise<RateLimitDecision> {
    try {
      return await consumeRateLimit(pool, hit);
    } catch (error) {
      // A database that is down is the service's outage (503), not a limiter failure to work around.
      if (isStoreUnavailable(error)) throw error;
      return limiterFailed(hit, error);
    }
  }

  /** Ends this instance's hold on a claim: its heartbeat first, whether or not the row can be deleted. */
  async function releaseIdempotencyKey(ref: IdempotencyKeyRef): Promise<void> {
    heartbeats.stop(ref);
    await idempotency.releaseIdempotencyKey(pool, ref);
  }

  /**
   * The claim and its hit in one statement, or when that fails (not unavailable) the hit and the claim
   * apart. A claim granted without its reads (apart, or the row vanished meanwhile) reads them one by one;
   * a claim won either way starts its heartbeat. One whose reads failed is released before the error goes
   * up (its caller holds nothing); if the release fails too, no heartbeat keeps it past its liveness.
   */
  async function claimWrite(claim: WriteClaim): Promise<WriteClaimResult> {
    const result = await claimWithFallback(claim);
    if (result.outcome !== 'claimed') return result;
    heartbeats.start(claim);
    const { reads, clientId, now } = claim;
    if (!reads || result.found) return result;
    try {
      const [activeByImei, unusedProposal, exchangeNotices] = await Promise.all([
        authorizations.findActiveByImei(pool, reads.imei, now),
        proposals.findUnusedProposal(pool, reads.clientTaxId, reads.storeId, now),
        authorizations.findExchangeNotices(pool, clientId, reads.clientTaxId),
      ]);
      return { outcome: 'claimed', found: { activeByImei, unusedProposal, exchangeNotices } };
    } catch (error) {
      await releaseIdempotencyKey(claim).catch(() => {});
      throw error;
    }
  }

  async function claimWithFallback(claim: WriteClaim): Promise<WriteClaimResult> {
    const { hit } = claim;
    if (!hit) return idempotency.claimKey(pool, claim, clock.now());
    try {
      return await idempotency.claimWithinLimit(pool, { ...claim, hit }, clock.now());
    } catch (error) {
      if (isStoreUnavailable(error)) throw error;
      // Said, not hidden: a schema behind the code (migration 8 not run) or a deadlock with an instance of
      // the previous release during a rolling deploy (PERF-9) lands here on every write it touches.
      logger?.warn?.({ event: 'postgres.limited_claim_failed', code: sqlState(error) });
      // The statement changed nothing; apart, a failing limiter meets `onRateLimitError` as above.
      const limit = await consumeWithFallback(hit);
      if (!limit.allowed) return { outcome: 'rate_limited', limit };
      return idempotency.claimKey(pool, claim, clock.now());
    }
  }

  return {
    saveToken: (token) => tokens.saveToken(pool, token),
    findToken: (tokenHash) => cachedTokens.find(tokenHash, () => tokens.findToken(pool, tokenHash)),

    claimWrite,
    completeIdempotencyKey: async (ref) => {
      heartbeats.stop(ref);
      await idempotency.completeIdempotencyKey(pool, ref);
    },
    releaseIdempotencyKey,

    consumeRateLimit: consumeWithFallback,

    insertProposal: (proposal) => proposals.insertProposal(pool, proposal),
    getProposal: (proposalId) => proposals.getProposal(pool, proposalId),
    findUnusedProposal: ({ clientTaxId, storeId, now }) =>
      proposals.findUnusedProposal(pool, clientTaxId, storeId, now),
    listProposalUses: (proposalId) => authorizations.listProposalUses(pool, proposalId),

    createAuthorization: async (input) =>
      answered(input.answer, await authorizations.createAuthorization(pool, input)),
    getAuthorization: (authorizationId) => authorizations.getAuthorization(pool, authorizationId),
    findActiveByImei: ({ imei, now }) => authorizations.findActiveByImei(pool, imei, now),
    findExchangeNotices: ({ clientId, clientTaxId }) =>
      authorizations.findExchangeNotices(pool, clientId, clientTaxId),
    updateAuthorization: async (input) =>
      answered(input.answer, await authorizations.updateAuthorization(pool, input)),
    listPendingCancellations: ({ now, limit, lease }) =>
      authorizations.listPendingCancellations(pool, now, limit, lease),
    listUnconfirmed: ({ issuedAfter, limit, lease }) =>
      authorizations.listUnconfirmed(pool, issuedAfter, limit, lease),

    saveCatalogSnapshot: (input) => catalog.saveCatalogSnapshot(pool, input),
    getCatalogSnapshot: (partnerId) => catalog.getCatalogSnapshot(pool, partnerId),

    async purgeExpired({ now, retentionMs, retention = defaultRetention }) {
      cachedTokens.clear();
      const deleted = await purgeExpired(pool, now, retentionMs, retention);
      logger?.info?.({ event: 'postgres.purged', ...deleted });
      return deleted;
    },
    // Stock holds (issue 30).
    ...postgresHolds(pool),
    // Webhook events (issue 26): written by updateAuthorization, delivered through these.
    ...postgresWebhookEvents(pool),
    ping,
    close: () => {
      heartbeats.stopAll();
      return end();
    },
  };
}
