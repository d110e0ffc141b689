// The service's storage: memory by default, PostgreSQL (migrated first) when a connection string is given.
import type { Logger } from '@fin/core';
import { memoryStore, type Store } from '@fin/server-kit';
import { migrate, postgresStore } from '@fin/server-kit/postgres';

export type StoreKind = 'memory' | 'postgres';

/** Opens the store; with `databaseUrl`, applies the migrations first (safe on every start: they take a lock). */
export async function openStore(
  databaseUrl: string | undefined,
  logger?: Logger,
): Promise<{ store: Store; kind: StoreKind }> {
  if (!databaseUrl) return { store: memoryStore(), kind: 'memory' };
  await migrate({ connectionString: databaseUrl });
  return { store: postgresStore({ connectionString: databaseUrl, logger }), kind: 'postgres' };
}
