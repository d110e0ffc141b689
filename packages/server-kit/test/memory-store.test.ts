// Runs the Store conformance suite on memoryStore(), and checks how it copies JSON in and out.
import { memoryStore } from '@fin/server-kit';
import { describeHoldStoreConformance, describeStoreConformance } from '@fin/server-kit/testing';
import { describe, expect, it } from 'vitest';

describeStoreConformance('memoryStore()', () => memoryStore());
describeHoldStoreConformance('memoryStore()', () => memoryStore());

describe('memoryStore() copies', () => {
  it('keeps an own __proto__ key of stored JSON as data, and copies it out', async () => {
    const store = memoryStore();
    const snapshot = JSON.parse('{"stores":[{"__proto__":{"polluted":true},"storeId":"s1"}]}');
    await store.saveCatalogSnapshot({ partnerId: 'p', snapshot, syncedAt: new Date(0) });
    snapshot.stores[0].storeId = 'changed';
    const read = (await store.getCatalogSnapshot('p'))!.snapshot as { stores: Record<string, unknown>[] };
    expect(read.stores[0]!.storeId).toBe('s1');
    expect(Object.hasOwn(read.stores[0]!, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(read.stores[0]!)).toBe(Object.prototype);
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });
});
