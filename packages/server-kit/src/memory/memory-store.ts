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
import { defaultRetention, PROPOSAL_PURGE_MARGIN_MS, type PurgeReport } from '../ports/retention.js';
import type {
  CatalogSnapshotRecord,
  CreateAuthorization,
  CreateAuthorizationResult,
  IdempotencyKeyRef,
  KeyAnswer,
  Store,
  UpdateAuthorization,
  UpdateAuthorizationResult,
  WriteClaim,
  WriteClaimResult,
} from '../ports/store.js';
import type { WorkerLease } from '../ports/worker-lease.js';
import { isAuthorizationExpired } from '../rules/r06-expiry.js';
import { holdsImei, IMEI_HOLDING_STATUSES } from '../rules/r10-imei.js';
import { retainedMs, sliceMs, slidingWindowHit, type WindowSlice } from '../rules/sliding-window.js';
import { memoryHolds } from './memory-holds.js';
import { memoryWebhookEvents } from './memory-webhook-events.js';
import { proposalAvailability } from './proposal-availability.js';

interface IdempotencyEntry {
  fingerprint: string;
  owner: string;
  claimedAt: number;
  leaseUntil: number;
  /**
   * The stored answer as JSON text: copied in and out like a record, but held as a string, not an object
   * tree (a service keeps one per write for the retention period). V8 keeps `JSON.stringify`'s output as
   * a rope of a few pieces until it is read; flattening it at once measured no difference (issue 38).
   */
  response?: string;
  completedAt?: number;
}

/** A key's admitted hits by slice, and when the last of them leaves the window (for the purge). */
interface Window {
  slices: WindowSlice[];
  end: number;
}

/** A purge report before anything was counted. */
const NOTHING_PURGED: PurgeReport = {
  tokens: 0,
  idempotencyKeys: 0,
  rateLimitWindows: 0,
  endedHolds: 0,
  webhookEvents: 0,
  expiredAuthorizations: 0,
  archivedAuthorizations: 0,
  proposals: 0,
};

/**
 * One authorization's cell. The indexes list slots, so a write replaces `record` without touching them,
 * and `uses` is the list of its proposal's slots (for availability), shared by every use.
 */
interface Slot {
  record: AuthorizationRecord;
  uses: Slot[];
}

const NO_SLOTS: readonly Slot[] = [];

/**
 * A Store for tests, demos and single-instance services. Every method does its work synchronously
 * before its promise settles, so no two operations interleave; values are copied in and out.
 */
