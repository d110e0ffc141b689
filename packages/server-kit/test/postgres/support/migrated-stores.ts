// Test helper: a real PostgreSQL for this file, a database migrated once as a template, and a fresh copy of it per store.
import type { Store } from '@fin/server-kit';
import { migrate, type PostgresStoreOptions, postgresStore } from '@fin/server-kit/postgres';
import { beforeAll } from 'vitest';
import { usePostgres } from '../../../../../test/support/postgres.js';
import type { PostgresVersion } from '../../../../../test/support/postgres-binaries.js';

/**
 * Call at the top of a test file: returns a factory of stores, each on its own copy (PostgreSQL makes it
 * in milliseconds), with `options` (e.g. `preparedStatements: false`) beside the connection, on PostgreSQL
 * `version` (see usePostgres).
 */
export function migratedStores(
  template: string,
  version: PostgresVersion = 'default',
): (options?: Omit<PostgresStoreOptions, 'connectionString' | 'pool'>) => Promise<Store> {
  const server = usePostgres(version);
  beforeAll(async () => {
    await migrate({ connectionString: await server.createDatabase({ name: template }) });
  });
  return async (options = {}) =>
    postgresStore({ ...options, connectionString: await server.createDatabase({ template }) });
}
