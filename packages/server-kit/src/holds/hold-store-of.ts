// The store's stock-hold operations, or a TypeError naming what a store written before issue 30 lacks.
import type { HoldStore } from '../ports/hold-store.js';
import type { Store } from '../ports/store.js';

/** Whether the store keeps stock holds (`memoryStore()` and `postgresStore()` do). */
export function keepsHolds(store: Store): store is Store & HoldStore {
  return (
    typeof store.insertHold === 'function' &&
    typeof store.getHold === 'function' &&
    typeof store.updateHold === 'function' &&
    typeof store.listDueHolds === 'function'
  );
}

/** The store as a HoldStore; throws when it lacks the operations (HOLD-9). */
export function holdStoreOf(store: Store): HoldStore {
  if (!keepsHolds(store)) {
    throw new TypeError(
      '@fin/server-kit: this Store keeps no stock holds (insertHold, getHold, updateHold, listDueHolds)',
    );
  }
  return store;
}
