// The webhook event each state change writes with it (issue 26): pure functions of the record before and after.
import type {
  AuthorizationExpiredEvent,
  CancellationContradictedEvent,
  CancellationVerifiedEvent,
  ContractCreatedEvent,
} from '@fin/core';
import { newId } from '../ports/ids.js';
import type { AuthorizationRecord } from '../ports/records.js';
import type { NewWebhookEvent } from '../ports/webhook-events.js';

/** An event's `data` as the store keeps it: the store adds `sequence`. */
type Draft<E extends { data: { sequence: number } }> = Omit<E['data'], 'sequence'>;

const draft = (
  record: AuthorizationRecord,
  type: NewWebhookEvent['type'],
  now: Date,
  data: NewWebhookEvent['data'],
): NewWebhookEvent => ({
  eventId: newId('evt_'),
  type,
  clientId: record.clientId,
  authorizationId: record.authorizationId,
  ...(record.correlationId ? { correlationId: record.correlationId } : {}),
  occurredAt: now.toISOString(),
  data,
});

const common = (record: AuthorizationRecord, now: Date) => ({
  authorizationId: record.authorizationId,
  storeId: record.storeId,
  occurredAt: now.toISOString(),
});

/** `contract.created`: `next` was just confirmed, by the POS's `confirm` or from the partner's sale search. */
export function contractCreated(
  next: AuthorizationRecord,
  source: 'CONFIRM' | 'SALE_SEARCH',
  now: Date,
): NewWebhookEvent {
  const data: Draft<ContractCreatedEvent> = {
    ...common(next, now),
    status: 'CONFIRMED',
    contractId: next.contract!.contractId,
    principal: next.contract!.principal,
    source,
  };
  return draft(next, 'contract.created', now, data);
}

/**
 * The event of a verification's write (R-08 step 5): `cancellation.verified` or `.contradicted` when the
 * search settled the notice, none while it stays `PENDING`.
 */
export function cancellationSettled(
  previous: AuthorizationRecord,
  next: AuthorizationRecord,
  now: Date,
): NewWebhookEvent[] {
  const verification = next.cancellation?.verification;
  if (previous.cancellation?.verification !== 'PENDING' || verification === 'PENDING' || !verification) {
    return [];
  }
  const shared = {
    ...common(next, now),
    ...(next.contract ? { contractId: next.contract.contractId } : {}),
    reason: next.cancellation!.reason,
  };
  if (verification === 'VERIFIED') {
    const data: Draft<CancellationVerifiedEvent> = { ...shared, status: 'CANCELLED', verification };
    return [draft(next, 'cancellation.verified', now, data)];
  }
  const data: Draft<CancellationContradictedEvent> = { ...shared, status: next.status, verification };
  return [draft(next, 'cancellation.contradicted', now, data)];
}

/** `authorization.expired`: no confirmation can arrive any more (its grace ended), written with `EXPIRED`. */
export function authorizationExpired(next: AuthorizationRecord, now: Date): NewWebhookEvent {
  const data: Draft<AuthorizationExpiredEvent> = {
    ...common(next, now),
    status: 'EXPIRED',
    expiresAt: next.expiresAt,
  };
  return draft(next, 'authorization.expired', now, data);
}