export function memoryStore(): Store {
  const tokens = new Map<string, TokenRecord>();
  const idempotency = new Map<string, IdempotencyEntry>();
  const windows = new Map<string, Window>();
  const proposals = new Map<string, ProposalRecord>();
  const authorizations = new Map<string, Slot>();
  const byImei = new Map<string, Slot[]>();
  const byProposal = new Map<string, Slot[]>();
  const catalogs = new Map<string, CatalogSnapshotRecord>();
  const holds = memoryHolds();
  const archivedUses = new Set<string>(); // proposals with an archived (cancelled) use: they leave with the last

  const availability = proposalAvailability();
  // Composite map keys are joined, not templated: a template makes a cons string that the map keeps.
  const bucket = (clientTaxId: string, storeId: string) => [clientTaxId, storeId].join('\u0000');
  /** clientTaxId -> slots of records whose cancellation notice says EXCHANGE. */
  const exchangeNotices = new Map<string, Set<Slot>>();
  /** authorizationId -> end of the worker lease that holds it. */
  const leases = new Map<string, number>();

  /** The records of `slots` (a fresh array: callers sort and filter it). */
  const recordsIn = (slots: Iterable<Slot> | undefined): AuthorizationRecord[] => {
    const records: AuthorizationRecord[] = [];
    if (slots) for (const slot of slots) records.push(slot.record);
    return records;
  };
  const idempotencyKey = (ref: { clientId: string; key: string }) => [ref.clientId, ref.key].join('\u0000');

  /** Stores `EXPIRED` on overdue `AUTHORIZED` records but `keep`: the explicit status change the port asks for. */
  const expireOverdue = (slots: readonly Slot[], now: Date, keep: string) => {
    for (const slot of slots) {
      const record = slot.record;
      if (record.authorizationId === keep || !isAuthorizationExpired(record, now)) continue;
      const updatedAt = now.toISOString();
      write(slot, { ...record, status: 'EXPIRED', version: record.version + 1, updatedAt }, now);
    }
  };

  /**
   * The conflicts a record in `next`'s status would cause among the slots of its IMEI and of its
   * proposal, once overdue neighbours are expired.
   */
  const conflictOf = (
    next: AuthorizationRecord,
    imeiSlots: readonly Slot[],
    proposalSlots: readonly Slot[],
    now: Date,
  ): 'imei_already_financed' | 'proposal_use_taken' | undefined => {
    expireOverdue(imeiSlots, now, next.authorizationId);
    expireOverdue(proposalSlots, now, next.authorizationId);
    const other = ({ record }: Slot) => record.authorizationId !== next.authorizationId;
    if (
      IMEI_HOLDING_STATUSES.has(next.status) &&
      imeiSlots.some((slot) => other(slot) && IMEI_HOLDING_STATUSES.has(slot.record.status))
    ) {
      return 'imei_already_financed';
    }
    if (
      next.status !== 'EXPIRED' &&
      proposalSlots.some(
        (slot) =>
          other(slot) && slot.record.status !== 'EXPIRED' && slot.record.proposalUse === next.proposalUse,
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
  // Webhook events (issue 26): appended by updateAuthorization in the same synchronous block as the record.
  const webhookEvents = memoryWebhookEvents(() => recordsIn(authorizations.values()), leased);

  /** Until when the live uses of a proposal hold it (ms): for good once one is CONFIRMED or CANCELLED. */
  const heldUntil = (uses: readonly Slot[]): number => {
    let until = 0;
    for (const { record: use } of uses) {
      if (use.status === 'CONFIRMED' || use.status === 'CANCELLED') return Number.POSITIVE_INFINITY;
      if (use.status === 'AUTHORIZED') until = Math.max(until, Date.parse(use.expiresAt));
    }
    return until;
  };

  /** Stores `record` in its slot and keeps the derived indexes (proposal availability, EXCHANGE notices) true. */
  const write = (slot: Slot, record: AuthorizationRecord, now: Date) => {
    slot.record = record;
    const notices = exchangeNotices.get(record.clientTaxId);
    if (record.cancellation?.reason === 'EXCHANGE') {
      if (notices) notices.add(slot);
      else exchangeNotices.set(record.clientTaxId, new Set([slot]));
    } else {
      notices?.delete(slot);
    }
    availability.usedUntil(record.proposalId, heldUntil(slot.uses), now.getTime());
  };

  /** The slot list of `key` in an index, made on first use. */
  const listOf = (index: Map<string, Slot[]>, key: string, list: Slot[] | undefined): Slot[] => {
    if (list) return list;
    const made: Slot[] = [];
    index.set(key, made);
    return made;
  };

  // Synchronous, so a write's hit, claim and reads together are one atomic step too.
  const claimKey = (claim: WriteClaim): WriteClaimResult => {
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
        if (entry.response !== undefined)
          return { outcome: 'completed', response: JSON.parse(entry.response) as StoredResponse };
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
  };
  /** The unfinished entry `ref.owner` still holds, if it does. */
  const heldEntry = (ref: IdempotencyKeyRef): IdempotencyEntry | undefined => {
    const entry = idempotency.get(idempotencyKey(ref));
    return entry && entry.owner === ref.owner && entry.response === undefined ? entry : undefined;
  };
  const completeEntry = (entry: IdempotencyEntry, answer: KeyAnswer) => {
    entry.response = JSON.stringify(answer.response);
    entry.completedAt = answer.now.getTime();
  };

  const countHit = (hit: RateLimitHit): RateLimitDecision => {
    const { decision, slices } = slidingWindowHit(windows.get(hit.key)?.slices ?? [], hit);
    const newest = slices.at(-1)?.start ?? hit.now.getTime();
    windows.set(hit.key, { slices, end: newest + sliceMs(hit.windowMs) + retainedMs(hit.windowMs) });
    return decision;
  };

  const unusedProposal = (clientTaxId: string, storeId: string, now: Date) => {
    let newest: ProposalRecord | undefined;
    for (const proposalId of availability.freeAt(bucket(clientTaxId, storeId), now.getTime())) {
      const proposal = proposals.get(proposalId)!;
      if (!newest || proposal.approvedAt >= newest.approvedAt) newest = proposal;
    }
    return newest && copy(newest);
  };
  const activeByImei = (imei: string, now: Date) => {
    const active = byImei.get(imei)?.find(({ record }) => holdsImei(record, now));
    return active && copy(active.record);
  };
  const exchangeNoticesOf = (clientId: string, clientTaxId: string) =>
    recordsIn(exchangeNotices.get(clientTaxId))
      .filter((r) => r.clientId === clientId)
      .sort((a, b) => b.issuedAt.localeCompare(a.issuedAt))
      .map(copy);

  const forgetProposal = (proposalId: string) => {
    // Purged (LC-3), or archived with its last use (LC-2).
    proposals.delete(proposalId);
    availability.remove(proposalId);
    byProposal.delete(proposalId);
    archivedUses.delete(proposalId);
  };

  /** Ended authorizations past their cutoff leave (cancelled ones, archived in PostgreSQL, are forgotten here). */
  const forgetEnded = (cutoffs: { CANCELLED: string; EXPIRED: string }, now: Date) => {
    let [expired, archived] = [0, 0];
    for (const [id, slot] of authorizations) {
      const { record } = slot;
      if (record.status !== 'CANCELLED' && record.status !== 'EXPIRED') continue;
      if (record.updatedAt > cutoffs[record.status]) continue;
      authorizations.delete(id);
      leases.delete(id);
      webhookEvents.forget(id);
      exchangeNotices.get(record.clientTaxId)?.delete(slot);
      const imeiSlots = byImei.get(record.imei)?.filter((other) => other !== slot) ?? [];
      if (imeiSlots.length > 0) byImei.set(record.imei, imeiSlots);
      else byImei.delete(record.imei);
      const uses = slot.uses;
      uses.splice(uses.indexOf(slot), 1);
      if (record.status === 'CANCELLED') {
        archived += 1;
        archivedUses.add(record.proposalId);
      } else {
        expired += 1;
      }
      const archivedUse = archivedUses.has(record.proposalId);
      if (archivedUse && uses.length === 0) forgetProposal(record.proposalId);
      else {
        const until = archivedUse ? Number.POSITIVE_INFINITY : heldUntil(uses);
        availability.usedUntil(record.proposalId, until, now.getTime());
      }
    }
    return { expiredAuthorizations: expired, archivedAuthorizations: archived };
  };
  const forgetUnusedProposals = (cutoff: Date) => {
    // Proposals approved at or before `cutoff` that no stored authorization uses (LC-3).
    const before = cutoff.toISOString();
    let purged = 0;
    for (const [proposalId, proposal] of proposals) {
      if (proposal.approvedAt > before || (byProposal.get(proposalId)?.length ?? 0) > 0) continue;
      forgetProposal(proposalId);
      purged += 1;
    }
    return purged;
  };
  return {
    async saveToken(token) {
      tokens.set(token.tokenHash, copy(token));
    },
    async findToken(tokenHash) {
      const token = tokens.get(tokenHash);
      return token && copy(token);
    },

    async claimWrite(claim) {
      const limit = claim.hit && countHit(claim.hit);
      if (limit && !limit.allowed) return { outcome: 'rate_limited', limit };
      const claimed = claimKey(claim);
      const { reads, clientId, now } = claim;
      if (claimed.outcome !== 'claimed' || !reads) return claimed;
      // One synchronous block, like the claim: the reads see the state the claim saw.
      const found = {
        activeByImei: activeByImei(reads.imei, now),
        unusedProposal: unusedProposal(reads.clientTaxId, reads.storeId, now),
        exchangeNotices: exchangeNoticesOf(clientId, reads.clientTaxId),
      };
      return { outcome: 'claimed', found };
    },
    async completeIdempotencyKey(answer: KeyAnswer) {
      const entry = heldEntry(answer);
      if (entry) completeEntry(entry, answer);
    },
    async releaseIdempotencyKey(ref) {
      if (heldEntry(ref)) idempotency.delete(idempotencyKey(ref));
    },

    async consumeRateLimit(hit: RateLimitHit): Promise<RateLimitDecision> {
      return countHit(hit);
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
      return unusedProposal(clientTaxId, storeId, now);
    },
    async listProposalUses(proposalId) {
      return recordsIn(byProposal.get(proposalId))
        .sort((a, b) => a.proposalUse - b.proposalUse || a.issuedAt.localeCompare(b.issuedAt))
        .map(copy);
    },

    async createAuthorization({
      authorization,
      newProposal,
      answer,
      now,
    }: CreateAuthorization): Promise<CreateAuthorizationResult> {
      const held = answer && heldEntry(answer);
      if (answer && !held) return { ok: false, reason: 'claim_lost' };
      const record = { ...copy(authorization), version: 1 };
      const imeiSlots = byImei.get(record.imei);
      const proposalSlots = byProposal.get(record.proposalId);
      const conflict = conflictOf(record, imeiSlots ?? NO_SLOTS, proposalSlots ?? NO_SLOTS, now);
      if (conflict) return { ok: false, reason: conflict };
      if (newProposal && !proposals.has(newProposal.proposalId)) {
        proposals.set(newProposal.proposalId, copy(newProposal));
        availability.add(newProposal.proposalId, bucket(newProposal.clientTaxId, newProposal.storeId));
      }
      let slot = authorizations.get(record.authorizationId);
      if (!slot) {
        const uses = listOf(byProposal, record.proposalId, proposalSlots);
        slot = { record, uses };
        authorizations.set(record.authorizationId, slot);
        listOf(byImei, record.imei, imeiSlots).push(slot);
        uses.push(slot);
      }
      write(slot, record, now);
      if (held) completeEntry(held, answer!);
      return { ok: true };
    },
    async getAuthorization(authorizationId) {
      const slot = authorizations.get(authorizationId);
      return slot && copy(slot.record);
    },
    async findActiveByImei({ imei, now }) {
      return activeByImei(imei, now);
    },
    async findExchangeNotices({ clientId, clientTaxId }) {
      return exchangeNoticesOf(clientId, clientTaxId);
    },
    async updateAuthorization({
      record,
      expectedVersion,
      answer,
      now,
      events,
    }: UpdateAuthorization): Promise<UpdateAuthorizationResult> {
      const held = answer && heldEntry(answer);
      if (answer && !held) return { ok: false, reason: 'claim_lost' };
      const slot = authorizations.get(record.authorizationId);
      if (!slot || slot.record.version !== expectedVersion) return { ok: false, reason: 'stale' };
      if (!webhookEvents.acceptable(events)) return { ok: false, reason: 'stale' };
      const next = { ...copy(record), version: expectedVersion + 1 };
      const conflict = conflictOf(
        next,
        byImei.get(next.imei) ?? NO_SLOTS,
        byProposal.get(next.proposalId) ?? NO_SLOTS,
        now,
      );
      if (conflict) return { ok: false, reason: conflict };
      write(slot, next, now);
      webhookEvents.append(events);
      if (held) completeEntry(held, answer!);
      return { ok: true, record: copy(next) };
    },
    async listPendingCancellations({ now, limit, lease }) {
      const at = now.toISOString();
      const due = recordsIn(authorizations.values())
        .filter(
          (r) =>
            r.cancellation?.verification === 'PENDING' &&
            r.cancellation.nextAttemptAt !== null &&
            r.cancellation.nextAttemptAt <= at,
        )
        .sort((a, b) => a.cancellation!.noticedAt.localeCompare(b.cancellation!.noticedAt));
      return leased(due, limit, lease).map(copy);
    },
    async listUnconfirmed({ issuedAfter, limit, lease }) {
      const after = issuedAfter.toISOString();
      const unconfirmed = recordsIn(authorizations.values())
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

    async purgeExpired({ now, retentionMs, retention = defaultRetention }) {
      const at = now.getTime();
      const report = { ...NOTHING_PURGED };
      for (const [hash, token] of tokens) {
        if (Date.parse(token.expiresAt) + retention.tokensMs <= at) {
          tokens.delete(hash);
          report.tokens += 1;
        }
      }
      for (const [key, entry] of idempotency) {
        if ((entry.completedAt ?? entry.claimedAt) + retentionMs <= at) {
          idempotency.delete(key);
          report.idempotencyKeys += 1;
        }
      }
      for (const [key, window] of windows) {
        if (window.end <= at) {
          windows.delete(key);
          report.rateLimitWindows += 1;
        }
      }
      report.endedHolds = holds.purgeEnded(new Date(at - retention.endedHoldsMs));
      report.webhookEvents = webhookEvents.purge({
        deliveredBefore: new Date(at - retention.deliveredEventsMs),
        deadBefore: new Date(at - retention.deadEventsMs),
        stored: (authorizationId) => authorizations.has(authorizationId),
      });
      Object.assign(
        report,
        forgetEnded(
          {
            CANCELLED: new Date(at - retention.cancelledAuthorizationsMs).toISOString(),
            EXPIRED: new Date(at - retention.expiredAuthorizationsMs).toISOString(),
          },
          now,
        ),
      );
      report.proposals += forgetUnusedProposals(
        new Date(at - retention.unusedProposalsMs - PROPOSAL_PURGE_MARGIN_MS),
      );
      return report;
    },
    async ping() {},
    async close() {},
    // Stock holds (issue 30).
    ...holds.store,
    claimDueWebhookEvents: webhookEvents.claimDueWebhookEvents,
    recordWebhookAttempt: webhookEvents.recordWebhookAttempt,
    listWebhookEvents: webhookEvents.listWebhookEvents,
    replayWebhookEvents: webhookEvents.replayWebhookEvents,
    listExpiredWithoutEvent: webhookEvents.listExpiredWithoutEvent,
  };
}
