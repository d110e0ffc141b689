// The webhook part of memoryStore(): event rows and their delivery state, each operation one synchronous block.
import { copyRecord as copy } from '../ports/copy-record.js';
import type { AuthorizationRecord } from '../ports/records.js';
import {
  listLimit,
  type NewWebhookEvent,
  type WebhookEventRecord,
  type WebhookEventStore,
} from '../ports/webhook-events.js';
import type { WorkerLease } from '../ports/worker-lease.js';

const dueFirst = (a: Leased, b: Leased) => a.event.nextAttemptAt!.localeCompare(b.event.nextAttemptAt!);

/**
 * Due rows (oldest first) dealt out in turns: every partner's oldest, then every partner's second... so a claim
 * takes a fair share per partner (WF-1), as the PostgreSQL store's `row_number() OVER (PARTITION BY client_id)`.
 */
function fairShare(due: Leased[]): Leased[] {
  const turns = new Map<string, number>();
  const dealt = due.map((row) => {
    const turn = turns.get(row.event.clientId) ?? 0;
    turns.set(row.event.clientId, turn + 1);
    return { row, turn };
  });
  return dealt.sort((a, b) => a.turn - b.turn || dueFirst(a.row, b.row)).map(({ row }) => row);
}

/** Types an authorization has at most once (docs/spec-decisions.md WD-2). */
const ONCE_PER_AUTHORIZATION = new Set(['contract.created', 'authorization.expired']);

interface Leased {
  event: WebhookEventRecord;
  leaseOwner?: string;
  leaseUntil: number;
}

export interface MemoryWebhookEvents extends WebhookEventStore {
  /** Whether `events` may be appended to their authorizations (the once-only types); call before writing. */
  acceptable(events: readonly NewWebhookEvent[] | undefined): boolean;
  /** Appends `events` (numbered per authorization): call in the same synchronous block as the record's write. */
  append(events: readonly NewWebhookEvent[] | undefined): void;
  /**
   * Deletes DELIVERED events delivered at or before `deliveredBefore` and DEAD events that occurred at or
   * before `deadBefore`, but an `authorization.expired` event while `stored(authorizationId)`; returns how many.
   */
  purge(input: {
    deliveredBefore: Date;
    deadBefore: Date;
    stored: (authorizationId: string) => boolean;
  }): number;
  /** The authorization left the store: it emits no more events, so its numbering is forgotten. */
  forget(authorizationId: string): void;
}

/** What an authorization has emitted, kept while it is stored: purged events never give their number again. */
interface Emitted {
  last: number;
  types: Set<string>;
}

/**
 * `records()` lists the store's authorizations and `leased` applies its worker leases to a listing, so the
 * expiry worker's query shares the other listings' leases.
 */
