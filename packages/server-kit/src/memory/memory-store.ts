// memoryStore(): the Store port in process memory; each operation runs in one synchronous block, so it is atomic.

import { copyRecord as copy } from '../ports/copy-record.js';
import type { RateLimitDecision, RateLimitHit } from '../ports/rate-limiter.js';
import type {
  AuthorizationRecord,
  JsonValue,
  ProposalRecord,
  StoredResponse,
  TokenRecord,
} from '../ports/records.js';
import type {
  CatalogSnapshotRecord,
  CreateAuthorization,
  CreateAuthorizationResult,
  IdempotencyClaim,
  IdempotencyClaimResult,
  IdempotencyKeyRef,
  Store,
  UpdateAuthorization,
  UpdateAuthorizationResult,
  WorkerLease,
} from '../ports/store.js';
import { checkR06Expired } from '../rules/r06-expiry.js';
import { isR10Active, R10_ACTIVE_STATUSES } from '../rules/r10-imei.js';
import { proposalAvailability } from './proposal-availability.js';

interface IdempotencyEntry {
  fingerprint: string;
  owner: string;
  claimedAt: number;
  leaseUntil: number;
  response?: StoredResponse;
  completedAt?: number;
}

interface Window {
  start: number;
  end: number;
  count: number;
}

const DAY_MS = 86_400_000;

/**
 * A Store for tests, demos and single-instance services. Every method does its work synchronously
 * before its promise settles, so no two operations interleave; values are copied in and out.
 */
