// Test helper for the webhook property: a store that records each successful write, fails on demand, and the events each write owes.
import { type Store, StoreUnavailableError } from '@fin/server-kit';
import type { AuthorizationRecord, UpdateAuthorization } from '@fin/server-kit/store';

export interface Write {
  previous: AuthorizationRecord;
  next: AuthorizationRecord;
}

/** Fields an expiry worker's write leaves alone: what differs from a plain `EXPIRED` stamp. */
const stampOnly = (previous: AuthorizationRecord, next: AuthorizationRecord) => {
  const strip = ({ status: _s, updatedAt: _u, version: _v, ...rest }: AuthorizationRecord) => rest;
  return JSON.stringify(strip(previous)) === JSON.stringify(strip(next));
};

/**
 * The event types a write owes, derived from the records alone (not from what the use case passed): a new
 * contract, a notice settled by the sale search, an EXPIRED stamp changing nothing else (the expiry worker).
 */
export function owedEvents({ previous, next }: Write): string[] {
  const owed: string[] = [];
  if (!previous.contract && next.contract) owed.push('contract.created');
  if (previous.cancellation?.verification === 'PENDING') {
    if (next.cancellation?.verification === 'VERIFIED') owed.push('cancellation.verified');
    if (next.cancellation?.verification === 'CONTRADICTED') owed.push('cancellation.contradicted');
  }
  if (next.status === 'EXPIRED' && stampOnly(previous, next)) owed.push('authorization.expired');
  return owed;
}

/**
 * `inner` with every successful `updateAuthorization` journaled (record before and after), and one-shot
 * faults on the next write (`createAuthorization` or `updateAuthorization`): `before` it runs (nothing
 * written) or `after` it committed (the caller never hears): StoreUnavailableError either way.
 */
export function journaledStore(inner: Store) {
  const writes: Write[] = [];
  let armed: 'before' | 'after' | undefined;
  const faulty = async <T>(work: () => Promise<T>): Promise<T> => {
    const fault = armed;
    armed = undefined;
    if (fault === 'before') throw new StoreUnavailableError('injected before the write');
    const result = await work();
    if (fault === 'after') throw new StoreUnavailableError('injected after the write');
    return result;
  };
  const store = new Proxy(inner, {
    get(target, property, receiver) {
      if (property === 'updateAuthorization') {
        return (input: UpdateAuthorization) =>
          faulty(async () => {
            const previous = await target.getAuthorization(input.record.authorizationId);
            const result = await target.updateAuthorization(input);
            if (result.ok && previous) writes.push({ previous, next: result.record });
            return result;
          });
      }
      if (property === 'createAuthorization') {
        return (input: Parameters<Store['createAuthorization']>[0]) =>
          faulty(() => target.createAuthorization(input));
      }
      const value = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return {
    store,
    writes,
    /** Arms (or, with `undefined`, disarms) a fault on the next write. */
    arm(fault: 'before' | 'after' | undefined) {
      armed = fault;
    },
  };
}

/** A small seeded generator (mulberry32): the receiver's random failures replay with the property's seed. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