export function memoryWebhookEvents(
  records: () => AuthorizationRecord[],
  leased: (
    records: AuthorizationRecord[],
    limit: number,
    lease: WorkerLease | undefined,
  ) => AuthorizationRecord[],
): MemoryWebhookEvents {
  const rows: Leased[] = [];
  const byAuthorization = new Map<string, Leased[]>();
  const byId = new Map<string, Leased>();
  const emitted = new Map<string, Emitted>();
  const has = (authorizationId: string, type: string) =>
    emitted.get(authorizationId)?.types.has(type) === true;

  return {
    acceptable(events) {
      for (const event of events ?? []) {
        if (ONCE_PER_AUTHORIZATION.has(event.type) && has(event.authorizationId, event.type)) return false;
      }
      return true;
    },
    append(events) {
      for (const event of events ?? []) {
        const list = byAuthorization.get(event.authorizationId) ?? [];
        const numbering = emitted.get(event.authorizationId) ?? { last: 0, types: new Set<string>() };
        numbering.last += 1;
        numbering.types.add(event.type);
        emitted.set(event.authorizationId, numbering);
        const row: Leased = {
          event: {
            ...copy(event),
            sequence: numbering.last,
            status: 'PENDING',
            attempts: 0,
            nextAttemptAt: event.occurredAt,
            deliveredTo: [],
            deliveredAt: null,
          },
          leaseUntil: 0,
        };
        list.push(row);
        byAuthorization.set(event.authorizationId, list);
        byId.set(event.eventId, row);
        rows.push(row);
      }
    },
    purge({ deliveredBefore, deadBefore, stored }) {
      const [delivered, dead] = [deliveredBefore.toISOString(), deadBefore.toISOString()];
      const gone = (row: Leased) => {
        const { event } = row;
        if (event.type === 'authorization.expired' && stored(event.authorizationId)) return false;
        if (event.status === 'DELIVERED') return event.deliveredAt !== null && event.deliveredAt <= delivered;
        return event.status === 'DEAD' && event.occurredAt <= dead;
      };
      const purged: Leased[] = [];
      let kept = 0;
      for (const row of rows) {
        if (gone(row)) purged.push(row);
        else rows[kept++] = row;
      }
      rows.length = kept;
      for (const row of purged) {
        byId.delete(row.event.eventId);
        const list = byAuthorization.get(row.event.authorizationId)!.filter((other) => other !== row);
        if (list.length > 0) byAuthorization.set(row.event.authorizationId, list);
        else byAuthorization.delete(row.event.authorizationId);
      }
      return purged.length;
    },
    forget(authorizationId) {
      emitted.delete(authorizationId);
    },
    async claimDueWebhookEvents({ now, limit, lease }) {
      const at = now.getTime();
      const blocked = (row: Leased) =>
        byAuthorization
          .get(row.event.authorizationId)!
          .some((other) => other.event.sequence < row.event.sequence && other.event.status === 'PENDING');
      const due = fairShare(
        rows
          .filter(
            (row) =>
              row.event.status === 'PENDING' &&
              Date.parse(row.event.nextAttemptAt!) <= at &&
              row.leaseUntil <= at &&
              !blocked(row),
          )
          .sort(dueFirst),
      ).slice(0, limit);
      for (const row of due) {
        row.leaseOwner = lease.owner;
        row.leaseUntil = lease.until.getTime();
      }
      return due.map((row) => copy(row.event));
    },
    async recordWebhookAttempt(attempt) {
      const row = byId.get(attempt.eventId);
      if (!row || row.leaseOwner !== attempt.owner) return false;
      row.event = {
        ...row.event,
        status: attempt.status,
        attempts: attempt.attempts,
        nextAttemptAt: attempt.nextAttemptAt?.toISOString() ?? null,
        deliveredTo: [...attempt.deliveredTo],
        deliveredAt: attempt.status === 'DELIVERED' ? attempt.now.toISOString() : null,
        ...(attempt.lastOutcome ? { lastOutcome: attempt.lastOutcome } : {}),
      };
      if (!attempt.lastOutcome) delete row.event.lastOutcome;
      row.leaseOwner = undefined;
      row.leaseUntil = 0;
      return true;
    },
    async listWebhookEvents(query) {
      return rows
        .filter(
          ({ event }) =>
            (query.clientId === undefined || event.clientId === query.clientId) &&
            (query.authorizationId === undefined || event.authorizationId === query.authorizationId) &&
            (query.status === undefined || event.status === query.status),
        )
        .slice(0, listLimit(query.limit))
        .map((row) => copy(row.event));
    },
    async replayWebhookEvents({ eventIds, authorizationId, clientId, now }) {
      const chosen = eventIds
        ? eventIds.map((id) => byId.get(id)).filter((row) => row !== undefined)
        : authorizationId !== undefined
          ? (byAuthorization.get(authorizationId) ?? [])
          : rows.filter((row) => row.event.status === 'DEAD' && row.event.clientId === clientId);
      for (const row of chosen) {
        const { lastOutcome: _last, ...event } = row.event;
        row.event = {
          ...event,
          status: 'PENDING',
          attempts: 0,
          nextAttemptAt: now.toISOString(),
          deliveredTo: [],
          deliveredAt: null,
        };
        row.leaseOwner = undefined;
        row.leaseUntil = 0;
      }
      return chosen.length;
    },
    async listExpiredWithoutEvent({ expiredBefore, expiredAfter, limit, lease }) {
      const [from, to] = [expiredAfter.toISOString(), expiredBefore.toISOString()];
      const expiring = records()
        .filter(
          (r) =>
            (r.status === 'AUTHORIZED' || r.status === 'EXPIRED') &&
            r.confirmation === null &&
            r.expiresAt >= from &&
            r.expiresAt < to &&
            !has(r.authorizationId, 'authorization.expired'),
        )
        .sort((a, b) => a.expiresAt.localeCompare(b.expiresAt));
      return leased(expiring, limit, lease).map(copy);
    },
  };
}