export function memoryStore(): Store {
  const tokens = new Map<string, TokenRecord>();
  const idempotency = new Map<string, IdempotencyEntry>();
  const windows = new Map<string, Window>();
  const proposals = new Map<string, ProposalRecord>();
  const authorizations = new Map<string, AuthorizationRecord>();
  const byImei = new Map<string, Set<string>>();
  const byProposal = new Map<string, Set<string>>();
  const catalogs = new Map<string, CatalogSnapshotRecord>();
  const availability = proposalAvailability();
  // Composite map keys are joined, not templated: a template makes a cons string that the map keeps.
  const bucket = (clientTaxId: string, storeId: string) => [clientTaxId, storeId].join('\u0000');
  /** clientTaxId -> ids of records whose cancellation notice says EXCHANGE. */
  const exchangeNotices = new Map<string, Set<string>>();
  /** authorizationId -> end of the worker lease that holds it. */
  const leases = new Map<string, number>();

  const index = (map: Map<string, Set<string>>, key: string, id: string) => {
    const ids = map.get(key);
    if (ids) ids.add(id);
    else map.set(key, new Set<string>().add(id));
  };
  /** The records an index lists under `key` (a fresh array: callers sort and filter it). */
  const recordsOf = (map: Map<string, Set<string>>, key: string): AuthorizationRecord[] => {
    const records: AuthorizationRecord[] = [];
    const ids = map.get(key);
    if (ids) for (const id of ids) records.push(authorizations.get(id)!);
    return records;
  };
  const idempotencyKey = (ref: { clientId: string; key: string }) => [ref.clientId, ref.key].join('\u0000');

  /** Stores `EXPIRED` on overdue `AUTHORIZED` records but `keep`: the explicit status change the port asks for. */
  const expireOverdue = (records: AuthorizationRecord[], now: Date, keep: string) => {
    for (const record of records) {
      if (record.authorizationId === keep || !checkR06Expired(record, now)) continue;
      write({ ...record, status: 'EXPIRED', version: record.version + 1, updatedAt: now.toISOString() }, now);
    }
  };

  /** The conflicts a record in `next`'s status would cause, once overdue neighbours are expired. */
  const conflictOf = (
    next: AuthorizationRecord,
    now: Date,
  ): 'imei_already_financed' | 'proposal_use_taken' | undefined => {
    expireOverdue(recordsOf(byImei, next.imei), now, next.authorizationId);
    expireOverdue(recordsOf(byProposal, next.proposalId), now, next.authorizationId);
    const others = (records: AuthorizationRecord[]) =>
      records.filter((r) => r.authorizationId !== next.authorizationId);
    if (
      R10_ACTIVE_STATUSES.has(next.status) &&
      others(recordsOf(byImei, next.imei)).some((r) => R10_ACTIVE_STATUSES.has(r.status))
    ) {
      return 'imei_already_financed';
    }
    if (
      next.status !== 'EXPIRED' &&
      others(recordsOf(byProposal, next.proposalId)).some(
        (r) => r.status !== 'EXPIRED' && r.proposalUse === next.proposalUse,
      )
    ) {
      return 'proposal_use_taken';
    }
    return undefined;
  };

  /** Without a lease, every record; with one, those no unexpired lease holds, which it then holds. */
  const leased = (records: AuthorizationRecord[], limit: number, lease: WorkerLease | undefined) => {
    if (!lease) return records.slice(0, limit);
    const free = records.filter((r) => (leases.get(r.authorizationId) ?? 0) <= lease.now.getTime());
    const taken = free.slice(0, limit);
    for (const r of taken) leases.set(r.authorizationId, lease.until.getTime());
    return taken;
  };

  /** Until when the live uses of `proposalId` hold it (ms): for good once one is CONFIRMED or CANCELLED. */
  const heldUntil = (proposalId: string): number =>
    recordsOf(byProposal, proposalId).reduce((until, use) => {
      if (use.status === 'CONFIRMED' || use.status === 'CANCELLED') return Number.POSITIVE_INFINITY;
      return use.status === 'AUTHORIZED' ? Math.max(until, Date.parse(use.expiresAt)) : until;
    }, 0);

  /** Stores `record` and keeps the derived indexes (proposal availability, EXCHANGE notices) true. */
  const write = (record: AuthorizationRecord, now: Date) => {
    authorizations.set(record.authorizationId, record);
    const notices = exchangeNotices.get(record.clientTaxId);
    if (record.cancellation?.reason === 'EXCHANGE')
      index(exchangeNotices, record.clientTaxId, record.authorizationId);
    else notices?.delete(record.authorizationId);
    availability.usedUntil(record.proposalId, heldUntil(record.proposalId), now.getTime());
  };

  return {
    async saveToken(token) {
      tokens.set(token.tokenHash, copy(token));
    },
    async findToken(tokenHash) {
      const token = tokens.get(tokenHash);
      return token && copy(token);
    },

    async claimIdempotencyKey(claim: IdempotencyClaim): Promise<IdempotencyClaimResult> {
      const key = idempotencyKey(claim);
      const now = claim.now.getTime();
      const entry = idempotency.get(key);
      if (entry) {
        const stale =
          entry.completedAt === undefined
            ? entry.leaseUntil <= now
            : entry.completedAt + claim.retentionMs <= now;
        if (!stale) {
          if (entry.fingerprint !== claim.fingerprint) return { outcome: 'conflict' };
          if (entry.response) return { outcome: 'completed', response: copy(entry.response) };
          return { outcome: 'in_progress' };
        }
      }
      idempotency.set(key, {
        fingerprint: claim.fingerprint,
        owner: claim.owner,
        claimedAt: now,
        leaseUntil: now + claim.leaseMs,
      });
      return { outcome: 'claimed' };
    },
    async completeIdempotencyKey(ref: IdempotencyKeyRef & { response: StoredResponse; now: Date }) {
      const entry = idempotency.get(idempotencyKey(ref));
      if (!entry || entry.owner !== ref.owner || entry.response) return;
      entry.response = copy(ref.response);
      entry.completedAt = ref.now.getTime();
    },
    async releaseIdempotencyKey(ref) {
      const key = idempotencyKey(ref);
      const entry = idempotency.get(key);
      if (entry && entry.owner === ref.owner && !entry.response) idempotency.delete(key);
    },

    async consumeRateLimit(hit: RateLimitHit): Promise<RateLimitDecision> {
      const now = hit.now.getTime();
      const start = now - (now % hit.windowMs);
      let window = windows.get(hit.key);
      if (!window || window.start !== start) {
        window = { start, end: start + hit.windowMs, count: 0 };
        windows.set(hit.key, window);
      }
      window.count += 1;
      return {
        allowed: window.count <= hit.limit,
        remaining: Math.max(0, hit.limit - window.count),
        resetAt: new Date(window.end),
      };
    },

    async insertProposal(proposal) {
      if (proposals.has(proposal.proposalId)) return;
      proposals.set(proposal.proposalId, copy(proposal));
      availability.add(proposal.proposalId, bucket(proposal.clientTaxId, proposal.storeId));
    },
    async getProposal(proposalId) {
      const proposal = proposals.get(proposalId);
      return proposal && copy(proposal);
    },
    async findUnusedProposal({ clientTaxId, storeId, now }) {
      let newest: ProposalRecord | undefined;
      for (const proposalId of availability.freeAt(bucket(clientTaxId, storeId), now.getTime())) {
        const proposal = proposals.get(proposalId)!;
        if (!newest || proposal.approvedAt >= newest.approvedAt) newest = proposal;
      }
      return newest && copy(newest);
    },
    async listProposalUses(proposalId) {
      return recordsOf(byProposal, proposalId)
        .sort((a, b) => a.proposalUse - b.proposalUse || a.issuedAt.localeCompare(b.issuedAt))
        .map(copy);
    },

    async createAuthorization({
      authorization,
      newProposal,
      now,
    }: CreateAuthorization): Promise<CreateAuthorizationResult> {
      const record = { ...copy(authorization), version: 1 };
      const conflict = conflictOf(record, now);
      if (conflict) return { ok: false, reason: conflict };
      if (newProposal && !proposals.has(newProposal.proposalId)) {
        proposals.set(newProposal.proposalId, copy(newProposal));
        availability.add(newProposal.proposalId, bucket(newProposal.clientTaxId, newProposal.storeId));
      }
      index(byImei, record.imei, record.authorizationId);
      index(byProposal, record.proposalId, record.authorizationId);
      write(record, now);
      return { ok: true };
    },
    async getAuthorization(authorizationId) {
      const record = authorizations.get(authorizationId);
      return record && copy(record);
    },
    async findActiveByImei({ imei, now }) {
      const active = recordsOf(byImei, imei).find((r) => isR10Active(r, now));
      return active && copy(active);
    },
    async findExchangeNotices({ clientId, clientTaxId }) {
      return recordsOf(exchangeNotices, clientTaxId)
        .filter((r) => r.clientId === clientId)
        .sort((a, b) => b.issuedAt.localeCompare(a.issuedAt))
        .map(copy);
    },
    async updateAuthorization({
      record,
      expectedVersion,
      now,
    }: UpdateAuthorization): Promise<UpdateAuthorizationResult> {
      const current = authorizations.get(record.authorizationId);
      if (!current || current.version !== expectedVersion) return { ok: false, reason: 'stale' };
      const next = { ...copy(record), version: expectedVersion + 1 };
      const conflict = conflictOf(next, now);
      if (conflict) return { ok: false, reason: conflict };
      write(next, now);
      return { ok: true, record: copy(next) };
    },
    async listPendingCancellations({ now, limit, lease }) {
      const at = now.toISOString();
      const due = [...authorizations.values()]
        .filter(
          (r) =>
            r.cancellation?.verification === 'PENDING' &&
            (r.cancellation.nextAttemptAt === null || r.cancellation.nextAttemptAt <= at),
        )
        .sort((a, b) => a.cancellation!.noticedAt.localeCompare(b.cancellation!.noticedAt));
      return leased(due, limit, lease).map(copy);
    },
    async listUnconfirmed({ issuedAfter, limit, lease }) {
      const after = issuedAfter.toISOString();
      const unconfirmed = [...authorizations.values()]
        .filter(
          (r) =>
            (r.status === 'AUTHORIZED' || r.status === 'EXPIRED') &&
            r.confirmation === null &&
            r.cancellation === null &&
            r.issuedAt >= after,
        )
        .sort((a, b) => a.issuedAt.localeCompare(b.issuedAt));
      return leased(unconfirmed, limit, lease).map(copy);
    },

    async saveCatalogSnapshot({ partnerId, snapshot, syncedAt }) {
      catalogs.set(partnerId, { snapshot: copy(snapshot) as JsonValue, syncedAt: syncedAt.toISOString() });
    },
    async getCatalogSnapshot(partnerId) {
      const snapshot = catalogs.get(partnerId);
      return snapshot && copy(snapshot);
    },

    async purgeExpired({ now, retentionMs }) {
      const at = now.getTime();
      for (const [hash, token] of tokens) {
        if (Date.parse(token.expiresAt) + DAY_MS <= at) tokens.delete(hash);
      }
      for (const [key, entry] of idempotency) {
        if ((entry.completedAt ?? entry.claimedAt) + retentionMs <= at) idempotency.delete(key);
      }
      for (const [key, window] of windows) {
        if (window.end <= at) windows.delete(key);
      }
    },
    async close() {},
  };
}
